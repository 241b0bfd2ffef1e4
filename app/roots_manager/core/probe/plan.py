"""The boundary probe's plan: which tools take paths, what to give them, and the paired targets.

A tool is probed when its input schema takes paths: an argument whose name says so (``path``,
``paths``, ``file``, ``directory``, ``source``, ``destination``, ``uri``, ``root``, ``cwd``...,
a string or an array of strings) or whose description starts by naming one. Its other required
arguments are filled from their schema types. Writes are aimed only into the scratch tree: a
path argument only ever receives a path of the tree (:mod:`~roots_manager.core.probe.fixture`).

Each row of the matrix pairs one operation on a target inside the root with the same operation
on a partner target outside it (:data:`PAIRS`); later phases pair the second root, the root that
replaces both after ``list_changed``, and the same target after the list was emptied.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from roots_manager.core.probe.fixture import (
    ADDED_ROOT,
    HASH_NAME,
    LINK,
    NEW_ROOT,
    NON_ASCII,
    ROOT,
    SECOND_ROOT,
)
from roots_manager.core.roots.uri import UriError, path_to_uri, uri_to_path
from roots_manager.support.paths import inside


class Operation(StrEnum):
    """What a tool does to the paths it is given, as far as its schema tells."""

    READ = "read"
    WRITE = "write"


class TargetKind(StrEnum):
    """What a row's partner target is."""

    SIBLING = "sibling"
    PREFIX_SIBLING = "prefix_sibling"
    TRAVERSAL = "traversal"
    SYMLINK = "symlink"
    HASH_NAME = "hash_name"
    NON_ASCII = "non_ascii"
    PERCENT_ENCODED = "percent_encoded"
    DESTINATION_OUTSIDE = "destination_outside"
    SECOND_ROOT = "second_root"
    NEW_ROOT = "new_root"
    ADDED_ROOT = "added_root"
    AFTER_EMPTY_LIST = "after_empty_list"


BOUNDARY_KINDS = (
    TargetKind.SIBLING,
    TargetKind.PREFIX_SIBLING,
    TargetKind.TRAVERSAL,
    TargetKind.SYMLINK,
    TargetKind.HASH_NAME,
    TargetKind.NON_ASCII,
    TargetKind.PERCENT_ENCODED,
    TargetKind.DESTINATION_OUTSIDE,
)
"""The kinds whose partner is outside every root the server was given."""

KIND_TEXT = {
    TargetKind.SIBLING: "a sibling package (packages/billing)",
    TargetKind.PREFIX_SIBLING: "a sibling whose name starts with the root's (packages/checkout-old)",
    TargetKind.TRAVERSAL: "'..' from inside the root",
    TargetKind.SYMLINK: "a symbolic link inside the root that leads out of it",
    TargetKind.HASH_NAME: "a folder named web#staging outside the root",
    TargetKind.NON_ASCII: "a folder with a non-ASCII name outside the root",
    TargetKind.PERCENT_ENCODED: "'%2e%2e' (an encoded '..') from inside the root",
    TargetKind.DESTINATION_OUTSIDE: "the source inside, the destination outside",
    TargetKind.SECOND_ROOT: "the second root (inside: the first)",
    TargetKind.NEW_ROOT: "after the change, the new root (outside: the dropped one)",
    TargetKind.ADDED_ROOT: "a second root added to the changed list (inside: the first)",
    TargetKind.AFTER_EMPTY_LIST: "the last root, before and after the list was emptied",
}


@dataclass(frozen=True)
class Target:
    """A target as a folder and a file in it, both relative to the tree's top."""

    folder: str
    file: str
    uri: str | None = None
    """The URI exactly as the server listed it (a resource), sent as is."""


def _t(folder: str, file: str = "notes.txt") -> Target:
    return Target(folder, f"{folder}/{file}")


