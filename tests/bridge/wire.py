"""Real processes on both sides of a real bridge: a scripted host and a puppet server.

The test plays the host by writing the bridge's stdin and reading its stdout, and plays the
server through :mod:`tests.fakes.puppet_server`, a real child process of the bridge whose stdio
is relayed to the test over a local socket. Every wait polls for a condition with a generous
bound and fails with a message saying what did not arrive.
"""

from __future__ import annotations

import json
import os
import queue
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from roots_manager.core.store.file import Store
from tests.fakes import FAKES
from tests.polling import WAIT, wait_for

PUPPET = FAKES / "puppet_server.py"
Msg = Any


BRIDGE_MODULE = ("-m", "roots_manager.bridge")


def bridge_argv(
    name: str, command: list[str], *options: str, run: tuple[str, ...] = BRIDGE_MODULE
) -> list[str]:
    """The command line of a bridge in front of *command* (*run*: how Python starts it)."""
    return [
        sys.executable,
        *run,
        "--server",
        name,
        *options,
        "--",
        *command,
    ]


def run_to_its_end(argv: list[str], **options: Any) -> subprocess.CompletedProcess[str]:
    """Run a bridge whose host keeps its stdin open until the server ends by itself.

    With ``stdin=DEVNULL`` the host's input ends at once, so the bridge starts the stop ladder
    while the server still works, and a server slower than the ladder's first step (a loaded
    machine) is stopped with SIGTERM: a test of what the server does must not race that."""
    held, kept = os.pipe()
    try:
        return subprocess.run(
            argv, stdin=held, capture_output=True, text=True, timeout=120, **options
        )
    finally:
        os.close(held)
        os.close(kept)


def _encode(msg: Msg) -> bytes:
    if isinstance(msg, bytes):
        return msg if msg.endswith(b"\n") else msg + b"\n"
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def _decode(line: bytes) -> Msg:
    try:
        return json.loads(line)
    except ValueError:
        return line


class _Lines:
    """Lines read by a thread from a byte stream, kept in order for the test to inspect."""

    def __init__(self, stream: Any, label: str) -> None:
        self.label = label
        self.q: queue.Queue[bytes | None] = queue.Queue()
        self.seen: list[bytes] = []
        self.closed = False
        self._thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self._thread.start()

    def _pump(self, stream: Any) -> None:
        for line in iter(stream.readline, b""):
            self.q.put(line)
        self.q.put(None)

    def _drain(self) -> None:
        while True:
            try:
                item = self.q.get_nowait()
            except queue.Empty:
                return
            if item is None:
                self.closed = True
            else:
                self.seen.append(item)

    def expect(self, pred: Callable[[Msg], bool], what: str, timeout: float = WAIT) -> Msg:
        """The first line not yet taken that satisfies *pred* (decoded as JSON when it is)."""

        def find() -> Msg:
            self._drain()
            for i, line in enumerate(self.seen):
                msg = _decode(line)
                if pred(msg):
                    del self.seen[i]
                    return msg if msg is not None else True
            return None

        return wait_for(find, f"{what} on {self.label}", timeout)

    def raw(self, pred: Callable[[bytes], bool], what: str, timeout: float = WAIT) -> bytes:
        """The first raw line satisfying *pred*."""

        def find() -> bytes | None:
            self._drain()
            for i, line in enumerate(self.seen):
                if pred(line):
                    del self.seen[i]
                    return line
            return None

        return wait_for(find, f"{what} on {self.label}", timeout)

    def all(self) -> list[Msg]:
        self._drain()
        return [_decode(x) for x in self.seen]

    def wait_closed(self, timeout: float = WAIT) -> None:
        def done() -> bool:
            self._drain()
            return self.closed

        wait_for(done, f"{self.label} to close", timeout)


class Puppet:
    """The server side: a listening socket the puppet server process connects to."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.conn: socket.socket | None = None
        self.lines: _Lines | None = None
        self.pid: int | None = None

    def command(self, *extra: str) -> list[str]:
        return [sys.executable, str(PUPPET), str(self.port), *extra]

    def accept(self, timeout: float = WAIT) -> None:
        self.listener.settimeout(timeout)
        self.conn, _ = self.listener.accept()
        self.conn.settimeout(None)
        self.lines = _Lines(self.conn.makefile("rb"), "the server's stdin")
        hello = self.lines.raw(lambda b: b.startswith(b"!!pid "), "the puppet's hello")
        self.pid = int(hello.split()[1])

    def send(self, msg: Msg) -> None:
        """Write *msg* on the server's stdout."""
        assert self.conn is not None
        self.conn.sendall(_encode(msg))

    def exit(self, code: int) -> None:
        self.send(f"!!exit {code}".encode())

    def expect(self, pred: Callable[[Msg], bool], what: str, timeout: float = WAIT) -> Msg:
        assert self.lines is not None
        return self.lines.expect(pred, what, timeout)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.listener.close()


