"""A scripted MCP server that asks roots/list once after the handshake and never again.

It ignores notifications/roots/list_changed, as servers that cache their roots do, which is
what the app's stale flag is there to reveal.
"""

from __future__ import annotations

import json
import sys


def send(msg: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def main() -> None:
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        method = msg.get("method")
        if method == "initialize":
            send(
                {
                    "jsonrpc": "2.0",
                    "id": msg["id"],
                    "result": {
                        "protocolVersion": msg["params"]["protocolVersion"],
                        "capabilities": {},
                        "serverInfo": {"name": "never-reasks", "version": "1"},
                    },
                }
            )
        elif method == "notifications/initialized":
            send({"jsonrpc": "2.0", "id": "ask-once", "method": "roots/list"})
        elif "id" in msg and method is not None:
            send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "no"}})
        # responses and notifications, list_changed included, are ignored on purpose


if __name__ == "__main__":
    main()
