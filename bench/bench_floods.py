"""The bridge's peak memory under floods, against the same bridge relaying one small message.

Run: ``python bench/bench_floods.py`` (``--mib N`` for the size of the long lines, 512 by
default; ``--requests N`` for the flood of requests, 100000 by default).

Each scenario starts a bridge in front of ``bench/flood_peer.py``, which sends its traffic and a
last line ``{"done":true}``; once that line reaches the host, the bridge's peak resident set
(``VmHWM`` in ``/proc``) is read and the bridge is closed. Scenarios:

- *baseline*: one ``roots/list``, answered;
- *long line, asks early*: a line of N MiB that asks for roots at its start (held to the limit,
  then dropped);
- *long line, asks late*: N MiB of padding, then the request (streams, then is cut);
- *long line, no roots*: N MiB that never mention roots (cut-through);
- *requests, never read*: many ``roots/list`` from a server that reads nothing until it has
  written them all (or is stopped by back-pressure).

Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEER = HERE / "flood_peer.py"


def peak_rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")


def run(scenario: str, arg: int, home: Path) -> tuple[float, float, int]:
    """(peak RSS in MiB, seconds, bytes the host got) of one bridge through *scenario*."""
    env = dict(os.environ, ROOTS_MANAGER_HOME=str(home))
    argv = [
        sys.executable,
        "-m",
        "roots_manager.bridge",
        "--server",
        "flood",
        "--",
        sys.executable,
        str(PEER),
        scenario,
        str(arg),
    ]
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
    )
    assert proc.stdout is not None and proc.stdin is not None
    got = 0
    tail = b""
    done = threading.Event()

    def read() -> None:
        nonlocal got, tail
        assert proc.stdout is not None
        while chunk := proc.stdout.read1(1 << 20):
            got += len(chunk)
            tail = (tail + chunk)[-64:]
            if b'{"done":true}\n' in tail:
                done.set()
        done.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    if not done.wait(600):
        raise RuntimeError(f"{scenario}: the last line did not arrive")
    # the pumps may still be winding down what they hold: give them the same short moment
    time.sleep(0.5)
    peak = peak_rss_mib(proc.pid)
    elapsed = time.perf_counter() - started
    proc.stdin.close()
    proc.kill()
    proc.wait()
    return peak, elapsed, got


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=int, default=512, help="size of the long lines")
    ap.add_argument("--requests", type=int, default=100000, help="requests in the flood")
    ap.add_argument(
        "--only", nargs="*", default=None, help="scenarios to run: early late plain unread"
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        subprocess.run(
            # the relay's memory under floods, with the server unconfined as before the default
            [
                sys.executable,
                "-m",
                "roots_manager.cli",
                "policy",
                "allow-all",
                "--confine-new",
                "off",
            ],
            env=dict(os.environ, ROOTS_MANAGER_HOME=str(home)),
            check=True,
            capture_output=True,
        )
        rows = [
            ("baseline: one roots/list", "baseline", 0),
            (f"long line, asks early ({args.mib} MiB)", "early", args.mib),
            (f"long line, asks late ({args.mib} MiB)", "late", args.mib),
            (f"long line, no roots ({args.mib} MiB)", "plain", args.mib),
            (f"{args.requests} requests, never read", "unread", args.requests),
        ]
        base = None
        print(f"{'scenario':42} {'peak RSS':>10} {'ratio':>7} {'time':>8} {'to host':>10}")
        for label, scenario, arg in rows:
            if args.only is not None and scenario != "baseline" and scenario not in args.only:
                continue
            peak, secs, got = run(scenario, arg, home)
            base = base or peak
            print(f"{label:42} {peak:8.1f} MiB {peak / base:6.2f}x {secs:7.1f}s {got:>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
