"""What confinement costs: a server's start-up, and ordinary file work inside a grant.

Both are started the way the bridge starts them (``bridge.confine.wrapped`` then a pipe), and
timed from just before the rules are computed to the server's first line on stdout: the
confined figure includes computing the rules, the exec wrapper's Python start and the Landlock
calls. The unconfined start, measured in the same run, is the baseline; the goal is an extra
cost under 30 ms.

Then a read walk: a server walks a granted folder of 10,000 files, reading each, and reports
the time the walk took inside it (its start-up left out), confined and not, in turns (A B A
B). Confined, each of its system calls passes the seccomp filter, and Landlock checks each open;
the goal is a ratio of at most 1.1. That is confinement's own cost: the refusals pipe is left
out. A bridge gives every confined server one, and then each open waits for the supervisor's
observer, which tells the refusals; that walk is printed too, against both, and its goal and
floor (the kernel's notification round trip alone) are ``bench/bench_denials.py``'s.

Last, the same walk and start-up for a grant that holds protected places (a repository's
``.git/hooks`` and ``.git/config``, ``.vscode``): the server then runs in a mount namespace of
its own with those places bound read-only (:mod:`roots_manager.sandbox.mounts`); its cost is
reported against the confined grant without such places.

And names made: the server makes 2,000 files (``open`` with ``O_CREAT``, a write, a close)
and 200 folders in a grant, and reports the time inside it. Confined, every grant keeps some
names from being made (a project's ``.envrc``, ``.vscode`` where they are not there), so each
new name waits for the supervisor, which makes it (:mod:`roots_manager.sandbox.making`): its
cost per name is reported against the unconfined run, in turns, with the thread that makes
names in C (``_fastmake.c``) and in Python (as where the C one is not built).

And connections: the server opens 300 TCP connections to a local listener, one after another,
and reports the time inside it. Confined, each ``connect`` is made by its supervisor (a Unix
socket of the server's own is reached so, and the filter cannot tell the families apart), so
its cost per connection is reported against the unconfined run, in turns.

And writes: the server writes over 2,000 files that are there (``open`` to write without
``O_CREAT``) in a grant, unconfined, confined, and confined in a grant whose repositories were not
all looked for (a folder deeper than the search goes): there the supervisor opens every file
opened to write, and every removal (:attr:`~roots_manager.core.confinement.rules.Rules.
repositories_beneath`), so its cost per write is reported against the confined grant without it.

Run: python bench/bench_confine.py [--runs N] [--walks N]
[--only-making | --only-connecting | --only-writing | --only-walking]
"""

from __future__ import annotations

import argparse
import contextlib
import io
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
PURE_MAKER = "ROOTS_MANAGER_PURE_MAKER"
"""``roots_manager.sandbox.making.PURE_ENV`` (that module is Linux's alone)."""
WALK_GOAL = 1.1
FILES = 10_000
WALK = """
import os, sys, time
top = sys.argv[1]
start = time.perf_counter()
count = 0
for folder, _, names in os.walk(top):
    for name in names:
        with open(os.path.join(folder, name), "rb") as f:
            f.read()
        count += 1
took = time.perf_counter() - start
assert count == int(sys.argv[2]), count
print(took)
"""


def unconfined_unless_forced(*servers: str) -> None:
    """Store *servers* as not confined: a new server is confined by default, so the baseline
    must say it is not; the confined runs force confinement on (``wrapped``'s *force*)."""
    from roots_manager.actions.confinement import confine
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.store.file import Store

    store = Store(Layout.default().ensure())
    for server in servers:
        confine(store, server, False, new=True)


def first_line(command: list[str], server: str, force: bool) -> float:
    from roots_manager.bridge.run.confine import wrapped

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


def walk_once(
    folder: Path,
    force: bool,
    filtered: bool = True,
    server: str = "bench",
    files: int = FILES,
    observed: bool = False,
) -> float:
    """Seconds the walk took inside the server; *observed*: with the refusals pipe the bridge
    gives every confined server (``--refusals``), so each open is shown to the observer."""
    from roots_manager.bridge.run.confine import wrapped
    from roots_manager.sandbox.seccomp import TEST_OFF_ENV

    if filtered:
        os.environ.pop(TEST_OFF_ENV, None)
    else:
        os.environ[TEST_OFF_ENV] = "1"  # Landlock alone: what the filter adds, apart

    command = [sys.executable, "-S", "-c", WALK, str(folder), str(files)]
    with contextlib.redirect_stderr(io.StringIO()):  # what the bridge says of the protections
        argv = wrapped(command, server, force).argv
    return _seconds(argv, observed=observed)


