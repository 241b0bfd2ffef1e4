"""Benchmark of the stdio bridge against a direct pipe to the same server, in the same run.

Run: ``python bench/bench_bridge.py`` (``--quick`` for fewer rounds).

Measured, with ``bench/echo_server.py`` as the server:
- small request round trips, one at a time (target: bridge/direct <= 1.3), and pipelined
  (32 in flight), bridge/direct;
- 1 MiB payload round trips (target: bridge/direct <= 1.05);
- roots/list answered by the bridge: the time inside the bridge (from the event log, p50/p99,
  target p99 < 1 ms) and the round trip seen by the server;
- a grant written by the CLI (``roots-manager grant``/``revoke``) to list_changed on the
  server's stdin (target p50 < 150 ms), and the same with the store API in a separate process;
- start-up: launching the bridge until the server runs, against launching the server directly;
- the bridge's peak RSS, against the echo server's (a bare Python process with json).

Direct and bridged runs alternate in blocks so that drift on a noisy machine hits both alike.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ECHO = [sys.executable, str(HERE / "echo_server.py")]


def bridge_cmd(name: str) -> list[str]:
    return [sys.executable, "-m", "roots_manager.bridge", "--server", name, "--", *ECHO]


class Peer:
    """A process spoken to over its stdio, line by line."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.w = self.proc.stdin
        self.r = self.proc.stdout
        self.notes: list[dict[str, Any]] = []

    def send(self, data: bytes) -> None:
        self.w.write(data)
        self.w.flush()

    def read(self) -> dict[str, Any]:
        while True:
            msg = json.loads(self.r.readline())
            if msg.get("method") == "bench/list_changed":
                self.notes.append(msg)
                continue
            return msg  # type: ignore[no-any-return]

    def handshake(self) -> None:
        self.send(
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 0,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-11-25",
                        "capabilities": {},
                        "clientInfo": {"name": "bench", "version": "1"},
                    },
                }
            ).encode()
            + b"\n"
        )
        self.read()
        self.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

    def close(self) -> int:
        self.w.close()
        return self.proc.wait(30)


def small_rtts(peer: Peer, n: int, start: int) -> list[float]:
    times = []
    for i in range(start, start + n):
        line = (
            b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"i":%d}}}\n'
            % (i, i)
        )
        t0 = time.perf_counter()
        peer.send(line)
        peer.read()
        times.append(time.perf_counter() - t0)
    return times


def pipelined(peer: Peer, n: int, window: int, start: int) -> float:
    t0 = time.perf_counter()
    sent = got = 0
    while got < n:
        while sent < n and sent - got < window:
            i = start + sent
            peer.w.write(b'{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"i":%d}}\n' % (i, i))
            sent += 1
        peer.w.flush()
        peer.read()
        got += 1
    return n / (time.perf_counter() - t0)


