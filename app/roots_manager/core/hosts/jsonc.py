"""JSON with comments, read with the place of every value, and edited at those places only.

Hosts keep their MCP servers in JSON files that people edit by hand: VS Code's and Zed's allow
``//`` and ``/* */`` comments and trailing commas. Loading such a file and dumping it again would
lose the comments and reformat the rest; the round-trip libraries for JSONC are either
unmaintained or re-serialise the document. So this module parses the text into a tree of
:class:`Node` that knows where each value starts and ends, and every edit replaces or inserts text
at those offsets: the bytes outside the edited spans stay exactly as they were.

The grammar is JSON plus comments and trailing commas (what VS Code's ``jsonc-parser`` accepts).

Claude Code's ``~/.claude.json`` holds its project history and grows past a hundred megabytes, of
which an edit needs the place of a few values. So a container written as plain JSON (no comment,
no trailing comma) is read whole by the standard library's decoder, in C, and the places of its
members or items are found only when first asked for; only containers with comments (or errors,
to say where) are read character by character here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

MAX_DEPTH = 200
"""How deep the containers read here may nest (the standard decoder has a limit of its own)."""


class JsoncError(ValueError):
    """The text is not JSON with comments; :attr:`line` and :attr:`column` count from 1."""

    def __init__(self, message: str, text: str, offset: int) -> None:
        self.line = text.count("\n", 0, offset) + 1
        self.column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        super().__init__(f"{message} at line {self.line}, column {self.column}")
        self.reason = message


@dataclass
class Member:
    """One ``"key": value`` of an object; offsets are into the text parsed."""

    key: str
    key_start: int
    key_end: int
    value: Node
    comma: int | None = None
    """Offset of the comma after the value, if there is one."""


class Node:
    """A value with its span ``text[start:end]``; objects have members, arrays items."""

    __slots__ = ("_items", "_members", "_text", "end", "kind", "start", "value")

    def __init__(self, kind: str, start: int, end: int, value: Any = None) -> None:
        self.kind = kind  # "object", "array", "string", "number", "literal"
        self.start = start
        self.end = end
        self.value = value
        """The plain Python value (dicts keep the last of duplicated keys, as JSON.parse does)."""
        self._members: list[Member] = []
        self._items: list[Node] = []
        self._text: str | None = None
        """The text parsed, while the members or items are still to be found in it."""

    @property
    def members(self) -> list[Member]:
        self._open()
        return self._members

    @property
    def items(self) -> list[Node]:
        self._open()
        return self._items

    def _open(self) -> None:
        if self._text is not None:
            text, self._text = self._text, None
            _Parser(text).fill(self, 0)

    def member(self, key: str) -> Member | None:
        """The last member named *key* (the one a reader of the JSON sees)."""
        found = [m for m in self.members if m.key == key]
        return found[-1] if found else None


_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')
_LITERALS = {"true": True, "false": False, "null": None}


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_not_json)
"""The standard decoder, without the NaN and Infinity it takes beyond JSON."""


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, message: str, offset: int | None = None) -> JsoncError:
        return JsoncError(message, self.text, self.pos if offset is None else offset)

    def skip(self) -> None:
        """Skip whitespace and comments."""
        text = self.text
        while self.pos < len(text):
            c = text[self.pos]
            if c in " \t\r\n\ufeff":
                self.pos += 1
            elif text.startswith("//", self.pos):
                end = text.find("\n", self.pos)
                self.pos = len(text) if end < 0 else end
            elif text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                if end < 0:
                    raise self.fail("a comment is not closed")
                self.pos = end + 2
            else:
                return

    def value(self, depth: int) -> Node:
        if depth > MAX_DEPTH:
            raise self.fail("the document is nested too deeply")
        self.skip()
        if self.pos >= len(self.text):
            raise self.fail("a value is missing (the file ends)")
        c = self.text[self.pos]
        if c in "{[":
            return self.container(depth)
        start = self.pos
        if c == '"':
            m = _STRING.match(self.text, start)
            if m is None:
                raise self.fail("a string is not closed or holds a bad escape")
            self.pos = m.end()
            return Node("string", start, self.pos, json.loads(m.group()))
        m = _NUMBER.match(self.text, start)
        if m is not None:
            self.pos = m.end()
            return Node("number", start, self.pos, json.loads(m.group()))
        for word, val in _LITERALS.items():
            if self.text.startswith(word, start):
                self.pos += len(word)
                return Node("literal", start, self.pos, val)
        raise self.fail(f"unexpected {c!r}")

    def container(self, depth: int) -> Node:
        """The object or array at the current position, read by the standard decoder if it can
        (its members or items are found when asked for), else here."""
        start = self.pos
        kind = "object" if self.text[start] == "{" else "array"
        try:
            value, end = _DECODER.raw_decode(self.text, start)
        except (ValueError, RecursionError):
            # a comment, a trailing comma, an error (read here to say where) or deep nesting
            node = Node(kind, start, -1, {} if kind == "object" else [])
            self.fill(node, depth)
            return node
        node = Node(kind, start, end, value)
        node._text = self.text
        self.pos = end
        return node

    def fill(self, node: Node, depth: int) -> None:
        """Find the members or items of *node* in the text, and put their values in its own.

        A value already there is replaced by the one read again, which is equal: the memory
        holds one copy of a big file's values, not two.
        """
        self.pos = node.start + 1
        if node.kind == "object":
            self._members(node, depth)
        else:
            self._items(node, depth)
        self.pos += 1
        node.end = self.pos

    def _members(self, node: Node, depth: int) -> None:
        while True:
            self.skip()
            if self.text.startswith("}", self.pos):
                return
            if not self.text.startswith('"', self.pos):
                raise self.fail("expected a key in double quotes or '}'")
            key_node = self.value(depth + 1)
            self.skip()
            if not self.text.startswith(":", self.pos):
                raise self.fail("expected ':' after a key")
            self.pos += 1
            value = self.value(depth + 1)
            member = Member(key_node.value, key_node.start, key_node.end, value)
            node._members.append(member)
            node.value[member.key] = value.value
            self.skip()
            if self.text.startswith(",", self.pos):
                member.comma = self.pos
                self.pos += 1
            elif not self.text.startswith("}", self.pos):
                raise self.fail("expected ',' or '}' after a value")

    def _items(self, node: Node, depth: int) -> None:
        while True:
            self.skip()
            if self.text.startswith("]", self.pos):
                return
            item = self.value(depth + 1)
            index = len(node._items)
            node._items.append(item)
            if index < len(node.value):
                node.value[index] = item.value
            else:
                node.value.append(item.value)
            self.skip()
            if self.text.startswith(",", self.pos):
                self.pos += 1
            elif not self.text.startswith("]", self.pos):
                raise self.fail("expected ',' or ']' after a value")


def parse(text: str) -> Node:
    """Parse JSON with comments and trailing commas; raises :class:`JsoncError`."""
    parser = _Parser(text)
    parser.skip()
    if text.startswith(("{", "["), parser.pos):
        # the top level is read here and its values by the decoder: each byte is decoded once
        root = Node("object" if text[parser.pos] == "{" else "array", parser.pos, -1)
        root.value = {} if root.kind == "object" else []
        parser.fill(root, 0)
    else:
        root = parser.value(0)
    parser.skip()
    if parser.pos != len(text):
        raise parser.fail("unexpected text after the document")
    return root


def dumps(value: Any) -> str:
    """*value* as compact JSON on one line (non-ASCII kept), the way new values are written."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def find(root: Node, path: tuple[str | int, ...]) -> Node | None:
    """The node at *path* (object keys, array indexes) under *root*, or None."""
    node = root
    for key in path:
        if isinstance(key, int):
            if node.kind != "array" or not 0 <= key < len(node.items):
                return None
            node = node.items[key]
            continue
        if node.kind != "object":
            return None
        m = node.member(key)
        if m is None:
            return None
        node = m.value
    return node


