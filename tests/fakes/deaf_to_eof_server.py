"""A server that reads every line and answers, but whose input's end changes nothing: it keeps
running (as a Node server with a timer does), and a polite signal ends it."""

import json
import sys
import threading
import time


def read() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if "id" in message and "method" in message:
            print(
                json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "id": message["id"],
                        "result": {
                            "protocolVersion": "2025-06-18",
                            "capabilities": {},
                            "serverInfo": {"name": "deaf", "version": "1"},
                        },
                    }
                ),
                flush=True,
            )


def main() -> None:
    threading.Thread(target=read, daemon=True).start()
    time.sleep(600)


if __name__ == "__main__":
    main()
