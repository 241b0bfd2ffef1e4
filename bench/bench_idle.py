"""Idle bridges against idle ``socat`` relays, in the same run: wake-ups, CPU and memory while
nothing happens.

Run: ``python bench/bench_idle.py`` (50 of each for 60 s; ``--count``, ``--seconds``,
``--quick`` for 10 of each for 10 s). Linux only: it reads ``/proc``. The window opens once
every bridge has started and recorded its start (each record is a change the others see),
after ``--warmup`` seconds more.

Each bridge and each ``socat STDIO SYSTEM:...`` relay stands in front of the same trivial server
(``python3 -c 'import sys; sys.stdin.read()'``) with its host's pipes open and silent. After a
warm-up, the voluntary and involuntary context switches of every thread of each relay process
(not of its server) and its CPU time are counted over the same window for both kinds, so load
on the machine hits both alike. Memory: each bridge's resident set against a bare
``python3 -c 'import sys; sys.stdin.read()'`` started the same way.

Goals (issue 23): no more wake-ups than socat's; CPU under 1 ms per bridge per minute; a
bridge's memory at most twice a bare Python's (reported).
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SERVER = [sys.executable, "-c", "import sys; sys.stdin.read()"]
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def switches(pid: int) -> int:
    """Context switches so far of every thread of *pid*."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            status = (task / "status").read_text()
        except OSError:
            continue  # a thread that ended meanwhile
        for line in status.splitlines():
            if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                total += int(line.split()[1])
    return total


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def start(argv: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
    )


def sample(procs: list[subprocess.Popen[bytes]]) -> list[tuple[int, float]]:
    return [(switches(p.pid), cpu_seconds(p.pid)) for p in procs]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--quick", action="store_true", help="10 of each for 10 s")
    args = ap.parse_args()
    if args.quick:
        args.count, args.seconds = 10, 10.0
    if not sys.platform.startswith("linux"):
        sys.exit("bench_idle: reads /proc, so Linux only")
    socat = shutil.which("socat")
    if socat is None:
        sys.exit("bench_idle: needs socat for its baseline (apt-get install socat)")
    with tempfile.TemporaryDirectory(prefix="roots-idle-") as home:
        env = dict(os.environ, ROOTS_MANAGER_HOME=home)
        # bridge against relay: the servers are started alike, unconfined (a new server is
        # confined by default; its supervisor is a process of its own, bench_confine's)
        subprocess.run(
            [sys.executable, "-m", "roots_manager.cli", "policy", "--confine-new", "off"],
            env=env,
            check=True,
            capture_output=True,
        )
        bridges = [
            start(
                [
                    sys.executable,
                    "-m",
                    "roots_manager.bridge",
                    "--server",
                    f"idle{i}",
                    "--",
                    *SERVER,
                ],
                env,
            )
            for i in range(args.count)
        ]
        relays = [
            start([socat, "STDIO", "SYSTEM:" + shlex.join(SERVER)], env) for _ in range(args.count)
        ]
        bare = start(SERVER, env)
        try:
            # idle means after every bridge has started and recorded its start in the store
            # (each record is a change the others see): wait for all markers, then the warm-up
            live = Path(home) / "live"
            deadline = time.monotonic() + 120
            while (
                time.monotonic() < deadline and len(list(live.glob("bridge-*.json"))) < args.count
            ):
                time.sleep(0.2)
            time.sleep(args.warmup)
            before_b, before_s = sample(bridges), sample(relays)
            time.sleep(args.seconds)
            after_b, after_s = sample(bridges), sample(relays)
            rss_bridge = statistics.median(rss_mib(p.pid) for p in bridges)
            rss_bare = rss_mib(bare.pid)
        finally:
            for p in [*bridges, *relays, bare]:
                p.kill()
                p.wait()
    per_minute = 60.0 / args.seconds

    def rates(
        before: list[tuple[int, float]], after: list[tuple[int, float]]
    ) -> tuple[float, float]:
        wakes = statistics.mean(a[0] - b[0] for a, b in zip(after, before, strict=True))
        cpu = statistics.mean(a[1] - b[1] for a, b in zip(after, before, strict=True))
        return wakes * per_minute, cpu * 1000 * per_minute

    wb, cb = rates(before_b, after_b)
    ws, cs = rates(before_s, after_s)
    print(f"{args.count} idle bridges and {args.count} idle socat relays, {args.seconds:g} s")
    print(f"{'per process, per minute':30} {'bridge':>10} {'socat':>10}")
    print(f"{'wake-ups (context switches)':30} {wb:10.1f} {ws:10.1f}")
    print(f"{'CPU, ms':30} {cb:10.2f} {cs:10.2f}")
    print(
        f"memory: bridge {rss_bridge:.1f} MiB, bare python {rss_bare:.1f} MiB, "
        f"ratio {rss_bridge / rss_bare:.2f} (goal <= 2)"
    )
    ratio = f"{wb / ws:.1f}" if ws else ("none: socat did not wake at all" if wb else "1.0")
    print(f"wake-ups bridge / socat: {ratio} (goal <= 1)")
    print(f"CPU per bridge per minute: {cb:.2f} ms (goal < 1 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
