"""A hostile server confined behind a real bridge, driven by a scripted host, as root or a user.

:class:`World` lays out a fake home with secrets, a granted folder, a read-only one and a sibling
outside the grants, under a folder an ordinary user can reach. :class:`Hostile` starts the real
bridge (``python -m roots_manager.bridge``) in front of :mod:`tests.fakes.hostile_server`,
confined by the stored setting, optionally as the unprivileged test user (``setpriv``), and
calls the server's ``attack`` tool over the bridge's stdio, as a host would.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from tests.bridge.wire import bridge_argv
from tests.conftest import run_cli
from tests.fakes import FAKES
from tests.polling import wait_for

HOSTILE = FAKES / "hostile_server.py"
SECRET = "the private key\n"


class Unprivileged(NamedTuple):
    """A user id and group id that no account and no running process has."""

    pw_uid: int
    pw_gid: int


_unprivileged: list[Unprivileged] = []


def unprivileged_user() -> Unprivileged:
    """The ordinary user the tests that differ between root and a user also run as, when root
    runs them: an id no account has (``setpriv`` needs no account), nor any process, so that
    nothing of anyone else's shares it and no set-up step has to make a user."""
    import grp
    import pwd

    if _unprivileged:
        return _unprivileged[0]
    running = set()
    for name in os.listdir("/proc"):
        try:
            status = Path(f"/proc/{name}/status").read_text(encoding="ascii", errors="replace")
        except OSError:
            continue
        running |= {line.split()[1] for line in status.splitlines() if line.startswith("Uid:")}
    for uid in range(61000, 62000):
        try:
            pwd.getpwuid(uid)
            continue
        except KeyError:
            pass
        try:
            grp.getgrgid(uid)
            continue
        except KeyError:
            pass
        if str(uid) not in running:
            _unprivileged.append(Unprivileged(uid, uid))
            return _unprivileged[0]
    raise AssertionError("no free user id between 61000 and 62000 to run a confined server as")


def users() -> list[str]:
    """Who the tests that differ between root and a user run as, here."""
    return ["root", "user"] if os.geteuid() == 0 else ["user"]


