"""How many processes and threads real MCP servers hold at once, against the default limit of
1,024 processes in a confined server's tree (``servers confine NAME --max-processes N``).

Run: ``python bench/bench_processes.py [--npm-prefix DIR] [--chromium PATH] [--interval S]
[--rounds N] [--tabs N] [--only NAME ...] [--direct-only]``

Each server is started and driven through a real MCP session (the ``mcp`` SDK's stdio client),
while a thread samples its whole process tree every ``--interval`` seconds (10 ms by default):
every process below it, found from each process's parent in ``/proc/PID/stat``, and the threads
of each (its ``num_threads``). The peak of each count is printed next to the limit, with the
work that was going on when the processes peaked and what they were.

The servers, installed with ``npm install --prefix DIR @playwright/mcp
@modelcontextprotocol/server-filesystem @modelcontextprotocol/server-everything`` (``DIR`` is
``--npm-prefix``, ``/tmp/peak-npm`` by default) and started with ``npx --prefix DIR BIN`` as
their READMEs say (``npx`` and its shell are part of the tree, as a host sees it):

- ``playwright``: ``@playwright/mcp`` driving a headless Chromium (``--chromium``, Debian's
  ``/usr/bin/chromium`` by default: Playwright's own download needs the network). Per round: a
  page served on 127.0.0.1 by ``http.server`` with a frame from ``localhost`` (another site,
  so another renderer), a snapshot, a screenshot, ``--tabs`` more tabs (1 by default) on
  another page, each snapshot, the tab list, those tabs closed; the browser is closed after the
  last round;
- ``filesystem``: ``@modelcontextprotocol/server-filesystem``, files written, read, listed and
  searched in its folder;
- ``everything``: ``@modelcontextprotocol/server-everything``, its echo, sum, image, gzip and
  long-running tools;
- ``python-sdk``: ``bench/sdk_echo_server.py`` (the ``mcp`` SDK's ``MCPServer``), echoes.

Each is measured ``direct`` (started by the client itself) and ``confined``, behind the bridge
(``python -m roots_manager.bridge --server NAME --confine -- ...``, its folder granted, in a
Roots Manager home of its own). Confined, the tree counted is the one the limit counts: every
process below the supervisor, so the bridge and the supervisor are left out. Direct, this
process makes itself a child subreaper, as the supervisor is, so that a process that detaches
(a double fork, Chromium's crash handler) is still counted. A run that fails says how, with the
end of its stderr, and the other runs go on.

A process that lives less than one interval can be missed: the peak is a floor, and the
samples taken are printed with it. Linux only.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import functools
import http.server
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

HERE = Path(__file__).resolve().parent
LIMIT = 1024
"""The default limit (``roots_manager.core.confinement.rules.MAX_PROCESSES``)."""
PR_SET_CHILD_SUBREAPER = 36
ANSI = re.compile(r"\x1b\[[0-9;]*m")
SUPERVISOR = b"roots_manager.sandbox.confine"
PAGE = """<!doctype html><title>{title}</title><h1>{title}</h1>
<p>A page for the process benchmark. <a href="/two.html">Another page</a></p>
<ul>{items}</ul><iframe src="{frame}" width="400" height="120"></iframe>
<script>setInterval(() => document.title = "{title} " + Date.now() % 1000, 50);</script>"""
FRAME = "<!doctype html><p>A frame from another site.</p><button>Press</button>"


# -- sampling --------------------------------------------------------------------------------


def processes() -> dict[int, tuple[int, int, str, str]]:
    """Every process on the machine: pid -> (parent, threads, state, name)."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode(errors="replace")
        except OSError:
            continue  # ended meanwhile
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        out[int(entry)] = (int(fields[1]), int(fields[17]), fields[0], name)
    return out


def below(root: int, table: dict[int, tuple[int, int, str, str]]) -> list[int]:
    """The pids of every process below *root* (not *root* itself)."""
    children: dict[int, list[int]] = {}
    for pid, (parent, *_) in table.items():
        children.setdefault(parent, []).append(pid)
    out: list[int] = []
    todo = list(children.get(root, ()))
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += children.get(pid, ())
    return out


def cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


@dataclass
class Peak:
    processes: int = 0
    threads: int = 0
    phase: str = ""
    made_of: Counter[str] = field(default_factory=Counter)
    samples: int = 0
    took: float = 0.0


