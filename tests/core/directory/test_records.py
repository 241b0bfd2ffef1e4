"""The file bus's records: typed once, the manual's schemas made from the types, and every
record the app writes within them."""

from __future__ import annotations

import ast
import dataclasses
import json
import runpy
import typing
from pathlib import Path

import jsonschema
import pytest

from roots_manager.core.directory import records
from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import denials
from roots_manager.core.log import events as ev
from roots_manager.core.runs import live

REPO = Path(__file__).resolve().parents[3]
APP = REPO / "app" / "roots_manager"


def test_the_manuals_page_is_made_from_the_types() -> None:
    made = runpy.run_path(str(REPO / "scripts" / "update-file-bus"), run_name="check")["page"]()
    assert (REPO / "docs" / "file-bus.md").read_text(encoding="utf-8") == made, (
        "docs/file-bus.md differs from the records' types: run scripts/update-file-bus"
    )


@pytest.mark.parametrize("name", sorted(records.RECORDS))
def test_each_schema_is_a_valid_json_schema(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(records.json_schema(records.RECORDS[name]))


def _event_keywords() -> dict[str, set[str]]:
    """Every keyword passed to an ``event(KIND, ...)`` call in the app, and where."""
    found: dict[str, set[str]] = {}
    for path in APP.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name != "event":
                continue
            for keyword in node.keywords:
                if keyword.arg is not None:
                    found.setdefault(keyword.arg, set()).add(path.relative_to(APP).as_posix())
    return found


def test_every_field_an_event_is_written_with_is_in_the_contract() -> None:
    declared = set(typing.get_type_hints(records.EventRecord))
    written = _event_keywords()
    assert written  # the scan sees the bridge's events
    assert {k: sorted(v) for k, v in written.items() if k not in declared} == {}


def test_a_denials_fields_are_in_the_contract() -> None:
    attribution = denials.Attribution(
        during=denials.REQUEST,
        requests=(denials.Request(3, "tools/call", "read_file", {"path": "/x/y"}, 0.0),),
    )
    refusal = {"operation": "read", "time": 1.0, "path": "/x/y", "pid": 5, "comm": "cat",
               "call": "openat", "named": "/l/y", "repeated": 2, "lost": 1, "protected": True,
               "waits": 2}  # fmt: skip
    made = denials.fields(refusal, attribution)
    assert made is not None
    record = ev.event(ev.DENIAL, "fs", "run-1", **made)
    jsonschema.validate(record, records.json_schema(records.EventRecord))
    assert set(made) <= set(typing.get_type_hints(records.EventRecord))
    assert set(made["requests"][0]) <= set(typing.get_type_hints(records.RequestAtRefusal))


def test_an_event_as_written_and_read_back_meets_its_schema(tmp_path: Path) -> None:
    layout = Layout(tmp_path)
    layout.logs.mkdir(parents=True)
    writer = ev.EventWriter(layout, "run-1")
    writer.write(ev.event(ev.ROOTS_ANSWERED, "fs", "run-1", dir=ev.BRIDGE_TO_SERVER, id=7,
                          uris=["file:///w"], us=12))  # fmt: skip
    writer.close()
    read, _ = ev.read_events(writer.path)
    assert len(read) == 1
    jsonschema.validate(read[0], records.json_schema(records.EventRecord))


def test_the_markers_are_the_contracts_records(tmp_path: Path) -> None:
    bridge = {f.name for f in dataclasses.fields(live.BridgeMarker)} - {"run"} | {"session"}
    assert bridge == set(typing.get_type_hints(records.BridgeMarkerRecord))
    learning = {f.name for f in dataclasses.fields(live.LearningMarker)}
    assert learning == set(typing.get_type_hints(records.LearningMarkerRecord))
    layout = Layout(tmp_path)
    layout.live.mkdir(parents=True)
    live.write_bridge_marker(
        layout, live.BridgeMarker(run="run-1", server="fs", pid=1, started_at="t", command=["x"])
    )
    live.write_app_marker(layout)
    live.write_learning_marker(layout, "fs", 1.0, None)
    live.ask_restart(layout, "run-1", "the app")
    written = {
        "bridge-marker": live.bridge_marker_path(layout, "run-1"),
        "app-marker": layout.live / live.APP_MARKER,
        "learning-marker": next(layout.live.glob("learning-*.json")),
        "run-request": layout.home / live.restart_request_name("run-1"),
    }
    for name, path in written.items():
        jsonschema.validate(
            json.loads(path.read_text()), records.json_schema(records.RECORDS[name])
        )


KINDS_WRITTEN_SO_FAR = [
    "session-start", "session-end", "handshake", "roots-list-asked", "roots-list-answered",
    "roots-list-relayed", "list-changed-sent", "list-changed-relayed", "list-changed-asked",
    "mrtr-resolved", "consent-wait", "consent-decided", "server-restarting", "server-restarted",
    "restart-failed", "non-json", "error", "message", "denial", "restart-asked",
]  # fmt: skip


def test_the_kinds_keep_the_names_older_logs_hold() -> None:
    # a kind is only ever added: older logs and older readers know these
    assert [kind.value for kind in records.EventKind][: len(KINDS_WRITTEN_SO_FAR)] == (
        KINDS_WRITTEN_SO_FAR
    )
    schema = records.json_schema(records.EventRecord)
    # listed, not enforced: a newer bridge may write a kind this version does not know
    assert schema["properties"]["kind"] == {"type": "string", "examples": list(records.EventKind)}


@pytest.mark.parametrize("kind", list(records.EventKind))
def test_a_kind_is_written_as_its_string_and_reads_back_equal(
    kind: records.EventKind, tmp_path: Path
) -> None:
    layout = Layout(tmp_path)
    layout.logs.mkdir(parents=True)
    fields = {"ts": "2026-01-01T00:00:00.000000Z", "server": "fs", "session": "r"}
    as_enum = ev.EventWriter(layout, "enum")
    as_enum.write(typing.cast(records.EventRecord, {**fields, "kind": kind}))
    as_enum.close()
    as_text = ev.EventWriter(layout, "text")
    as_text.write(typing.cast(records.EventRecord, {**fields, "kind": kind.value}))
    as_text.close()
    line = as_enum.path.read_bytes()
    assert line == as_text.path.read_bytes()
    assert line == json.dumps({**fields, "kind": kind.value}).encode() + b"\n"
    [read], _ = ev.read_events(as_enum.path)
    assert type(read["kind"]) is str and read["kind"] == kind and kind == read["kind"]
    assert ev.summarize(read) == ev.summarize({**fields, "kind": kind})
