"""This tree's bridge against an earlier tree's, row by row, in one run.

Run: ``python bench/bench_versus.py --before DIR`` (``--quick`` for fewer rounds, ``--runs N`` for
N whole runs and each row's median ratio over them), where DIR is a checkout of the earlier
version (``git worktree add --detach DIR COMMIT``) whose C relay is built in place, as this
tree's is (``pip install -e`` builds it; the run says which trees have one).

Runs on one machine at different times differ by more than the few percent a change of the
bridge's code makes: a busy core moves every figure. So both bridges are measured in the same
run, along the same routes, in alternating blocks, each from its own tree (``PYTHONPATH``) with
its own per-user directory (an earlier version may not read a newer store), and each row gives
now / before. Rows: the echo server's small, pipelined and 1 MiB round trips and the SDK
server's (``bench_bridge.py``'s routes), ``roots/list`` as the server sees it, a grant by the
CLI to ``list_changed`` on the server's stdin (each tree's own CLI), the start-up to the server
running, and the peak memory after 1 MiB messages. The target of issue 21's reshaping: every
row within 5% of before.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_bridge import (
    ECHO,
    SDK_ECHO,
    Peer,
    bridge_cmd,
    change_latency,
    compare,
    pct,
    small_rtts,
    startup,
)
from roots_manager.bridge.run.eventlog import MARKER_DELAY

HERE = Path(__file__).resolve().parent
TREES = ("before", "now")
MARKER_SETTLE = 3 * MARKER_DELAY
"""Seconds for a bridge's live marker to be written after a burst of answers (its delay and the
write), before the other tree's bridge is timed."""


def tree_env(tree: Path, home: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(tree / "app"), ROOTS_MANAGER_HOME=str(home))


def cli(env: dict[str, str], *argv: str, check: bool = True) -> bool:
    done = subprocess.run(
        [sys.executable, "-m", "roots_manager.cli", *argv], env=env, capture_output=True
    )
    if check and done.returncode != 0:
        raise RuntimeError(f"roots-manager {' '.join(argv)}: {done.stderr.decode()}")
    return done.returncode == 0


def prepare(env: dict[str, str], folders: list[Path]) -> None:
    """A per-user directory with two roots, one granted to ``bench``, new servers unconfined
    (what confinement costs is bench_confine's); with each tree's own CLI, whose options may
    be older."""
    for f in folders:
        cli(env, "roots", "add", str(f))
    cli(env, "policy", "--confine-new", "off", check=False)  # older trees had no such default
    if not cli(env, "grant", "--new", "bench", str(folders[0]), check=False):
        cli(env, "grant", "bench", str(folders[0]))


def bridge_prefix(env: dict[str, str], name: str) -> list[str]:
    """The command put in front of a server: this tree's bridge, through ``env`` so that one
    ``compare`` can run both trees' bridges side by side."""
    settings = [f"{k}={env[k]}" for k in ("PYTHONPATH", "ROOTS_MANAGER_HOME")]
    return ["env", *settings, *bridge_cmd(name, [])]


def has_c_relay(env: dict[str, str]) -> bool:
    """Whether the tree's compiled relay imports (it moved with the bridge's layers)."""
    for module in ("roots_manager.bridge.transport._fastrelay", "roots_manager.bridge._fastrelay"):
        found = subprocess.run(
            [sys.executable, "-c", f"import {module}"], env=env, capture_output=True
        )
        if found.returncode == 0:
            return True
    return False


def ask_roots(peer: Peer, n: int, tag: str) -> list[float]:
    """The echo server's *n* ``roots/list`` round trips, as it timed them."""
    peer.send(
        b'{"jsonrpc":"2.0","id":"%s","method":"bench/roots","params":{"n":%d}}\n'
        % (tag.encode(), n)
    )
    return list(peer.read()["result"]["times"])


def roots_list_rtts(envs: dict[str, dict[str, str]], blocks: int, n: int) -> dict[str, list[float]]:
    """``roots/list`` as the echo server times it (request written to answer read), in blocks
    that alternate between the trees."""
    peers = {t: Peer([*bridge_prefix(envs[t], "bench"), *ECHO], envs[t]) for t in TREES}
    out: dict[str, list[float]] = {t: [] for t in TREES}
    for p in peers.values():
        p.handshake()
        small_rtts(p, 50, 1)
    for b in range(blocks + 1):
        # each tree goes first as often as second, and is measured once the other's live
        # marker (written 0.1 s after a burst of answers, with an fsync) is on disk: a block
        # measured while the other bridge writes is slower by what that write costs the machine
        for t in TREES if b % 2 else TREES[::-1]:
            time.sleep(MARKER_SETTLE)
            times = ask_roots(peers[t], n, f"r{b}")
            if b:  # the first block warms the answer up (the first parses the store)
                out[t] += times
    for p in peers.values():
        p.close()
    return out


