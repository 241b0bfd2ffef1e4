"""The JSON-RPC shapes the bridge reads and writes, and the protocol's names for roots."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from roots_manager.bridge.protocol.wire import dumps as dumps
from roots_manager.bridge.protocol.wire import key as key
from roots_manager.bridge.protocol.wire import split_line as split_line

if TYPE_CHECKING:
    from roots_manager.core.directory.records import EventKind

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

    def event(self, kind: EventKind, **fields: Any) -> None: ...

    def marker(self, **fields: Any) -> None: ...


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
