"""The probe's result in words: the sentence on top and each finding as a statement."""

from __future__ import annotations

from roots_manager.core.probe import headline as words
from roots_manager.core.probe.plan import Operation, TargetKind
from roots_manager.core.probe.reasons import Problem, ProblemCode
from roots_manager.core.probe.report import Report
from roots_manager.core.probe.verdict import Cell, Outcome, Row, Traffic, verdict

W, R = Outcome.WORKED, Outcome.REFUSED


def row(kind: TargetKind, outside: Outcome, inside: Outcome = W) -> Row:
    return Row("read", Operation("read"), kind, Cell([], inside), Cell([], outside))


def report(rows: list[Row], traffic: Traffic, *, allowance: str | None = "/t") -> Report:
    r = Report("fs", "1.0", ["srv", "{allow}"], allowance, "2026-01-01", complete=True, rows=rows)
    r.verdict = verdict(rows, traffic, allowance_known=allowance is not None)
    return r


def sentence(r: Report) -> str:
    line = words.headline(r, "fs")
    return "".join(part for part in line.parts).format(**line.params)


def test_a_server_that_keeps_to_its_roots_is_told_so_with_its_counts() -> None:
    rows = [row(TargetKind.SIBLING, R), row(TargetKind.TRAVERSAL, R), row(TargetKind.NEW_ROOT, W)]
    asks = Traffic(True, True, True, False, False)
    assert sentence(report(rows, asks)) == (
        "fs keeps to its roots: 2 of 2 outside targets refused, and it asks again after a change."
    )
    silent = Traffic(True, True, False, False, False)
    assert ", but it does not ask again after a change" in sentence(report(rows, silent))


def test_a_server_that_escapes_is_told_to_be_confined() -> None:
    rows = [row(TargetKind.SIBLING, W), row(TargetKind.TRAVERSAL, R)]
    text = sentence(report(rows, Traffic(True, True, True, False, False)))
    assert text == (
        "fs does not keep to its roots: 1 of 2 outside targets worked; confine it to make your "
        "grants hold."
    )


def test_refusals_without_allow_leave_it_unknown_and_say_why() -> None:
    rows = [row(TargetKind.SIBLING, R)]
    text = sentence(report(rows, Traffic(True, True, True, False, False), allowance=None))
    assert text.startswith("Whether fs keeps to its roots is unknown: 1 of 1")
    assert "without {allow} in its command line" in text


def test_nothing_to_probe_is_no_result() -> None:
    r = report([], Traffic(True, False, False, False, False))
    r.problem_detail = Problem(ProblemCode.NO_PATH_TOOLS)
    assert words.nothing_to_probe(r)
    assert sentence(r) == "Nothing to probe: fs has no tool that takes a path."
    assert not words.nothing_to_probe(report([], Traffic(True, False, False, False, False)))


def test_each_finding_is_a_statement_and_good_news_depends_on_it() -> None:
    rows = [row(TargetKind.SIBLING, R), row(TargetKind.SYMLINK, W)]
    lines = {
        line.name: line
        for line in words.lines(report(rows, Traffic(True, True, True, False, False)))
    }
    assert lines["enforces_roots"].statement == "Keeps to its roots"
    assert lines["enforces_roots"].value is False and lines["enforces_roots"].good is False
    assert lines["symlink_escape"].value is True and lines["symlink_escape"].good is False
    assert set(words.STATEMENT) == set(words.GOOD)
    assert all(line.good is None for line in lines.values() if line.value is None)