class Sampler(threading.Thread):
    """Samples the tree below this process (*confined*: below the supervisor) until stopped."""

    def __init__(self, interval: float, confined: bool) -> None:
        super().__init__(daemon=True)
        self.interval = interval
        self.confined = confined
        self.phase = "start"
        self.peak = Peak()
        self.server_pid = 0  # the process the client started: never reaped here
        self._done = threading.Event()
        self._supervisor = 0

    def root(self, table: dict[int, tuple[int, int, str, str]]) -> int:
        if not self.confined:
            return os.getpid()
        if self._supervisor not in table:
            self._supervisor = 0
            for pid in below(os.getpid(), table):
                if SUPERVISOR in cmdline(pid):
                    self._supervisor = pid
                    break
        return self._supervisor

    def sample(self) -> None:
        table = processes()
        root = self.root(table)
        tree = below(root, table) if root else []
        threads = sum(table[pid][1] for pid in tree)
        peak = self.peak
        peak.samples += 1
        if len(tree) > peak.processes:
            peak.processes, peak.phase = len(tree), self.phase
            peak.made_of = Counter(table[pid][3] for pid in tree)
        peak.threads = max(peak.threads, threads)
        for pid in tree:  # orphans handed to this subreaper: reap them, as a supervisor does
            if table[pid][0] == os.getpid() and table[pid][2] == "Z" and pid != self.server_pid:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, os.WNOHANG)

    def run(self) -> None:
        start = time.perf_counter()
        due = start
        while not self._done.is_set():
            self.sample()
            due = max(due + self.interval, time.perf_counter())  # late: on from now
            self._done.wait(due - time.perf_counter())
        self.sample()
        self.peak.took = time.perf_counter() - start

    def stop(self) -> Peak:
        self._done.set()
        self.join()
        return self.peak


def leftovers() -> list[int]:
    """Processes still below this one (orphans handed to it): killed and reaped."""
    left = below(os.getpid(), processes())
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            time.sleep(0.02)
    return left


# -- what each server is asked -----------------------------------------------------------------


class Failed(Exception):
    pass


Phase = Callable[[str], None]


async def call(session: ClientSession, tool: str, args: dict[str, object] | None = None) -> str:
    result = await session.call_tool(tool, args or {})
    text = ANSI.sub("", " ".join(getattr(c, "text", "") for c in result.content))
    if result.is_error:
        lines = [line for line in text.splitlines() if line.strip() and len(line) < 400]
        raise Failed(f"{tool} answered an error: " + "\n".join([*lines[:2], "...", *lines[-14:]]))
    return text


async def drive_playwright(
    session: ClientSession, phase: Phase, site: str, rounds: int, tabs: int
) -> None:
    tools = {t.name for t in (await session.list_tools()).tools}
    for n in range(rounds):
        phase(f"round {n + 1}: navigate")
        await call(session, "browser_navigate", {"url": f"{site}/one.html"})
        phase(f"round {n + 1}: snapshot")
        await call(session, "browser_snapshot")
        phase(f"round {n + 1}: screenshot")
        await call(session, "browser_take_screenshot", {"type": "png", "scale": "css"})
        if "browser_tabs" in tools:
            for t in range(tabs):
                phase(f"round {n + 1}: tab {t + 2}")
                await call(session, "browser_tabs", {"action": "new", "url": f"{site}/two.html"})
                await call(session, "browser_snapshot")
            await call(session, "browser_tabs", {"action": "list"})
            phase(f"round {n + 1}: tabs closed")
            for _ in range(tabs):
                await call(session, "browser_tabs", {"action": "close"})
    phase("browser closed")
    await call(session, "browser_close")


async def drive_filesystem(session: ClientSession, phase: Phase, folder: Path, rounds: int) -> None:
    for n in range(rounds):
        phase(f"round {n + 1}: files")
        for i in range(20):
            path = str(folder / f"note-{n}-{i}.txt")
            await call(session, "write_file", {"path": path, "content": f"note {i}\n" * 100})
            await call(session, "read_text_file", {"path": path})
        await call(session, "list_directory", {"path": str(folder)})
        await call(session, "directory_tree", {"path": str(folder)})
        await call(session, "search_files", {"path": str(folder), "pattern": "note-1"})


