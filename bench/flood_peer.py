"""A server for bench/bench_floods.py: sends one kind of flood, then ``{"done":true}``.

Usage: flood_peer.py SCENARIO ARG, where SCENARIO is baseline, early, late, plain (ARG: MiB of
the long line), unread (ARG: how many requests; it reads its stdin only once they are all
written, or once writing them has stalled for a second) or forever (requests without end, never
reading: ``bench/bench_stop.py``; ARG is ignored).
"""

from __future__ import annotations

import sys
import threading
import time
from typing import BinaryIO

CHUNK = 1 << 20


def long_line(out: BinaryIO, mib: int, head: bytes, tail: bytes) -> None:
    out.write(head)
    pad = b"x" * CHUNK
    for _ in range(mib):
        out.write(pad)
    out.write(tail)


def unread(out: BinaryIO, count: int) -> None:
    # nothing is read until the requests are all out, or until writing them stalls for a
    # second (the bridge stopped reading): until then the answers have nowhere to go
    written = 0

    def ask() -> None:
        nonlocal written
        for i in range(count):
            out.write(b'{"jsonrpc":"2.0","id":%d,"method":"roots/list"}\n' % i)
            written = i
        out.write(b'{"done":true}\n')
        out.flush()
        written = count

    threading.Thread(target=ask, daemon=True).start()
    seen, still = -1, 0.0
    while written < count and still < 1.0:
        time.sleep(0.1)
        still = still + 0.1 if written == seen else 0.0
        seen = written
    sys.stdin.buffer.read()


def main() -> None:
    scenario, arg = sys.argv[1], int(sys.argv[2])
    out = sys.stdout.buffer
    if scenario == "unread":
        unread(out, arg)
        return
    if scenario == "forever":
        i = 0
        while True:
            i += 1
            out.write(b'{"jsonrpc":"2.0","id":%d,"method":"roots/list"}\n' % i)
    if scenario == "baseline":
        out.write(b'{"jsonrpc":"2.0","id":1,"method":"roots/list"}\n')
    elif scenario == "early":
        long_line(
            out, arg, b'{"jsonrpc":"2.0","id":1,"method":"roots/list","params":{"p":"', b'"}}\n'
        )
    elif scenario == "late":
        long_line(
            out, arg, b'{"jsonrpc":"2.0","params":{"p":"', b'"},"id":1,"method":"roots/list"}\n'
        )
    elif scenario == "plain":
        long_line(
            out, arg, b'{"jsonrpc":"2.0","method":"notifications/message","params":{"p":"', b'"}}\n'
        )
    out.write(b'{"done":true}\n')
    out.flush()
    sys.stdin.buffer.read()


if __name__ == "__main__":
    main()
