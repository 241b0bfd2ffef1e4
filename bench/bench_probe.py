"""Wall time of a full boundary probe of the reference filesystem server.

The probe starts the server behind a private bridge over a scratch tree, walks every path tool
with its paired inside/outside targets, does the ``list_changed`` round trip and the empty
list, and stops the server. The baseline, measured in the same run, is one bare MCP client through
the same bridge (start, ``initialize``, ``tools/list``, stop): what no probe can do without. The
goal is a full probe under 20 s; the essay's pass by hand takes about ten minutes.

Run: python bench/bench_probe.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, stdio_client

from roots_manager.probe.runner import probe

REPO = Path(__file__).resolve().parent.parent
FILESYSTEM = REPO / "tests/peers/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
GOAL_S = 20.0


async def bare_client(home: str) -> float:
    start = time.perf_counter()
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "roots_manager.bridge", "--server", "bench", "--", "node", str(FILESYSTEM)],
        env={**os.environ, "ROOTS_MANAGER_HOME": home},
    )
    with open(os.devnull, "w") as quiet:
        async with (
            stdio_client(params, errlog=quiet) as (read, write),
            ClientSession(read, write) as client,
        ):
            await client.initialize()
            await client.list_tools()
    return time.perf_counter() - start


async def full_probe() -> tuple[float, int, int]:
    start = time.perf_counter()
    report = await probe(["node", str(FILESYSTEM), "{allow}"])
    took = time.perf_counter() - start
    assert report.complete and report.verdict["enforces_roots"].value is True, report.problem
    calls = sum(
        1
        for r in report.rows
        for c in (r.inside, r.outside)
        if c.request and c.outcome.value != "not run"
    )
    return took, len(report.rows), calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-probe-") as home:
        base = [asyncio.run(bare_client(home)) for _ in range(args.runs)]
    runs = [asyncio.run(full_probe()) for _ in range(args.runs)]
    b50 = statistics.median(base)
    p50 = statistics.median(t for t, _, _ in runs)
    _, rows, calls = runs[0]
    verdict = "within" if p50 < GOAL_S else "OVER"
    print(
        f"full probe of server-filesystem: p50 {p50:.2f} s over {args.runs} run(s) "
        f"({rows} rows, {calls} calls, {calls / p50:.0f} calls/s); bare client p50 {b50:.2f} s, "
        f"ratio {p50 / b50:.1f}x ({verdict} the {GOAL_S:.0f} s goal)"
    )


if __name__ == "__main__":
    main()
