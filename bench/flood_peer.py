"""A server for bench/bench_floods.py: sends one kind of flood, then ``{"done":true}``.

Usage: flood_peer.py SCENARIO ARG, where SCENARIO is baseline, early, late, plain (ARG: MiB of
the long line) or unread (ARG: how many requests; it starts reading its stdin only 3 s after it began asking).
"""

from __future__ import annotations

import sys
import threading
import time

CHUNK = 1 << 20


def long_line(out: object, mib: int, head: bytes, tail: bytes) -> None:
    write = out.write  # type: ignore[attr-defined]
    write(head)
    pad = b"x" * CHUNK
    for _ in range(mib):
        write(pad)
    write(tail)


def main() -> None:
    scenario, arg = sys.argv[1], int(sys.argv[2])
    out = sys.stdout.buffer
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
    elif scenario == "unread":
        # nothing is read for the first 3 s: until then the answers have nowhere to go

        def ask() -> None:
            for i in range(arg):
                out.write(b'{"jsonrpc":"2.0","id":%d,"method":"roots/list"}\n' % i)
            out.write(b'{"done":true}\n')
            out.flush()

        threading.Thread(target=ask, daemon=True).start()
        time.sleep(3)
        sys.stdin.buffer.read()
        return
    out.write(b'{"done":true}\n')
    out.flush()
    sys.stdin.buffer.read()


if __name__ == "__main__":
    main()
