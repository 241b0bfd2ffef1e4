"""A server's line read the way the most lenient host would read it, so no spelling of a roots
request gets past the bridge.

In managed mode a server's request for roots must never reach the host, however it is spelled.
Two tests keep that promise:

- :func:`disguised` lets the relay skip parsing a line only when the line provably cannot be a
  request for roots in any reading: with no literal ``roots`` in it, only an escape that stands
  for a letter (``\\u0072``; ``\\x72``, octal, or an identity escape such as ``\\o`` in JSON5 and
  JavaScript) or text in UTF-16 or UTF-32 (which holds NUL bytes) could spell the word. Bytes
  that are not UTF-8 decode, in every lenient reader, to replacement characters, never to letters;
  the relay sends such lines here all the same, for the note that they are not UTF-8.
- :func:`read` parses what the relay hands over as leniently as any host: bytes that are not UTF-8
  replaced, a byte order mark stripped, control characters allowed in strings, and, where a key
  appears twice, both the last-wins reading (JavaScript, Python) and the first-wins one. A line no
  reading can parse is judged by :func:`mentions_roots`, which undoes every escape it can find.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from roots_manager.bridge.protocol.wire import disguised as disguised

_ANY_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|([0-7]{1,3})|(.))", re.DOTALL)
_SPELLING = "roots/list"


def is_utf8(data: bytes | memoryview) -> bool:
    """Whether *data* is UTF-8 (encoded surrogates are not)."""
    try:
        str(data, "utf-8")
    except UnicodeDecodeError:
        return False
    return True


@dataclass(frozen=True)
class Reading:
    """A line as lenient hosts read it."""

    message: Any
    """The message as JavaScript and Python read it (the last of duplicate keys wins); None if
    no reading could parse the line."""
    first_wins: Any
    """The message as a parser that keeps the first of duplicate keys reads it; None unless a
    key appeared twice."""
    text: str
    lossy: bool
    """The line was not UTF-8 (its text has replacement characters)."""

    @property
    def readable(self) -> bool:
        return self.message is not None


def read(body: bytes) -> Reading:
    """Read *body* (a line without its ending) as leniently as any host would."""
    lossy = False
    try:
        text = str(body, "utf-8")
    except UnicodeDecodeError:
        text = str(body, "utf-8", "replace")
        lossy = True
    stripped = text.lstrip(" \t\r\ufeff")
    duplicates = False

    def last_wins(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal duplicates
        obj = dict(pairs)
        if len(obj) != len(pairs):
            duplicates = True
        return obj

    try:
        message = json.loads(stripped, strict=False, object_pairs_hook=last_wins)
    except (ValueError, RecursionError):
        return Reading(None, None, text, lossy)
    if message is None:  # the line "null": a reading, but of nothing
        return Reading(None, None, text, lossy)
    first = None
    if duplicates:
        first = json.loads(stripped, strict=False, object_pairs_hook=lambda p: dict(reversed(p)))
    return Reading(message, first, text, lossy)


def asks_for_roots(msg: object) -> bool:
    """Whether *msg* (or an item of a batch) asks for roots: ``roots/list``, as a request or a
    notification, or a 2026-07-28 result whose ``inputRequests`` hold it."""
    if isinstance(msg, list):
        return any(_asks(item) for item in msg)
    return _asks(msg)


def _asks(msg: object) -> bool:
    if not isinstance(msg, dict):
        return False
    if msg.get("method") == _SPELLING:
        return True
    return bool(roots_input_keys(msg.get("result")))


def roots_input_keys(result: object) -> list[str]:
    """The keys of ``inputRequests`` in *result* that ask for ``roots/list``."""
    if not isinstance(result, dict):
        return []
    reqs = result.get("inputRequests")
    if not isinstance(reqs, dict):
        return []
    return [k for k, v in reqs.items() if isinstance(v, dict) and v.get("method") == _SPELLING]


def could_ask_for_roots(reading: Reading) -> bool:
    """Whether any lenient reading of the line asks for roots."""
    if reading.readable:
        return asks_for_roots(reading.message) or asks_for_roots(reading.first_wins)
    return mentions_roots(reading.text)


def mentions_roots(text: str) -> bool:
    """Whether *text* spells ``roots/list`` once every escape any dialect knows is undone."""
    if _SPELLING in text:
        return True
    plain = text.replace("\x00", "").replace("\ufeff", "")
    return _SPELLING in _ANY_ESCAPE.sub(_unescape, plain)


def _unescape(m: re.Match[str]) -> str:
    hex4, hex2, octal, char = m.groups()
    if hex4 is not None:
        return chr(int(hex4, 16))
    if hex2 is not None:
        return chr(int(hex2, 16))
    if octal is not None:
        return chr(int(octal, 8))
    return str(char)