def _seconds(argv: list[str], *, observed: bool, env: dict[str, str] | None = None) -> float:
    """Run the wrapper's *argv* (*observed*: with the refusals pipe every bridge gives a
    confined server) and return the seconds the server printed last."""
    read, write = os.pipe()
    if observed:
        at = argv.index("--parent") + 2
        argv[at:at] = ["--refusals", str(write)]
    try:
        out = subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=True,
            text=True,
            pass_fds=(write,),
            env=env,
        )
    finally:
        os.close(read)
        os.close(write)
    return float(out.stdout.strip().splitlines()[-1])


MAKE = """
import os, sys, time
top, files, folders = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
start = time.perf_counter()
for d in range(folders):
    os.mkdir(os.path.join(top, f"d{d}"))
for f in range(files):
    fd = os.open(os.path.join(top, f"d{f % folders}", f"f{f}"), os.O_WRONLY | os.O_CREAT, 0o644)
    os.write(fd, b"x")
    os.close(fd)
print(time.perf_counter() - start)
"""
MADE_FILES = 2_000
MADE_FOLDERS = 200


def make_once(folder: Path, force: bool, pure: bool = False) -> float:
    """Seconds a server takes to make :data:`MADE_FILES` files in :data:`MADE_FOLDERS`
    folders of the empty *folder* (granted to ``bench-make``), which is emptied after; with the
    refusals pipe every bridge gives a confined server; *pure*: its names made by the thread
    in Python (``ROOTS_MANAGER_PURE_MAKER``), as where the C one is not built."""
    import shutil

    from roots_manager.bridge.run.confine import wrapped

    command = [sys.executable, "-S", "-c", MAKE, str(folder), str(MADE_FILES), str(MADE_FOLDERS)]
    with contextlib.redirect_stderr(io.StringIO()):
        argv = wrapped(command, "bench-make", force).argv
    env = {**os.environ, PURE_MAKER: "1"} if pure else None
    seconds = _seconds(argv, observed=force, env=env)
    for entry in folder.iterdir():
        shutil.rmtree(entry)
    return seconds


def measure_making(home: str, runs: int, where: str) -> None:
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.store.file import Store

    folder = Path(home) / "made"
    folder.mkdir()
    with Store(Layout.default().ensure()).transaction() as state:
        root = state.add_root(str(folder))
        state.grant("bench-make", [root.id])
    make_once(folder, True)
    plain: list[float] = []
    confined: list[float] = []
    python: list[float] = []
    for _ in range(runs):
        plain.append(make_once(folder, False))
        confined.append(make_once(folder, True))
        python.append(make_once(folder, True, pure=True))
    names = MADE_FILES + MADE_FOLDERS
    p50 = statistics.median(plain) * 1000
    print(
        f"names made ({MADE_FILES:,} files in {MADE_FOLDERS} folders, each made by the "
        f"supervisor; {where}): unconfined p50 {p50:.1f} ms"
    )
    for label, times in (("its thread in C", confined), ("its thread in Python", python)):
        c50 = statistics.median(times) * 1000
        print(
            f"  confined, {label}: p50 {c50:.1f} ms, ratio {c50 / p50:.2f}x, "
            f"{(c50 - p50) * 1000 / names:.0f} µs more a name (pairs: "
            f"{', '.join(f'{c / p:.2f}' for p, c in zip(plain, times, strict=True))})"
        )


WRITE = """
import os, sys, time
top = sys.argv[1]
paths = [os.path.join(top, n) for n in sorted(os.listdir(top)) if n.startswith("f")]
start = time.perf_counter()
for path in paths:
    fd = os.open(path, os.O_WRONLY)
    os.write(fd, b"written")
    os.close(fd)
print(time.perf_counter() - start)
"""
WRITTEN = 2_000