class World:
    """The folders a confined server is tried in, owned by whoever it runs as."""

    def __init__(self, who: str) -> None:
        self.who = who
        # under /tmp rather than pytest's folder, which only root may enter
        self.base = Path(tempfile.mkdtemp(prefix="rm-security-"))
        self.base.chmod(0o755)
        self.home = self.base / "home"
        self.granted = self.base / "work" / "granted"
        self.read_only = self.base / "work" / "reference"
        self.sibling = self.base / "work" / "sibling"
        self.rm_home = self.base / "rm-home"
        for folder in (self.home / ".ssh", self.granted, self.read_only, self.sibling):
            folder.mkdir(parents=True)
        self.key = self.home / ".ssh" / "id_rsa"
        self.key.write_text(SECRET, encoding="utf-8")
        self.key.chmod(0o600)
        (self.read_only / "notes.txt").write_text("reference\n", encoding="utf-8")
        (self.sibling / "notes.txt").write_text("sibling\n", encoding="utf-8")
        self.env = {**os.environ, "ROOTS_MANAGER_HOME": str(self.rm_home), "HOME": str(self.home)}
        self._followers: list[subprocess.Popen[str]] = []

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``roots-manager ARGS`` on this world's store (as root: the files are handed over
        to the user before its bridge starts)."""
        saved = os.environ.get("ROOTS_MANAGER_HOME")
        os.environ["ROOTS_MANAGER_HOME"] = str(self.rm_home)
        try:
            proc = run_cli(*args)
        finally:
            if saved is not None:
                os.environ["ROOTS_MANAGER_HOME"] = saved
        self.hand_over()
        return proc

    def cli_as_owner(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``roots-manager ARGS`` run as whoever runs the server: a request it writes for a
        running bridge (a restart) must be the bridge's to read."""
        if self.who != "user" or os.geteuid() != 0:
            return self.cli(*args)
        argv, env = self._as_owner(*args)
        return subprocess.run(
            argv, env=env, capture_output=True, text=True, timeout=60, check=False
        )

    def _as_owner(self, *args: str) -> tuple[list[str], dict[str, str]]:
        """The command line and environment of ``roots-manager ARGS`` as whoever runs the
        server."""
        if self.who != "user" or os.geteuid() != 0:
            return [sys.executable, "-m", "roots_manager.cli", *args], self.env
        user = unprivileged_user()
        env = {**self.env, "PYTHONPATH": os.pathsep.join(_importable())}
        return [
            "setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups",
            "--", user_python(), "-m", "roots_manager.cli", *args,
        ], env  # fmt: skip

    def answering(self) -> subprocess.Popen[str]:
        """Start ``roots-manager questions --follow --json`` as whoever runs the server, as a
        script that answers would (ended by :meth:`close`): while it runs, a read outside the
        grants made for a host's request waits for an answer. Its questions come on its
        stdout, one a line."""
        self.hand_over()
        argv, env = self._as_owner("questions", "--follow", "--json")
        follower = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, text=True)
        self._followers.append(follower)
        wait_for(
            lambda: list((self.rm_home / "live").glob("answerer-*.json")),
            "the follower's answerer marker",
        )
        return follower

    def setup(self, *extra: str) -> None:
        """The usual grants: *granted* writable, *reference* read-only, confinement on."""
        for folder in (self.granted, self.read_only, self.sibling):
            self.cli("roots", "add", str(folder))
        self.cli("grant", "--new", "srv", str(self.granted))
        self.cli("grant", "srv", str(self.read_only), "--read-only")
        self.cli("servers", "confine", "srv", "on", *extra)

    def grant_confined(self, folder: Path, *, broad: bool = False) -> None:
        """*folder* (the home: *broad*) granted writable to ``srv``, confined."""
        self.cli("roots", "add", str(folder), *(("--allow-broad",) if broad else ()))
        self.cli("grant", "--new", "srv", str(folder))
        self.cli("servers", "confine", "srv", "on")

    def hand_over(self) -> None:
        """Give every file of this world to the test user, when the server runs as it."""
        if self.who != "user" or os.geteuid() != 0:
            return
        user = unprivileged_user()
        for top, folders, files in os.walk(self.base):
            for name in [top, *(os.path.join(top, n) for n in folders + files)]:
                os.lchown(name, user.pw_uid, user.pw_gid)

    def denials(self) -> list[dict[str, Any]]:
        """The denial events in this world's logs, oldest first."""
        found = []
        for path in sorted((self.rm_home / "logs").glob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                rec = json.loads(line)
                if rec.get("kind") == "denial":
                    found.append(rec)
        return found

    def close(self) -> None:
        for follower in self._followers:
            follower.terminate()
            follower.wait(10)
        shutil.rmtree(self.base, ignore_errors=True)


def user_python() -> str:
    """An interpreter the test user may run (this one may sit in root's home, closed to it)."""
    found = shutil.which(f"python{sys.version_info[0]}.{sys.version_info[1]}", path="/usr/bin:/bin")
    if found is None:
        raise AssertionError("the system's python of this version runs the bridge as a user")
    return found


def run_by(world: World, program: str, *words: str) -> list[str]:
    """The hostile server, run by a program called *program* (``uvx``, or a server's ``bin``
    as npm installs it) given *words*: they name the package, which decides the folders a
    server is derived. The server's script comes last, where the program finds it (and
    derivation, to read it)."""
    path = world.base / "bin" / program
    path.parent.mkdir(exist_ok=True)
    run_last = f'for word; do last=$word; done\nexec {user_python()} "$last"\n'
    path.write_text("#!/bin/sh\n" + run_last, encoding="utf-8")
    path.chmod(0o755)
    return [str(path), *words, str(HOSTILE)]


def derived(world: World, monkeypatch: pytest.MonkeyPatch) -> dict[str, dict[str, str]]:
    """What ``servers show srv`` lists as derived from its command line, by path."""
    monkeypatch.setenv("HOME", str(world.home))  # where the bridge found the folders
    shown = json.loads(world.cli("servers", "show", "srv", "--json").stdout)
    return {d["path"]: d for d in shown["derived"]}


_user_can_run: list[bool] = []


def _check_user_can_run(env: dict[str, str]) -> None:
    """Fail once, saying why, when the test user cannot reach this checkout or its packages
    (a folder above it only root may enter)."""
    if _user_can_run:
        return
    user = unprivileged_user()
    probe = subprocess.run(
        ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--",
         user_python(), "-c", "import roots_manager.bridge, watchfiles"],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if probe.returncode != 0:
        raise AssertionError(
            f"an ordinary user cannot import the bridge from {_importable()}: every folder "
            f"above them must be enterable by others (o+x)\n{probe.stderr}"
        )
    _user_can_run.append(True)


def _importable() -> list[str]:
    """Where this interpreter finds roots_manager and its dependencies, for the user's one."""
    import sysconfig

    import roots_manager

    paths = sysconfig.get_paths()
    return [str(Path(roots_manager.__file__).parents[1]), paths["purelib"], paths["platlib"]]


class Hostile:
    """The hostile server behind a real bridge, and the host that calls it."""

    def __init__(
        self,
        world: World,
        command: list[str] | None = None,
        *,
        stderr: int | None = None,
        options: tuple[str, ...] = (),
        name: str = "srv",
        ambient: str = "",
        bridge_python: str | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.world = world
        world.hand_over()
        argv = bridge_argv(name, command or [sys.executable, str(HOSTILE)], *options)
        if world.who == "user" and os.geteuid() == 0:
            user = unprivileged_user()
            argv = [
                "setpriv",
                f"--reuid={user.pw_uid}",
                f"--regid={user.pw_gid}",
                "--clear-groups",
                # a user's process may hold capabilities too: ambient ones survive exec
                *([f"--inh-caps=+{ambient}", f"--ambient-caps=+{ambient}"] if ambient else []),
                "--",
                *argv,
            ]
        env = world.env
        if world.who == "user" and os.geteuid() == 0:
            env = {**env, "PYTHONPATH": os.pathsep.join(_importable())}
            _check_user_can_run(env)
            argv = [user_python() if a == sys.executable else a for a in argv]
        if bridge_python is not None:
            # the bridge from another environment (a venv of the test's), the code from here
            env = {**env, "PYTHONPATH": os.pathsep.join(_importable())}
            at = argv.index(
                user_python() if world.who == "user" and os.geteuid() == 0 else sys.executable
            )
            argv[at] = bridge_python
        self.errors: list[bytes] = []
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE if stderr is None else stderr,
            env=env,
            cwd=str(world.base if cwd is None else cwd),  # where the host starts the bridge
        )
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._errors_read: threading.Thread | None = None
        if stderr is None:
            self._errors_read = threading.Thread(target=self._read_errors, daemon=True)
            self._errors_read.start()
        self.next_id = 0
        self.request("initialize", {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "security-test", "version": "1"},
        })  # fmt: skip
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                self.lines.put(json.loads(line))
            except ValueError:
                continue
        self.lines.put(None)

    def _read_errors(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.errors.append(line)

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            # the bridge ended first (a server it would not start): the read that follows
            # says so, with the bridge's last words
            with contextlib.suppress(BrokenPipeError):
                self.proc.stdin.close()

    def request(self, method: str, params: dict[str, Any], timeout: float = 60) -> Any:
        self.next_id += 1
        ident = self.next_id
        self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        while True:
            try:
                msg = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(
                    f"no answer to {method} in {timeout} s: {self.stderr()}"
                ) from None
            if msg is None:
                raise AssertionError(
                    f"the bridge closed before answering {method}: {self.last_words()}"
                )
            if msg.get("id") == ident and "method" not in msg:
                if "error" in msg:
                    raise AssertionError(f"{method} failed: {msg['error']}")
                return msg["result"]

    def attack(self, what: str, **arguments: Any) -> str:
        """The outcome of attack *what*: ``ok...`` or an error's name."""
        result = self.request(
            "tools/call", {"name": "attack", "arguments": {"what": what, **arguments}}
        )
        return str(result["content"][0]["text"])

    def pid(self) -> int:
        return int(self.attack("pid").split(":", 1)[1])

    def restarted(self, old: int, timeout: float = 60) -> int:
        """Wait until the server runs with a pid other than *old*; return it."""
        return wait_for(lambda: (p := self.pid()) != old and p, "the server's restart", timeout)

    def stderr(self) -> str:
        return b"".join(self.errors).decode(errors="replace")[-4000:]

    def last_words(self) -> str:
        """The bridge's exit code and all it wrote on stderr, once it has ended; a line said
        again and again is shown once, with its count, so the last one (why it ended) shows."""
        try:
            code: int | str = self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            code = "none yet"
        if self._errors_read is not None:
            self._errors_read.join(timeout=15)
        said = b"".join(
            line if n == 1 else b"(%dx) " % n + line for line, n in Counter(self.errors).items()
        ).decode(errors="replace")
        logged = [
            {k: v for k, v in e.items() if k not in ("time", "session", "server")}
            for e in ev.iter_events(Layout(self.world.rm_home))
        ]
        last = "\n".join(map(json.dumps, logged[-12:]))
        return f"exit code {code}; stderr:\n{said[-4000:]}\nits log's last events:\n{last}"

    def close(self) -> None:
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def alive(pid: int) -> bool:
    """Whether process *pid* runs (a zombie does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


@pytest.fixture
def world(request: pytest.FixtureRequest) -> Iterator[World]:
    """A :class:`World` for whoever the test's ``who`` parameter names (root by default)."""
    who = getattr(request, "param", "root" if os.geteuid() == 0 else "user")
    w = World(who)
    yield w
    w.close()
