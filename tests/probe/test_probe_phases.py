"""The boundary probe's later phases against real servers: the user's log, a second root added
mid-run, listed resources, and 2026-07-28 (no list_changed: roots travel with each request).

Every probe runs as ``roots-manager probe`` in a process of its own, the server behind a real
``roots-bridge``; each verdict is asserted in full.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.file import Store
from tests.conftest import run_cli
from tests.fakes import FAKES
from tests.probe.test_probe import CLEAN, probe_json, puppet

MODERN_SERVER = FAKES / "modern_file_server.py"


def phase(doc: dict[str, Any], name: str) -> str | None:
    return doc["verdict_details"][name]["phase"]


def test_the_probes_traffic_is_in_the_users_log_and_their_store_is_untouched(
    store: Store, layout: Layout
) -> None:
    with store.transaction() as state:
        root = state.add_root(str(layout.home.parent))
        state.grant("pup", [root.id])
        state.server_started("pup", puppet("enforcing"), "s1")
    before = layout.store.read_bytes()
    listed_before = run_cli("servers", "list", "--json").stdout
    doc = probe_json(*puppet("enforcing"), options=("--server", "pup"))
    assert doc["exit"] == 0 and doc["verdict"] == {**CLEAN, "keeps_roots_after_empty_list": False}
    assert doc["log"]["server"] == "probe:pup" and doc["log"]["folder"] == str(layout.logs)
    # the user's store is byte for byte what it was: the probe's grants were private
    assert layout.store.read_bytes() == before
    # the log shows the probe's roots traffic under its own name, not under the user's pup
    lines = run_cli("log", "--json").stdout.splitlines()
    events = [json.loads(line) for line in lines]
    mine = [e for e in events if e["server"] == "probe:pup"]
    assert {e["session"] for e in mine} == {doc["log"]["session"]}
    kinds = [e["kind"] for e in mine]
    assert kinds[0] == "session-start" and kinds[-1] == "session-end"
    assert kinds.count("roots-list-asked") == 4 and kinds.count("list-changed-sent") == 3
    answered = [e["uris"] for e in mine if e["kind"] == "roots-list-answered"]
    assert [len(u) for u in answered] == [2, 1, 2, 0]
    assert all("/packages/" in u for uris in answered for u in uris)
    assert not [e for e in events if e["server"] == "pup"]
    shown = run_cli("log", "--server", "probe:pup").stdout
    assert "roots-list-answered" in shown
    # no marker of the probe's bridge is left where the app looks: no server of the user's
    # seems to run, and none is added
    assert list(layout.live.iterdir()) == []
    assert run_cli("servers", "list", "--json").stdout == listed_before
    assert sorted(Store(layout).read().servers) == ["pup"]


def test_a_probe_without_a_name_logs_as_probe_and_keeps_no_store(rm_home: Path) -> None:
    doc = probe_json(*puppet("enforcing"))
    assert doc["log"]["server"] == "probe"
    events = [json.loads(x) for x in run_cli("log", "--json").stdout.splitlines()]
    assert {e["server"] for e in events} == {"probe"}
    assert any(e["kind"] == "roots-list-answered" for e in events)
    assert not (rm_home / "store.json").exists()


def test_a_server_that_honours_the_first_root_only_is_caught_at_the_start() -> None:
    doc = probe_json(*puppet("first-root-only"))
    assert doc["verdict"] == {**CLEAN, "first_root_only": True}, doc["verdict_reasons"]
    assert phase(doc, "first_root_only") == "start"
    assert "given two roots from the start" in doc["verdict_reasons"]["first_root_only"]


def test_a_server_that_drops_an_added_root_is_caught_after_it_asked_again() -> None:
    # both roots work at the start; after list_changed it keeps only the first of the list
    doc = probe_json(*puppet("first-root-after-change"))
    assert doc["verdict"] == {**CLEAN, "first_root_only": True}, doc["verdict_reasons"]
    assert phase(doc, "first_root_only") == "added"
    assert doc["traffic"]["asked_after_added"] is True
    added = [r for r in doc["rows"] if r["target_kind"] == "added_root"]
    assert {r["tool"] for r in added} == {
        "read_file",
        "write_file",
        "list_directory",
        "resources/read",
    }
    assert all(r["inside"]["outcome"] == "worked" for r in added)
    assert all(r["outside"]["outcome"] == "refused" for r in added)
    start = [r for r in doc["rows"] if r["target_kind"] == "second_root"]
    assert all(r["outside"]["outcome"] == "worked" for r in start)


def test_a_server_that_never_reasks_is_judged_on_two_roots_from_the_start_only() -> None:
    doc = probe_json(*puppet("never-reasks"))
    assert doc["verdict"] == {
        **CLEAN,
        "reasks_after_list_changed": False,
        "keeps_roots_after_empty_list": None,
    }, doc["verdict_reasons"]
    # it still holds its first roots, so the added root's refusal proves nothing: unused
    assert doc["traffic"]["added_notice_sent"] is False
    assert doc["traffic"]["asked_after_added"] is False
    assert phase(doc, "first_root_only") == "start"
    assert phase(doc, "reasks_after_list_changed") == "changed"
    assert doc["verdict_details"]["first_root_only"]["code"] == "second_root_reachable"


def test_listed_resources_are_read_and_paired_with_outside_uris() -> None:
    doc = probe_json(*puppet("resource-leak"))
    assert doc["exit"] == 0 and doc["complete"], doc["problem"]
    listed = doc["resources"]
    assert len(listed) == 1 and listed[0].endswith("/packages/checkout/notes.txt")
    rows = [r for r in doc["rows"] if r["tool"] == "resources/read"]
    boundary = [r for r in rows if r["target_kind"] in {"sibling", "prefix_sibling", "traversal"}]
    for row in boundary:
        # the inside cell reads the URI exactly as listed, the outside one a fixture partner
        assert row["inside"]["request"] == {
            "method": "resources/read",
            "params": {"uri": listed[0]},
        }
        assert row["inside"]["outcome"] == "worked" and row["inside"]["evidence"] == "token"
        assert row["outside"]["outcome"] == "worked" and row["outside"]["evidence"] == "token"
    symlink = next(r for r in rows if r["target_kind"] == "symlink")
    assert symlink["outside"]["revealed_secret"] and doc["secret_revealed"]
    # its tools keep to the roots; its resources do not
    tools = [r for r in doc["rows"] if r["tool"] == "read_file" and r["target_kind"] == "sibling"]
    assert tools[0]["outside"]["outcome"] == "refused"
    assert doc["verdict"] == {
        **CLEAN,
        "enforces_roots": False,
        "writes_checked_reads_not": True,
    }, doc["verdict_reasons"]
    assert "resources/read (prefix_sibling)" in doc["verdict_reasons"]["enforces_roots"]


def test_a_server_without_listed_resources_gets_no_resource_rows() -> None:
    server = FAKES / "file_tool_server.py"
    doc = probe_json(sys.executable, str(server))
    assert not [r for r in doc["rows"] if r["tool"] == "resources/read"]
    assert doc["verdict"]["first_root_only"] is None  # it never asked: no root reached it
    assert doc["verdict_details"]["first_root_only"]["code"] == "roots_never_asked"


def test_under_2026_07_28_list_changed_does_not_apply_and_a_changed_root_takes_effect() -> None:
    doc = probe_json(sys.executable, str(MODERN_SERVER), options=("--protocol", "2026-07-28"))
    assert doc["exit"] == 0 and doc["complete"], (doc["problem"], doc["stderr_tail"])
    assert doc["protocol"] == "2026-07-28"
    assert doc["server"]["reported_name"] == "modern-files"
    reasks = doc["verdict_details"]["reasks_after_list_changed"]
    assert reasks["value"] is None and reasks["code"] == "no_list_changed_took_effect"
    assert "does not apply under 2026-07-28" in reasks["reason"]
    # the next request after each change carried the changed roots, and they took effect
    new = [r for r in doc["rows"] if r["target_kind"] == "new_root"]
    assert new and all(r["inside"]["outcome"] == "worked" for r in new)
    assert all(r["outside"]["outcome"] == "refused" for r in new)
    assert doc["traffic"] == {
        "asked_at_start": True,
        "notice_sent": False,
        "asked_after_notice": True,
        "empty_notice_sent": False,
        "asked_for_empty_list": True,
        "added_notice_sent": False,
        "asked_after_added": True,
        "modern": True,
    }
    kinds = [e["kind"] for e in doc["events"]]
    assert "list-changed-sent" not in kinds and "mrtr-resolved" in kinds
    # no {allow}: the server takes no folders on its command line, so refusals prove less
    assert doc["verdict"] == {
        **CLEAN,
        "enforces_roots": None,
        "advisory": None,
        "reasks_after_list_changed": None,
        "keeps_roots_after_empty_list": False,
    }, doc["verdict_reasons"]
    assert doc["left_out"] == {"resources/read": "no file:// resource listed inside the root"}


def test_the_same_server_over_the_handshake_asks_for_roots_at_each_call() -> None:
    doc = probe_json(sys.executable, str(MODERN_SERVER))
    assert doc["protocol"] != "2026-07-28"
    # it asks for roots/list when a call needs them, not on list_changed: the new root still
    # takes effect, and the reason says so
    reasks = doc["verdict_details"]["reasks_after_list_changed"]
    assert reasks["value"] is False and reasks["code"] == "did_not_reask_took_effect"
    new = [r for r in doc["rows"] if r["target_kind"] == "new_root"]
    assert new and all(r["inside"]["outcome"] == "worked" for r in new)
    # it was given the added and the empty list when a row's call asked for them, not right
    # after the notice: that counts, and a server refused in every row after the empty list
    # does not keep its roots (not "undecided: the server never asked")
    assert doc["traffic"] == {
        "asked_at_start": True,
        "notice_sent": True,
        "asked_after_notice": False,
        "empty_notice_sent": True,
        "asked_for_empty_list": True,
        "added_notice_sent": True,
        "asked_after_added": True,
        "modern": False,
    }
    after = [r for r in doc["rows"] if r["target_kind"] == "after_empty_list"]
    assert after and all(r["outside"]["outcome"] == "refused" for r in after)
    keeps = doc["verdict_details"]["keeps_roots_after_empty_list"]
    assert keeps["value"] is False and keeps["code"] == "refused_after_empty", keeps
    assert keeps["phase"] == "emptied"
    # the added root was reachable once it was given: it keeps every root of its list
    first = doc["verdict_details"]["first_root_only"]
    assert first["value"] is False and first["code"] == "second_root_reachable_both", first


def test_a_comparison_is_worded_like_the_report(layout: Layout) -> None:
    run_cli("probe", "--save", "--server", "lazy", "--", sys.executable, str(MODERN_SERVER))
    (saved,) = (layout.probes / "lazy").iterdir()
    # the table this server got before the probe counted a list given when a call asked for
    # it: the same rows, an undecided verdict on the empty list, an earlier time
    doc = json.loads(saved.read_text(encoding="utf-8"))
    assert doc["server"]["version"] == ""
    doc["verdict"]["keeps_roots_after_empty_list"] = None
    doc["verdict_details"]["keeps_roots_after_empty_list"] = {
        "value": None,
        "code": "never_got_empty_list",
        "params": {},
        "phase": None,
    }
    doc["started_at"] = "2026-01-01T00:00:00+00:00"
    older = saved.with_name("20260101T000000Z--unknown.json")
    older.write_text(json.dumps(doc), encoding="utf-8")
    text = run_cli("probe", "--compare", "lazy").stdout.splitlines()
    assert text[0].startswith("no version (2026-01-01T00:00:00+00:00) -> no version (")
    assert text[1] == "no row changed its outcome"
    assert text[2].startswith("keeps_roots_after_empty_list: undecided -> no: ")
    assert len(text) == 3, text
    # nothing moved at all: both lines say so, with no table header
    older.write_text(saved.read_text(encoding="utf-8"), encoding="utf-8")
    same = run_cli("probe", "--compare", "lazy").stdout.splitlines()
    assert same[1:] == ["no row changed its outcome"], same


def test_a_server_that_does_not_speak_2026_07_28_is_told_apart_from_one_that_failed(
    filesystem_server: list[str],
) -> None:
    # the reference filesystem server answers server/discover with "method not found"
    doc = probe_json(
        *filesystem_server, "{allow}", options=("--protocol", "2026-07-28"), check=False
    )
    assert doc["exit"] == 1 and not doc["complete"] and doc["rows"] == []
    assert doc["problem_detail"]["code"] == "not_modern"
    assert doc["problem"].startswith(
        "the server does not speak 2026-07-28: it answered server/discover with error -32601"
    )
    assert doc["problem"].endswith("probe it with the initialize handshake")
