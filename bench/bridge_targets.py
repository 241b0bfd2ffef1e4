"""The bridge's performance targets, each judged from figures measured in one run.

``bench_bridge.py`` gathers the figures; :func:`judge` turns them into the table of targets
(every ratio between two routes measured in the same run, in alternating blocks), and
:func:`print_table` prints it with a pass or fail per row. The floors (rows without a target)
say what the closest relay of another kind costs, measured in the same run too.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

Data = dict[str, dict[str, list[float]]]
med = statistics.median


@dataclass
class Row:
    measure: str
    value: float | None
    """None: not measured in this run (the route it needs is missing)."""
    unit: str
    target: float | None
    """The most the value may be; None for a floor, shown for comparison."""
    detail: str = ""

    @property
    def passed(self) -> bool | None:
        if self.target is None or self.value is None:
            return None
        return self.value <= self.target


def _ratio(a: Data, ra: str, b: Data, rb: str, what: str) -> tuple[float | None, str]:
    if ra not in a or rb not in b or not a[ra][what] or not b[rb][what]:
        return None, "route missing"
    x, y = med(a[ra][what]), med(b[rb][what])
    scale, unit = (1e6, "us") if max(x, y) < 2e-3 else (1e3, "ms")
    return (
        x / y,
        f"{x * scale:.{0 if unit == 'us' else 2}f} vs {y * scale:.{0 if unit == 'us' else 2}f} {unit}",
    )


def judge(
    echo: Data,
    sdk: Data,
    host: Data,
    *,
    roots_inside: list[float],
    rss_mib: float,
    pct: Callable[[list[float], float], float],
) -> list[Row]:
    """The rows of the table from one run's figures.

    *echo*: the trivial echo server along direct, hop, c-hop, bridge; *sdk*: the SDK echo
    server along direct and bridge; *host*: the SDK as host, ``tools/call`` ``small`` and
    ``big`` (256 KiB) along direct, bridge and fastmcp; *roots_inside*: seconds each
    ``roots/list`` answer took inside the bridge.
    """
    rows = []
    data = {"echo": echo, "sdk": sdk, "host": host}
    for measure, (a, ra), (b, rb), what, target in RATIOS[:4] + CONFINED + RATIOS[4:9]:
        value, detail = _ratio(data[a], ra, data[b], rb, what)
        rows.append(Row(measure, value, "x", target, detail))
    p99 = pct(roots_inside, 99) * 1e6 if roots_inside else None
    p50 = med(roots_inside) * 1e6 if roots_inside else 0.0
    rows.append(
        Row("roots/list answered inside the bridge, p99", p99, "us", 500, f"p50 {p50:.0f} us")
    )
    rows.append(Row("bridge peak RSS after 1 MiB messages", rss_mib, "MiB", 30))
    for measure, (a, ra), (b, rb), what, target in RATIOS[9:]:
        value, detail = _ratio(data[a], ra, data[b], rb, what)
        rows.append(Row(measure, value, "x", target, detail))
    return rows


CONFINED_ROUTES = {"confined": "confined", "confined-fixed": "confined, no restart on revoke"}
"""The bridge in front of a server confined as a new server is (restart on revoke on, a new
server's default), and the same with restart on revoke off."""

CONFINED: list[tuple[str, tuple[str, str], tuple[str, str], str, float | None]] = [
    (f"{what}, {title} / C hop", ("echo", route), ("echo", "c-hop"), key, target)
    for route, title in CONFINED_ROUTES.items()
    for what, key, target in (
        ("small round trip", "small", 1.10),
        ("1 MiB round trip", "big", 1.05),
        ("CPU per small round trip", "cpu", 1.3),
    )
]

RATIOS: list[tuple[str, tuple[str, str], tuple[str, str], str, float | None]] = [
    # (measure, (figures, route), (figures, route) it is divided by, what, target)
    ("small round trip, bridge / C hop", ("echo", "bridge"), ("echo", "c-hop"), "small", 1.10),
    ("1 MiB round trip, bridge / C hop", ("echo", "bridge"), ("echo", "c-hop"), "big", 1.05),
    ("CPU per small round trip, bridge / C hop", ("echo", "bridge"), ("echo", "c-hop"), "cpu", 1.3),
    (
        "CPU per 1 MiB round trip, bridge / C hop",
        ("echo", "bridge"),
        ("echo", "c-hop"),
        "cpu_big",
        1.3,
    ),
    (
        "SDK echo server, small, bridge / direct",
        ("sdk", "bridge"),
        ("sdk", "direct"),
        "small",
        1.05,
    ),
    (
        "SDK host, small call, bridge / FastMCP proxy",
        ("host", "bridge"),
        ("host", "fastmcp"),
        "small",
        0.3,
    ),
    (
        "SDK host, 256 KiB call, bridge / FastMCP proxy",
        ("host", "bridge"),
        ("host", "fastmcp"),
        "big",
        0.35,
    ),
    (
        "SDK host, small call, bridge / direct",
        ("host", "bridge"),
        ("host", "direct"),
        "small",
        1.05,
    ),
    (
        "SDK host, 256 KiB call, bridge / direct",
        ("host", "bridge"),
        ("host", "direct"),
        "big",
        1.05,
    ),
    # the floors: what a relay of another kind costs, in the same run
    (
        "floor: 1 MiB round trip, C hop holding the server's lines whole / C hop",
        ("echo", "c-hold"),
        ("echo", "c-hop"),
        "big",
        None,
    ),
    (
        "floor: SDK echo server, small, C hop / direct",
        ("sdk", "c-hop"),
        ("sdk", "direct"),
        "small",
        None,
    ),
    (
        "floor: SDK host, 256 KiB call, C hop / direct",
        ("host", "c-hop"),
        ("host", "direct"),
        "big",
        None,
    ),
    (
        "floor: SDK host, 256 KiB call, C hop holding the server's lines whole / direct",
        ("host", "c-hold"),
        ("host", "direct"),
        "big",
        None,
    ),
    (
        "floor: SDK host, small call, direct / FastMCP proxy",
        ("host", "direct"),
        ("host", "fastmcp"),
        "small",
        None,
    ),
    (
        "floor: SDK host, 256 KiB call, direct / FastMCP proxy",
        ("host", "direct"),
        ("host", "fastmcp"),
        "big",
        None,
    ),
    (
        "floor: small round trip, C hop / direct",
        ("echo", "c-hop"),
        ("echo", "direct"),
        "small",
        None,
    ),
    (
        "floor: small round trip, Python hop / C hop",
        ("echo", "hop"),
        ("echo", "c-hop"),
        "small",
        None,
    ),
    (
        "floor: CPU per small round trip, Python hop / C hop",
        ("echo", "hop"),
        ("echo", "c-hop"),
        "cpu",
        None,
    ),
    (
        "floor: CPU per 1 MiB round trip, Python hop / C hop",
        ("echo", "hop"),
        ("echo", "c-hop"),
        "cpu_big",
        None,
    ),
    ("bridge / Python hop, small round trip", ("echo", "bridge"), ("echo", "hop"), "small", None),
    (
        "bridge / Python hop, CPU per small round trip",
        ("echo", "bridge"),
        ("echo", "hop"),
        "cpu",
        None,
    ),
    (
        "bridge / Python hop, CPU per 1 MiB round trip",
        ("echo", "bridge"),
        ("echo", "hop"),
        "cpu_big",
        None,
    ),
    ("one-thread / two-thread Python hop, small", ("echo", "hop1"), ("echo", "hop"), "small", None),
    (
        "one-thread / two-thread Python hop, CPU small",
        ("echo", "hop1"),
        ("echo", "hop"),
        "cpu",
        None,
    ),
]
"""Every ratio row: the first nine are targets (issue 13), the rest floors for comparison."""


def print_table(rows: list[Row]) -> None:
    print(f"{'measure':56} {'value':>9}  {'target':>8}  {'':4}  detail")
    for r in rows:
        value = "-" if r.value is None else f"{r.value:.2f}" if r.unit == "x" else f"{r.value:.0f}"
        unit = "" if r.unit == "x" else f" {r.unit}"
        target = "" if r.target is None else f"<= {r.target:g}{unit}"
        verdict = {True: "pass", False: "FAIL", None: ""}[r.passed]
        print(f"{r.measure:56} {value + unit:>9}  {target:>8}  {verdict:4}  {r.detail}")


def as_json(rows: list[Row]) -> dict[str, Any]:
    """The rows by measure, for comparing runs between commits."""
    return {r.measure: {**asdict(r), "passed": r.passed} for r in rows}
