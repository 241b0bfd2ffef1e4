"""The JSON-RPC shapes the bridge reads and writes, and the protocol's names for roots."""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from typing import Any, Protocol

META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPS = "io.modelcontextprotocol/clientCapabilities"
MRTR_METHODS = frozenset({"tools/call", "prompts/get", "resources/read"})
"""The requests a 2026-07-28 server may answer with ``input_required``."""
LIST_CHANGED = "notifications/roots/list_changed"
ROOTS_LIST = "roots/list"
CANCELLED = "notifications/cancelled"

Json = dict[str, Any]


class Era(enum.Enum):
    """How the host and the server agree on a protocol."""

    UNKNOWN = "unknown"
    HANDSHAKE = "2025"
    """An ``initialize`` handshake (2024-11-05 to 2025-11-25)."""
    PER_REQUEST = "2026"
    """No handshake: every request names its revision in ``_meta`` (2026-07-28)."""


class EventSink(Protocol):
    """Where the mediator records what it sees."""

    def event(self, kind: str, **fields: Any) -> None: ...

    def marker(self, **fields: Any) -> None: ...


def key(msg_id: object) -> str:
    """A dictionary key for a JSON-RPC id."""
    # 1 and "1" are different JSON-RPC ids; their JSON texts keep them apart
    return json.dumps(msg_id, sort_keys=True)


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""The encoder of :func:`dumps`, made once: ``json.dumps`` with any option but the defaults
makes a new encoder at each call (0.8 us of every message the bridge writes itself)."""


def dumps(doc: object) -> bytes:
    """*doc* as one compact line of UTF-8 JSON, without its newline."""
    return _COMPACT.encode(doc).encode("utf-8")


def split_line(line: bytes) -> tuple[bytes, bytes]:
    """The body of *line* and its ending (``\\n``, ``\\r\\n`` or nothing)."""
    body = line.rstrip(b"\r\n")
    return body, line[len(body) :]


def root_uris(result: Mapping[str, Any]) -> list[str]:
    """The URIs of a ``ListRootsResult``: ours, or one a host answered on the wire."""
    return [str(r.get("uri")) for r in result.get("roots", []) if isinstance(r, dict)]


def is_response(msg: Json) -> bool:
    """Whether *msg* is a response (a result or an error for an id)."""
    return "method" not in msg and "id" in msg and ("result" in msg or "error" in msg)


def params_of(msg: Json) -> Json | None:
    """The ``params`` object of *msg*, if it has one."""
    params = msg.get("params")
    return params if isinstance(params, dict) else None


def error_line(msg_id: object, message: str, code: int = -32603) -> bytes:
    """A JSON-RPC error for *msg_id* (an internal error by default), as a line with its newline."""
    doc = {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}
    return dumps(doc) + b"\n"
