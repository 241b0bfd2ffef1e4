"""Host files as documents that can be read, and edited without touching anything else.

Each format gets the same small set of edits of one server entry (set a string, put items before
a list's first, take them out again, add or remove one key of a table), done with a round-trip
editor: the span editor of :mod:`roots_manager.core.hosts.jsonc` for JSON, ``tomlkit`` for TOML,
``ruamel.yaml`` for YAML. The TOML and YAML libraries re-serialise the document, so a file they
would not give back byte for byte unchanged is refused before any edit (:class:`NotEditable`).
"""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Mapping
from typing import Any, Protocol

import tomlkit
import tomlkit.exceptions
import tomlkit.items
from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString
from ruamel.yaml.util import load_yaml_guess_indent

from roots_manager.core.hosts import jsonc
from roots_manager.core.hosts.known import Format

Location = tuple[str | int, ...]
"""The keys (and, in a list, the indexes) from the top of a document to one server entry."""


class SyntaxProblem(ValueError):
    """The file does not parse; :attr:`line` is where (from 1), when known."""

    def __init__(self, reason: str, line: int | None) -> None:
        super().__init__(reason if line is None else f"line {line}: {reason}")
        self.reason = reason
        self.line = line


class NotEditable(ValueError):
    """The file parses but cannot be edited without changing more than the entry; says why."""


class ConfigDoc(Protocol):
    """A host file being edited; every edit names the entry by its :data:`Location`."""

    def data(self) -> Any:
        """The whole document as plain dicts, lists and scalars."""

    def dump(self) -> str:
        """The document's text with the edits made."""

    def set_string(self, loc: Location, key: str, value: str) -> None: ...

    def prepend(self, loc: Location, key: str, items: list[str], after: str) -> None:
        """Put *items* first in list *key*; make the list (placed after *after*) if absent."""

    def drop(self, loc: Location, key: str, count: int, remove_if_empty: bool) -> None:
        """Take the first *count* items out of list *key*; the key goes too if asked and empty."""

    def set_list(self, loc: Location, key: str, items: list[str]) -> None:
        """Make list *key* hold *items*, written the way its items were (one line or several)."""

    def set_item(self, loc: Location, key: str, name: str, value: str, after: str) -> None:
        """Set *name* in table *key*; make the table (placed after *after*) if absent."""

    def del_item(self, loc: Location, key: str, name: str, remove_if_empty: bool) -> None: ...


