"""A minimal MCP host driving a real ``roots-bridge`` process, for the app's end-to-end tests."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log.events import iter_events
from tests.fakes import FAKES

HERE = Path(__file__).resolve().parent
NEVER_REASKS = FAKES / "never_reasks_server.py"


def bridge_argv(name: str, server: list[str], *options: str) -> list[str]:
    """The ``roots-bridge`` command line for *server* under *name*."""
    exe = shutil.which("roots-bridge", path=os.path.dirname(sys.executable))
    head = [exe] if exe else [sys.executable, "-m", "roots_manager.bridge"]
    return [*head, "--server", name, *options, "--", *server]


class BridgeHost:
    """Starts a bridge in front of a server and plays the host on its stdin and stdout."""

    def __init__(self, name: str, server: list[str], *options: str) -> None:
        self.proc = subprocess.Popen(
            bridge_argv(name, server, *options),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=os.environ.copy(),
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if isinstance(msg, dict):
                self.messages.put(msg)

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()

    def handshake(self) -> None:
        """Send initialize (no roots capability: the bridge adds it), wait, send initialized."""
        self.send(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "roots-manager-tests", "version": "1"},
                },
            }
        )
        # a real host waits for the answer first; the filesystem server misses the roots
        # capability when initialized arrives while it is still starting up
        self.response(1)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def response(self, rid: object, timeout: float = 60) -> dict[str, Any]:
        """Wait for the response with id *rid* (other messages read meanwhile are kept)."""
        kept = []
        try:
            while True:
                try:
                    msg = self.messages.get(timeout=timeout)
                except queue.Empty:
                    raise AssertionError(f"no response {rid!r} within {timeout} s") from None
                if msg.get("id") == rid and "method" not in msg:
                    return msg
                kept.append(msg)
        finally:
            for m in kept:
                self.messages.put(m)

    def close(self) -> str:
        """End the bridge as a host does (close stdin, then wait); returns its stderr."""
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode(errors="replace")


def events_of(layout: Layout, server: str, kind: str) -> list[dict[str, Any]]:
    """The events of *kind* the bridges of *server* wrote so far."""
    return [e for e in iter_events(layout) if e.get("server") == server and e.get("kind") == kind]
