"""The JSON-with-comments reader and its span edits: the rest of the text stays byte for byte."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roots_manager.core.hosts import jsonc

scalars = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.text(max_size=8))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(values, st.sampled_from([None, 1, 2, "\t"]), st.booleans())
def test_reads_what_json_reads(value: object, indent: int | str | None, ascii_only: bool) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    assert jsonc.parse(text).value == json.loads(text)


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.text(min_size=1, max_size=6), scalars, min_size=0, max_size=5),
    st.sampled_from([None, 2, 4, "\t"]),
    st.text(min_size=1, max_size=8),
    st.integers(0, 5),
)
def test_adding_then_removing_a_member_gives_back_the_same_text(
    obj: dict[str, object], indent: int | str | None, key: str, where: int
) -> None:
    obj.pop(key, None)
    text = json.dumps({"entry": obj}, indent=indent)
    root = jsonc.parse(text)
    entry = jsonc.find(root, ("entry",))
    assert entry is not None
    after = list(obj)[where] if where < len(obj) else None
    added = jsonc.insert_member(text, entry, key, '["x"]', after)
    assert json.loads(added) == {"entry": {**obj, key: ["x"]}}
    keys = list(json.loads(added)["entry"])
    assert keys.index(key) == (len(obj) if after is None else keys.index(after) + 1)
    entry = jsonc.find(jsonc.parse(added), ("entry",))
    assert entry is not None
    assert jsonc.remove_member(added, entry, key) == text


def test_comments_and_trailing_commas_are_read_and_kept() -> None:
    text = '// top\n{\n  /* a */ "a": [1, 2,], // b\n  "b": {"c": "//not a comment"},\n}\n'
    root = jsonc.parse(text)
    assert root.value == {"a": [1, 2], "b": {"c": "//not a comment"}}
    array = jsonc.find(root, ("a",))
    assert array is not None
    edited = jsonc.prepend_items(text, array, ['"x"'])
    assert edited == text.replace("[1, 2,]", '["x", 1, 2,]')
    array = jsonc.find(jsonc.parse(edited), ("a",))
    assert array is not None
    assert jsonc.drop_items(edited, array, 1) == text
    b = jsonc.find(root, ("b",))
    assert b is not None
    # the trailing comma after the last member stays trailing
    assert jsonc.insert_member(text, root, "z", "1") == text.replace("},\n}", '},\n  "z": 1,\n}')


def test_items_put_into_a_multi_line_array_take_its_indentation() -> None:
    text = '{\r\n  "args": [\r\n    "-y",\r\n    "pkg"\r\n  ]\r\n}\r\n'
    array = jsonc.find(jsonc.parse(text), ("args",))
    assert array is not None
    edited = jsonc.prepend_items(text, array, ['"a"', '"b"'])
    assert edited == text.replace('"-y"', '"a",\r\n    "b",\r\n    "-y"')


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ('{\n  "a": 1\n  "b": 2\n}', 3, 3),
        ('{"a": [1, 2}', 1, 12),
        ('{"a": 1} x', 1, 10),
        ('{"a": "no end}', 1, 7),
        ("{\n/* open", 2, 1),
        ("", 1, 1),
        ("[" * (jsonc.MAX_DEPTH + 2), 1, jsonc.MAX_DEPTH + 2),
    ],
)
def test_errors_name_their_line_and_column(text: str, line: int, column: int) -> None:
    with pytest.raises(jsonc.JsoncError) as info:
        jsonc.parse(text)
    assert (info.value.line, info.value.column) == (line, column), info.value


def test_a_member_put_between_two_leaves_their_comments_in_place() -> None:
    text = '{\n  "command": "uvx", // the runner\n  "env": {}\n}'
    root = jsonc.parse(text)
    added = jsonc.insert_member(text, root, "args", '["a"]', after="command")
    assert added == '{\n  "command": "uvx", // the runner\n  "args": ["a"],\n  "env": {}\n}'
    assert jsonc.remove_member(added, jsonc.parse(added), "args") == text
    inline = '{"command": "uvx", "env": {}}'
    added = jsonc.insert_member(inline, jsonc.parse(inline), "args", "[]", after="command")
    assert added == '{"command": "uvx", "args": [], "env": {}}'
    assert jsonc.remove_member(added, jsonc.parse(added), "args") == inline