def measure(
    envs: dict[str, dict[str, str]],
    folders: dict[str, list[Path]],
    tmp: Path,
    quick: bool,
) -> tuple[list[tuple[str, float, float, str]], dict[str, list[float]]]:
    """One run of every row, the trees alternating block by block: each row's name, its value
    before and now, and its unit; and the direct route's echo figures, for scale."""
    blocks = 3 if quick else 6
    n_small = 300 if quick else 500
    n_big = 6 if quick else 10
    size = 1024 * 1024
    routes = {"direct": [], **{t: bridge_prefix(envs[t], "bench-" + t) for t in TREES}}
    env = envs["now"]  # for the direct route; the bridges take theirs from their prefix
    echo = compare(ECHO, routes, env, blocks, n_small, n_big, size, pipeline=True)
    sdk = compare(SDK_ECHO, routes, env, blocks, n_small // 2, n_big, size, pipeline=False)
    roots = roots_list_rtts(envs, blocks, 200 if quick else 500)

    rounds = 8 if quick else 12  # each half ends as it began: granted as often as revoked
    grants: dict[str, list[float]] = {t: [] for t in TREES}
    peers = {t: Peer([*bridge_prefix(envs[t], "bench"), *ECHO], envs[t]) for t in TREES}
    for p in peers.values():
        p.handshake()
        ask_roots(p, 1, "first")  # a bridge tells of changes a server that has asked once
    for half in range(2):
        # each tree goes first once: the second's saves come right after the first's (their
        # fsyncs, the other bridge's work on them), which cost it half a millisecond a round
        for t in TREES if half else TREES[::-1]:
            home = Path(envs[t]["ROOTS_MANAGER_HOME"])
            grants[t] += change_latency(
                peers[t], envs[t], home, str(folders[t][1]), rounds // 2, via_cli=True
            )
    for p in peers.values():
        p.close()

    starts: dict[str, list[float]] = {t: [] for t in TREES}
    for _ in range(5 if quick else 10):
        for t in TREES:
            starts[t].append(startup(bridge_cmd("startup"), envs[t], tmp)[0])

    med = statistics.median
    rows: list[tuple[str, Callable[[list[float]], float], dict[str, list[float]], str]] = [
        ("echo small round trip, p50", med, {t: echo[t]["small"] for t in TREES}, "us"),
        (
            "echo small round trip, p99",
            lambda v: pct(v, 99),
            {t: echo[t]["small"] for t in TREES},
            "us",
        ),
        (
            "echo pipelined, per request",
            lambda v: 1 / med(v),
            {t: echo[t]["tp"] for t in TREES},
            "us",
        ),
        ("echo 1 MiB round trip, p50", med, {t: echo[t]["big"] for t in TREES}, "ms"),
        ("SDK small round trip, p50", med, {t: sdk[t]["small"] for t in TREES}, "us"),
        ("SDK 1 MiB round trip, p50", med, {t: sdk[t]["big"] for t in TREES}, "ms"),
        ("roots/list seen by the server, p50", med, roots, "us"),
        ("grant by CLI -> list_changed, p50", med, grants, "ms"),
        ("start-up to server running, p50", med, starts, "ms"),
        ("peak RSS after 1 MiB (MiB)", med, {t: echo[t]["rss"] for t in TREES}, "MiB"),
    ]
    picked = [
        (name, pick(data["before"]), pick(data["now"]), unit) for name, pick, data, unit in rows
    ]
    return picked, echo["direct"]


SCALE = {"us": 1e6, "ms": 1e3, "MiB": 1.0}


def print_run(rows: list[tuple[str, float, float, str]], direct: dict[str, list[float]]) -> None:
    """One run's table: each row before and now, and their ratio."""
    print()
    print(f"{'measure':38} {'before':>11} {'now':>11} {'now/before':>11}  within 5%")
    for name, b, n, unit in rows:
        ratio = n / b
        print(
            f"{name:38} {b * SCALE[unit]:>8.1f} {unit:<2} {n * SCALE[unit]:>8.1f} {unit:<2} "
            f"{ratio:>11.3f}  {'yes' if ratio <= 1.05 else 'NO'}"
        )
    med = statistics.median
    print(
        f"\n(direct, for scale: echo small p50 {med(direct['small']) * 1e6:.0f} us, "
        f"1 MiB {med(direct['big']) * 1e3:.2f} ms)"
    )


def print_runs(runs: list[list[tuple[str, float, float, str]]]) -> None:
    """Each row's ratio over several runs: the median, and the least and greatest seen (one
    run's ratio moves by several percent with what else the machine does; the median of
    alternated runs is what the change itself costs)."""
    print(f"\nnow/before over {len(runs)} runs")
    print(f"{'measure':38} {'median':>8} {'least':>8} {'most':>8}  within 5% (median)")
    for i, (name, *_rest) in enumerate(runs[0]):
        ratios = sorted(run[i][2] / run[i][1] for run in runs)
        mid = statistics.median(ratios)
        print(
            f"{name:38} {mid:>8.3f} {ratios[0]:>8.3f} {ratios[-1]:>8.3f}  "
            f"{'yes' if mid <= 1.05 else 'NO'}"
        )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, required=True, help="a checkout of the earlier tree")
    ap.add_argument("--quick", action="store_true", help="fewer rounds")
    ap.add_argument(
        "--runs", type=int, default=1, help="whole runs, each row's ratios summed up at the end"
    )
    args = ap.parse_args()
    before = args.before.resolve()
    if not (before / "app" / "roots_manager").is_dir():
        sys.exit(f"bench_versus: {before} holds no app/roots_manager")
    if args.runs < 1:
        sys.exit("bench_versus: --runs must be at least 1")

    tmp = Path(tempfile.mkdtemp(prefix="bench-versus-"))
    trees = {"before": before, "now": HERE.parent}
    envs = {t: tree_env(trees[t], tmp / f"home-{t}") for t in TREES}
    folders = {t: [tmp / t / "granted", tmp / t / "toggled"] for t in TREES}
    for t in TREES:
        for f in folders[t]:
            f.mkdir(parents=True)
        prepare(envs[t], folders[t])
        print(f"{t}: {trees[t]} (C relay: {'yes' if has_c_relay(envs[t]) else 'no'})")

    runs = []
    for k in range(args.runs):
        if args.runs > 1:
            print(f"\nrun {k + 1} of {args.runs}", flush=True)
        rows, direct = measure(envs, folders, tmp, args.quick)
        print_run(rows, direct)
        runs.append(rows)
    if args.runs > 1:
        print_runs(runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
