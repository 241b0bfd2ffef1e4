"""Choosing path tools from input schemas, and the arguments each call gets."""

from __future__ import annotations

from typing import Any

from roots_manager.core.probe.plan import (
    Operation,
    PathTool,
    TargetKind,
    arguments,
    choose_tools,
    targets_for,
    words,
)


def tool(name: str, props: dict[str, Any], required: list[str], **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "description": extra.pop("description", ""),
        "inputSchema": {"type": "object", "properties": props, "required": required, **extra},
    }


S = {"type": "string"}


def chosen(*tools: dict[str, Any]) -> dict[str, PathTool]:
    return {t.name: t for t in choose_tools(list(tools)).tools}


def test_words_split_identifiers_of_every_style() -> None:
    assert words("read_text_file") == {"read", "text", "file"}
    assert words("filePath") == {"file", "path"}
    assert words("dest-dir") == {"dest", "dir"}


def test_path_arguments_are_found_by_name_and_by_description() -> None:
    found = chosen(
        tool("read_text_file", {"path": S, "head": {"type": "number"}}, ["path"]),
        tool("open", {"target": {**S, "description": "The path of the file to open"}}, ["target"]),
        tool("search", {"pattern": {**S, "description": "a glob for file names"}}, ["pattern"]),
        tool("list_allowed_directories", {}, []),
    )
    assert set(found) == {"read_text_file", "open"}
    assert found["read_text_file"].fixed == {}  # optional arguments are left out
    left_out = choose_tools([tool("list_allowed_directories", {}, [])]).left_out
    assert left_out == {"list_allowed_directories": "takes no path"}


def test_arrays_uris_folders_and_the_other_required_arguments() -> None:
    found = chosen(
        tool("read_multiple_files", {"paths": {"type": "array", "items": S}}, ["paths"]),
        tool("fetch_resource", {"uri": S}, ["uri"]),
        tool("list_directory", {"path": S}, ["path"]),
        tool(
            "search_files",
            {
                "path": S,
                "pattern": S,
                "limit": {"type": "integer", "minimum": 3},
                "options": {"$ref": "#/$defs/Opts"},
                "mode": {"enum": ["fast", "slow"]},
                "flag": {"type": "boolean"},
            },
            ["path", "pattern", "limit", "options", "mode", "flag"],
            **{"$defs": {"Opts": {"type": "object", "properties": {"x": S}, "required": ["x"]}}},
        ),
    )
    many = found["read_multiple_files"].slots[0]
    assert many.many and not many.uri and not many.folder
    assert found["fetch_resource"].slots[0].uri
    assert found["list_directory"].slots[0].folder
    search = found["search_files"]
    assert search.slots[0].folder
    assert search.fixed == {
        "pattern": "notes",
        "limit": 3,
        "options": {"x": "notes"},
        "mode": "fast",
        "flag": False,
    }


def test_writes_by_annotation_or_name_and_what_they_create() -> None:
    found = chosen(
        tool("write_file", {"path": S, "content": S}, ["path", "content"]),
        tool("edit_file", {"path": S, "edits": {"type": "array"}}, ["path", "edits"]),
        tool("move_file", {"source": S, "destination": S}, ["source", "destination"]),
        tool("create_directory", {"path": S}, ["path"]),
        {**tool("write_nothing", {"path": S}, ["path"]), "annotations": {"readOnlyHint": True}},
        {**tool("stat", {"path": S}, ["path"]), "annotations": {"destructiveHint": True}},
    )
    assert found["write_file"].operation is Operation.WRITE
    assert found["write_file"].slots[0].fresh and found["write_file"].fixed == {"content": "notes"}
    assert not found["edit_file"].slots[0].fresh and found["edit_file"].fixed == {"edits": []}
    source, dest = found["move_file"].slots
    assert not source.fresh and dest.fresh
    assert found["create_directory"].slots[0].folder and found["create_directory"].slots[0].fresh
    assert found["write_nothing"].operation is Operation.READ
    assert found["stat"].operation is Operation.WRITE
    # a tool with two paths gets the row that sends only its destination outside
    assert TargetKind.DESTINATION_OUTSIDE in found["move_file"].kinds()
    assert TargetKind.DESTINATION_OUTSIDE not in found["write_file"].kinds()


def test_arguments_aim_every_path_into_the_tree() -> None:
    found = chosen(
        tool("move_file", {"source": S, "destination": S}, ["source", "destination"]),
        tool("read_multiple_files", {"paths": {"type": "array", "items": S}}, ["paths"]),
        tool("read_uri", {"uri": S}, ["uri"]),
    )
    move = found["move_file"]
    inside, outside = targets_for(move, TargetKind.DESTINATION_OUTSIDE)
    assert arguments(move, "/t", inside) == {
        "source": "/t/packages/checkout/notes.txt",
        "destination": "/t/packages/checkout/probe-new.txt",
    }
    assert arguments(move, "/t", outside) == {
        "source": "/t/packages/checkout/notes.txt",
        "destination": "/t/packages/billing/probe-new.txt",
    }
    many = found["read_multiple_files"]
    _, prefix = targets_for(many, TargetKind.PREFIX_SIBLING)
    assert arguments(many, "/t", prefix) == {"paths": ["/t/packages/checkout-old/notes.txt"]}
    uri = found["read_uri"]
    _, hashed = targets_for(uri, TargetKind.HASH_NAME)
    assert arguments(uri, "/t", hashed) == {"uri": "file:///t/packages/web%23staging/notes.txt"}
    _, encoded = targets_for(uri, TargetKind.PERCENT_ENCODED)
    assert arguments(uri, "/t", encoded) == {
        "uri": "file:///t/packages/checkout/%2e%2e/billing/notes.txt"
    }


def test_a_schema_that_cannot_be_filled_is_left_out_with_the_reason() -> None:
    weird = tool("odd", {"path": S, "thing": {"type": "mystery"}}, ["path", "thing"])
    choice = choose_tools([weird])
    assert choice.tools == []
    assert "cannot fill (mystery)" in choice.left_out["odd"]