async def drive_everything(session: ClientSession, phase: Phase, rounds: int) -> None:
    for n in range(rounds):
        phase(f"round {n + 1}: tools")
        for i in range(20):
            await call(session, "echo", {"message": f"hello {i}"})
            await call(session, "get-sum", {"a": i, "b": 2})
        await call(session, "get-tiny-image")
        await call(
            session,
            "gzip-file-as-resource",
            {"name": "a.txt", "data": "data:text/plain;base64,aGVsbG8="},
        )
        phase(f"round {n + 1}: long-running")
        await call(session, "trigger-long-running-operation", {"duration": 2, "steps": 4})


async def drive_python(session: ClientSession, phase: Phase, rounds: int) -> None:
    for n in range(rounds):
        phase(f"round {n + 1}: echo")
        for i in range(200):
            await call(session, "echo", {"i": i})


@dataclass
class Server:
    name: str
    command: list[str]
    drive: Callable[[ClientSession, Phase], Awaitable[None]]


def servers(args: argparse.Namespace, work: Path, site: str) -> list[Server]:
    npx = shutil.which("npx") or "npx"
    prefix = ["--prefix", str(args.npm_prefix)]
    out = work / "playwright-out"
    rounds = args.rounds
    return [
        Server(
            "playwright",
            # --no-sandbox: Chromium's own sandbox needs a user namespace, which a confined
            # server may not make, and as root Chromium starts only without it
            [
                npx,
                *prefix,
                "playwright-mcp",
                "--headless",
                "--isolated",
                "--no-sandbox",
                "--executable-path",
                args.chromium,
                "--output-dir",
                str(out),
            ],
            functools.partial(drive_playwright, site=site, rounds=rounds, tabs=args.tabs),
        ),
        Server(
            "filesystem",
            [npx, *prefix, "mcp-server-filesystem", str(work)],
            functools.partial(drive_filesystem, folder=work, rounds=rounds),
        ),
        Server(
            "everything",
            [npx, *prefix, "mcp-server-everything"],
            functools.partial(drive_everything, rounds=rounds),
        ),
        Server(
            "python-sdk",
            [sys.executable, str(HERE / "sdk_echo_server.py")],
            functools.partial(drive_python, rounds=rounds),
        ),
    ]


# -- runs ------------------------------------------------------------------------------------


@dataclass
class Run:
    server: str
    route: str
    peak: Peak
    error: str = ""
    stderr: str = ""
    left: int = 0


def bridged(name: str, command: list[str]) -> list[str]:
    return [
        sys.executable,
        "-m",
        "roots_manager.bridge",
        "--server",
        name,
        "--confine",
        "--",
        *command,
    ]


def configure(home: Path, work: Path, names: list[str]) -> None:
    """Each server confined, granted the work folder, in a Roots Manager home of its own."""
    env = dict(os.environ, ROOTS_MANAGER_HOME=str(home))
    cli = [sys.executable, "-m", "roots_manager.cli"]
    for name in names:
        for argv in (
            ["servers", "confine", name, "on", "--new"],
            ["grant", name, str(work), "--new"],
        ):
            subprocess.run([*cli, *argv], env=env, check=True, capture_output=True)


async def session_run(
    server: Server,
    command: list[str],
    env: dict[str, str],
    sampler: Sampler,
    errlog: object,
    timeout: float,
) -> None:
    params = StdioServerParameters(command=command[0], args=command[1:], env=env)
    with anyio.fail_after(timeout):
        async with stdio_client(params, errlog=errlog) as (read, write):  # type: ignore[arg-type]
            for pid in below(os.getpid(), processes()):
                sampler.server_pid = pid  # the only child of this process so far
            async with ClientSession(read, write) as session:
                sampler.phase = "initialize"
                await session.initialize()
                await server.drive(session, lambda p: setattr(sampler, "phase", p))
                sampler.phase = "idle 1 s"
                await anyio.sleep(1.0)
                sampler.phase = "closing"


def run_one(server: Server, route: str, home: Path, args: argparse.Namespace) -> Run:
    confined = route == "confined"
    command = bridged(server.name, server.command) if confined else server.command
    env = dict(os.environ, ROOTS_MANAGER_HOME=str(home))
    sampler = Sampler(args.interval, confined)
    error = ""
    with tempfile.TemporaryFile("w+") as errlog:
        sampler.start()
        try:
            anyio.run(session_run, server, command, env, sampler, errlog, args.timeout)
        except BaseException as e:  # an ExceptionGroup from the SDK's task groups, most often
            if isinstance(e, KeyboardInterrupt):
                raise
            error = failure(e)
        time.sleep(0.2)  # whatever the server's end leaves behind, seen once more
        peak = sampler.stop()
        left = leftovers()
        errlog.seek(0)
        stderr = errlog.read()
    return Run(server.name, route, peak, error, stderr, len(left))