INSIDE = _t(ROOT)
PAIRS: dict[TargetKind, tuple[Target, Target]] = {
    TargetKind.SIBLING: (INSIDE, _t(NEW_ROOT)),
    TargetKind.PREFIX_SIBLING: (INSIDE, _t("packages/checkout-old")),
    TargetKind.TRAVERSAL: (INSIDE, _t(f"{ROOT}/../billing")),
    TargetKind.SYMLINK: (INSIDE, _t(LINK, "secret.txt")),
    TargetKind.HASH_NAME: (_t(f"{ROOT}/{HASH_NAME}"), _t(f"packages/{HASH_NAME}")),
    TargetKind.NON_ASCII: (_t(f"{ROOT}/{NON_ASCII}"), _t(f"packages/{NON_ASCII}")),
    TargetKind.PERCENT_ENCODED: (INSIDE, _t(f"{ROOT}/%2e%2e/billing")),
    TargetKind.SECOND_ROOT: (INSIDE, _t(SECOND_ROOT)),
    TargetKind.NEW_ROOT: (_t(NEW_ROOT), INSIDE),
    TargetKind.ADDED_ROOT: (_t(NEW_ROOT), _t(ADDED_ROOT)),
    TargetKind.AFTER_EMPTY_LIST: (_t(NEW_ROOT), _t(NEW_ROOT)),
}
"""Each kind's (inside, outside) targets. For the last four the inside cell is the control: a
target that should work at that moment (the first root, the new root, the last root before the
list was emptied) and the outside cell the one under test."""

FRESH_FILE = "probe-new.txt"
FRESH_FOLDER = "probe-new-folder"

_PATH_WORDS = {
    "path", "paths", "file", "files", "filename", "filenames", "filepath", "filepaths",
    "dir", "dirs", "directory", "directories", "folder", "folders", "source", "sources",
    "src", "destination", "dest", "uri", "uris", "url", "root", "roots", "cwd",
}  # fmt: skip
_FOLDER_ARG_WORDS = {"dir", "dirs", "directory", "directories", "folder", "folders", "root", "roots", "cwd"}  # fmt: skip
_FOLDER_TOOL_WORDS = {"directory", "directories", "dir", "folder", "folders", "tree", "list", "ls", "search", "find", "glob", "grep", "mkdir", "walk"}  # fmt: skip
_WRITE_WORDS = {
    "write", "create", "edit", "move", "rename", "delete", "remove", "rm", "mkdir", "put",
    "save", "append", "update", "copy", "touch", "patch", "replace", "modify", "upload",
    "insert", "mv", "cp", "unlink", "truncate", "set",
}  # fmt: skip
_CREATE_WORDS = {"write", "create", "mkdir", "save", "put", "touch", "new", "upload", "copy", "cp"}
_DESTINATION_WORDS = {"destination", "dest", "target", "to", "new", "output", "out"}
_SOURCE_WORDS = {"source", "sources", "src", "from"}
_DESCRIBED_PATH = re.compile(
    r"^\s*(the |a |an )?(absolute |relative |full )?(path|file path|directory|folder)\b", re.I
)


def words(name: str) -> set[str]:
    """The lower-case words of an identifier: ``read_text_file``, ``filePath``, ``dest-dir``."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return {w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w}


@dataclass(frozen=True)
class Slot:
    """One path argument of a tool and what it wants."""

    arg: str
    many: bool
    """An array of paths."""
    uri: bool
    """A ``file://`` URI rather than a path."""
    folder: bool
    """A folder rather than a file."""
    fresh: bool
    """A name the call creates (a write's new file, a move's destination)."""


@dataclass(frozen=True)
class PathTool:
    """A tool (or ``resources/read``) the probe calls, with its path slots and fixed arguments."""

    name: str
    operation: Operation
    slots: tuple[Slot, ...]
    fixed: dict[str, Any] = field(default_factory=dict)
    resource: bool = False

    def kinds(self) -> list[TargetKind]:
        """The boundary kinds this tool is probed with."""
        kinds: list[TargetKind] = [
            k for k in BOUNDARY_KINDS if k is not TargetKind.DESTINATION_OUTSIDE
        ]
        if len(self.slots) > 1:
            kinds.append(TargetKind.DESTINATION_OUTSIDE)
        return kinds


