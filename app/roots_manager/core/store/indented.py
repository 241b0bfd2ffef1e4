"""Indented JSON, the very text ``json.dumps(doc, ensure_ascii=False, indent=N)`` writes, made
mostly by the C encoder.

With an indent, :mod:`json` encodes in Python, item by item: 0.3 s of writing a store of 30,000
roots, each time a bridge records its start or a command changes something. The store (and the
``--json`` of the tables) is mostly lists of flat objects, whose fields are numbers, strings or
empty lists. Such a list is encoded here in one call of the C encoder, with a line break as the
separator of its items, and then indented: a line break never appears inside an encoded string
(it is written ``\\n``), and in a list of objects whose values hold no further object, a break
before a key (``"``) is one between two fields, and a break before ``{`` one between two
objects. A list of objects some of whose values are lists or objects (the rows of ``roots
list --json``, each with the servers it is granted to) is encoded so too, each such value put in
as a placeholder string and replaced, once encoded, by that value's own indented text (made
once for each different value). Anything else is left to :func:`json.dumps`, its lines indented
to where it sits.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Callable
from itertools import repeat
from json.encoder import encode_basestring  # the C one when there is one, as json.dumps uses
from operator import itemgetter, setitem


def dumps(doc: object, indent: int) -> str:
    """*doc* as ``json.dumps(doc, ensure_ascii=False, indent=indent)`` writes it."""
    out: list[str] = []
    _put(doc, indent, 0, out)
    return "".join(out)


_CONTAINERS = frozenset((dict, list, tuple))

_COMPACT = json.JSONEncoder(ensure_ascii=False).encode

_MARK = "\ue000"
"""Leads each placeholder (a character of Unicode's private use area): a document holding it
anywhere is left to the other paths, as no placeholder could then be told from its text."""
_PLACEHOLDER = re.compile('"' + _MARK + '([0-9]+)"')


def _rows(items: list[dict[object, object]], indent: int, level: int) -> str | None:
    """The list of objects *items* at *level*, each value that is a non-empty list or object
    put in as a placeholder, then replaced by its own indented text (see the module); None
    when a placeholder could not be told from the rest of the text.

    A field at a time, in C: the values of one key across the objects (a column) are looked
    at together, and only a column holding a non-empty list or object is walked, by its
    different values (rows that share one list, as ``roots list`` makes them, count as one).
    Each different value is encoded once compact and once indented per different text; the
    objects are then copied and given their placeholders by calls that loop in C (one Python
    step per object made a third of writing the rows of 30,000 roots)."""
    shapes = set(map(tuple, items))  # the keys of each object: a few shapes at most
    everywhere = set.intersection(*map(set, shapes))
    texts: list[str] = []
    by_text: dict[str, str] = {}
    rows = items
    marks = 0
    for key in dict.fromkeys(k for shape in shapes for k in shape):
        if key in everywhere:
            values = list(map(itemgetter(key), rows))
            missing = False
        else:
            values = [row.get(key, _ABSENT) for row in rows]
            missing = True
        kinds = set(map(type, values))
        if not kinds & _CONTAINERS:
            continue
        if kinds <= _CONTAINERS:
            if not any(values):  # only empty lists and objects: written [] and {} either way
                continue
        elif not any([v for v in values if type(v) in _CONTAINERS]):
            continue
        ids = list(map(id, values))
        # the objects are alive meanwhile: an id is one value
        put: dict[int, object] = {}
        placed: dict[int, int] = {}
        for i, v in dict(zip(ids, values, strict=True)).items():
            if type(v) not in _CONTAINERS or not v:
                put[i], placed[i] = v, 0
                continue
            compact = _COMPACT(v)  # the same text, the same indented text: made once
            mark = by_text.get(compact)
            if mark is None:
                out: list[str] = []
                _put(v, indent, level + 2, out)
                mark = by_text[compact] = _MARK + str(len(texts))
                texts.append("".join(out))
            put[i], placed[i] = mark, 1
        marks += sum(map(placed.__getitem__, ids))
        if rows is items:
            rows = list(map(dict, items))  # copies, given their placeholders below
        deque(map(setitem, rows, repeat(key), map(put.__getitem__, ids)), maxlen=0)
        if missing:  # a key some objects lack: they are given none
            for row in rows:
                if row[key] is _ABSENT:
                    del row[key]
    text = _flat_list(rows, indent, level)
    if not marks:
        return text
    if text.count(_MARK) != marks:  # one in the document's own text
        return None
    if len(texts) > 8:
        return _PLACEHOLDER.sub(lambda m: texts[int(m[1])], text)
    for n, put_text in enumerate(texts):  # a few: one pass each in C, no call per placeholder
        text = text.replace(f'"{_MARK}{n}"', put_text)
    return text


_ABSENT = object()
"""The value of a key an object lacks, while its column is walked."""


def _flat_list(items: list[dict[object, object]], indent: int, level: int) -> str:
    """The list of flat objects *items* (no value of theirs a non-empty list or object) at
    *level*: encoded in C with the line break and indentation of a field as the separator of
    items, then each break between two objects (``},`` a break, that indentation and ``{``)
    made what json.dumps writes there."""
    inner = "\n" + " " * (indent * (level + 1))
    outer = "\n" + " " * (indent * level)
    deeper = "\n" + " " * (indent * (level + 2))
    flat = _flat_encoder(deeper)(items)
    body = flat[2:-2].replace("}," + deeper + "{", inner + "}," + inner + "{" + deeper)
    return "".join(("[", inner, "{", deeper, body, inner, "}", outer, "]"))


_ENCODERS: dict[str, Callable[[object], str]] = {}


def _flat_encoder(deeper: str) -> Callable[[object], str]:
    """The C encoder whose items are separated by a comma, *deeper* (a line break and the
    indentation of a field) and keys by ``": "`` as :func:`json.dumps` does."""
    encode = _ENCODERS.get(deeper)
    if encode is None:
        encode = _ENCODERS[deeper] = json.JSONEncoder(
            ensure_ascii=False, separators=("," + deeper, ": "), check_circular=False
        ).encode
    return encode


def _put(value: object, indent: int, level: int, out: list[str]) -> None:
    inner = "\n" + " " * (indent * (level + 1))
    outer = "\n" + " " * (indent * level)
    if type(value) is dict and value and all(isinstance(k, str) for k in value):
        out.append("{")
        between = inner
        for key, item in value.items():
            out.append(between + encode_basestring(key) + ": ")
            between = "," + inner
            _put(item, indent, level + 1, out)
        out.append(outer + "}")
    else:
        rows = None
        if type(value) is list and value and set(map(type, value)) == {dict} and all(value):
            rows = _rows(value, indent, level)  # non-empty objects, each kind looked at in C
        if rows is not None:
            out.append(rows)
            return
        text = json.dumps(value, ensure_ascii=False, indent=indent)
        out.append(text.replace("\n", outer) if level else text)