def write_once(folder: Path, server: str, force: bool) -> float:
    """Seconds a server takes to write over the :data:`WRITTEN` files of *folder*."""
    from roots_manager.bridge.run.confine import wrapped

    command = [sys.executable, "-S", "-c", WRITE, str(folder)]
    with contextlib.redirect_stderr(io.StringIO()):
        argv = wrapped(command, server, force).argv
    out = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, check=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def measure_writing(home: str, runs: int) -> None:
    """Writes over files that are there: unconfined, confined, and confined in a grant whose
    repositories the supervisor keeps (searched in part), in turns."""
    from roots_manager.core.confinement.protected import REPOSITORY_DEPTH
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.store.file import Store

    plain_grant, deep_grant = Path(home) / "written", Path(home) / "written-deep"
    for grant in (plain_grant, deep_grant):
        grant.mkdir()
        for i in range(WRITTEN):
            (grant / f"f{i:05}").write_bytes(b"x")
    # a folder deeper than the search looks: the grant's repositories are searched in part
    deep_grant.joinpath(*(f"d{i}" for i in range(REPOSITORY_DEPTH + 1))).mkdir(parents=True)
    with Store(Layout.default().ensure()).transaction() as state:
        for server, grant in (("bench-write", plain_grant), ("bench-write-deep", deep_grant)):
            root = state.add_root(str(grant))
            state.grant(server, [root.id])
    plain: list[float] = []
    confined: list[float] = []
    kept: list[float] = []
    write_once(deep_grant, "bench-write-deep", True)
    for _ in range(runs):
        plain.append(write_once(plain_grant, "bench-write", False))
        confined.append(write_once(plain_grant, "bench-write", True))
        kept.append(write_once(deep_grant, "bench-write-deep", True))
    p50, c50, k50 = (statistics.median(x) * 1000 for x in (plain, confined, kept))
    print(
        f"writes over files that are there ({WRITTEN:,}): unconfined p50 {p50:.1f} ms, confined "
        f"p50 {c50:.1f} ms ({c50 / p50:.2f}x); in a grant searched in part, each opened by the "
        f"supervisor: p50 {k50:.1f} ms ({k50 / c50:.2f}x confined, "
        f"{(k50 - c50) * 1000 / WRITTEN:.0f} µs more a write)"
    )


CONNECT = """
import socket, sys, time
port, count = int(sys.argv[1]), int(sys.argv[2])
start = time.perf_counter()
for _ in range(count):
    with socket.create_connection(("127.0.0.1", port)) as s:
        pass
print(time.perf_counter() - start)
"""
CONNECTIONS = 300


def connect_once(port: int, force: bool) -> float:
    """Seconds a server takes to open and close :data:`CONNECTIONS` TCP connections."""
    from roots_manager.bridge.run.confine import wrapped

    command = [sys.executable, "-S", "-c", CONNECT, str(port), str(CONNECTIONS)]
    with contextlib.redirect_stderr(io.StringIO()):
        argv = wrapped(command, "bench", force).argv
    out = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, check=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def measure_connecting(runs: int) -> None:
    import socket
    import threading

    listener = socket.create_server(("127.0.0.1", 0), backlog=512)
    port = listener.getsockname()[1]

    def accept() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            conn.close()

    threading.Thread(target=accept, daemon=True).start()
    try:
        connect_once(port, True)
        plain: list[float] = []
        confined: list[float] = []
        for _ in range(runs):
            plain.append(connect_once(port, False))
            confined.append(connect_once(port, True))
    finally:
        listener.close()
    p50, c50 = statistics.median(plain) * 1000, statistics.median(confined) * 1000
    print(
        f"TCP connections ({CONNECTIONS} to 127.0.0.1, each made by the supervisor): unconfined "
        f"p50 {p50:.1f} ms, confined p50 {c50:.1f} ms, ratio {c50 / p50:.2f}x, "
        f"{(c50 - p50) * 1000 / CONNECTIONS:.0f} µs more a connection (pairs: "
        f"{', '.join(f'{c / p:.2f}' for p, c in zip(plain, confined, strict=True))})"
    )