RESOURCE_READ = PathTool(
    "resources/read",
    Operation.READ,
    (Slot("uri", many=False, uri=True, folder=False, fresh=False),),
    resource=True,
)


@dataclass(frozen=True)
class ToolChoice:
    """The tools the probe calls, and why each other tool is left out."""

    tools: list[PathTool]
    left_out: dict[str, str]


def choose_tools(tools: list[dict[str, Any]]) -> ToolChoice:
    """Pick the tools whose input schema takes paths, from ``tools/list`` entries (as JSON)."""
    chosen: list[PathTool] = []
    left_out: dict[str, str] = {}
    for tool in tools:
        name = str(tool.get("name", ""))
        schema = tool.get("inputSchema") or {}
        try:
            made = _path_tool(name, str(tool.get("description") or ""), schema, tool)
        except _Unfillable as exc:
            left_out[name] = str(exc)
            continue
        if made is None:
            left_out[name] = "takes no path"
        else:
            chosen.append(made)
    return ToolChoice(chosen, left_out)


class _Unfillable(Exception):
    pass


def _operation(name: str, description: str, annotations: dict[str, Any]) -> Operation:
    if annotations.get("readOnlyHint") is True:
        return Operation.READ
    if annotations.get("readOnlyHint") is False or annotations.get("destructiveHint") is True:
        return Operation.WRITE
    return Operation.WRITE if words(name) & _WRITE_WORDS else Operation.READ


def _path_tool(
    name: str, description: str, schema: dict[str, Any], tool: dict[str, Any]
) -> PathTool | None:
    props: dict[str, Any] = schema.get("properties") or {}
    required = set(schema.get("required") or ())
    operation = _operation(name, description, tool.get("annotations") or {})
    tool_words = words(name)
    slots: list[Slot] = []
    fixed: dict[str, Any] = {}
    for arg, raw in props.items():
        prop = _resolve(raw, schema)
        slot = _slot(arg, prop, schema, tool_words, operation)
        if slot is not None:
            slots.append(slot)
        elif arg in required:
            fixed[arg] = fill(prop, schema)
    if not slots:
        return None
    return PathTool(name, operation, tuple(slots), fixed)


def _slot(
    arg: str, prop: dict[str, Any], schema: dict[str, Any], tool_words: set[str], op: Operation
) -> Slot | None:
    arg_words = words(arg)
    named = bool(arg_words & _PATH_WORDS) or bool(
        _DESCRIBED_PATH.match(str(prop.get("description") or ""))
    )
    if not named:
        return None
    kind = _type(prop)
    many = False
    if kind == "array":
        item = _resolve(prop.get("items") or {}, schema)
        if _type(item) != "string":
            return None
        many = True
    elif kind != "string":
        return None
    uri = bool(arg_words & {"uri", "uris", "url"}) or prop.get("format") == "uri"
    folder = bool(arg_words & _FOLDER_ARG_WORDS) or (
        not arg_words & {"file", "files", "filename", "filepath"}
        and bool(tool_words & _FOLDER_TOOL_WORDS)
    )
    fresh = op is Operation.WRITE and (
        bool(arg_words & _DESTINATION_WORDS)
        or (not arg_words & _SOURCE_WORDS and bool(tool_words & _CREATE_WORDS))
    )
    return Slot(arg, many, uri, folder, fresh)


def _type(prop: dict[str, Any]) -> str | None:
    t = prop.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), None)
    if t is None:
        for key in ("anyOf", "oneOf"):
            for option in prop.get(key) or ():
                if isinstance(option, dict) and option.get("type") not in (None, "null"):
                    return str(option["type"])
    return None if t is None else str(t)


def _resolve(prop: Any, schema: dict[str, Any]) -> dict[str, Any]:
    """*prop* with a local ``$ref`` (``#/$defs/X``) followed, and a lone ``anyOf`` unwrapped."""
    for _ in range(8):
        if not isinstance(prop, dict):
            return {}
        ref = prop.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            node: Any = schema
            for part in ref[2:].split("/"):
                node = node.get(part) if isinstance(node, dict) else None
            prop = node
            continue
        return prop
    return {}