def plain(value: Any) -> Any:
    """A round-trip library's value as plain dicts, lists and scalars."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


class _Entry:
    """One entry of a JSON document being edited: its span in the text read, its text now."""

    def __init__(self, start: int, end: int, text: str) -> None:
        self.start = start
        self.end = end
        self.set(text)

    def set(self, text: str) -> None:
        self.text = text
        self.root = jsonc.parse(text)


class JsonDoc:
    """A JSON (with comments) document edited at the spans of its values.

    Each entry edited is kept apart, as a text of its own, until the document is dumped: an edit
    reads that entry again, not the whole file, which for Claude Code's ``~/.claude.json`` is a
    hundred megabytes of project history.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        try:
            self.root = jsonc.parse(text)
        except jsonc.JsoncError as exc:
            raise SyntaxProblem(exc.reason, exc.line) from exc
        self._entries: dict[Location, _Entry] = {}

    def data(self) -> Any:
        value = self.root.value
        for loc, entry in self._entries.items():
            value = _replaced(value, loc, entry.root.value)
        return value

    def dump(self) -> str:
        parts, at = [], 0
        for entry in sorted(self._entries.values(), key=lambda e: e.start):
            assert entry.start >= at, "two entries edited overlap"
            parts += [self.text[at : entry.start], entry.text]
            at = entry.end
        parts.append(self.text[at:])
        return "".join(parts)

    def _entry(self, loc: Location) -> _Entry:
        entry = self._entries.get(loc)
        if entry is None:
            node = jsonc.find(self.root, loc)
            if node is None or node.kind != "object":
                raise NotEditable(f"{_dotted(loc)} is not a table")
            entry = _Entry(node.start, node.end, self.text[node.start : node.end])
            self._entries[loc] = entry
        return entry

    def _node(self, loc: Location, key: str | None = None) -> tuple[_Entry, jsonc.Node]:
        """The entry at *loc* and its node, or the node of its list *key*."""
        entry = self._entry(loc)
        if key is None:
            return entry, entry.root
        node = jsonc.find(entry.root, (key,))
        if node is None or node.kind != "array":
            raise NotEditable(f"{_dotted((*loc, key))} is not a list")
        return entry, node

    def entry_text(self, loc: Location) -> str:
        """The exact text of the entry at *loc*."""
        return self._entry(loc).text

    def replace_entry(self, loc: Location, text: str) -> None:
        self._entry(loc).set(text)

    def set_string(self, loc: Location, key: str, value: str) -> None:
        entry, node = self._node(loc)
        member = node.member(key)
        if member is None:
            entry.set(jsonc.insert_member(entry.text, node, key, jsonc.dumps(value)))
        else:
            entry.set(jsonc.replace(entry.text, member.value, jsonc.dumps(value)))

    def prepend(self, loc: Location, key: str, items: list[str], after: str) -> None:
        entry, node = self._node(loc)
        texts = [jsonc.dumps(i) for i in items]
        if node.member(key) is None:
            value = "[" + ", ".join(texts) + "]"
            entry.set(jsonc.insert_member(entry.text, node, key, value, _after(node, after)))
        else:
            entry.set(jsonc.prepend_items(entry.text, self._node(loc, key)[1], texts))

    def drop(self, loc: Location, key: str, count: int, remove_if_empty: bool) -> None:
        entry, array = self._node(loc, key)
        if remove_if_empty and len(array.items) == count:
            entry.set(jsonc.remove_member(entry.text, entry.root, key))
        else:
            entry.set(jsonc.drop_items(entry.text, array, count))

    def set_list(self, loc: Location, key: str, items: list[str]) -> None:
        entry, array = self._node(loc, key)
        entry.set(jsonc.replace_items(entry.text, array, [jsonc.dumps(i) for i in items]))

    def set_item(self, loc: Location, key: str, name: str, value: str, after: str) -> None:
        entry, node = self._node(loc)
        member = node.member(key)
        if member is None:
            table = "{" + jsonc.dumps(name) + ": " + jsonc.dumps(value) + "}"
            entry.set(jsonc.insert_member(entry.text, node, key, table, _after(node, after)))
            return
        if member.value.kind != "object":
            raise NotEditable(f"{_dotted((*loc, key))} is not a table")
        inner = member.value.member(name)
        if inner is None:
            text = jsonc.insert_member(entry.text, member.value, name, jsonc.dumps(value))
        else:
            text = jsonc.replace(entry.text, inner.value, jsonc.dumps(value))
        entry.set(text)

    def del_item(self, loc: Location, key: str, name: str, remove_if_empty: bool) -> None:
        entry, node = self._node(loc)
        member = node.member(key)
        if member is None or member.value.kind != "object":
            raise NotEditable(f"{_dotted((*loc, key))} is not a table")
        table = member.value
        if remove_if_empty and [m.key for m in table.members] == [name]:
            entry.set(jsonc.remove_member(entry.text, node, key))
        else:
            entry.set(jsonc.remove_member(entry.text, table, name))


def _dotted(loc: Location) -> str:
    return ".".join(str(key) for key in loc)


def _replaced(data: Any, loc: Location, new: Any) -> Any:
    """*data* with the value at *loc* replaced by *new*; *data* itself stays as it was."""
    if not loc:
        return new
    out = list(data) if isinstance(data, list) else dict(data)
    out[loc[0]] = _replaced(data[loc[0]], loc[1:], new)  # type: ignore[index]
    return out


def _after(entry: jsonc.Node, key: str) -> str | None:
    return key if entry.member(key) is not None else None


