"""One direction of a connection the proxy allowed, carried by its byte mover in C
(``_fastcarry.c``) and by the Python loop it stands in for (``proxy._carry_here``), alike: every byte
in order, the end passed on, and an error ending both ways.

Real TCP connections on the loopback. The C mover not built is a failure, as the observer's
is (``test_fastobserve.py``): the install builds it wherever a C compiler is.
"""

from __future__ import annotations

import os
import socket
import struct
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import only_on_linux

pytestmark = only_on_linux("the proxy runs in a confined server's supervisor: Linux")

if sys.platform == "linux":
    from roots_manager.sandbox import proxy

Carry = Callable[[socket.socket, socket.socket], None]


def _c_mover() -> Any:
    try:
        from roots_manager.sandbox import _fastcarry
    except ImportError:
        pytest.fail("roots_manager.sandbox._fastcarry did not build (is there a C compiler?)")
    return _fastcarry


def _c(src: socket.socket, dst: socket.socket) -> None:
    _c_mover().carry(src.fileno(), dst.fileno(), proxy.CHUNK)


MOVERS: dict[str, Carry] = {"C": _c, "Python": lambda s, d: proxy._carry_here(s, d)}


def _pair() -> tuple[socket.socket, socket.socket]:
    """Two ends of one TCP connection on the loopback."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        one = socket.create_connection(listener.getsockname())
        other, _ = listener.accept()
    return one, other


def _carried(carry: Carry) -> tuple[socket.socket, socket.socket, threading.Thread]:
    """A sender's end and a receiver's end, with *carry* moving bytes from one to the other in
    a thread, as the proxy does between a client and the place it reached."""
    sender, src = _pair()
    dst, receiver = _pair()

    def run() -> None:
        try:
            carry(src, dst)
        finally:
            src.close()
            dst.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return sender, receiver, thread


def _read_all(sock: socket.socket) -> bytes:
    chunks = []
    while chunk := sock.recv(1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


@pytest.mark.parametrize("mover", MOVERS)
def test_every_byte_arrives_in_order_and_the_end_is_passed_on(mover: str) -> None:
    sender, receiver, thread = _carried(MOVERS[mover])
    data = os.urandom(9 * 1024 * 1024 + 17)  # more than the pipe holds, not a multiple of it
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(_read_all(receiver)))
    reader.start()
    sender.sendall(data)
    sender.shutdown(socket.SHUT_WR)  # the client is done sending: the far end must see it
    reader.join(timeout=30)
    thread.join(timeout=30)
    assert not thread.is_alive() and got == [data]
    sender.close()
    receiver.close()


@pytest.mark.parametrize("mover", MOVERS)
def test_a_far_end_reset_ends_both_directions(mover: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The place reached resets the connection while the client says nothing: the direction
    that meets the reset ends both sockets both ways, so the other one, waiting on the silent
    client, ends too, and the connection's threads do not stay for ever."""
    if mover == "C":
        _c_mover()
    else:
        monkeypatch.setattr(proxy, "_fastcarry", None)
    client_side, client = _pair()
    upstream, far = _pair()
    thread = threading.Thread(target=proxy._pipe, args=(client, upstream), daemon=True)
    thread.start()
    far.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    far.close()  # a linger of 0: a reset
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert client_side.recv(1) == b""  # the client is told the end
    for sock in (client_side, client, upstream):
        sock.close()