def fill(prop: dict[str, Any], schema: dict[str, Any], depth: int = 0) -> Any:
    """A value that satisfies *prop*'s type: a string, a number, ``{}``, ``[]``..."""
    if depth > 6:
        raise _Unfillable("its input schema nests too deeply to fill")
    prop = _resolve(prop, schema)
    if "const" in prop:
        return prop["const"]
    if prop.get("enum"):
        return prop["enum"][0]
    if "default" in prop:
        return prop["default"]
    t = _type(prop)
    options = prop.get("anyOf") or prop.get("oneOf")
    if t is None and isinstance(options, list) and options:
        return fill(options[0], schema, depth + 1)
    if t == "string":
        return "notes"
    if t in ("integer", "number"):
        low = prop.get("minimum", prop.get("exclusiveMinimum", 0))
        return max(1, int(low) + (1 if "exclusiveMinimum" in prop else 0))
    if t == "boolean":
        return False
    if t == "array":
        count = int(prop.get("minItems", 0))
        return [fill(prop.get("items") or {}, schema, depth + 1) for _ in range(count)]
    if t == "object" or t is None:
        props = prop.get("properties") or {}
        return {
            k: fill(props[k], schema, depth + 1) for k in prop.get("required") or () if k in props
        }
    if t == "null":
        return None
    raise _Unfillable(f"its input schema has a type the probe cannot fill ({t})")


# ---- the arguments of one call ---------------------------------------------------------


def slot_rel(slot: Slot, target: Target) -> str:
    """The relative path a slot gets for *target*."""
    if slot.fresh:
        return f"{target.folder}/{FRESH_FOLDER if slot.folder else FRESH_FILE}"
    return target.folder if slot.folder else target.file


def spell(top: str, rel: str, uri: bool) -> str:
    """The absolute path of *rel* under *top*, or its ``file://`` URI (``%2e%2e`` kept raw)."""
    if not uri:
        return f"{top}/{rel}"
    head, sep, tail = rel.partition("%2e%2e")
    return path_to_uri(f"{top}/{head}".rstrip("/")) + ("/" + sep + tail if sep else "")


def arguments(tool: PathTool, top: str, targets: list[Target]) -> dict[str, Any]:
    """The call's arguments: slot *i* gets ``targets[i]`` (the last target for the rest)."""
    args = dict(tool.fixed)
    for i, slot in enumerate(tool.slots):
        target = targets[min(i, len(targets) - 1)]
        if slot.uri and target.uri is not None:
            value = target.uri
        else:
            value = spell(top, slot_rel(slot, target), slot.uri)
        args[slot.arg] = [value] if slot.many else value
    return args


def listed_inside(uris: list[str], top: str) -> list[Target]:
    """The ``file://`` URIs a server listed as resources that lie inside the probe's root.

    Each is read exactly as listed; its partners outside are the fixture's (:data:`PAIRS`).
    """
    real_top = os.path.realpath(top)
    root = os.path.join(real_top, ROOT)
    out = []
    for uri in uris:
        try:
            path = os.path.realpath(uri_to_path(uri))
        except (UriError, ValueError):
            continue
        if path != root and inside(path, root) and os.path.isfile(path):
            rel = os.path.relpath(path, real_top).replace(os.sep, "/")
            out.append(Target(os.path.dirname(rel), rel, uri))
    return out


def targets_for(
    tool: PathTool, kind: TargetKind, listed: list[Target] | None = None
) -> tuple[list[Target], list[Target]]:
    """The inside and outside cells' targets, one per slot, for *kind*.

    *listed*: resources the server listed inside the root; for ``resources/read`` the inside
    cell of each boundary row reads the first of them rather than a file of the fixture's.
    """
    if tool.resource and listed and kind in BOUNDARY_KINDS:
        return [listed[0]], [PAIRS[kind][1]]
    if kind is TargetKind.DESTINATION_OUTSIDE:
        outside = PAIRS[TargetKind.SIBLING][1]
        return [INSIDE], [INSIDE] + [outside] * (len(tool.slots) - 1)
    within, outside = PAIRS[kind]
    return [within], [outside]
