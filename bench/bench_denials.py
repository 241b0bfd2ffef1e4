"""What seeing refusals costs: from a refusal to its denial event, and a server's start-up.

1. Latency: a real bridge (``--confine``) in front of a small server that, for each line the
   bench writes, notes the time and opens a refused file (each in a folder of its own, so that
   no refusal is folded into another); the bench follows the bridge's event log and times each
   denial event's arrival against the server's note. Goal: p50 <= 50 ms.
2. Start-up: the reference filesystem server started confined, as the bridge starts it, from
   launch to its ``initialize`` answer, with the observer (``--refusals FD``, the pipe read and
   thrown away) and without, in turns (A B A B) in the same run; then an SDK server
   (``bench/sdk_echo_server.py``, the ``mcp`` package) the same way. Goal: ratio <= 1.15
   (medians), each.
3. Walk: a confined Python server walks a granted folder of 10,000 files (``stat``, ``open``,
   ``read`` each) and reports the time the walk took inside it, observed and not, in turns in
   the same run. Goal: ratio <= 1.3 (medians).

Start-up and walk are each run in four ways, in turns: without the observer (the baseline);
observed with the hot path in C (``sandbox/_fastobserve.c``, what ships where it built: the
goals are judged on it); observed by the Python observer alone (``ROOTS_MANAGER_PURE_OBSERVER``);
and the *floor*: the C loop receiving and letting through every observed call unjudged
(``ROOTS_MANAGER_BENCH_OBSERVER_FLOOR``), what the kernel's notification round trip alone costs,
which no observer of every call can go below. Without the C path built, the first two only.

Run: python bench/bench_denials.py [--quick]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FILESYSTEM = REPO / "tests/peers/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
LATENCY_GOAL_MS = 50.0
START_GOAL = 1.15
WALK_GOAL = 1.3
FILES = 10_000
SDK_SERVER = REPO / "bench" / "sdk_echo_server.py"
WALK = """
import os, sys, time
top = sys.argv[1]
start = time.perf_counter()
count = 0
for folder, _, names in os.walk(top):
    for name in names:
        path = os.path.join(folder, name)
        os.stat(path)
        with open(path, "rb") as f:
            f.read()
        count += 1
took = time.perf_counter() - start
assert count == int(sys.argv[2]), count
print(took)
"""
REFUSER = """
import sys, time
top = sys.argv[1]
for line in sys.stdin:
    n = line.strip()
    t = time.time()
    try:
        open(f"{top}/d{n}/f").close()
    except OSError:
        pass
    print(repr(t), flush=True)