def failure(e: BaseException) -> str:
    """The innermost causes of *e*, one line each."""
    if isinstance(e, BaseExceptionGroup):
        return "; ".join(failure(inner) for inner in e.exceptions)
    if isinstance(e, TimeoutError):
        return "timed out"
    text = str(e) or traceback.format_exception_only(e)[-1].strip()
    return f"{type(e).__name__}: {text}"


@contextlib.contextmanager
def site(folder: Path):
    """An http.server on 127.0.0.1 for the pages, whose frame comes from ``localhost``."""
    (folder / "frame.html").write_text(FRAME)
    handler = functools.partial(Quiet, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    port = httpd.server_address[1]
    for name in ("one", "two"):
        (folder / f"{name}.html").write_text(page(name.title(), port))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        httpd.shutdown()


def page(title: str, port: int) -> str:
    items = "".join(f"<li>item {i} <button>go {i}</button></li>" for i in range(50))
    return PAGE.format(title=title, items=items, frame=f"http://localhost:{port}/frame.html")


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def report(runs: list[Run]) -> None:
    print()
    print(
        f"{'server':<12} {'route':<9} {'peak processes':>14} {'peak threads':>12} "
        f"{'limit':>6} {'peak/limit':>10} {'samples':>8}  peaked during"
    )
    for r in runs:
        p = r.peak
        every = p.took / p.samples * 1000 if p.samples else 0.0
        print(
            f"{r.server:<12} {r.route:<9} {p.processes:>14,} {p.threads:>12,} {LIMIT:>6,} "
            f"{p.processes / LIMIT:>10.3f} {p.samples:>8,}  {p.phase} (every {every:.1f} ms)"
            + ("  FAILED" if r.error else "")
        )
    print()
    for r in runs:
        made = ", ".join(f"{name} x{n}" for name, n in r.peak.made_of.most_common())
        print(f"{r.server} {r.route}: at the peak: {made or 'nothing'}")
        if r.left:
            print(f"  {r.left} process(es) were still there after the session ended (killed)")
        if r.error:
            print(f"  FAILED: {r.error}")
            tail = [line for line in r.stderr.splitlines() if line.strip()][-12:]
            for line in tail:
                print(f"  | {line[:300]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--npm-prefix",
        type=Path,
        default=Path(os.environ.get("PEAK_NPM_PREFIX", "/tmp/peak-npm")),
        help="where the npm servers are installed (npm install --prefix DIR)",
    )
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--interval", type=float, default=0.01, help="seconds between samples")
    parser.add_argument("--rounds", type=int, default=2, help="times each server's work is done")
    parser.add_argument(
        "--tabs", type=int, default=1, help="Playwright: tabs opened besides the first"
    )
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds per run at most")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these servers")
    parser.add_argument("--direct-only", action="store_true", help="no run behind the bridge")
    args = parser.parse_args()
    if not sys.platform.startswith("linux"):
        sys.exit("Linux only: the tree is read from /proc")
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("could not become a child subreaper: a process that detaches is not counted")
    bins = args.npm_prefix / "node_modules/.bin"
    with tempfile.TemporaryDirectory(prefix="bench-processes-") as tmp:
        root = Path(tmp)
        home, work, pages = root / "home", root / "work", root / "site"
        for folder in (home, work, pages):
            folder.mkdir()
        with site(pages) as url:
            chosen = [s for s in servers(args, work, url) if not args.only or s.name in args.only]
            missing = [
                s.name
                for s in chosen
                if s.command[0].endswith("npx") and not (bins / s.command[3]).exists()
            ]
            for name in missing:
                print(
                    f"{name}: not installed in {args.npm_prefix} (npm install --prefix "
                    f"{args.npm_prefix} ...), left out"
                )
            chosen = [s for s in chosen if s.name not in missing]
            routes = ["direct"] if args.direct_only else ["direct", "confined"]
            if "confined" in routes:
                configure(home, work, [s.name for s in chosen])
            print(
                f"chromium: {args.chromium}; npm packages: {args.npm_prefix}; "
                f"sampling every {args.interval * 1000:.0f} ms; {args.rounds} round(s) each"
            )
            runs = []
            for server in chosen:
                for route in routes:
                    print(f"{server.name} {route} ...", flush=True)
                    runs.append(run_one(server, route, home, args))
    report(runs)


if __name__ == "__main__":
    main()
