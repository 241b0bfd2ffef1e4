"""Extra start-up time of a confined server against the same server unconfined.

Both are started the way the bridge starts them (``bridge.confine.wrapped`` then a pipe), and
timed from just before the rules are computed to the server's first line on stdout: the
confined figure includes computing the rules, the exec wrapper's Python start and the Landlock
calls. The unconfined start, measured in the same run, is the baseline; the goal is an extra
cost under 30 ms.

Run: python bench/bench_confine.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FILESYSTEM = REPO / "tests/peers/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
GOAL_MS = 30.0


def first_line(command: list[str], server: str, force: bool) -> float:
    from roots_manager.bridge.confine import wrapped

    start = time.perf_counter()
    proc = subprocess.Popen(
        wrapped(command, server, force).argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(
        b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":'
        b'"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}\n'
    )
    proc.stdin.flush()
    line = proc.stdout.readline()
    took = time.perf_counter() - start
    proc.kill()
    proc.wait()
    assert line, f"{command[0]} said nothing"
    return took


def measure(label: str, command: list[str], runs: int) -> None:
    plain = [first_line(command, "bench", False) for _ in range(runs)]
    confined = [first_line(command, "bench", True) for _ in range(runs)]
    p50, c50 = statistics.median(plain) * 1000, statistics.median(confined) * 1000
    extra = c50 - p50
    verdict = "within" if extra < GOAL_MS else "OVER"
    print(
        f"{label}: unconfined p50 {p50:.1f} ms, confined p50 {c50:.1f} ms, "
        f"ratio {c50 / p50:.2f}x, extra {extra:.1f} ms ({verdict} the {GOAL_MS:.0f} ms goal)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["ROOTS_MANAGER_HOME"] = home
        tiny = [sys.executable, "-S", "-c", "import sys; sys.stdin.readline(); print('{}')"]
        measure("tiny Python server", tiny, args.runs)
        if FILESYSTEM.exists():
            measure("npm filesystem server", ["node", str(FILESYSTEM), home], args.runs)


if __name__ == "__main__":
    main()
