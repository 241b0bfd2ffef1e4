"""A stdio MCP server whose handling of roots is one of the behaviours the probe must tell apart.

Run as ``python puppet_server.py BEHAVIOUR ALLOWED_FOLDER``. Like the reference filesystem
server it asks for ``roots/list`` right after ``initialized`` and again after each
``list_changed``, replaces its allowed folders with the roots it gets, and falls back to the
folder on its command line when it has none. BEHAVIOUR bends one rule:

- ``enforcing``: checks every path against its roots; an empty list leaves it no folder at all;
- ``advisory``: checks paths against its command-line folder only, whatever the roots say;
- ``first-root-only``: keeps only the first root of the list;
- ``first-root-after-change``: keeps every root of its first list, only the first of later ones;
- ``resource-leak``: checks its tools' paths against its roots, but reads any resource;
- ``reads-checked``: reads are checked against the roots, writes against the command line only;
- ``prefix-bug``: ``path.startswith(root)``, so ``checkout-old`` passes for ``checkout``;
- ``never-reasks``: asks once and ignores ``list_changed``;
- ``crash``: exits (code 3) at its fifth tool call;
- ``hang``: also has ``slow_read``, which never answers;
- ``freeze``: stops answering anything, pings included, at its fifth tool call;
- ``no-paths``: offers only ``echo``, which takes no path, and no resources.

Every other behaviour also serves ``file://`` resources, read under the same rules as
``read_file``.

It speaks JSON-RPC by hand rather than through an SDK so that when it asks for its roots, and
whether it asks again, is exactly what its behaviour says.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

BEHAVIOUR = sys.argv[1]
ALLOWED = os.path.realpath(sys.argv[2]) if len(sys.argv) > 2 else None

roots: list[str] | None = None
asked = 0
calls = 0


def send(msg: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def ask_roots() -> None:
    global asked
    asked += 1
    send({"jsonrpc": "2.0", "id": f"puppet-roots-{asked}", "method": "roots/list"})


def take_roots(result: dict[str, Any]) -> None:
    global roots
    paths = [os.path.realpath(unquote(urlparse(r["uri"]).path)) for r in result.get("roots", [])]
    if not paths and BEHAVIOUR != "enforcing":
        return  # as the reference server does: an empty list keeps the previous folders
    later = BEHAVIOUR == "first-root-after-change" and roots is not None
    roots = paths[:1] if BEHAVIOUR == "first-root-only" or later else paths


def bases(write: bool) -> list[str]:
    fallback = [ALLOWED] if ALLOWED else []
    if BEHAVIOUR == "advisory" or (BEHAVIOUR == "reads-checked" and write):
        return fallback
    return fallback if roots is None else roots


def allowed(path: str, write: bool) -> bool:
    real = os.path.realpath(path)
    if BEHAVIOUR == "prefix-bug":
        return any(real.startswith(b) for b in bases(write))
    return any(real == b or real.startswith(b + os.sep) for b in bases(write))


def text(value: str, error: bool = False) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": value}], "isError": error}


def call(name: str, args: dict[str, Any]) -> dict[str, Any] | None:
    global calls
    calls += 1
    if BEHAVIOUR == "crash" and calls == 5:
        print("puppet: crashing on purpose at call 5", file=sys.stderr, flush=True)
        os._exit(3)
    if BEHAVIOUR == "freeze" and calls == 5:
        print("puppet: freezing on purpose at call 5", file=sys.stderr, flush=True)
        time.sleep(3600)
    if name == "echo":
        return text(str(args.get("text", "")))
    if name == "slow_read":
        return None  # never answered
    path = str(args.get("path", ""))
    write = name == "write_file"
    if not allowed(path, write):
        return text(f"Access denied: {path} is outside the allowed folders", error=True)
    try:
        if name == "read_file":
            with open(path, encoding="utf-8") as f:
                return text(f.read())
        if name == "write_file":
            with open(path, "w", encoding="utf-8") as f:
                f.write(str(args.get("content", "")))
            return text(f"wrote {path}")
        if name == "list_directory":
            return text("\n".join(sorted(os.listdir(path))))
    except OSError as exc:
        return text(f"{type(exc).__name__}: {exc}", error=True)
    return text(f"unknown tool {name}", error=True)


def schema(*props: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {p: {"type": "string"} for p in props},
        "required": list(props),
    }


def tools() -> list[dict[str, Any]]:
    if BEHAVIOUR == "no-paths":
        return [{"name": "echo", "description": "Say it back.", "inputSchema": schema("text")}]
    out = [
        {"name": "read_file", "description": "Read a file.", "inputSchema": schema("path")},
        {
            "name": "write_file",
            "description": "Write a file.",
            "inputSchema": schema("path", "content"),
        },
        {
            "name": "list_directory",
            "description": "List a folder.",
            "inputSchema": schema("path"),
        },
    ]
    if BEHAVIOUR == "hang":
        out.append(
            {"name": "slow_read", "description": "Read, slowly.", "inputSchema": schema("path")}
        )
    return out


def handle(msg: dict[str, Any]) -> None:
    method = msg.get("method")
    if method is None:
        if str(msg.get("id", "")).startswith("puppet-roots-") and "result" in msg:
            take_roots(msg["result"])
        return
    if method == "notifications/initialized":
        ask_roots()
    elif method == "notifications/roots/list_changed":
        if BEHAVIOUR != "never-reasks":
            ask_roots()
    elif method == "initialize":
        send(
            {
                "jsonrpc": "2.0",
                "id": msg["id"],
                "result": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {"tools": {}}
                    if BEHAVIOUR == "no-paths"
                    else {"tools": {}, "resources": {}},
                    "serverInfo": {"name": f"puppet-{BEHAVIOUR}", "version": "1.0.0"},
                },
            }
        )
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"tools": tools()}})
    elif method == "tools/call":
        params = msg.get("params") or {}
        result = call(str(params.get("name")), params.get("arguments") or {})
        if result is not None:
            send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
    elif method == "resources/list":
        first = (roots or [ALLOWED or "/"])[0]
        listed = [{"uri": Path(first, "notes.txt").as_uri(), "name": "notes"}]
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"resources": listed}})
    elif method == "resources/read":
        uri = str((msg.get("params") or {}).get("uri", ""))
        path = unquote(urlparse(uri).path)
        if BEHAVIOUR != "resource-leak" and not allowed(path, write=False):
            send(
                {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32002, "message": "denied"}}
            )
            return
        try:
            with open(path, encoding="utf-8") as f:
                contents = [{"uri": uri, "mimeType": "text/plain", "text": f.read()}]
        except OSError as exc:
            send(
                {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32002, "message": str(exc)}}
            )
            return
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"contents": contents}})
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {}})
    elif "id" in msg:
        send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": method}})


def main() -> None:
    for line in sys.stdin:
        if line.strip():
            handle(json.loads(line))


if __name__ == "__main__":
    main()
