"""Run the corpus of issue 37: real MCP servers, direct and confined, cold and warm.

Each server of ``servers.toml`` runs four times: direct (as the host would start it) and
through the real bridge with confinement on, each first in a fresh fake home (cold: empty
caches, after the user's own setup such as ``npm install``) and then again in the same home
(warm). Every run is driven over stdio with plain JSON-RPC: ``initialize``, ``tools/list`` and
one ``tools/call`` of a harmless tool that touches the granted project. The table says which
runs answered, how long the start-up took, and for a confined failure the refusal that caused
it (from the bridge's stderr, the host's log, and ``roots-manager denials``).

Tools that are not on this machine are found in a tools folder (``--tools``, or the environment
variable ``ROOTS_CORPUS_TOOLS``, default ``/work/corpus-tools``), made by ``--install-tools``:

- ``venv/bin/uv`` and ``venv/bin/uvx``: ``pip install uv`` into a private venv. Each fake home
  gets a copy in ``~/.local/bin``, where uv's own installer puts them.
- ``deno/node_modules/@deno/linux-x64-glibc/deno``: ``npm install deno`` (GitHub, where deno's
  installer downloads from, is not reachable here). Copied to ``~/.deno/bin`` as deno's installer
  does.
- ``bun/node_modules/bun/bin/bun.exe``: ``npm install bun`` (the same). Copied to
  ``~/.bun/bin/bun``, with ``bunx`` a link to it, as bun's installer does.
- pipx is installed per home with ``pip install --user pipx``, as pipx's README says.

Usage: ``PYTHONPATH=app .venv/bin/python bench/corpus/run.py [--only NAME] [--no-cold]
[--json FILE]``. The bridge and the CLI are this checkout's (``app/`` beside ``bench/``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
import tomllib
from collections import deque
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
APP = HERE.parent.parent / "app"
FIXTURES = HERE / "fixtures"
PYTHON = sys.executable
SYSTEM_PYTHON = "/usr/bin/python3"
PROTOCOL = "2025-06-18"
MODES = ("direct", "confined")
MACHINE_VARIABLES = frozenset(
    ("SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE", "PIP_CERT",
     "CURL_CA_BUNDLE", "GIT_SSL_CAINFO", "http_proxy", "https_proxy", "no_proxy",
     "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY")
)  # fmt: skip
BRIDGE_BOOT = (
    "import runpy, sys; sys.path.insert(0, sys.argv.pop(1)); sys.argv[0] = 'roots-bridge'; "
    "runpy.run_module('roots_manager.bridge', run_name='__main__', alter_sys=True)"
)


@dataclass
class Run:
    """One start of one server: what answered, when, and on failure what was said."""

    mode: str
    temp: str
    ok: bool = False
    init_s: float | None = None
    tool_s: float | None = None
    error: str = ""
    stderr_tail: list[str] = field(default_factory=list)
    bridge_lines: list[str] = field(default_factory=list)
    denials: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)


@dataclass
class Entry:
    name: str
    kind: str
    launch: str
    argv: list[str]
    readme: str
    tool: str = ""
    arguments: dict[str, Any] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    setup: str = ""
    timeout: float = 90.0
    skip: str = ""
    ci: bool = False
    """Run by CI (``--ci``): a launch shape, or a registry server that starts in seconds."""
    cwd: str = "{home}"
    """The folder the host starts the server in (a host may start it in its project's)."""
    runs: list[Run] = field(default_factory=list)


def load(path: Path) -> list[Entry]:
    with path.open("rb") as f:
        data = tomllib.load(f)
    return [Entry(**item) for item in data["server"]]


# ---- the world a run happens in ----------------------------------------------------------


class World:
    """A fake home with a user's usual files, a granted project, and Roots Manager's folder."""

    def __init__(self, root: Path, entry: Entry, mode: str, tools: Path, http: str) -> None:
        self.base = root / f"{entry.name}-{mode}"
        self.entry = entry
        self.mode = mode
        self.tools = tools
        self.http = http
        self.home = self.base / "home"
        self.src = self.home / "src"
        self.project = self.base / "work" / "project"
        self.rm_home = self.base / "rm"
        self.runtime = self.base / "run"

    def fill(self, text: str) -> str:
        return text.format(project=self.project, home=self.home, src=self.src, http=self.http)

    def fill_any(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.fill(value)
        if isinstance(value, dict):
            return {k: self.fill_any(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.fill_any(v) for v in value]
        return value

    def env(self) -> dict[str, str]:
        """What a desktop host passes a server: a small environment of its user's."""
        home = str(self.home)
        env = {
            "HOME": home,
            "USER": "root" if os.geteuid() == 0 else os.environ.get("USER", "user"),
            "LOGNAME": "root" if os.geteuid() == 0 else os.environ.get("USER", "user"),
            # where uv's, deno's and bun's installers put them, then the system's
            "PATH": ":".join(
                [f"{home}/{d}/bin" for d in (".local", ".deno", ".bun")]
                + ["/usr/local/bin", "/usr/bin", "/bin"]
            ),
            "LANG": "C.UTF-8",
            "SHELL": "/bin/bash",
            "XDG_CONFIG_HOME": f"{home}/.config",
            "XDG_CACHE_HOME": f"{home}/.cache",
            "XDG_DATA_HOME": f"{home}/.local/share",
            "XDG_STATE_HOME": f"{home}/.local/state",
            "XDG_RUNTIME_DIR": str(self.runtime),
            "ROOTS_MANAGER_HOME": str(self.rm_home),
        }
        # this machine's certificate settings (its registries are reached through a proxy
        # whose authority is in the system's bundle): a property of the machine, not the user
        env.update({k: v for k, v in os.environ.items() if k in MACHINE_VARIABLES})
        if "SSL_CERT_FILE" in env:
            env["DENO_CERT"] = env["SSL_CERT_FILE"]  # deno reads no other variable for it
        return env

    def exists(self) -> bool:
        return (self.base / "ready").exists()

    def create(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)
        for folder in (self.home / ".ssh", self.src, self.project / "src", self.rm_home):
            folder.mkdir(parents=True)
        self.runtime.mkdir(mode=0o700)
        (self.home / ".gitconfig").write_text(
            "[user]\n\tname = Corpus User\n\temail = user@example.invalid\n", encoding="utf-8"
        )
        (self.home / ".ssh" / "id_ed25519").write_text("not a real key\n", encoding="utf-8")
        (self.home / ".bashrc").write_text("# the user's shell settings\n", encoding="utf-8")
        p = self.project
        (p / "README.md").write_text("# Project\n\nA project granted to a server.\n")
        (p / "notes.txt").write_text("notes\n")
        (p / "index.html").write_text("<html><body><h1>Project</h1></body></html>\n")
        (p / "src" / "app.py").write_text("def main():\n    return 42\n")
        with contextlib.closing(sqlite3.connect(p / "data.db")) as db:
            db.execute("create table notes (id integer primary key, text text)")
            db.execute("insert into notes (text) values ('hello')")
            db.commit()
        git = ["git", "-C", str(p)]
        quiet = {"check": True, "capture_output": True, "env": self.env()}
        subprocess.run([*git, "init", "-q", "-b", "main"], **quiet)
        subprocess.run([*git, "add", "-A"], **quiet)
        subprocess.run([*git, "commit", "-q", "-m", "first"], **quiet)
        setup(self)
        if self.mode == "confined":
            self.grant()
        (self.base / "ready").touch()

    def cli(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        env = {**self.env(), "PYTHONPATH": str(APP)}
        proc = subprocess.run(
            [PYTHON, "-m", "roots_manager.cli", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        if check and proc.returncode != 0:
            raise RuntimeError(f"roots-manager {' '.join(args)}: {proc.stderr.strip()}")
        return proc

    def grant(self) -> None:
        """The project granted to the server, confinement on: tests/security/confined.py's way."""
        self.cli("roots", "add", str(self.project))
        self.cli("grant", "--new", self.entry.name, str(self.project))
        self.cli("servers", "confine", self.entry.name, "on")


def _sh(world: World, argv: list[str], cwd: Path | None = None, timeout: float = 600) -> None:
    env = world.env()
    proc = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError(f"setup {' '.join(argv)}: {proc.stderr.strip()[-800:]}")


def _copy_tool(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _list_files_py(world: World, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(FIXTURES / "list_files_server.py", folder / "server.py")


def _node_project(world: World, folder: Path, *extra: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(FIXTURES / "package.json.in", folder / "package.json")
    shutil.copy(FIXTURES / "index.js", folder / "index.js")
    shutil.copy(FIXTURES / "server.ts", folder / "server.ts")
    (folder / ".env").write_text("export GREETING=from-the-env-file\n", encoding="utf-8")
    _sh(world, ["npm", "install", "--no-audit", "--no-fund", *extra], cwd=folder)


def setup(world: World) -> None:
    """What the user did before configuring the server, as its README says."""
    step = world.entry.setup
    local_bin = world.home / ".local" / "bin"
    if step in ("uv", "uv-project"):
        for name in ("uv", "uvx"):
            _copy_tool(world.tools / "venv" / "bin" / name, local_bin / name)
    if step == "uv":
        pass
    elif step == "uv-project":
        folder = world.src / "list-files"
        _list_files_py(world, folder)
        shutil.copy(FIXTURES / "pyproject.toml.in", folder / "pyproject.toml")
        _sh(world, [str(local_bin / "uv"), "sync", "-q"], cwd=folder)
    elif step == "venv":
        folder = world.src / "list-files"
        _list_files_py(world, folder)
        _sh(world, [SYSTEM_PYTHON, "-m", "venv", str(folder / ".venv")])
        _sh(world, [str(folder / ".venv" / "bin" / "pip"), "install", "-q", "mcp[cli]"])
    elif step == "user-site":
        _list_files_py(world, world.src / "list-files")
        # Debian's python is "externally managed": --user needs --break-system-packages
        user = ["--user", "--break-system-packages"]
        _sh(world, [SYSTEM_PYTHON, "-m", "pip", "install", "-q", *user, "mcp[cli]"])
    elif step == "pipx":
        user = ["--user", "--break-system-packages"]
        _sh(world, [SYSTEM_PYTHON, "-m", "pip", "install", "-q", *user, "pipx"])
    elif step == "npm-filesystem":
        folder = world.src / "servers"
        folder.mkdir(parents=True)
        _sh(world, ["npm", "init", "-y"], cwd=folder)
        _sh(world, ["npm", "install", "--no-audit", "--no-fund", "@modelcontextprotocol/server-filesystem"], cwd=folder)  # fmt: skip
    elif step in ("node-project", "ts-project"):
        _node_project(world, world.src / "list-files")
    elif step == "ts-linked":
        _node_project(world, world.src / "list-files")
        linked = world.src / "list-files-linked"
        linked.mkdir()
        for name in ("package.json", "server.ts"):
            shutil.copy(world.src / "list-files" / name, linked / name)
        (linked / "node_modules").symlink_to(world.src / "list-files" / "node_modules")
    elif step == "deno":
        deno = world.tools / "deno" / "node_modules" / "@deno" / "linux-x64-glibc" / "deno"
        _copy_tool(deno, world.home / ".deno" / "bin" / "deno")
    elif step == "bun":
        bun = world.home / ".bun" / "bin" / "bun"
        _copy_tool(world.tools / "bun" / "node_modules" / "bun" / "bin" / "bun.exe", bun)
        (bun.parent / "bunx").symlink_to("bun")
    elif step:
        raise RuntimeError(f"unknown setup step {step!r}")


def install_tools(tools: Path) -> None:
    tools.mkdir(parents=True, exist_ok=True)
    if not (tools / "venv" / "bin" / "uv").exists():
        subprocess.run([SYSTEM_PYTHON, "-m", "venv", str(tools / "venv")], check=True)
        subprocess.run([str(tools / "venv" / "bin" / "pip"), "install", "-q", "uv"], check=True)
    if not (tools / "deno" / "node_modules" / "deno").exists():
        (tools / "deno").mkdir(exist_ok=True)
        subprocess.run(["npm", "init", "-y"], cwd=tools / "deno", check=True)
        subprocess.run(["npm", "install", "deno"], cwd=tools / "deno", check=True)
    if not (tools / "bun" / "node_modules" / "bun").exists():
        (tools / "bun").mkdir(exist_ok=True)
        subprocess.run(["npm", "init", "-y"], cwd=tools / "bun", check=True)
        subprocess.run(["npm", "install", "bun"], cwd=tools / "bun", check=True)


# ---- driving one server -----------------------------------------------------------------


class Peer:
    """A server (or a bridge) on stdio, spoken to in JSON-RPC lines."""

    def __init__(self, proc: asyncio.subprocess.Process, roots: list[dict[str, str]]) -> None:
        self.proc = proc
        self.roots = roots
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.stderr: deque[str] = deque(maxlen=400)
        self.tasks = [
            asyncio.create_task(self._read()),
            asyncio.create_task(self._read_stderr()),
        ]

    async def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        await self.proc.stdin.drain()

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            try:
                msg = json.loads(line)
            except ValueError:
                self.stderr.append(f"[stdout, not JSON] {line[:200]!r}")
                continue
            if not isinstance(msg, dict):
                continue
            if "method" in msg and "id" in msg:
                await self._answer(msg)
            elif "id" in msg and msg["id"] in self.waiting:
                fut = self.waiting.pop(msg["id"])
                if not fut.done():
                    fut.set_result(msg)
        for fut in self.waiting.values():
            if not fut.done():
                fut.set_exception(EOFError("the server closed its stdout"))

    async def _answer(self, msg: dict[str, Any]) -> None:
        if msg["method"] == "roots/list":
            reply: dict[str, Any] = {"result": {"roots": self.roots}}
        elif msg["method"] == "ping":
            reply = {"result": {}}
        else:
            reply = {"error": {"code": -32601, "message": "not supported by this host"}}
        with contextlib.suppress(OSError, RuntimeError):
            await self._send({"jsonrpc": "2.0", "id": msg["id"], **reply})

    async def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        while line := await self.proc.stderr.readline():
            self.stderr.append(line.decode(errors="replace").rstrip())

    async def request(self, rid: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = fut
        await self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        answer = await fut
        if "error" in answer:
            raise RuntimeError(f"{method}: error {answer['error']}")
        return answer["result"]

    async def notify(self, method: str) -> None:
        await self._send({"jsonrpc": "2.0", "method": method})

    async def close(self) -> None:
        """The SDK's way: close stdin, wait, SIGTERM, wait, SIGKILL (the whole group)."""
        with contextlib.suppress(OSError, RuntimeError):
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, sig)
            try:
                await asyncio.wait_for(self.proc.wait(), 2)
                break
            except TimeoutError:
                continue
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)  # what the server left behind
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def drive(world: World, run: Run) -> None:
    entry = world.entry
    argv = [world.fill(a) for a in entry.argv]
    env = {**world.env(), **{k: world.fill(v) for k, v in entry.env.items()}}
    if run.mode == "confined":
        argv = [PYTHON, "-c", BRIDGE_BOOT, str(APP), "--server", entry.name, "--", *argv]
    roots = [{"uri": world.project.as_uri(), "name": "project"}]
    started = time.monotonic()
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
            cwd=world.fill(entry.cwd),
            start_new_session=True,
            limit=64 * 1024 * 1024,
        )
    except OSError as exc:
        run.error = f"cannot start: {exc}"
        return
    peer = Peer(proc, roots)
    try:
        init = {
            "protocolVersion": PROTOCOL,
            "capabilities": {"roots": {"listChanged": True}},
            "clientInfo": {"name": "roots-corpus", "version": "1"},
        }
        await asyncio.wait_for(peer.request(1, "initialize", init), entry.timeout)
        run.init_s = time.monotonic() - started
        await peer.notify("notifications/initialized")
        listed = await asyncio.wait_for(peer.request(2, "tools/list", {}), 60)
        run.tools = [t.get("name", "") for t in listed.get("tools", [])]
        if entry.tool:
            if entry.tool not in run.tools:
                raise RuntimeError(f"no tool {entry.tool} (has {', '.join(run.tools)})")
            params = {"name": entry.tool, "arguments": world.fill_any(entry.arguments)}
            result = await asyncio.wait_for(peer.request(3, "tools/call", params), 90)
            if result.get("isError"):
                texts = [c.get("text", "") for c in result.get("content", [])]
                raise RuntimeError(f"tool error: {' '.join(texts)[-3000:]}")
        run.tool_s = time.monotonic() - started
        run.ok = True
    except TimeoutError:
        run.error = "timed out"
    except (EOFError, RuntimeError, OSError) as exc:
        run.error = str(exc)[-3000:]
    finally:
        await peer.close()
        if not run.ok and proc.returncode is not None:
            run.error += f" (exit {proc.returncode})"
    lines = list(peer.stderr)
    run.bridge_lines = [line for line in lines if line.startswith("roots-bridge:")]
    run.stderr_tail = lines[-40:]
    if run.mode == "confined":
        await asyncio.sleep(0.3)  # the last refusals reach the event log
        since = f"{int(time.monotonic() - started) + 2}s"  # this run's, not the cold one's
        deny = ("denials", "--server", entry.name, "--since", since)
        out = await asyncio.to_thread(world.cli, *deny, check=False)
        run.denials = (out.stdout + out.stderr).strip().splitlines()[-40:]


async def one(entry: Entry, args: argparse.Namespace, http: str, gate: asyncio.Semaphore) -> None:
    async with gate:
        for mode in MODES:
            world = World(args.work, entry, mode, args.tools, http)
            temps = ["warm"] if args.no_cold else ["cold", "warm"]
            if args.no_cold and not world.exists():
                temps = ["prime", "warm"]
            for temp in temps:
                run = Run(mode, temp)
                if temp != "warm":
                    try:
                        await asyncio.to_thread(world.create)
                    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
                        run.error = f"setup failed: {exc}"[:600]
                        entry.runs.append(run)
                        break
                await drive(world, run)
                if temp != "prime":
                    entry.runs.append(run)
                say = "ok" if run.ok else f"FAIL {run.error[:100]}"
                print(f"  {entry.name:22} {mode:8} {temp:4} {say}", file=sys.stderr, flush=True)


# ---- the report -------------------------------------------------------------------------

REFUSAL = re.compile(r"confined: (.*)")
NOISE = re.compile(r"^\S+ /sys/|\.gitconfig refused at start-up \[npm exec")
DENIAL_NOISE = re.compile(r"\s/sys/|\.gitconfig .*\[npm exec")
"""Refusals every such server survives (npx reading ~/.gitconfig, uv and esbuild reading
/sys/kernel/mm, ps listing /sys/devices): a cause only when nothing else was refused."""


def cause(entry: Entry, home: str) -> str:
    """What a confined failure said: the first refusal the bridge printed (of any failed run:
    a cold one may have timed out before it), else the first denial, else the server's own last
    words; a refusal every server survives only when there is nothing else."""
    failed = [r for r in entry.runs if r.mode == "confined" and not r.ok]
    if not failed:
        return ""
    told = [m.group(1) for r in failed for m in map(REFUSAL.search, r.bridge_lines) if m]
    noise = ("no denials", "time", "when")
    denied = [
        re.sub(r"^\S+\s+\S+\s+", "", d.strip())
        for r in failed
        for d in r.denials
        if d.strip() and not d.lower().startswith(noise)
    ]
    candidates = [
        *(t for t in told if not NOISE.search(t)),
        *(d for d in denied if not DENIAL_NOISE.search(d)),
        *told,
        *denied,
    ]
    if candidates:
        return candidates[0].replace(home, "~")[:90]
    run = failed[0]
    tail = run.stderr_tail[-1] if run.stderr_tail else run.error
    return tail.replace(home, "~")[:90]


def find(entry: Entry, mode: str, temp: str) -> Run | None:
    return next((r for r in entry.runs if r.mode == mode and r.temp == temp), None)


def cell(run: Run | None) -> str:
    if run is None:
        return "-"
    if run.ok:
        return f"ok {run.init_s:.1f}s"
    return "FAIL"


def works(entry: Entry, mode: str) -> bool:
    runs = [r for r in entry.runs if r.mode == mode]
    return bool(runs) and all(r.ok for r in runs)


def median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}s" if values else "-"


def report(entries: list[Entry], root: Path) -> str:
    head = ("server", "kind", "launch", "direct cold", "direct warm", "conf. cold",
            "conf. warm", "cause (confined)")  # fmt: skip
    rows = []
    for e in entries:
        home = str(root / f"{e.name}-confined" / "home")
        rows.append((e.name, e.kind, e.launch, cell(find(e, "direct", "cold")),
                     cell(find(e, "direct", "warm")), cell(find(e, "confined", "cold")),
                     cell(find(e, "confined", "warm")), cause(e, home)))  # fmt: skip
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    lines = ["| " + " | ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)) + " |"]
    lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        cells = (str(c).ljust(w) for c, w in zip(row, widths, strict=True))
        lines.append("| " + " | ".join(cells) + " |")
    direct = [e for e in entries if works(e, "direct")]
    both = [e for e in direct if works(e, "confined")]
    registry = [e for e in direct if e.kind != "shape"]
    registry_both = [e for e in registry if works(e, "confined")]
    lines.append("")
    lines.append(f"launches run: {len(entries)}; work direct: {len(direct)}; of those, work "
                 f"confined with no user action: {len(both)} of {len(direct)} "
                 f"(registry servers: {len(registry_both)} of {len(registry)})")  # fmt: skip
    for temp in ("cold", "warm"):
        for what in ("init_s", "tool_s"):
            d = [getattr(find(e, "direct", temp), what) for e in both if find(e, "direct", temp)]
            c = [
                getattr(find(e, "confined", temp), what) for e in both if find(e, "confined", temp)
            ]
            d = [v for v in d if v is not None]
            c = [v for v in c if v is not None]
            label = "to initialize answer" if what == "init_s" else "to tool answer"
            lines.append(f"median {temp} {label} (launches working both ways): "
                         f"direct {median(d)}, confined {median(c)}")  # fmt: skip
    never = [e.name for e in entries if not works(e, "direct")]
    if never:
        lines.append(f"fail direct (not counted): {', '.join(never)}")
    return "\n".join(lines)


def serve(folder: Path) -> tuple[str, http.server.ThreadingHTTPServer]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "README.md").write_text("# Served\n\nA page for the fetch tools.\n")
    (folder / "index.html").write_text("<html><body><h1>Served</h1></body></html>\n")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="this server only (repeatable)")
    parser.add_argument("--no-cold", action="store_true", help="warm runs only")
    parser.add_argument("--json", type=Path, help="write every run here")
    parser.add_argument("--servers", type=Path, default=HERE / "servers.toml")
    parser.add_argument("--work", type=Path, default=Path("/tmp/rm-corpus"))
    default_tools = os.environ.get("ROOTS_CORPUS_TOOLS", "/work/corpus-tools")
    parser.add_argument("--tools", type=Path, default=Path(default_tools))
    parser.add_argument("--install-tools", action="store_true")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--report", type=Path, help="print the table of a --json file, run nothing")
    parser.add_argument("--ci", action="store_true", help="the servers marked ci = true only")
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if a launch that works direct does not work confined (the goal)",
    )
    args = parser.parse_args()
    if args.install_tools:
        install_tools(args.tools)
    entries = load(args.servers)
    order = [e.name for e in entries]
    if args.report:
        print(report(merged(args.report, [], order), args.work))
        return 0
    if args.only:
        wanted = {n for item in args.only for n in item.split(",")}
        entries = [e for e in entries if e.name in wanted]
    if args.ci:
        entries = [e for e in entries if e.ci]
    entries = [e for e in entries if not e.skip]
    args.work.mkdir(parents=True, exist_ok=True)
    http, server = serve(args.work / "www")
    gate = asyncio.Semaphore(args.jobs)
    started = time.monotonic()
    try:
        await asyncio.gather(*(one(e, args, http, gate) for e in entries))
    finally:
        server.shutdown()
    elapsed = time.monotonic() - started
    if args.json:
        entries = merged(args.json, entries, order)
        args.json.write_text(json.dumps([asdict(e) for e in entries], indent=1))
    print(report(entries, args.work))
    print(f"\n{time.strftime('%Y-%m-%d %H:%M %Z')}, {elapsed:.0f}s")
    missed = [e.name for e in entries if works(e, "direct") and not works(e, "confined")]
    if args.check and missed:
        print(f"work direct, not confined: {', '.join(missed)} (the causes above)")
        return 1
    return 0


def merged(path: Path, entries: list[Entry], order: list[str]) -> list[Entry]:
    """*entries* in place of the same servers' in the runs kept in *path* (``--only`` reruns)."""
    if not path.exists():
        return entries
    kept = {e["name"]: e for e in json.loads(path.read_text())}
    for e in entries:
        kept[e.name] = asdict(e)
    out = []
    for name in order:
        if name in kept:
            item = dict(kept[name])
            runs = [Run(**r) for r in item.pop("runs")]
            out.append(Entry(**item, runs=runs))
    return out


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