class _TreeDoc:
    """The edits on a round-trip library's tree of mappings and lists (tomlkit, ruamel)."""

    tree: Any

    def _get(self, loc: Location) -> Any:
        node = self.tree
        for key in loc:
            node = node[key]
        return node

    def _new_list(self, items: list[str]) -> Any:
        return list(items)

    def _new_table(self, name: str, value: str) -> Any:
        return {name: value}

    def _insert(self, entry: Any, key: str, value: Any, after: str) -> None:
        entry[key] = value

    def data(self) -> Any:
        return plain(self.tree)

    def set_string(self, loc: Location, key: str, value: str) -> None:
        self._get(loc)[key] = value

    def prepend(self, loc: Location, key: str, items: list[str], after: str) -> None:
        entry = self._get(loc)
        if key not in entry:
            self._insert(entry, key, self._new_list(items), after)
            return
        for i, item in enumerate(items):
            entry[key].insert(i, item)

    def drop(self, loc: Location, key: str, count: int, remove_if_empty: bool) -> None:
        entry = self._get(loc)
        if remove_if_empty and len(entry[key]) == count:
            del entry[key]
            return
        for _ in range(count):
            del entry[key][0]

    def set_list(self, loc: Location, key: str, items: list[str]) -> None:
        old = self._get(loc)[key]
        like = old[0] if old else None
        while len(old):
            del old[len(old) - 1]
        for item in items:
            old.append(_quoted_like(item, like))

    def set_item(self, loc: Location, key: str, name: str, value: str, after: str) -> None:
        entry = self._get(loc)
        if key not in entry:
            self._insert(entry, key, self._new_table(name, value), after)
        else:
            entry[key][name] = value

    def del_item(self, loc: Location, key: str, name: str, remove_if_empty: bool) -> None:
        entry = self._get(loc)
        if remove_if_empty and list(entry[key]) == [name]:
            del entry[key]
        else:
            del entry[key][name]


class TomlDoc(_TreeDoc):
    """A TOML document edited with ``tomlkit``, which keeps comments, order and tables."""

    def __init__(self, text: str) -> None:
        try:
            self.tree = tomlkit.parse(text)
        except tomlkit.exceptions.ParseError as exc:
            raise SyntaxProblem(str(exc).split(" at line")[0], exc.line) from exc
        if tomlkit.dumps(self.tree) != text:
            raise NotEditable("tomlkit would not write this file back unchanged")

    def _insert(self, entry: Any, key: str, value: Any, after: str) -> None:
        if isinstance(entry, tomlkit.items.Table) and after in entry:
            # next to its neighbour, not after the comments that end the table (they belong to
            # what follows). tomlkit has no public call for it: its container's insertion at a
            # place in its body is used, the one of its calls for it that 0.13 to 0.15.3 all
            # have (0.15.3 dropped the insertion after a key)
            body = entry.value.body
            place = next(
                (i for i, (k, _) in enumerate(body) if k is not None and k.key == after), None
            )
            if place is not None and place + 1 < len(body):
                entry.value._insert_at(place + 1, key, value)
                return
        entry[key] = value

    def _new_list(self, items: list[str]) -> Any:
        array = tomlkit.array()
        array.extend(items)  # each a basic string, "..." like the file's own
        return array

    def _new_table(self, name: str, value: str) -> Any:
        table = tomlkit.inline_table()
        table[name] = value
        return table

    def dump(self) -> str:
        return tomlkit.dumps(self.tree)

    # tomlkit spaces items put into a one-line array oddly ("a","b"): such arrays are edited as
    # text, the way the JSON ones are; arrays over several lines it edits well

    def prepend(self, loc: Location, key: str, items: list[str], after: str) -> None:
        entry = self._get(loc)
        old = entry.get(key)
        if old is None or "\n" in old.as_string():
            super().prepend(loc, key, items, after)
            return
        lead, rest = _split_array(old.as_string())
        added = ", ".join(_basic(i) for i in items)
        self._swap(entry, key, "[" + lead + added + ("" if rest.startswith("]") else ", ") + rest)

    def drop(self, loc: Location, key: str, count: int, remove_if_empty: bool) -> None:
        entry = self._get(loc)
        old = entry[key]
        lead, rest = _split_array(old.as_string())
        added = ", ".join(_basic(str(i)) for i in list(old)[:count])
        if "\n" in old.as_string() or not rest.startswith(added):
            super().drop(loc, key, count, remove_if_empty)
        elif remove_if_empty and count == len(old):
            del entry[key]
        elif rest.startswith(added + ", "):
            self._swap(entry, key, "[" + lead + rest[len(added) + 2 :])
        else:
            self._swap(entry, key, "[" + lead + rest[len(added) :].lstrip(", "))

    def set_list(self, loc: Location, key: str, items: list[str]) -> None:
        entry = self._get(loc)
        old = entry[key]
        if "\n" in old.as_string():
            super().set_list(loc, key, items)
            return
        lead, rest = _split_array(old.as_string())
        tail = rest[len(rest.rstrip().rstrip("]").rstrip()) :]
        self._swap(entry, key, "[" + lead + ", ".join(_basic(i) for i in items) + tail)

    def _swap(self, entry: Any, key: str, text: str) -> None:
        old = entry[key]
        new = tomlkit.parse(f"x = {text}")["x"]
        for attr in ("indent", "comment_ws", "comment", "trail"):
            setattr(new.trivia, attr, getattr(old.trivia, attr))
        entry[key] = new


