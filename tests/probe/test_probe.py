"""The boundary probe against real servers: the reference filesystem server and puppets.

Every probe runs as ``roots-manager probe`` in a process of its own, the server behind a real
``roots-bridge`` over a real scratch tree; each puppet's verdict is asserted in full.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.file import Store
from tests.conftest import run_cli
from tests.fakes import FAKES

PUPPET = FAKES / "probe_puppet_server.py"

CLEAN = {
    "enforces_roots": True,
    "advisory": False,
    "first_root_only": False,
    "reads_checked_writes_not": False,
    "writes_checked_reads_not": False,
    "reasks_after_list_changed": True,
    "keeps_roots_after_empty_list": True,
    "symlink_escape": False,
    "prefix_bug": False,
}


def probe_json(*command: str, options: tuple[str, ...] = (), check: bool = True) -> dict[str, Any]:
    proc = run_cli("probe", "--json", *options, "--", *command, check=check, timeout=120)
    assert "Traceback" not in proc.stderr, proc.stderr
    doc = json.loads(proc.stdout)
    doc["exit"] = proc.returncode
    return doc


def puppet(behaviour: str, *, allow: bool = True) -> list[str]:
    return [sys.executable, str(PUPPET), behaviour, *(["{allow}"] if allow else [])]


def test_the_reference_filesystem_server_enforces_reasks_and_keeps_roots_after_an_empty_list(
    filesystem_server: list[str], rm_home: Path
) -> None:
    doc = probe_json(*filesystem_server, "{allow}")
    assert doc["exit"] == 0 and doc["complete"] and doc["problem"] is None
    assert doc["verdict"] == CLEAN, doc["verdict_reasons"]
    assert doc["server"]["reported_name"] == "secure-filesystem-server"
    assert doc["server"]["name"] == "secure-filesystem-server" and doc["server"]["version"]
    tools = {r["tool"] for r in doc["rows"]}
    assert {"read_text_file", "write_file", "move_file", "list_directory"} <= tools
    assert "list_allowed_directories" in doc["left_out"]
    # each boundary row pairs a working inside call with a refused partner, evidence included
    sibling = next(
        r for r in doc["rows"] if r["tool"] == "read_text_file" and r["target_kind"] == "sibling"
    )
    assert sibling["inside"]["outcome"] == "worked" and sibling["inside"]["evidence"] == "token"
    assert sibling["outside"]["outcome"] == "refused"
    assert sibling["outside"]["targets"][0].endswith("/packages/billing/notes.txt")
    assert sibling["inside"]["request"]["params"]["name"] == "read_text_file"
    written = next(
        r for r in doc["rows"] if r["tool"] == "write_file" and r["target_kind"] == "sibling"
    )
    assert written["inside"]["evidence"] == "disk"
    assert written["inside"]["changed"] == ["packages/checkout/probe-new.txt"]
    assert written["outside"]["changed"] == []
    assert not doc["secret_revealed"]
    assert [len(p["uris"]) for p in doc["roots"]] == [2, 1, 2, 0]
    # the roots traffic came from the bridge's log: asked, answered, noticed, asked again
    kinds = [e["kind"] for e in doc["events"]]
    assert kinds.count("list-changed-sent") == 3 and kinds.count("roots-list-asked") == 4
    assert doc["verdict_details"]["first_root_only"]["code"] == "second_root_reachable_both"
    # the scratch tree is gone, and the user's own store was never made
    assert not Path(doc["tree"]).exists()
    assert not (rm_home / "store.json").exists()


@pytest.mark.parametrize(
    ("behaviour", "different"),
    [
        ("enforcing", {"keeps_roots_after_empty_list": False}),
        (
            "advisory",
            {
                "enforces_roots": False,
                "advisory": True,
                "keeps_roots_after_empty_list": None,
                "symlink_escape": None,
                "prefix_bug": None,
            },
        ),
        ("first-root-only", {"first_root_only": True}),
        ("reads-checked", {"enforces_roots": False, "reads_checked_writes_not": True}),
        ("prefix-bug", {"enforces_roots": False, "prefix_bug": True}),
        (
            "never-reasks",
            {"reasks_after_list_changed": False, "keeps_roots_after_empty_list": None},
        ),
    ],
)
def test_each_puppet_gets_its_own_verdict(behaviour: str, different: dict[str, Any]) -> None:
    doc = probe_json(*puppet(behaviour))
    assert doc["exit"] == 0 and doc["complete"], doc["problem"]
    assert doc["verdict"] == {**CLEAN, **different}, doc["verdict_reasons"]
    assert doc["server"]["reported_name"] == f"puppet-{behaviour}"


def test_an_sdk_server_that_never_asks_for_roots_is_advisory() -> None:
    # the Python SDK's MCPServer with tools that open any path and never ask for roots
    server = FAKES / "file_tool_server.py"
    doc = probe_json(sys.executable, str(server))
    assert doc["exit"] == 0 and doc["complete"], doc["problem"]
    assert doc["verdict"] == {
        **CLEAN,
        "enforces_roots": False,
        "advisory": True,
        "first_root_only": None,
        "reasks_after_list_changed": None,
        "keeps_roots_after_empty_list": None,
        "symlink_escape": None,
        "prefix_bug": None,
    }, doc["verdict_reasons"]
    assert "never asked for roots/list" in doc["verdict_reasons"]["reasks_after_list_changed"]
    assert doc["left_out"] == {
        "temp_dir": "takes no path",
        "resources/read": "no file:// resource listed inside the root",
    }
    assert doc["secret_revealed"]  # the link out of the root led it to the secret file


def test_the_prefix_bug_shows_in_its_own_rows_only() -> None:
    doc = probe_json(*puppet("prefix-bug"))
    outside = {
        (r["tool"], r["target_kind"]): r["outside"]["outcome"]
        for r in doc["rows"]
        if r["target_kind"] in ("sibling", "prefix_sibling")
    }
    # resources/read follows the same check as read_file: the prefix bug shows there too
    for tool in ("read_file", "write_file", "list_directory", "resources/read"):
        assert outside[(tool, "sibling")] == "refused"
        assert outside[(tool, "prefix_sibling")] == "worked"
    # the read of checkout-old revealed that file's own token: a read, not an answer's say-so
    read = next(
        r for r in doc["rows"] if (r["tool"], r["target_kind"]) == ("read_file", "prefix_sibling")
    )
    assert read["outside"]["evidence"] == "token"


def test_without_allow_the_refusals_prove_less_and_the_report_says_so() -> None:
    doc = probe_json(*puppet("enforcing", allow=False))
    assert doc["allowance"] is None
    assert doc["verdict"]["enforces_roots"] is None
    assert "allowance is unknown" in doc["verdict_reasons"]["enforces_roots"]
    assert doc["verdict"]["reasks_after_list_changed"] is True


def test_a_server_that_crashes_mid_probe_gets_a_clear_report() -> None:
    proc = run_cli("probe", "--", *puppet("crash"), check=False, timeout=120)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "problem: the server went during the probe" in proc.stdout
    assert "exit code 3" in proc.stdout
    assert "crashing on purpose at call 5" in proc.stdout
    doc = probe_json(*puppet("crash"), check=False)
    assert doc["exit"] == 1 and not doc["complete"]
    assert doc["rows"][-1]["inside"]["outcome"] == "server gone"
    # what was seen still shows; nothing that claims an absence is decided
    assert doc["verdict"]["enforces_roots"] is None
    assert "stopped early" in doc["verdict_reasons"]["enforces_roots"]


def test_a_tool_that_hangs_is_a_cell_that_says_so() -> None:
    doc = probe_json(*puppet("hang"), options=("--timeout", "1"))
    assert doc["exit"] == 0 and doc["complete"]
    hung = [r for r in doc["rows"] if r["tool"] == "slow_read"]
    assert hung[0]["inside"]["outcome"] == "timed out"
    assert "no answer within 1 s" in hung[0]["inside"]["detail"]
    assert all(r["inside"]["outcome"] == "not run" for r in hung[1:])
    assert all("hung on an earlier call" in r["reading"] for r in hung[1:])
    # the other tools were probed in full, so the verdict stands
    assert doc["verdict"] == CLEAN, doc["verdict_reasons"]


def test_a_server_that_stops_answering_ends_the_probe_with_a_clear_report() -> None:
    started = time.monotonic()
    doc = probe_json(*puppet("freeze"), options=("--timeout", "1"), check=False)
    assert doc["exit"] == 1 and not doc["complete"]
    assert "it stopped answering, even to ping" in doc["problem"]
    assert "freezing on purpose at call 5" in doc["stderr_tail"]
    last = doc["rows"][-1]
    assert last["inside"]["outcome"] == "timed out" and last["outside"]["outcome"] == "not run"
    # one call's timeout and one ping's, not a timeout for every cell left
    assert time.monotonic() - started < 60


def test_a_server_without_path_tools_is_reported_as_such() -> None:
    proc = run_cli("probe", "--", *puppet("no-paths"), check=False, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "not probed: echo (takes no path)" in proc.stdout
    assert "problem: the server offers no tool that takes paths" in proc.stdout
    doc = probe_json(*puppet("no-paths"))
    assert doc["rows"] == []
    # no tool to call, but the roots traffic still says whether it listens to list_changed
    assert doc["verdict"]["reasks_after_list_changed"] is True
    assert doc["verdict"]["enforces_roots"] is None


def test_a_command_that_cannot_start_is_reported() -> None:
    proc = run_cli("probe", "--", sys.executable, str(PUPPET.with_name("missing.py")), check=False)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "problem: the server did not start" in proc.stdout
    assert "missing.py" in proc.stdout  # the server's own words, from its stderr


def test_saved_tables_are_listed_newest_first_and_compared(layout: Layout) -> None:
    first = run_cli("probe", "--save", "--server", "pup", "--", *puppet("enforcing"), timeout=120)
    assert "saved: " in first.stdout
    second = run_cli("probe", "--save", "--server", "pup", "--", *puppet("prefix-bug"), timeout=120)
    assert "prefix_bug: yes" in second.stdout
    listed = json.loads(run_cli("probe", "--history", "pup", "--json").stdout)
    assert len(listed) == 2
    assert [t["verdict"]["prefix_bug"] for t in listed] == [True, False]  # newest first
    assert all(Path(t["path"]).parent == layout.probes / "pup" for t in listed)
    assert all(Path(t["path"]).name.endswith("--1.0.0.json") for t in listed)
    compared = json.loads(run_cli("probe", "--compare", "pup", "--json").stdout)
    moved = {(r["tool"], r["target_kind"]): r for r in compared["rows"]}
    assert moved[("read_file", "prefix_sibling")]["old"]["outside"] == "refused"
    assert moved[("read_file", "prefix_sibling")]["new"]["outside"] == "worked"
    assert ("read_file", "sibling") not in moved
    assert compared["verdict"]["prefix_bug"] == {"old": False, "new": True}
    text = run_cli("probe", "--compare", "pup").stdout
    assert "read_file" in text and "\nprefix_bug: no -> yes: " in text
    shown = run_cli("probe", "--history", "pup").stdout
    assert shown.count("--1.0.0.json") == 2
    # the probe's own roots never reached the user's store
    assert Store(layout).read().roots == []


def test_a_comparison_needs_two_tables() -> None:
    proc = run_cli("probe", "--compare", "nobody", check=False)
    assert proc.returncode == 1 and "needs two" in proc.stderr


def test_a_known_server_is_probed_with_its_last_command_line(store: Store) -> None:
    with store.transaction() as state:
        state.server_started("pup", puppet("never-reasks", allow=False), "s1")
    before = store.layout.store.read_bytes()
    doc = probe_json(options=("--server", "pup"))
    assert doc["server"]["name"] == "pup"
    assert doc["server"]["command"] == puppet("never-reasks", allow=False)
    assert doc["allowance"] is None
    assert doc["verdict"]["reasks_after_list_changed"] is False
    assert store.layout.store.read_bytes() == before  # read, never written
    missing = run_cli("probe", "--server", "nobody", check=False)
    assert missing.returncode == 1 and "no server named 'nobody'" in missing.stderr
    with store.transaction() as state:
        state.grant("granted-only", [])
    unknown = run_cli("probe", "--server", "granted-only", check=False)
    assert unknown.returncode == 1
    assert "no command line of 'granted-only' is known yet" in unknown.stderr


def test_the_probe_needs_a_command_and_a_real_timeout() -> None:
    bare = run_cli("probe", check=False)
    assert bare.returncode == 1 and "give the server's command after --" in bare.stderr
    zero = run_cli("probe", "--timeout", "0", "--", *puppet("enforcing"), check=False)
    assert zero.returncode == 2 and "above 0" in zero.stderr


def test_a_server_that_ignores_roots_but_keeps_to_its_arguments_is_told_to_take_roots() -> None:
    """The advisory puppet checks paths against its command-line folder only: with the roots
    the sibling package worked; started again with the root as its only argument (and no
    roots), the sibling is refused, and the report says so."""
    doc = probe_json(*puppet("advisory"))
    assert doc["exit"] == 0 and doc["complete"], doc["problem"]
    rows = doc["arguments_rows"]
    assert rows and {r["target_kind"] for r in rows} == {"sibling"}
    assert all(r["inside"]["outcome"] == "worked" for r in rows), rows
    assert all(r["outside"]["outcome"] == "refused" for r in rows), rows
    assert doc["ignores_roots_honours_arguments"] is True
    assert "{roots}" in doc["ignores_roots_honours_arguments_details"]["reason"]
    text = run_cli("probe", "--", *puppet("advisory"), timeout=120).stdout
    assert "ignores_roots_honours_arguments: yes" in text


def test_a_server_that_keeps_to_its_roots_is_not_started_a_second_time() -> None:
    doc = probe_json(*puppet("enforcing"))
    assert doc["arguments_rows"] is None
    assert doc["ignores_roots_honours_arguments"] is False
