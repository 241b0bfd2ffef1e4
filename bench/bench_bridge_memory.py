"""The bridge's memory alone, quicker than the whole of ``bench/bench_bridge.py``.

Run: ``python bench/bench_bridge_memory.py [--runs N] [--maps]``.

Each run starts a fresh bridge in front of ``bench/echo_server.py`` the way the full benchmark
does, sends it the same small and 1 MiB round trips, and reads its peak RSS (the full
benchmark's row "bridge peak RSS after 1 MiB messages"); then grants and revokes a folder in
another process and times the store save to ``list_changed`` on the server's stdin (the row
"store API (other process) -> list_changed"), and reads the peak again, now that the store
watcher has seen changes. With ``--maps`` the last run also shows which mappings of the bridge
hold its resident memory (``/proc/PID/smaps``: shared libraries count too, which ``tracemalloc``
does not see). Linux only: the figures come from ``/proc``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from bench_bridge import Peer, big_rtts, bridge_cmd, change_latency, peak_rss, small_rtts

MIB = 1024 * 1024


def mappings(pid: int) -> dict[str, int]:
    """Resident kilobytes per mapped file (anonymous memory under its bracketed name)."""
    rss: dict[str, int] = defaultdict(int)
    name = ""
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        head = line.split()
        if not head:
            continue
        if not head[0].endswith(":"):  # a mapping's first line: range perms offset dev inode [path]
            name = head[5] if len(head) > 5 else "[anonymous]"
        elif head[0] == "Rss:":
            rss[name] += int(head[1])
    return dict(rss)


def one_run(home: Path, env: dict[str, str], folder: Path, rounds: int) -> dict[str, object]:
    """One bridge: its peak RSS after the traffic, the change latencies, its peak after them."""
    peer = Peer(bridge_cmd("bench"), env)
    peer.handshake()
    small_rtts(peer, 100, 1)
    big_rtts(peer, 2, 101, MIB)
    nid = 1000
    for _ in range(3):
        small_rtts(peer, 300, nid)
        nid += 300
        big_rtts(peer, 6, nid, MIB)
        nid += 6
    after_traffic = peak_rss(peer.proc.pid)
    # a host sends list_changed only once the server has fetched the list since the last one
    peer.send(b'{"jsonrpc":"2.0","id":"r","method":"bench/roots","params":{"n":1}}\n')
    peer.read()
    latencies = change_latency(peer, env, home, str(folder), rounds, via_cli=False)
    after_changes = peak_rss(peer.proc.pid)
    maps = mappings(peer.proc.pid)
    peer.close()
    return {"traffic": after_traffic, "changes": after_changes, "lat": latencies, "maps": maps}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="bridges to measure one after another")
    ap.add_argument("--rounds", type=int, default=10, help="grants and revokes per run")
    ap.add_argument("--maps", action="store_true", help="show the last run's resident mappings")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-memory-"))
    home = tmp / "home"
    env = dict(os.environ, ROOTS_MANAGER_HOME=str(home))
    folder = tmp / "toggled"
    folder.mkdir()
    cli = [sys.executable, "-m", "roots_manager.cli"]
    subprocess.run([*cli, "roots", "add", str(folder)], env=env, check=True, capture_output=True)
    # the bridge's own memory: a confined server's supervisor is another process, measured
    # by bench_confine
    subprocess.run(
        [*cli, "policy", "--confine-new", "off"], env=env, check=True, capture_output=True
    )

    runs = [one_run(home, env, folder, args.rounds) for _ in range(args.runs)]
    med = statistics.median
    traffic = [float(r["traffic"]) for r in runs]  # type: ignore[arg-type]
    changes = [float(r["changes"]) for r in runs]  # type: ignore[arg-type]
    lat = [x for r in runs for x in r["lat"]]  # type: ignore[attr-defined]
    print(f"bridge peak RSS after 1 MiB messages: median {med(traffic):.1f} MiB ", end="")
    print(f"(runs: {', '.join(f'{x:.1f}' for x in traffic)})")
    print(f"bridge peak RSS after store changes:  median {med(changes):.1f} MiB ", end="")
    print(f"(runs: {', '.join(f'{x:.1f}' for x in changes)})")
    print(
        f"store API (other process) -> list_changed: p50 {med(lat) * 1e3:.1f} ms, "
        f"max {max(lat) * 1e3:.1f} ms ({len(lat)} changes)"
    )
    if args.maps:
        maps: dict[str, int] = runs[-1]["maps"]  # type: ignore[assignment]
        print(f"\nresident now, by mapping (total {sum(maps.values()) / 1024:.1f} MiB):")
        for name, kib in sorted(maps.items(), key=lambda kv: -kv[1])[:30]:
            print(f"{kib / 1024:8.2f} MiB  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
