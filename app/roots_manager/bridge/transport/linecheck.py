"""What the relay can tell about a line without parsing it: whether a guarded handler must see
it, and whether it cannot be a JSON-RPC message (to be noted).

Both are byte-level tests over a slice of a chunk, so a line is never copied to be judged. The
C hot path (:mod:`roots_manager.bridge.transport._fastrelay`) makes the same tests before it relays a line
on its own, and hands every line that fails one of them to the relay.
"""

from __future__ import annotations

from collections.abc import Callable

from roots_manager.bridge.protocol.lenient_reading import disguised, is_utf8

TEXT_CHECK_LIMIT = 64 * 1024
"""Lines up to this size that pass unparsed are checked for UTF-8 (all-ASCII ones at no cost);
longer ones may be streaming through before their end has come."""

_OPEN = frozenset(b"{[")
_CLOSE = frozenset(b"}]")
_BLANK = b" \t\r\n"


def suspect(data: bytes, start: int, end: int, is_ascii: Callable[[], bool]) -> bool:
    """Whether a guarded handler must see ``data[start:end]``, which matched no pattern: it
    could spell one in disguise, or it is not UTF-8. *is_ascii* says whether all of *data* is
    ASCII (asked only when it matters)."""
    if disguised(data, start, end):
        return True
    return not is_ascii() and not is_utf8(memoryview(data)[start:end])


def malformed(
    data: bytes | bytearray,
    start: int,
    end: int,
    is_ascii: Callable[[], bool],
    utf8_known: bool = False,
) -> str | None:
    """Why ``data[start:end]``, a line relayed unparsed, cannot be a JSON-RPC message:
    ``"JSON"`` when it does not open and close like an object or an array, ``"UTF-8"`` when it
    is not UTF-8 (looked at up to :data:`TEXT_CHECK_LIMIT` bytes, and not when *utf8_known*);
    None when it may be one."""
    if end > start and (data[start] not in _OPEN or data[end - 1] not in _CLOSE):
        stripped = data[start:end].strip(_BLANK)
        if stripped and (stripped[0] not in _OPEN or stripped[-1] not in _CLOSE):
            return "JSON"
    if (
        not utf8_known
        and end - start <= TEXT_CHECK_LIMIT
        and not is_ascii()
        and not is_utf8(memoryview(data)[start:end])
    ):
        return "UTF-8"
    return None
