"""Indented JSON made by the C encoder where it can: the very text json.dumps writes."""

from __future__ import annotations

import json
import random

import pytest

from roots_manager.core.store.file import Store, json_bytes
from roots_manager.core.store.indented import dumps

_SHARED = [{"s": 1}, {"s": 2}]
"""One list in several rows, as roots list gives the roots granted to the same servers."""

TRICKY = [
    {},
    [],
    0,
    "a\nb",
    None,
    [1, 2],
    [{}],
    [{"a": 1}],
    [{"a": {}}, {"b": [], "c": ()}],
    [{"a": [1]}],
    [{"a": 1}, 2],
    [{"a": 1}, {}],
    [[{"a": 1}]],
    ({"a": 1},),
    {"a": ({"b": 1},)},
    {1: 2, "x": [{2: 3, None: True, 1.5: False}]},
    {"a": {1: [{"b": 1}]}},
    # what the separators look like, inside strings and keys: never taken for them
    {"x": [{"q": '"', "r": ',\n"', "s": "},\n{", ',\n"k': "},\n{"}, {"t": "]\n["}]},
    {"k": [{"a": 1.5, "b": float("nan"), "c": float("-inf"), "d": None, "é": "ü\udcff"}]},
    {"roots": [{"id": "1", "path": "/a"}], "servers": {"s": {"command": ["x", "y"]}}},
    # rows with lists of flat objects (roots list --json), and shapes near them
    [{"id": "a", "to": [{"s": "fs", "k": 1}, {"s": "x"}], "n": 2}, {"id": "b", "to": []}],
    [{"to": [{"s": 1}], "also": [{"t": 2}, {"t": 3}]}, {"x": None}],
    [{"a": [{"s": 1}]}, {"b": {"c": 1}}],  # an object in a row: not rows
    [{"a": [{"s": {"deep": 1}}]}],  # an object with an object in a row's list
    [{"a": [1, 2]}],  # a list of numbers in a row
    [{"a": ({"s": 1},)}],
    [{"a": [{"s": 1}], "m": "\x00"}],
    {"top": [{"a": [{"s": "},\n{", "t": ',\n"'}], "b": "\n"}]},
    # objects of one shape, a field at a time: an empty column before a full one, a mix
    [{"a": [], "b": [1]}, {"a": [], "b": []}],
    [{"a": [], "b": 1}, {"a": 2, "b": {"x": [1]}}],
    [{"a": (), "b": {}}, {"a": [], "b": {"x": 1}}],
    [{"a": [], "b": ""}, {"a": {}, "b": 0}],
    # a placeholder's character in the document's own text: not taken for one
    [{"a": [{"s": 1}], "m": "\ue0000"}, {"a": [{"s": 1}]}],
    [{"\ue0001": [{"s": 1}]}],
    # a key with lists that some rows lack, before and after the others; one list in many rows
    [{"a": [{"s": 1}], "b": 1}, {"b": 2}, {"b": 3, "a": [{"s": 1}]}, {"a": None}],
    [{"b": 0}, {"a": [], "b": 1}, {"a": [{"s": 2}], "c": [{"t": 3}]}],
    [{"a": _SHARED, "n": i} for i in range(3)] + [{"a": [{"s": 1}], "n": 3}, {"a": [], "n": 4}],
]


@pytest.mark.parametrize("doc", TRICKY, ids=range(len(TRICKY)))
@pytest.mark.parametrize("indent", [1, 2, 4])
def test_the_text_is_json_dumps_text(doc: object, indent: int) -> None:
    assert dumps(doc, indent) == json.dumps(doc, ensure_ascii=False, indent=indent)


def test_random_documents_are_written_as_json_dumps_writes_them() -> None:
    rng = random.Random(25)
    scalars = [0, -1, 2.5, True, False, None, "", "x", "\n", '"', "},\n{", ',\n"', "\udcff", "日本"]

    def value(depth: int) -> object:
        pick = rng.random()
        if depth > 3 or pick < 0.5:
            return rng.choice(scalars)
        if pick < 0.75:
            return [value(depth + 1) for _ in range(rng.randrange(4))]
        return {rng.choice(["a", "b", "\n", "é"]) + str(i): value(depth + 1)
                for i in range(rng.randrange(4))}  # fmt: skip

    for _ in range(2000):
        doc = [value(1) if rng.random() < 0.2 else {"k": rng.choice(scalars), "l": []}
               for _ in range(rng.randrange(5))]  # fmt: skip
        wrapped = {"top": doc, "n": 1} if rng.random() < 0.5 else doc
        assert dumps(wrapped, 2) == json.dumps(wrapped, ensure_ascii=False, indent=2), wrapped


def test_the_rows_of_roots_list_are_written_as_json_dumps_writes_them(store: Store) -> None:
    from roots_manager.cli.main import roots_report

    with store.transaction() as state:
        for i in range(20):
            folder = store.layout.home / f"r{i}"
            folder.mkdir()
            state.add_root(str(folder))
        state.grant("fs", [r.id for r in state.roots[:15]])
        state.grant("git", [r.id for r in state.roots[10:]])
    report = roots_report(store.read(), store.layout)
    assert sum(len(r["granted_to"]) for r in report) == 25
    assert dumps(report, 2) == json.dumps(report, ensure_ascii=False, indent=2)


def test_a_store_of_many_roots_is_written_as_before(store: Store) -> None:
    with store.transaction() as state:
        for i in range(50):
            folder = store.layout.home / f"p{i}"
            folder.mkdir()
            state.add_root(str(folder))
        state.grant("fs", [r.id for r in state.roots])
    written = store.path.read_bytes()
    doc = json.loads(written)
    assert written == json.dumps(doc, ensure_ascii=False, indent=2).encode() + b"\n"
    assert json_bytes(doc, indent=2) + b"\n" == written
    assert doc["revision"] == store.read().revision == 1
