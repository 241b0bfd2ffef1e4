"""What a server's name may hold, and how a stored name is shown so that look-alikes differ.

A server's name is what its grants are kept under, and what the user reads to decide what to
grant. A name holding a character that prints as nothing (a zero-width space, a soft hyphen, a
word joiner, a variation selector...) or an extra space at either end prints exactly like
another name: ``fs`` and ``fs`` followed by U+200B would be two servers with two sets of
grants, indistinguishable on screen. Such names are refused wherever a name enters; a store
written before that rule (or by hand) may still hold one, so :func:`visible` shows every
character that cannot be seen as an escape.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

# The bidirectional embeddings, overrides and isolates: they can make a name read as another.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

# Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt): characters a
# renderer shows as nothing when it has no glyph for them. Most are category Cf, which is refused
# as a whole; the ones here that are not (the Hangul fillers, the variation selectors, the
# combining grapheme joiner, the Mongolian free variation selectors) are invisible all the same.
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Not ignorable by Unicode, but blank in every font: the Braille pattern blank.
_BLANK = frozenset("\u2800")


def is_default_ignorable(c: str) -> bool:
    """Whether *c* is a Default_Ignorable_Code_Point: shown as nothing without a glyph."""
    n = ord(c)
    return any(lo <= n <= hi for lo, hi in _IGNORABLE)


def is_control(c: str) -> bool:
    """Whether *c* can drive a terminal, break a line, reorder text, or stands for a raw byte.

    Lone surrogates (category Cs) are how Python carries bytes of a file name or argument
    that are not UTF-8; they have no character to show.
    """
    return unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") or c in BIDI_CONTROLS


def is_invisible(c: str) -> bool:
    """Whether *c* prints as nothing, or as a blank that looks like an ordinary space."""
    cat = unicodedata.category(c)
    if cat == "Cf" or (cat == "Zs" and c != " "):
        return True
    return c in _BLANK or is_default_ignorable(c)


class NameFlaw(enum.Enum):
    """Why a string cannot name a server, in the order they are looked for."""

    EMPTY = "empty"
    CONTROL = "control"
    """It holds control or text-direction characters."""
    INVISIBLE = "invisible"
    """It holds characters that print as nothing or as a look-alike space."""
    EDGE_SPACE = "edge-space"
    """It begins or ends with a space."""


@dataclass(frozen=True)
class NameCheck:
    """What :func:`check_server_name` found wrong with a name."""

    flaw: NameFlaw
    chars: tuple[str, ...] = ()
    """The offending characters, each as ``U+XXXX``, sorted (for CONTROL and INVISIBLE)."""


def _code_points(chars: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted({f"U+{ord(c):04X}" for c in chars}))


def check_server_name(name: str) -> NameCheck | None:
    """Why *name* cannot name a server, or None when it can."""
    if not name.strip():
        return NameCheck(NameFlaw.EMPTY)
    if name.isascii() and name.isprintable():  # the usual name, checked without a loop
        return NameCheck(NameFlaw.EDGE_SPACE) if name != name.strip() else None
    control = [c for c in name if is_control(c)]
    if control:
        return NameCheck(NameFlaw.CONTROL, _code_points(control))
    invisible = [c for c in name if is_invisible(c)]
    if invisible:
        return NameCheck(NameFlaw.INVISIBLE, _code_points(invisible))
    if name != name.strip():
        return NameCheck(NameFlaw.EDGE_SPACE)
    return None


def _escape(c: str) -> str:
    # a byte that was not UTF-8 stays \udcXX: as \xXX it would read like the C1 control XX
    n = ord(c)
    if n < 0x100:
        return f"\\x{n:02x}" if c not in "\t\n\r" else repr(c)[1:-1]
    return f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def visible(name: str) -> str:
    """*name* with every character that cannot be seen written as an escape.

    ``fs`` followed by a zero-width space shows as ``fs\\u200b``, a trailing space as
    ``fs\\x20``. A backslash is doubled, so that no two names show alike: a name that really
    holds the six characters ``fs\\u200b`` shows as ``fs\\\\u200b``.
    """
    if "\\" not in name and check_server_name(name) is None:
        return name
    core = name.strip(" ")
    start = len(name) - len(name.lstrip(" "))
    out = ["\\x20"] * start
    for c in core:
        if c == "\\":
            out.append("\\\\")
        elif is_control(c) or is_invisible(c):
            out.append(_escape(c))
        else:
            out.append(c)
    out.extend(["\\x20"] * (len(name) - start - len(core)))
    return "".join(out)


def find_by_visible(ref: str, names: Iterable[str]) -> str | None:
    """The name among *names* that *ref* is: itself, or the name :func:`visible` shows as *ref*.

    This lets a user type what they see (``fs\\u200b``) to remove or revoke a stored odd name.
    """
    pool = list(names)
    if ref in pool:
        return ref
    # visible() never maps two names to one text, so there is at most one match
    return next((n for n in pool if n != visible(n) and visible(n) == ref), None)
