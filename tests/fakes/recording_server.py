"""A raw stdio MCP server (2025 handshake) that records every message it receives.

Run as ``python recording_server.py RECORD_FILE VERSION_FILE``: each received line is appended to
RECORD_FILE as ``{"pid": ..., "msg": ...}``. Its ``serverInfo.version`` is read from VERSION_FILE
at each ``initialize``, so a test can make a restarted server differ. It asks ``roots/list`` once
initialized. Tools: ``slow`` answers
after ``seconds``; ``pid`` answers the process id. If ``CRASH_FILE`` names an existing file the
server exits as soon as it is initialized (a crash during the replay). ``LINGER_SECONDS`` keeps
it alive that long after its stdin ends (a server slow to stop).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

RECORD, VERSION = Path(sys.argv[1]), Path(sys.argv[2])
CRASH = os.environ.get("CRASH_FILE")
lock = threading.Lock()


def send(msg: dict[str, object]) -> None:
    with lock:
        sys.stdout.write(json.dumps(msg) + "\n")
        sys.stdout.flush()


def answer(msg_id: object, result: dict[str, object]) -> None:
    send({"jsonrpc": "2.0", "id": msg_id, "result": result})


def slow(msg_id: object, seconds: float) -> None:
    time.sleep(seconds)
    answer(msg_id, {"content": [{"type": "text", "text": f"slept {seconds}"}]})


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        with RECORD.open("a", encoding="utf-8") as f:
            f.write(json.dumps({"pid": os.getpid(), "msg": msg}) + "\n")
        method, msg_id = msg.get("method"), msg.get("id")
        params = msg.get("params") or {}
        if method == "initialize":
            if CRASH and os.path.exists(CRASH):
                sys.exit(3)
            answer(
                msg_id,
                {
                    "protocolVersion": params.get("protocolVersion"),
                    "capabilities": {
                        "tools": {"listChanged": True},
                        "resources": {"subscribe": True, "listChanged": True},
                        "logging": {},
                    },
                    "serverInfo": {"name": "recording", "version": VERSION.read_text().strip()},
                },
            )
        elif method == "notifications/initialized":
            send({"jsonrpc": "2.0", "id": "r1", "method": "roots/list"})
        elif method == "tools/call" and params.get("name") == "slow":
            seconds = float(params.get("arguments", {}).get("seconds", 1))
            threading.Thread(target=slow, args=(msg_id, seconds), daemon=True).start()
        elif method == "tools/call":
            answer(msg_id, {"content": [{"type": "text", "text": str(os.getpid())}]})
        elif method == "tools/list":
            answer(msg_id, {"tools": []})
        elif msg_id is not None and method is not None:
            answer(msg_id, {})
    time.sleep(float(os.environ.get("LINGER_SECONDS", "0")))


if __name__ == "__main__":
    main()
