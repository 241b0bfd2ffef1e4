"""A JSON-RPC line as bytes: its body and ending, the compact encoding the bridge writes, the key
of an id, and whether its bytes could spell a word in disguise.

Only :mod:`json` and :mod:`re` (which :mod:`json` loads anyway): the early relay
(:mod:`roots_manager.bridge.transport.early`) judges the host's first exchange with these while
the rest of the bridge is still loading.
"""

from __future__ import annotations

import json
import re

_LETTER_ESCAPE = re.compile(rb"\\[uxUosli1]")
"""Escapes that can stand for a letter of ``roots/list`` in some reading: ``\\u`` (JSON), ``\\x``
and ``\\U`` (JSON5, Python), a letter escaped as itself (JavaScript's and JSON5's identity
escapes) and octal (``\\162`` is ``r`` in sloppy JavaScript). The usual escapes (``\\n``,
``\\"``, ``\\\\``, ``\\t``, ``\\r``, ``\\/``) stand for no letter: a line full of them stays on the
fast path. An escaped backslash before one of these letters is taken for an escape, which only
sends the line to be parsed."""


def disguised(data: bytes | bytearray, start: int = 0, end: int | None = None) -> bool:
    """Whether ``data[start:end]`` could spell a word without holding its bytes literally."""
    stop = len(data) if end is None else end
    if data.find(b"\\", start, stop) >= 0 and _LETTER_ESCAPE.search(data, start, stop):
        return True
    return data.find(b"\x00", start, stop) >= 0


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
