"""The verdict from paired cells, the scratch tree, and the saved tables."""

from __future__ import annotations

import json
import os
from pathlib import Path

from roots_manager.core.directory.layout import Layout
from roots_manager.core.probe.fixture import LINK, ROOT, SECRET, Fixture, changed
from roots_manager.core.probe.plan import Operation, TargetKind
from roots_manager.core.probe.report import Report
from roots_manager.core.probe.table import compare, folder_name, history, save
from roots_manager.core.probe.verdict import (
    Cell,
    Evidence,
    Outcome,
    Row,
    Traffic,
    arguments_finding,
    judge,
    verdict,
)

W, R = Outcome.WORKED, Outcome.REFUSED
ALL_TRAFFIC = Traffic(True, True, True, True, True)


def row(tool: str, kind: TargetKind, inside: Outcome, outside: Outcome, op: str = "read") -> Row:
    return Row(tool, Operation(op), kind, Cell([], inside), Cell([], outside))


def test_judge_trusts_the_disk_then_the_token_then_the_answer() -> None:
    assert judge(True, "Access denied", "tok", ["a/b"]) == (W, Evidence.DISK)
    assert judge(False, "tok and more", "tok", []) == (W, Evidence.TOKEN)
    assert judge(False, "x: Error - Access denied", "tok", []) == (R, Evidence.ANSWER)
    assert judge(True, "", None, []) == (R, Evidence.ANSWER)
    assert judge(False, "size: 82\npermissions: 644", None, []) == (W, Evidence.ANSWER)


def test_a_row_whose_inside_failed_proves_nothing() -> None:
    broken = row("t", TargetKind.SIBLING, R, R)
    assert not broken.conclusive
    assert broken.reading == "inconclusive: the tool failed inside too"
    found = verdict([broken], ALL_TRAFFIC, allowance_known=True)
    assert found["enforces_roots"].value is None
    assert "(inconclusive rows: 1)" in found["enforces_roots"].reason


