"""Indented JSON, the very text ``json.dumps(doc, ensure_ascii=False, indent=N)`` writes, made
mostly by the C encoder.

With an indent, :mod:`json` encodes in Python, item by item: 0.3 s of writing a store of 30,000
roots, each time a bridge records its start or a command changes something. The store (and the
``--json`` of the tables) is mostly lists of flat objects, whose fields are numbers, strings or
empty lists. Such a list is encoded here in one call of the C encoder, with a line break as the
separator of its items, and then indented: a line break never appears inside an encoded string
(it is written ``\\n``), and in a list of objects whose values hold no further object, a break
before a key (``"``) is one between two fields, and a break before ``{`` one between two
objects. Anything else is left to :func:`json.dumps`, its lines indented to where it sits.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring  # the C one when there is one, as json.dumps uses

_FLAT = json.JSONEncoder(ensure_ascii=False, separators=(",\n", ": ")).encode
"""Items separated by a line break (to indent), keys by ``": "`` as :func:`json.dumps` does."""


def dumps(doc: object, indent: int) -> str:
    """*doc* as ``json.dumps(doc, ensure_ascii=False, indent=indent)`` writes it."""
    out: list[str] = []
    _put(doc, indent, 0, out)
    return "".join(out)


_CONTAINERS = frozenset((dict, list, tuple))


def _flat_objects(items: list[object]) -> bool:
    """Whether *items* are all non-empty objects whose values hold nothing to indent (empty
    lists and objects are written ``[]`` and ``{}`` either way). Comprehensions: a loop would
    cost a third of what is saved."""
    if not all(type(item) is dict and item for item in items):
        return False
    objects: list[dict[object, object]] = items  # type: ignore[assignment]
    return not any([v for item in objects for v in item.values() if type(v) in _CONTAINERS])


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
    elif type(value) is list and value and _flat_objects(value):
        deeper = "\n" + " " * (indent * (level + 2))
        flat = _FLAT(value)[1:-1]  # the objects, their fields and themselves one a line
        flat = flat.replace(',\n"', ",\n" + deeper[1:] + '"')
        flat = flat.replace("},\n{", inner + "}," + inner + "{" + deeper)
        out.append("[" + inner + "{" + deeper + flat[1:-1] + inner + "}" + outer + "]")
    else:
        text = json.dumps(value, ensure_ascii=False, indent=indent)
        out.append(text.replace("\n", outer) if level else text)