def _splice(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def replace(text: str, node: Node, new: str) -> str:
    """*text* with the span of *node* replaced by *new*."""
    return _splice(text, node.start, node.end, new)


def _indent_before(text: str, start: int, offset: int) -> str:
    """The line break and indentation before *offset* (searched from *start*), or a space."""
    return _line_break(text[start:offset]) or " "


def _line_break(lead: str) -> str | None:
    """The last line break of *lead* (``\\r\\n`` kept) and the indentation after it, if any."""
    at = lead.rfind("\n")
    if at < 0:
        return None
    return ("\r\n" if lead[at - 1 : at] == "\r" else "\n") + lead[at + 1 :]


def insert_member(text: str, obj: Node, key: str, value: str, after: str | None = None) -> str:
    """*text* with ``"key": value`` added to *obj*, after member *after* (default: the last).

    The new member copies the indentation and the spacing around ``:`` of its neighbour, and a
    trailing comma stays trailing.
    """
    assert obj.kind == "object"
    if not obj.members:
        return _splice(text, obj.start + 1, obj.end - 1, f"{dumps(key)}: {value}")
    index = len(obj.members) - 1
    if after is not None:
        index = max(i for i, m in enumerate(obj.members) if m.key == after)
    prev = obj.members[index]
    lead_from = obj.start + 1 if index == 0 else obj.members[index - 1].comma
    assert lead_from is not None
    indent = _indent_before(text, lead_from + (0 if index == 0 else 1), prev.key_start)
    between = text[prev.key_end : prev.value.start]  # the neighbour's ':' and its spacing
    new = f"{dumps(key)}{': ' if '/' in between else between}{value}"
    if index + 1 < len(obj.members):
        # put before the next member, so that a comment after the neighbour's comma stays its own
        following = obj.members[index + 1]
        assert prev.comma is not None
        sep = _line_break(text[prev.comma + 1 : following.key_start]) or " "
        return _splice(text, following.key_start, following.key_start, f"{new},{sep}")
    if prev.comma is not None:  # a trailing comma stays trailing
        return _splice(text, prev.comma + 1, prev.comma + 1, f"{indent}{new},")
    return _splice(text, prev.value.end, prev.value.end, f",{indent}{new}")


def remove_member(text: str, obj: Node, key: str) -> str:
    """*text* with member *key* of *obj* taken out, with the separator that came with it.

    The exact undo of :func:`insert_member`.
    """
    index = max(i for i, m in enumerate(obj.members) if m.key == key)
    member = obj.members[index]
    if index + 1 < len(obj.members):
        return _splice(text, member.key_start, obj.members[index + 1].key_start, "")
    if index > 0:
        before = obj.members[index - 1]
        end = member.value.end if member.comma is None else member.comma
        start = before.value.end if member.comma is None else before.comma
        assert start is not None
        return _splice(text, start, end, "")
    return _splice(text, obj.start + 1, obj.end - 1, "")


def prepend_items(text: str, array: Node, values: list[str]) -> str:
    """*text* with *values* (JSON texts) put before the first item of *array*."""
    assert array.kind == "array"
    if not array.items:
        return replace(text, array, "[" + ", ".join(values) + "]")
    first = array.items[0]
    lead = text[array.start + 1 : first.start]
    sep = "," + (_line_break(lead) or " ")
    return _splice(text, first.start, first.start, sep.join(values) + sep)


def drop_items(text: str, array: Node, count: int) -> str:
    """*text* with the first *count* items of *array* taken out (the undo of prepend_items)."""
    assert array.kind == "array" and 0 < count <= len(array.items)
    if count == len(array.items):
        return replace(text, array, "[]")
    return _splice(text, array.items[0].start, array.items[count].start, "")


def replace_items(text: str, array: Node, values: list[str]) -> str:
    """*text* with the items of *array* replaced by *values* (JSON texts), separated as its
    first items were (on one line, or one a line with their indentation)."""
    assert array.kind == "array"
    if not array.items or not values:
        return replace(text, array, "[" + ", ".join(values) + "]")
    first = array.items[0]
    if len(array.items) > 1:
        second = array.items[1]
        between = text[first.end : second.start]
        sep = "," + between.split(",", 1)[1] if "," in between else ", "
    else:
        sep = "," + (_line_break(text[array.start + 1 : first.start]) or " ")
    return _splice(text, first.start, array.items[-1].end, sep.join(values))
