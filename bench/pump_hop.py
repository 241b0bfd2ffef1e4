"""The floor for any extra process between a host and a stdio server: a bare byte pump.

Run as ``python pump_hop.py [--single] COMMAND [ARGS...]``. Two blocking threads copy the host's
stdin to the server and the server's stdout to the host, up to 1 MiB per read into a kept buffer, with
every pipe enlarged to 1 MiB, and look at each chunk once (as a relay's cheapest test would). No framing, no
parsing: whatever a real relay costs on top of this is the relay's own cost; this much is the
price of one more process hop (two more wake-ups per round trip).

With ``--single``, one thread serves both directions from an ``epoll``/``poll`` loop
(``selectors``) instead: the design that would spare the thread hand-offs, measured here so that
the choice between the two rests on figures from the same run.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import subprocess
import sys
import threading

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

CHUNK = 1024 * 1024


def grow(fd: int) -> None:
    setsz = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if setsz is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, setsz, CHUNK)


def pump(src: int, dst: int, close_dst: bool) -> None:
    # one buffer for every read: a fresh 1 MiB object per read costs page faults and a
    # remapping each time, more than the rest of a small message's trip
    buf = bytearray(CHUNK)
    whole = memoryview(buf)
    while n := os.readv(src, [buf]):
        data = bytes(whole[:n])
        _ = b"roots" in data  # the cheapest test a relay could make
        view = memoryview(data)
        while view:
            view = view[os.write(dst, view) :]
    if close_dst:
        os.close(dst)


def single(to_server: int, from_server: int) -> None:
    """Both directions in one thread: wait for either source, copy what came, repeat."""
    buf = bytearray(CHUNK)
    whole = memoryview(buf)
    dst = {0: to_server, from_server: 1}
    sel = selectors.DefaultSelector()
    for src in dst:
        sel.register(src, selectors.EVENT_READ)
    while from_server in dst:
        for key, _ in sel.select():
            src = key.fd
            n = os.readv(src, [buf])
            if not n:
                sel.unregister(src)
                if dst.pop(src) == to_server:
                    os.close(to_server)  # the host is gone: so is the server's stdin
                continue
            data = bytes(whole[:n])
            _ = b"roots" in data  # the cheapest test a relay could make
            view = memoryview(data)
            while view:
                view = view[os.write(dst[src], view) :]


def main() -> int:
    one_thread = sys.argv[1:2] == ["--single"]
    argv = sys.argv[2:] if one_thread else sys.argv[1:]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert proc.stdin is not None and proc.stdout is not None
    to_server, from_server = proc.stdin.fileno(), proc.stdout.fileno()
    for fd in (0, 1, to_server, from_server):
        grow(fd)
    if one_thread:
        single(to_server, from_server)
        return proc.wait()
    threading.Thread(target=pump, args=(0, to_server, True), daemon=True).start()
    pump(from_server, 1, False)
    return proc.wait()


if __name__ == "__main__":
    sys.exit(main())