def _tree(folder: Path) -> None:
    for d in range(FILES // 100):
        sub = folder / f"d{d:03}"
        sub.mkdir(parents=True)
        for f in range(100):
            (sub / f"f{f:03}.txt").write_bytes(b"x" * 1024)


def walk(home: str, walks: int) -> None:
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.store.file import Store

    folder = Path(home) / "granted"
    _tree(folder)
    held = Path(home) / "held"
    _tree(held)
    (held / ".git" / "hooks").mkdir(parents=True)
    (held / ".git" / "config").write_text("[core]\n", encoding="utf-8")
    (held / ".vscode").mkdir()
    with Store(Layout.default().ensure()).transaction() as state:
        root = state.add_root(str(folder))
        state.grant("bench", [root.id])
        root = state.add_root(str(held))
        state.grant("bench-held", [root.id])
    walk_once(folder, True)  # the page cache warm for both
    walk_once(held, True, server="bench-held", files=FILES + 1)  # and .git/config
    plain: list[float] = []
    confined: list[float] = []
    landlock: list[float] = []
    inside: list[float] = []
    observed: list[float] = []
    for _ in range(walks):
        plain.append(walk_once(folder, False))
        confined.append(walk_once(folder, True))
        landlock.append(walk_once(folder, True, filtered=False))
        inside.append(walk_once(held, True, server="bench-held", files=FILES + 1))
        observed.append(walk_once(folder, True, observed=True))
    p50, c50 = statistics.median(plain) * 1000, statistics.median(confined) * 1000
    l50, o50 = statistics.median(landlock) * 1000, statistics.median(observed) * 1000
    pairs = [c / p for p, c in zip(plain, confined, strict=True)]
    verdict = "within" if c50 / p50 <= WALK_GOAL else "OVER"
    print(
        f"read walk of {FILES:,} files in a grant: unconfined p50 {p50:.1f} ms, confined p50 "
        f"{c50:.1f} ms, ratio {c50 / p50:.2f}x ({verdict} the {WALK_GOAL}x goal; median of the "
        f"pairs {statistics.median(pairs):.2f}: {', '.join(f'{r:.2f}' for r in pairs)}); "
        f"Landlock without the seccomp filter {l50:.1f} ms, ratio {l50 / p50:.2f}x"
    )
    h50 = statistics.median(inside) * 1000
    print(
        f"the same walk in a grant holding protected places (.git/hooks, .git/config, "
        f".vscode, read-only mounts): confined p50 {h50:.1f} ms, ratio {h50 / p50:.2f}x "
        f"unconfined, {h50 / c50:.2f}x confined without them"
    )
    print(
        f"the same walk with refusals told (the observer, as a bridge runs every confined "
        f"server: each open passes the supervisor): p50 {o50:.1f} ms, ratio {o50 / p50:.2f}x "
        f"unconfined, {o50 / c50:.2f}x confined untold (its own goal and floor: "
        f"bench/bench_denials.py)"
    )


def measure_held(runs: int) -> None:
    """The start-up of a confined server whose grant holds protected places (a mount namespace
    made, three places bound) against one whose grant holds none, in turns."""
    tiny = [sys.executable, "-S", "-c", "import sys; sys.stdin.readline(); print('{}')"]
    without: list[float] = []
    held: list[float] = []
    for _ in range(runs):
        without.append(first_line(tiny, "bench", True))
        held.append(first_line(tiny, "bench-held", True))
    w50, h50 = statistics.median(without) * 1000, statistics.median(held) * 1000
    print(
        f"start-up with protected places held: p50 {h50:.1f} ms against {w50:.1f} ms without "
        f"(+{h50 - w50:.1f} ms, {h50 / w50:.2f}x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--walks", type=int, default=11)
    parser.add_argument("--only-making", action="store_true", help="names made, nothing else")
    parser.add_argument(
        "--only-connecting", action="store_true", help="TCP connections, nothing else"
    )
    parser.add_argument(
        "--only-writing", action="store_true", help="writes over files, nothing else"
    )
    parser.add_argument("--only-walking", action="store_true", help="read walks, nothing else")
    args = parser.parse_args()
    # the granted folders apart from Roots Manager's own (a grant inside it is held read-only)
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as data:
        os.environ["ROOTS_MANAGER_HOME"] = home
        unconfined_unless_forced(
            "bench", "bench-held", "bench-make", "bench-write", "bench-write-deep"
        )
        if args.only_making:
            making(data, args.walks)
            return
        if args.only_connecting:
            measure_connecting(args.walks)
            return
        if args.only_writing:
            measure_writing(data, args.walks)
            return
        if args.only_walking:
            walk(data, args.walks)
            return
        tiny = [sys.executable, "-S", "-c", "import sys; sys.stdin.readline(); print('{}')"]
        measure("tiny Python server", tiny, args.runs)
        if FILESYSTEM.exists():
            measure("npm filesystem server", ["node", str(FILESYSTEM), home], args.runs)
        walk(data, args.walks)
        measure_held(args.runs)
        making(data, args.walks)
        measure_connecting(args.walks)
        measure_writing(data, args.walks)


def making(data: str, runs: int) -> None:
    """Names made on the temporary folder's file system, then in memory (``/dev/shm``), where
    making a file costs little and the supervisor's share shows whole."""
    measure_making(data, runs, "the temporary folder's file system")
    if os.access("/dev/shm", os.W_OK):
        with tempfile.TemporaryDirectory(dir="/dev/shm") as shm:
            measure_making(shm, runs, "tmpfs, /dev/shm")


if __name__ == "__main__":
    main()