"""
INITIALIZE = (
    b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":'
    b'"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}\n'
)


def _denials(logs: Path, offsets: dict[str, int]) -> list[dict[str, object]]:
    out = []
    for path in sorted(logs.glob("*.jsonl")):
        with open(path, "rb") as f:
            f.seek(offsets.get(str(path), 0))
            data = f.read()
        end = data.rfind(b"\n") + 1
        offsets[str(path)] = offsets.get(str(path), 0) + end
        for raw in data[:end].splitlines():
            if b'"denial"' in raw:
                out.append(json.loads(raw))
    return out


def latency(home: Path, count: int) -> None:
    refused = home / "refused"
    for n in range(count):
        (refused / f"d{n}").mkdir(parents=True)
        (refused / f"d{n}" / "f").write_bytes(b"")
    command = [sys.executable, "-S", "-c", REFUSER, str(refused)]
    argv = [sys.executable, "-m", "roots_manager.bridge", "--server", "bench", "--confine", "--",
            *command]  # fmt: skip
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert proc.stdin is not None and proc.stdout is not None
    logs = home / "logs"
    offsets: dict[str, int] = {}
    took: list[float] = []
    try:
        for n in range(count):
            proc.stdin.write(f"{n}\n".encode())
            proc.stdin.flush()
            said = float(proc.stdout.readline())
            want = f"/d{n}/f"
            deadline = time.time() + 10
            while time.time() < deadline:
                if any(str(d.get("path", "")).endswith(want) for d in _denials(logs, offsets)):
                    took.append(time.time() - said)
                    break
                time.sleep(0.0005)
            else:
                raise AssertionError(f"no denial event for {want}")
            time.sleep(0.01)
    finally:
        proc.stdin.close()
        proc.wait(30)
    ms = sorted(t * 1000 for t in took)
    p50, p95 = statistics.median(ms), ms[int(len(ms) * 0.95) - 1]
    verdict = "within" if p50 <= LATENCY_GOAL_MS else "OVER"
    print(
        f"refusal to denial event, {len(ms)} refusals: p50 {p50:.2f} ms, p95 {p95:.2f} ms, "
        f"max {ms[-1]:.2f} ms ({verdict} the {LATENCY_GOAL_MS:.0f} ms p50 goal)"
    )


def confined(
    command: list[str], observed: bool, server: str = "bench"
) -> tuple[list[str], tuple[int, ...]]:
    """The confined command line as the bridge starts it; *observed*: with ``--refusals``, on
    a pipe read and thrown away (the descriptor to pass is returned, to close once passed)."""
    from roots_manager.bridge.run.confine import wrapped

    with contextlib.redirect_stderr(io.StringIO()):
        argv = wrapped(command, server, True).argv
    if not observed:
        return argv, ()
    read, write = os.pipe()
    at = argv.index("--parent") + 2
    argv[at:at] = ["--refusals", str(write)]
    threading.Thread(target=lambda: [None for _ in iter(lambda: os.read(read, 65536), b"")],
                     daemon=True).start()  # fmt: skip
    return argv, (write,)


PURE = "ROOTS_MANAGER_PURE_OBSERVER"
FLOOR = "ROOTS_MANAGER_BENCH_OBSERVER_FLOOR"


def _modes() -> dict[str, dict[str, str]]:
    """The ways to run, by label: the environment each adds (None: not observed)."""
    try:
        from roots_manager.sandbox import _fastobserve  # noqa: F401
    except ImportError:
        return {"without": {}, "python": {PURE: "1"}}
    return {"without": {}, "c": {}, "python": {PURE: "1"}, "floor": {FLOOR: "1"}}


LABELS = {
    "c": "observer with its C path",
    "python": "Python observer alone",
    "floor": "floor (every call received and let through unjudged, in C)",
}


@contextlib.contextmanager
def _mode(mode: str) -> Iterator[bool]:
    """The environment of *mode* for the processes started meanwhile; whether it observes."""
    saved = {name: os.environ.pop(name, None) for name in (PURE, FLOOR)}
    os.environ.update(_modes()[mode])
    try:
        yield mode != "without"
    finally:
        for name, value in saved.items():
            os.environ.pop(name, None)
            if value is not None:
                os.environ[name] = value


def _report(label: str, times: dict[str, list[float]], goal: float) -> None:
    """One line per way, each a ratio of medians against the run without the observer; the
    goal judged on what ships (the C path where it built)."""
    base = statistics.median(times["without"])
    print(f"{label}: confined without the observer p50 {base * 1000:.0f} ms")
    shipped = "c" if "c" in times else "python"
    for mode, took in times.items():
        if mode == "without":
            continue
        ratio = statistics.median(took) / base
        pairs = ", ".join(f"{y / x:.2f}" for x, y in zip(times["without"], took, strict=True))
        verdict = ""
        if mode == shipped:
            verdict = f"; {'within' if ratio <= goal else 'OVER'} the {goal}x goal"
        print(
            f"  {LABELS[mode]}: p50 {statistics.median(took) * 1000:.0f} ms, ratio {ratio:.2f}x "
            f"medians (pairs: {pairs}{verdict})"
        )


def start_once(command: list[str], mode: str) -> float:
    with _mode(mode) as observed:
        argv, passed = confined(command, observed)
        start = time.perf_counter()
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            pass_fds=passed,
        )
    for fd in passed:
        os.close(fd)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(INITIALIZE)
    proc.stdin.flush()
    line = proc.stdout.readline()
    took = time.perf_counter() - start
    proc.kill()
    proc.wait()
    assert line, f"{command[0]} said nothing"
    return took


def start_up(label: str, command: list[str], runs: int) -> None:
    times: dict[str, list[float]] = {mode: [] for mode in _modes()}
    start_once(command, "without")  # warm the caches of all
    for _ in range(runs):
        for mode, took in times.items():
            took.append(start_once(command, mode))
    _report(f"{label} start-up, {runs} runs each", times, START_GOAL)


def walk_once(folder: Path, mode: str) -> float:
    with _mode(mode) as observed:
        argv, passed = confined(
            [sys.executable, "-S", "-c", WALK, str(folder), str(FILES)], observed, "walk"
        )
        proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            pass_fds=passed,
        )  # fmt: skip
    for fd in passed:
        os.close(fd)
    out, _ = proc.communicate()
    assert proc.returncode == 0, f"the walk failed ({proc.returncode})"
    return float(out.split()[-1])


def walk(home: Path, walks: int) -> None:
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.store.file import Store

    folder = home / "granted"
    for d in range(FILES // 100):
        sub = folder / f"d{d:03}"
        sub.mkdir(parents=True)
        for f in range(100):
            (sub / f"f{f:03}.txt").write_bytes(b"x" * 1024)
    with Store(Layout.default().ensure()).transaction() as state:
        # a server of its own: the latency's bridge made "bench" known with another command
        state.grant("walk", [state.add_root(str(folder)).id])
    walk_once(folder, "c" if "c" in _modes() else "python")  # the page cache warm for all
    times: dict[str, list[float]] = {mode: [] for mode in _modes()}
    for _ in range(walks):
        for mode, took in times.items():
            took.append(walk_once(folder, mode))
    _report(
        f"walk of {FILES:,} files in a grant (stat, open, read each), {walks} walks each",
        times,
        WALK_GOAL,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer refusals and starts")
    args = parser.parse_args()
    with open("/proc/loadavg", encoding="ascii") as f:
        print(f"load average at the start: {f.read().strip()}")
    with tempfile.TemporaryDirectory() as home:
        os.environ["ROOTS_MANAGER_HOME"] = home
        latency(Path(home), 50 if args.quick else 200)
        runs = 5 if args.quick else 15
        if FILESYSTEM.exists():
            start_up("filesystem server", ["node", str(FILESYSTEM), str(REPO)], runs)
        start_up("SDK server (mcp)", [sys.executable, str(SDK_SERVER)], runs)
        walk(Path(home), 3 if args.quick else 7)
    with open("/proc/loadavg", encoding="ascii") as f:
        print(f"load average at the end: {f.read().strip()}")


if __name__ == "__main__":
    main()