def big_rtts(peer: Peer, n: int, start: int, size: int) -> list[float]:
    blob = "x" * size
    times = []
    for i in range(start, start + n):
        line = (
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": i,
                    "method": "tools/call",
                    "params": {"name": "echo", "arguments": {"blob": blob}},
                }
            ).encode()
            + b"\n"
        )
        t0 = time.perf_counter()
        peer.send(line)
        msg = peer.read()
        times.append(time.perf_counter() - t0)
        assert len(msg["result"]["echo"]["arguments"]["blob"]) == size
    return times


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def peak_rss(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import psutil

    return float(psutil.Process(pid).memory_info().rss) / 2**20


def startup(env: dict[str, str], bridged: bool, tmp: Path) -> float:
    stamp = tmp / "started"
    stamp.unlink(missing_ok=True)
    e = dict(env, BENCH_START_FILE=str(stamp))
    t0 = time.monotonic()
    peer = Peer(bridge_cmd("startup") if bridged else ECHO, e)
    deadline = time.monotonic() + 60
    while not stamp.exists() or not stamp.read_text():
        if time.monotonic() > deadline:
            raise RuntimeError("the server never started")
        time.sleep(0.001)
    started = float(stamp.read_text())
    peer.close()
    return started - t0


def change_latency(
    peer: Peer, env: dict[str, str], home: Path, root: str, rounds: int, via_cli: bool
) -> list[float]:
    """Grant and revoke *root* alternately; time from the store save to list_changed seen."""
    store = home / "store.json"
    lat = []
    for k in range(rounds):
        op = "grant" if k % 2 == 0 else "revoke"
        before = len(peer.notes)
        if via_cli:
            subprocess.run(
                [sys.executable, "-m", "roots_manager.cli", op, "bench", root],
                env=env,
                check=True,
                capture_output=True,
            )
            written = os.stat(store).st_mtime
        else:
            code = (
                "import time,sys\n"
                "from roots_manager.core.store import Store\n"
                "st=Store()\n"
                "with st.transaction() as s:\n"
                f"    rid=s.find_root({root!r}).id\n"
                f"    s.{op}('bench',[rid])\n"
                "print(time.time())\n"
            )
            out = subprocess.run(
                [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
            ).stdout
            written = float(out.split()[-1])
        # the server echoes list_changed as a notification; a ping makes the host read it
        deadline = time.monotonic() + 30
        while len(peer.notes) == before:
            if time.monotonic() > deadline:
                raise RuntimeError("no list_changed arrived")
            peer.send(b'{"jsonrpc":"2.0","id":"p","method":"ping"}\n')
            peer.read()
            time.sleep(0.005)
        lat.append(peer.notes[-1]["params"]["wall"] - written)
        time.sleep(0.15)  # let the server fetch the list before the next change
    return lat


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    blocks = 3 if args.quick else 6
    n_small = 300 if args.quick else 500
    n_big = 6 if args.quick else 10
    size = 1024 * 1024

    tmp = Path(tempfile.mkdtemp(prefix="bench-bridge-"))
    home = tmp / "home"
    env = dict(os.environ, ROOTS_MANAGER_HOME=str(home))
    folders = [tmp / "granted", tmp / "toggled"]
    for f in folders:
        f.mkdir()
    for f in folders:
        subprocess.run(
            [sys.executable, "-m", "roots_manager.cli", "roots", "add", str(f)],
            env=env,
            check=True,
            capture_output=True,
        )
    subprocess.run(
        [sys.executable, "-m", "roots_manager.cli", "grant", "bench", str(folders[0])],
        env=env,
        check=True,
        capture_output=True,
    )

    direct = Peer(ECHO, env)
    bridged = Peer(bridge_cmd("bench"), env)
    direct.handshake()
    bridged.handshake()
    # warm up both paths
    small_rtts(direct, 100, 1)
    small_rtts(bridged, 100, 1)
    big_rtts(direct, 2, 1, size)
    big_rtts(bridged, 2, 1, size)

    d_small: list[float] = []
    b_small: list[float] = []
    d_big: list[float] = []
    b_big: list[float] = []
    d_tp: list[float] = []
    b_tp: list[float] = []
    nid = 1000
    for _ in range(blocks):
        d_small += small_rtts(direct, n_small, nid)
        b_small += small_rtts(bridged, n_small, nid)
        nid += n_small
        d_tp.append(pipelined(direct, 2000, 32, nid))
        b_tp.append(pipelined(bridged, 2000, 32, nid))
        nid += 2000
        d_big += big_rtts(direct, n_big, nid, size)
        b_big += big_rtts(bridged, n_big, nid, size)
        nid += n_big

    # roots/list answered inside the bridge
    bridged.send(b'{"jsonrpc":"2.0","id":"r","method":"bench/roots","params":{"n":1000}}\n')
    seen_by_server = bridged.read()["result"]["times"]
    inside = []
    for path in sorted((home / "logs").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            e = json.loads(line)
            if e.get("kind") == "roots-list-answered" and e.get("server") == "bench":
                inside.append(e["us"] / 1e6)
    inside = inside[1:]  # the first answer parses the store from cold

    rounds = 10 if args.quick else 20
    cli_lat = change_latency(bridged, env, home, str(folders[1]), rounds, via_cli=True)
    api_lat = change_latency(bridged, env, home, str(folders[1]), rounds, via_cli=False)

    rss_bridge = peak_rss(bridged.proc.pid)
    rss_echo = peak_rss(direct.proc.pid)
    direct.close()
    bridged.close()

    starts_direct = [startup(env, False, tmp) for _ in range(5 if args.quick else 10)]
    starts_bridge = [startup(env, True, tmp) for _ in range(5 if args.quick else 10)]

    med = statistics.median
    rows = [
        (
            "small request round trip, p50",
            f"{med(d_small) * 1e6:.0f} us",
            f"{med(b_small) * 1e6:.0f} us",
            f"{med(b_small) / med(d_small):.2f}",
            "<= 1.3",
        ),
        (
            "small request round trip, p99",
            f"{pct(d_small, 99) * 1e6:.0f} us",
            f"{pct(b_small, 99) * 1e6:.0f} us",
            f"{pct(b_small, 99) / pct(d_small, 99):.2f}",
            "",
        ),
        (
            "pipelined small requests (32 in flight)",
            f"{med(d_tp):,.0f}/s",
            f"{med(b_tp):,.0f}/s",
            f"{med(d_tp) / med(b_tp):.2f}",
            "(time ratio)",
        ),
        (
            "1 MiB payload round trip, p50",
            f"{med(d_big) * 1e3:.2f} ms",
            f"{med(b_big) * 1e3:.2f} ms",
            f"{med(b_big) / med(d_big):.2f}",
            "<= 1.05",
        ),
        (
            "bridge start-up to server running, p50",
            f"{med(starts_direct) * 1e3:.0f} ms",
            f"{med(starts_bridge) * 1e3:.0f} ms",
            f"{med(starts_bridge) / med(starts_direct):.2f}",
            f"+{(med(starts_bridge) - med(starts_direct)) * 1e3:.0f} ms",
        ),
        (
            "peak RSS (echo server vs bridge)",
            f"{rss_echo:.1f} MiB",
            f"{rss_bridge:.1f} MiB",
            f"{rss_bridge / rss_echo:.2f}",
            "",
        ),
    ]
    print()
    print(f"{'measure':42} {'direct':>12} {'bridge':>12} {'ratio':>7}  target")
    for r in rows:
        print(f"{r[0]:42} {r[1]:>12} {r[2]:>12} {r[3]:>7}  {r[4]}")
    print()
    print(f"{'measure':42} {'p50':>10} {'p99':>10}  target")
    print(
        f"{'roots/list answer inside the bridge':42} {med(inside) * 1e6:>8.0f}us "
        f"{pct(inside, 99) * 1e6:>8.0f}us  p99 < 1 ms"
    )
    print(
        f"{'roots/list round trip seen by the server':42} {med(seen_by_server) * 1e6:>8.0f}us "
        f"{pct(seen_by_server, 99) * 1e6:>8.0f}us"
    )
    print(
        f"{'grant by CLI -> list_changed on stdin':42} {med(cli_lat) * 1e3:>8.0f}ms "
        f"{pct(cli_lat, 99) * 1e3:>8.0f}ms  p50 < 150 ms"
    )
    print(
        f"{'store API (other process) -> list_changed':42} {med(api_lat) * 1e3:>8.0f}ms "
        f"{pct(api_lat, 99) * 1e3:>8.0f}ms"
    )
    print(
        f"\nadded per small round trip: {(med(b_small) - med(d_small)) * 1e6:.0f} us; "
        f"per 1 MiB round trip: {(med(b_big) - med(d_big)) * 1e3:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
