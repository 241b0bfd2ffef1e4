"""A server that asks for its roots N times without reading a single answer, until told to.

Usage: flood_server.py N GO DONE. A thread writes N ``roots/list`` requests; the main thread
reads nothing until the file GO exists, then reads answers until it has N and writes their count
to DONE.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path


def main() -> None:
    n, go, done = int(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    out = sys.stdout.buffer

    def flood() -> None:
        for i in range(n):
            out.write(b'{"jsonrpc":"2.0","id":%d,"method":"roots/list"}\n' % i)
        out.flush()

    threading.Thread(target=flood, daemon=True).start()
    while not go.exists():
        time.sleep(0.05)
    answered = 0
    for raw in sys.stdin.buffer:
        msg = json.loads(raw)
        if "result" in msg and isinstance(msg.get("id"), int):
            answered += 1
            if answered == n:
                break
    done.write_text(str(answered))


if __name__ == "__main__":
    main()
