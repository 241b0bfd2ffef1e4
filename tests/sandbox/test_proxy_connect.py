"""The proxy's connection to where a client asked to go: bounded while it is made (a place
that never answers ends it with ``TimeoutError``, said to the client as "timed out"), and never
after, when a slow reader may keep the bytes waiting for as long as it likes.

Real sockets on the loopback: a listener whose backlog is full drops the SYNs sent to it, as
a place that never answers does.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import sys

import pytest

from tests.conftest import only_on_linux

pytestmark = only_on_linux("the proxy runs in a confined server's supervisor: Linux")

if sys.platform == "linux":
    from roots_manager.sandbox import proxy


def test_a_place_that_never_answers_ends_the_connect(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(proxy, "CONNECT_TIMEOUT", 0.5)
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        port = listener.getsockname()[1]
        waiting = []
        try:
            for _ in range(4):  # past the backlog: the next SYNs are dropped
                s = socket.socket()
                s.setblocking(False)
                with contextlib.suppress(BlockingIOError):
                    s.connect(("127.0.0.1", port))
                waiting.append(s)
            with pytest.raises(TimeoutError):
                proxy._connect("127.0.0.1", port)
        finally:
            for s in waiting:
                s.close()


def test_a_connection_made_has_no_bound_left_on_its_sending() -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        upstream = proxy._connect("127.0.0.1", listener.getsockname()[1])
        with upstream:
            raw = upstream.getsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, 16)
            assert struct.unpack("@ll", raw) == (0, 0)
            assert upstream.gettimeout() is None, "a blocking socket, for the C mover"
    with pytest.raises(ConnectionRefusedError):
        proxy._connect("127.0.0.1", 1)
