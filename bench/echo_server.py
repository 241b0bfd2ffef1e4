"""A minimal stdio MCP-shaped server for the bridge benchmark.

Answers every request with its params as the result (``{"echo": params}``). It also asks
``roots/list`` when told to (method ``bench/roots``: it sends N ``roots/list`` requests one at a
time and answers with the round-trip times it measured), and on every
``notifications/roots/list_changed`` it writes a ``bench/list_changed`` notification holding the
monotonic time it saw it, then fetches the list as a real server would.
"""

from __future__ import annotations

import time

STARTED = time.monotonic()

import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402


def main() -> None:
    stamp = os.environ.get("BENCH_START_FILE")
    if stamp:
        with open(stamp, "w") as f:
            f.write(repr(STARTED))
    read = sys.stdin.buffer.readline
    out = sys.stdout.buffer
    counter = 0
    while True:
        line = read()
        if not line:
            return
        msg = json.loads(line)
        method = msg.get("method")
        if method == "bench/roots":
            times = []
            for _ in range(int(msg["params"]["n"])):
                counter += 1
                t0 = time.perf_counter()
                out.write(b'{"jsonrpc":"2.0","id":"s%d","method":"roots/list"}\n' % counter)
                out.flush()
                answer = json.loads(read())
                times.append(time.perf_counter() - t0)
                assert "roots" in answer["result"]
            reply = {"jsonrpc": "2.0", "id": msg["id"], "result": {"times": times}}
            out.write(json.dumps(reply).encode() + b"\n")
            out.flush()
        elif method == "notifications/roots/list_changed":
            note = {
                "jsonrpc": "2.0",
                "method": "bench/list_changed",
                "params": {"t": time.monotonic(), "wall": time.time()},
            }
            counter += 1
            out.write(json.dumps(note).encode() + b"\n")
            out.write(b'{"jsonrpc":"2.0","id":"s%d","method":"roots/list"}\n' % counter)
            out.flush()
        elif method == "initialize":
            reply = {
                "jsonrpc": "2.0",
                "id": msg["id"],
                "result": {
                    "protocolVersion": msg["params"]["protocolVersion"],
                    "capabilities": {},
                    "serverInfo": {"name": "echo", "version": "1"},
                },
            }
            out.write(json.dumps(reply).encode() + b"\n")
            out.flush()
        elif "id" in msg and method is not None:
            # the reply is built from the raw line so that a 1 MiB payload is not re-encoded
            out.write(
                b'{"jsonrpc":"2.0","id":'
                + json.dumps(msg["id"]).encode()
                + b',"result":{"echo":'
                + json.dumps(msg.get("params")).encode()
                + b"}}\n"
            )
            out.flush()


if __name__ == "__main__":
    main()