def test_a_boundary_held_in_every_pair_is_enforcement_only_with_a_known_allowance() -> None:
    rows = [
        row("read", TargetKind.SIBLING, W, R),
        row("read", TargetKind.PREFIX_SIBLING, W, R),
        row("read", TargetKind.SYMLINK, W, R),
        row("write", TargetKind.SIBLING, W, R, "write"),
        row("read", TargetKind.SECOND_ROOT, W, W),
        row("read", TargetKind.AFTER_EMPTY_LIST, W, W),
    ]
    found = verdict(rows, ALL_TRAFFIC, allowance_known=True)
    assert {k: f.value for k, f in found.items()} == {
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
    unknown = verdict(rows, ALL_TRAFFIC, allowance_known=False)
    assert unknown["enforces_roots"].value is None
    assert "allowance is unknown" in unknown["enforces_roots"].reason


def test_escapes_count_only_where_the_sibling_was_kept_out() -> None:
    rows = [
        row("a", TargetKind.SIBLING, W, R),
        row("a", TargetKind.SYMLINK, W, W),
        row("b", TargetKind.SIBLING, W, W, "write"),
        row("b", TargetKind.PREFIX_SIBLING, W, W, "write"),
    ]
    found = verdict(rows, ALL_TRAFFIC, allowance_known=True)
    assert found["symlink_escape"].value is True
    assert found["prefix_bug"].value is None  # b lets the plain sibling through as well
    assert found["reads_checked_writes_not"].value is False  # a's symlink read got out
    assert found["enforces_roots"].value is False


def test_traffic_decides_the_list_changed_lines() -> None:
    rows = [row("a", TargetKind.SIBLING, W, R), row("a", TargetKind.NEW_ROOT, R, W)]
    silent = Traffic(True, True, False, False, False)
    found = verdict(rows, silent, allowance_known=True)
    assert found["reasks_after_list_changed"].value is False
    assert found["keeps_roots_after_empty_list"].value is None
    asked = verdict(rows, Traffic(True, True, True, False, False), allowance_known=True)
    assert asked["reasks_after_list_changed"].value is True
    assert "did not take effect" in asked["reasks_after_list_changed"].reason
    never = verdict(rows, Traffic(False, False, False, False, False), allowance_known=True)
    assert never["reasks_after_list_changed"].value is None


def test_a_probe_that_stopped_early_keeps_its_findings_and_decides_no_absence() -> None:
    rows = [row("a", TargetKind.SIBLING, W, R), row("a", TargetKind.PREFIX_SIBLING, W, W)]
    found = verdict(rows, ALL_TRAFFIC, allowance_known=True, complete=False)
    assert found["prefix_bug"].value is True
    assert found["advisory"].value is None and "stopped early" in found["advisory"].reason


def test_the_tree_is_restored_and_tells_where_its_paths_lead(tmp_path: Path) -> None:
    fx = Fixture.create(tmp_path / "tree")
    pristine = fx.snapshot()
    assert os.readlink(fx.path(LINK)) == "../../private"
    assert fx.path(f"{ROOT}/web#staging/notes.txt").is_file()
    assert fx.token_of(f"{LINK}/secret.txt") == fx.secret == fx.tokens[SECRET]
    assert fx.resolved(f"{ROOT}/../billing/x") == "packages/billing/x"
    assert fx.resolved(f"{ROOT}/%2e%2e/billing") == "packages/billing"
    # a write, a removal, a folder turned into a file and a swapped link are all undone
    fx.path(f"{ROOT}/probe-new.txt").write_text("x")
    fx.path("packages/billing/notes.txt").unlink()
    (fx.path(f"{ROOT}/日本語 données/notes.txt")).write_text("changed")
    fx.path(LINK).unlink()
    fx.path(LINK).symlink_to("/")
    after = fx.snapshot()
    assert set(changed(pristine, after)) == {
        f"{ROOT}/probe-new.txt",
        "packages/billing/notes.txt",
        f"{ROOT}/日本語 données/notes.txt",
        LINK,
    }
    fx.restore()
    assert fx.snapshot() == pristine
    assert (tmp_path / "tree" / SECRET).read_text().startswith(fx.secret)


def report(version: str, started: str, prefix: Outcome) -> Report:
    rows = [
        row("read", TargetKind.SIBLING, W, R),
        row("read", TargetKind.PREFIX_SIBLING, W, prefix),
    ]
    r = Report("fs/odd name", version, ["srv", "{allow}"], "/t", started, complete=True, rows=rows)
    r.verdict = verdict(rows, ALL_TRAFFIC, allowance_known=True)
    return r


def test_tables_are_kept_per_server_and_version_and_compared(tmp_path: Path) -> None:
    layout = Layout(tmp_path / "home")
    old = save(layout, report("1.0", "2026-01-01T10:00:00.000Z", R))
    new = save(layout, report("1.1", "2026-02-01T10:00:00.000Z", W))
    again = save(layout, report("1.1", "2026-02-01T10:00:00.000Z", W))
    assert old.parent == layout.probes / folder_name("fs/odd name")
    assert "/" not in folder_name("fs/odd name") and folder_name("..") != ".."
    assert old.name == "20260101T100000Z--1.0.json"
    assert again.name == "20260201T100000Z-1--1.1.json"
    assert (old.stat().st_mode & 0o777, old.parent.stat().st_mode & 0o777) == (0o600, 0o700)
    kept = history(layout, "fs/odd name")
    assert [t.path for t in kept] == [again, new, old]
    assert kept[2].report.rows[1].outside.outcome is R
    moved = compare(kept[2].report, kept[1].report)
    assert [(c.key, c.old, c.new) for c in moved.rows] == [
        (("read", "read", "prefix_sibling"), (W, R), (W, W))
    ]
    assert moved.verdict == {"enforces_roots": (True, False), "prefix_bug": (False, True)}
    assert compare(kept[1].report, kept[0].report).rows == []
    (old.parent / "20260301T100000Z--2.0.json").write_text("{not json")
    assert len(history(layout, "fs/odd name")) == 3  # a damaged table is skipped, not fatal


def test_first_root_only_is_decided_at_the_start_or_after_a_reask_only() -> None:
    base = [row("t", TargetKind.SIBLING, W, R)]
    start_refused = [*base, row("t", TargetKind.SECOND_ROOT, W, R)]
    start_open = [*base, row("t", TargetKind.SECOND_ROOT, W, W)]
    added_refused = row("t", TargetKind.ADDED_ROOT, W, R)
    reasked = Traffic(True, True, True, True, True, True, True)
    silent = Traffic(True, True, False, False, False)

    found = verdict(start_refused, silent, allowance_known=True)["first_root_only"]
    assert (found.value, found.code, found.phase) == (True, "second_root_refused_at_start", "start")
    # the added root is refused, but the server never asked for the list that held it
    found = verdict([*start_open, added_refused], silent, allowance_known=True)["first_root_only"]
    assert (found.value, found.code, found.phase) == (False, "second_root_reachable", "start")
    found = verdict([*start_open, added_refused], reasked, allowance_known=True)["first_root_only"]
    assert (found.value, found.code, found.phase) == (True, "added_root_refused", "added")
    assert "t (added_root)" in found.reason
    both = [*start_open, row("t", TargetKind.ADDED_ROOT, W, W)]
    found = verdict(both, reasked, allowance_known=True)["first_root_only"]
    assert (found.value, found.code) == (False, "second_root_reachable_both")
    # a server that never asked for roots got no second root at all
    never = Traffic(False, False, False, False, False)
    found = verdict(start_refused, never, allowance_known=True)["first_root_only"]
    assert (found.value, found.code) == (None, "roots_never_asked")


def test_under_2026_07_28_the_reask_finding_does_not_apply() -> None:
    modern = Traffic(True, False, True, False, True, False, True, modern=True)
    took = [row("t", TargetKind.SIBLING, W, R), row("t", TargetKind.NEW_ROOT, W, R)]
    found = verdict(took, modern, allowance_known=True)
    reasks = found["reasks_after_list_changed"]
    assert (reasks.value, reasks.code) == (None, "no_list_changed_took_effect")
    assert reasks.reason.startswith("does not apply under 2026-07-28")
    stuck = [row("t", TargetKind.SIBLING, W, R), row("t", TargetKind.NEW_ROOT, R, W)]
    assert verdict(stuck, modern, True)["reasks_after_list_changed"].code == (
        "no_list_changed_no_effect"
    )
    # the empty list travelled with a request: whether the last root still works is decided
    after = [*took, row("t", TargetKind.AFTER_EMPTY_LIST, W, R)]
    keeps = verdict(after, modern, True)["keeps_roots_after_empty_list"]
    assert (keeps.value, keeps.phase) == (False, "emptied")


def test_reason_codes_survive_a_saved_table_and_an_early_stop(layout: Layout) -> None:
    rows = [row("t", TargetKind.SIBLING, W, W)]
    report = Report("s", "1", ["x"], None, "2026-11-30T17:41:00+00:00")
    report.verdict = verdict(rows, ALL_TRAFFIC, allowance_known=False, complete=False)
    path = save(layout, report)
    read = history(layout, "s")[0].report
    assert path.exists() and read.verdict == report.verdict
    early = read.verdict["enforces_roots"]
    assert early.early and early.value is None and early.params == {"rows": "t (sibling)"}
    assert early.reason == "the probe stopped early; so far: outside targets worked: t (sibling)"


def test_a_table_saved_before_reason_codes_keeps_its_words(layout: Layout) -> None:
    folder = layout.probes / "old"
    folder.mkdir(parents=True)
    doc = {
        "format": 1,
        "server": {"name": "old", "version": "0.1"},
        "started_at": "2026-11-01T10:00:00+00:00",
        "rows": [],
        "verdict": {"enforces_roots": True, "prefix_bug": None},
        "verdict_reasons": {
            "enforces_roots": "every outside target was refused (3 pair(s))",
            "prefix_bug": "no tool was tried",
        },
    }
    (folder / "20261101T100000Z--0.1.json").write_text(json.dumps(doc), encoding="utf-8")
    read = history(layout, "old")[0].report
    assert read.verdict["enforces_roots"].value is True
    assert read.verdict["enforces_roots"].reason == "every outside target was refused (3 pair(s))"
    assert read.verdict["prefix_bug"].reason == "no tool was tried"
    assert read.problem_detail is None


def test_a_server_that_ignores_roots_but_honours_its_arguments_is_told_to_take_roots() -> None:
    """The run with the roots found the sibling reachable; a run with the root as the command
    line's only folder: refused there, the arguments are what keeps it in."""
    ignored = verdict([row("read", TargetKind.SIBLING, W, W)], ALL_TRAFFIC, allowance_known=True)
    honoured = verdict([row("read", TargetKind.SIBLING, W, R)], ALL_TRAFFIC, allowance_known=True)
    by_args = [row("read", TargetKind.SIBLING, W, R), row("write", TargetKind.SIBLING, W, R)]
    f = arguments_finding(ignored, by_args)
    assert f.value is True and "{roots} in its command line" in f.reason
    f = arguments_finding(ignored, [*by_args, row("list", TargetKind.SIBLING, W, W)])
    assert f.value is False and "only confinement" in f.reason
    assert arguments_finding(honoured, by_args).value is False
    assert arguments_finding(honoured, None).value is False, "no second run is needed"
    assert arguments_finding(ignored, None).value is None, "no run with arguments: untested"
    # a run with arguments whose inside calls failed proves nothing
    assert arguments_finding(ignored, [row("read", TargetKind.SIBLING, R, R)]).value is None
    undecided = verdict([], ALL_TRAFFIC, allowance_known=True)
    assert arguments_finding(undecided, by_args).value is None


def test_the_arguments_run_survives_a_saved_table(layout: Layout) -> None:
    report = Report("s", "1", ["srv", "{allow}"], "/t", "2026-11-30T17:41:00+00:00")
    rows = [row("t", TargetKind.SIBLING, W, W)]
    by_args = [row("t", TargetKind.SIBLING, W, R)]
    report.close(rows, 1.0, ALL_TRAFFIC, tree="/t", events=[], arguments=by_args)
    assert report.arguments is not None and report.arguments.value is True
    save(layout, report)
    read = history(layout, "s")[0].report
    assert read.arguments == report.arguments and read.arguments_rows == by_args
