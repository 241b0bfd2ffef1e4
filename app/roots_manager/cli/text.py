"""How ``roots-manager`` prints: JSON (a root as its ``--json`` shows it), text safe for a
terminal, aligned tables."""

from __future__ import annotations

import sys
import unicodedata
from itertools import chain, starmap
from typing import Any

from roots_manager.core.consent.effective import root_unavailable
from roots_manager.core.roots.root import Root
from roots_manager.core.servers.names import BIDI_CONTROLS

JSON_HELP = "print the result as one JSON object, and a failure as one too (docs/cli-json.md)"
"""The help of every command's ``--json``."""


def json_text(doc: Any, indent: int | None = 2) -> str:
    """*doc* as JSON text; lone surrogates become escapes."""
    # A file name that is not UTF-8 holds lone surrogates, which stdout cannot encode; they go
    # out as the JSON escapes that decode to the same string.
    from roots_manager.core.store.file import json_bytes
    from roots_manager.support import cyclic_gc

    with cyclic_gc.paused():  # the rows of 30,000 roots make as many objects, none in a cycle
        return json_bytes(doc, indent=indent).decode("utf-8")


def print_json(doc: Any) -> None:
    """Print *doc* as indented JSON, safe for any terminal encoding."""
    print(json_text(doc))


_UNSEEN = "unseen"


def root_json(root: Root, reason: str | None = _UNSEEN) -> dict[str, Any]:
    """A root as ``--json`` shows it, with whether it can be given to servers now (*reason*,
    when the caller looked already, as ``roots list`` does for many roots in one pass)."""
    if reason is _UNSEEN:
        reason = root_unavailable(root)
    return {
        "id": root.id,
        "name": root.name,
        "path": root.path,
        "uri": root.uri,
        "available": reason is None,
        "unavailable_reason": reason,
        "added_at": root.added_at,
    }


def shown(text: str) -> str:
    """*text* made safe to print on a terminal.

    Paths may legally hold control characters (an escape sequence would drive the terminal),
    text-direction overrides and bytes that are not UTF-8; they are shown as escapes instead.
    """
    if text.isascii() and text.isprintable():  # most paths and names: nothing to escape
        return text
    out = []
    for c in text:
        cat = unicodedata.category(c)
        if cat == "Cs":  # a byte of a file name that is not UTF-8
            out.append(f"\\x{ord(c) - 0xDC00:02x}")
        elif cat == "Cc" or c in BIDI_CONTROLS:
            out.append(repr(c)[1:-1] if ord(c) < 0x100 else f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return "".join(out)


def width(text: str) -> int:
    """Columns *text* takes in a terminal: wide (CJK) characters take two, combining marks none."""
    if text.isascii():  # shown() left no ASCII control character: one column each
        return len(text)
    n = 0
    for c in text:
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue
        n += 2 if unicodedata.east_asian_width(c) in "WF" else 1
    return n


def _plain(row: list[str]) -> bool:
    """Whether every cell of *row* is printable ASCII: nothing to escape, a column a character."""
    text = "".join(row)
    return text.isascii() and text.isprintable()


def table(rows: list[list[str]], headers: list[str]) -> None:
    """Print *rows* under *headers* in aligned columns, every cell made safe to show."""
    # each cell made safe and measured once (a row of plain ASCII at once), and the table
    # written at once: 30,000 roots make 150,000 cells
    if _plain([*headers, *chain.from_iterable(rows)]):
        # nothing to escape anywhere, a column a character: each column measured in C, and
        # each line made by one format (the table of 30,000 roots in a fifth of the time)
        widths = [max(map(len, column)) for column in zip(headers, *rows, strict=True)]
        line = "  ".join(f"{{:<{w}}}" for w in widths)
        aligned = map(str.rstrip, starmap(line.format, [headers, *rows]))
        sys.stdout.write("\n".join(aligned) + "\n")
        return
    cells = [headers]
    sizes = [[width(c) for c in headers]]
    for row in rows:
        safe = row if _plain(row) else [shown(c) for c in row]
        cells.append(safe)
        sizes.append([len(c) for c in safe] if safe is row else [width(c) for c in safe])
    widths = [max(s[i] for s in sizes) for i in range(len(headers))]
    lines = [
        "  ".join(c + " " * (w - n) for c, n, w in zip(r, s, widths, strict=True)).rstrip()
        for r, s in zip(cells, sizes, strict=True)
    ]
    sys.stdout.write("\n".join(lines) + "\n")


def utf8_output() -> None:
    """Write UTF-8 to a redirected stdout and stderr, whatever the locale says.

    On Windows a redirected stream uses the ANSI code page, which cannot encode a Japanese or
    Chinese folder name: ``roots list > roots.txt`` would fail half-way. A console is left alone
    (Python writes it through the console's Unicode API).
    """
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        reconfigure = getattr(stream, "reconfigure", None)
        if encoding != "utf8" and reconfigure is not None and not stream.isatty():
            reconfigure(encoding="utf-8")


def say_watch_trouble(trouble: BaseException | None) -> None:
    """Tell on stderr that a ``--follow`` stops or starts following live (it polls meanwhile,
    and tries the watch again every 2 s at most)."""
    if trouble is None:
        print("roots-manager: following live again", file=sys.stderr, flush=True)
    else:
        why = f"{type(trouble).__name__}: {trouble}"
        print(f"roots-manager: not following live: {why}; retrying", file=sys.stderr, flush=True)