class YamlDoc(_TreeDoc):
    """A YAML document edited with ``ruamel.yaml``, which keeps comments, order and quotes."""

    def __init__(self, text: str) -> None:
        try:
            _, guessed, guessed_offset = load_yaml_guess_indent(text)
        except MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            raise SyntaxProblem(
                str(exc.problem or exc.context), mark.line + 1 if mark else None
            ) from exc
        except YAMLError as exc:
            raise SyntaxProblem(str(exc), None) from exc
        # The indentation is guessed, and serde_yaml (Goose) writes "null" where other writers
        # leave the value empty: the settings that give the file back unchanged are the ones
        # it was written with.
        guess = (guessed or 2, guessed_offset or 0)
        tried = [
            (guess[0], guess[0], guess[1]),
            *itertools.product((2, 4), (2, 4, 6), (0, 2, 4)),
        ]
        layouts = [t for t in dict.fromkeys(tried) if t[1] >= t[2] + 2]
        for (mapping, sequence, offset), null in itertools.product(layouts, ("null", "", "~")):
            self.yaml = YAML()
            self.yaml.preserve_quotes = True
            self.yaml.width = 1 << 16
            self.yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
            self.yaml.representer.add_representer(
                type(None),
                lambda r, _d, null=null: r.represent_scalar("tag:yaml.org,2002:null", null),
            )
            self.tree = self.yaml.load(text)
            if self.dump() == text:
                return
        raise NotEditable("ruamel.yaml would not write this file back unchanged")

    def _insert(self, entry: Any, key: str, value: Any, after: str) -> None:
        keys = list(entry.keys())
        entry.insert(keys.index(after) + 1 if after in keys else len(keys), key, value)

    # a string put in takes the quotes of the one it replaces or goes next to: "uvx" put back
    # as uvx would not give back the bytes the file had

    def set_string(self, loc: Location, key: str, value: str) -> None:
        entry = self._get(loc)
        entry[key] = _quoted_like(value, entry.get(key))

    def prepend(self, loc: Location, key: str, items: list[str], after: str) -> None:
        old = self._get(loc).get(key)
        like = old[0] if isinstance(old, list) and old else None
        super().prepend(loc, key, [_quoted_like(item, like) for item in items], after)

    def dump(self) -> str:
        out = io.StringIO()
        self.yaml.dump(self.tree, out)
        return out.getvalue()


def _quoted_like(value: str, like: Any) -> str:
    """*value* written in the quotes of *like*, a string read by ruamel.yaml, if it had any."""
    quoted: str = value
    if isinstance(like, DoubleQuotedScalarString):
        quoted = DoubleQuotedScalarString(value)
    elif isinstance(like, SingleQuotedScalarString):
        quoted = SingleQuotedScalarString(value)
    return quoted


def _split_array(text: str) -> tuple[str, str]:
    """A one-line TOML array's text as the spaces after ``[`` and the rest."""
    inner = text[1:]
    rest = inner.lstrip(" \t")
    return inner[: len(inner) - len(rest)], rest


def _basic(value: str) -> str:
    """*value* as a TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(value, ensure_ascii=False)


def load(fmt: Format, text: str) -> JsonDoc | TomlDoc | YamlDoc:
    """The document *text* in format *fmt*; raises :class:`SyntaxProblem` or
    :class:`NotEditable` (the latter only where reading would still work)."""
    if fmt is Format.JSON:
        return JsonDoc(text)
    if fmt is Format.TOML:
        return TomlDoc(text)
    return YamlDoc(text)


def read(fmt: Format, text: str) -> Any:
    """The plain data of *text*, for listing: a file that cannot be edited can still be read."""
    try:
        return load(fmt, text).data()
    except NotEditable:
        if fmt is Format.TOML:
            return plain(tomlkit.parse(text))
        return plain(YAML().load(text))