class BridgeProc:
    """A real bridge process with the test as its host."""

    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=os.environ.copy(),
        )
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self.out = _Lines(self.proc.stdout, "the host's stdin (bridge stdout)")
        self.err_chunks: list[bytes] = []
        self._err = threading.Thread(target=self._pump_err, daemon=True)
        self._err.start()

    def _pump_err(self) -> None:
        assert self.proc.stderr is not None
        for chunk in iter(lambda: self.proc.stderr.read1(65536), b""):  # type: ignore[union-attr]
            self.err_chunks.append(chunk)

    @property
    def stderr(self) -> str:
        return b"".join(self.err_chunks).decode("utf-8", "replace")

    def send(self, msg: Msg) -> None:
        """Write *msg* as the host."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(_encode(msg))
        self.proc.stdin.flush()

    def expect(self, pred: Callable[[Msg], bool], what: str, timeout: float = WAIT) -> Msg:
        return self.out.expect(pred, what, timeout)

    def close_stdin(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()

    def wait(self, timeout: float = WAIT) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the bridge did not exit within {timeout:.0f} s") from None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def grant_folder(store: Store, tmp_path: Path, server: str, name: str) -> str:
    """Make the folder *name* under *tmp_path*, add it as a root, grant it; its URI."""
    folder = tmp_path / name
    folder.mkdir(parents=True, exist_ok=True)
    with store.transaction() as s:
        root = s.add_root(str(folder))
        s.grant(server, [root.id])
    return root.uri


def events(layout: Layout, kind: str | None = None) -> list[dict[str, Any]]:
    """Every event the bridges logged, optionally of one kind."""
    return [e for e in ev.iter_events(layout) if kind is None or e.get("kind") == kind]


def is_id(msg_id: object) -> Callable[[Msg], bool]:
    return lambda m: isinstance(m, dict) and m.get("id") == msg_id and "method" not in m


def is_method(method: str) -> Callable[[Msg], bool]:
    return lambda m: isinstance(m, dict) and m.get("method") == method


def initialize(
    msg_id: int = 1, capabilities: dict[str, Any] | None = None, version: str = "2025-11-25"
) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": msg_id,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": capabilities or {},
            "clientInfo": {"name": "test-host", "version": "1"},
        },
    }


def initialize_result(msg_id: int = 1) -> dict[str, Any]:
    """The puppet server's answer to initialize, in revision 2025-11-25."""
    return {
        "jsonrpc": "2.0",
        "id": msg_id,
        "result": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "serverInfo": {"name": "puppet", "version": "1"},
        },
    }


def handshake(
    bridge: BridgeProc, server: Puppet, capabilities: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Run the 2025 handshake through the bridge; returns the initialize the server received."""
    bridge.send(initialize(1, capabilities))
    init: dict[str, Any] = server.expect(is_method("initialize"), "initialize")
    server.send(initialize_result(1))
    bridge.expect(is_id(1), "the initialize result")
    bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    server.expect(is_method("notifications/initialized"), "initialized")
    return init


def iter_lines(data: bytes) -> Iterator[bytes]:
    yield from data.splitlines()


def unconfined_by_default() -> None:
    """Have servers first seen start unconfined (``policy --confine-new off``), in a store that
    is a plain file or none yet; one a test damaged, linked or replaced is left as it is."""
    from roots_manager.core.store.file import StoreError

    path = Layout.default().store
    if path.is_symlink() or (path.exists() and not path.is_file()):
        return
    try:
        with Store(Layout.default().ensure()).transaction() as state:
            state.confine_new = False
    except (StoreError, OSError):
        pass  # damaged or unwritable: the test is about that, the default is not


class Bridged:
    """A real bridge with the test as its host, in front of a puppet server.

    The puppet is one connection, which a restart would replace: unless the test confines it
    (``--confine``, or *confined*), it starts unconfined, as a server did before confinement
    was a default, so that a grant made after it started does not restart it.
    """

    def __init__(
        self,
        name: str = "pup",
        *options: str,
        server_opts: tuple[str, ...] = (),
        run: tuple[str, ...] = BRIDGE_MODULE,
        confined: bool = False,
    ) -> None:
        if not confined and "--confine" not in options:
            unconfined_by_default()
        self.server = Puppet()
        self.bridge = BridgeProc(
            bridge_argv(name, self.server.command(*server_opts), *options, run=run)
        )
        self.server.accept()

    def handshake(self, capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run the 2025 handshake; returns the initialize the server received."""
        return handshake(self.bridge, self.server, capabilities)

    def ask(self, msg_id: object) -> list[str]:
        """The server asks roots/list; the URIs the bridge answers with."""
        self.server.send({"jsonrpc": "2.0", "id": msg_id, "method": "roots/list"})
        answer = self.server.expect(is_id(msg_id), f"the answer to roots/list {msg_id}")
        return [r["uri"] for r in answer["result"]["roots"]]

    def close(self) -> None:
        self.bridge.kill()
        self.server.close()
