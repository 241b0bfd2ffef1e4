"""The probe's verdict reasons, steps and plan in the user's language, from the core's codes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from PySide6.QtWidgets import QApplication

from roots_manager.core.probe import reasons as core
from roots_manager.core.probe.plan import RESOURCE_READ, Operation, TargetKind, choose_tools
from roots_manager.core.probe.reasons import (
    Finding,
    Problem,
    ProblemCode,
    Reason,
    Status,
    Step,
    plan,
)
from roots_manager.core.probe.verdict import Cell, Outcome, Row
from roots_manager.gui.common.resources import install_translators
from roots_manager.gui.probe import probe_texts
from roots_manager.gui.probe.probe_model import READING, ProbeRowsModel
from tests.catalogue import LANGUAGES, catalogued


@pytest.mark.parametrize("catalogue", LANGUAGES)
def test_every_template_of_the_core_is_in_the_catalogues(catalogue: str) -> None:
    # marked where the core defines them, found there by lupdate: written once
    wanted = {
        "ProbeReason": {*core.REASON_TEXT.values(), core.STOPPED_EARLY},
        "ProbeStep": set(core.STEP_TEXT.values()),
        "ProbePlan": set(core.PLAN_TEXT.values()),
        "ProbeProblem": {*core.PROBLEM_TEXT.values(), core.ENDED_TEXT, core.ENDED_REASON_TEXT},
        "ProbeReading": set(core.READING_TEXT.values()),
    }
    for context, texts in wanted.items():
        missing = texts - catalogued(context, catalogue)
        assert not missing, f"{context} not in the {catalogue} catalogue: {missing}"


def test_untranslated_the_gui_words_them_as_the_cli_does() -> None:
    f = Finding(False, Reason.OUTSIDE_WORKED, {"rows": "read_file (sibling)"}, early=True)
    assert probe_texts.reason_text(f) == f.reason
    status = Status(Step.PLANNED, {"tools": 2, "cells": 30, "plan": []})
    assert probe_texts.status_text(status) == status.text == "tools to probe: 2; calls planned: 30"


@contextmanager
def _language(qapp: QApplication, language: str) -> Iterator[None]:
    translators = install_translators(qapp, language)
    assert translators, f"the {language} catalogue must load"
    yield
    for t in translators:
        qapp.removeTranslator(t)


@pytest.fixture
def japanese(qapp: QApplication) -> Iterator[None]:
    with _language(qapp, "ja"):
        yield


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    with _language(qapp, "zh_CN"):
        yield


def _every_reason() -> list[Finding]:
    params = {"rows": "read_file (sibling)", "pairs": 3, "inconclusive": 1}
    return [Finding(None, code, params) for code in Reason]


def test_every_reason_step_and_plan_line_is_japanese(japanese: None) -> None:
    for f in _every_reason():
        text = probe_texts.reason_text(f)
        # {allow} and {roots} are command-line placeholders, shown as they are written
        literal = text.replace("{allow}", "").replace("{roots}", "")
        assert text != f.reason and "{" not in literal, f.code
    early = Finding(None, Reason.OUTSIDE_WORKED, {"rows": "t (sibling)"}, early=True)
    assert probe_texts.reason_text(early).startswith("プローブは途中で止まりました")
    assert "t (sibling)" in probe_texts.reason_text(early)
    for step in Step:
        status = Status(step, {"tools": 1, "cells": 2, "tool": "t", "target": "sibling"})
        if step is not Step.ROW:
            assert probe_texts.status_text(status) != status.text, step
    tools = [
        *choose_tools(
            [{"name": "read_file", "inputSchema": {"properties": {"path": {"type": "string"}}}}]
        ).tools,
        RESOURCE_READ,
    ]
    items = plan(tools, server="probe:fs", modern=True, allowance_known=False)
    shown = probe_texts.plan_text(items)
    assert "read_file(読み取り): ルート内と外の 11 組" in shown
    assert "probe:fs" in shown and "{allow}" in shown and "2026-07-28" in shown
    assert all(item.text not in shown for item in items)


def test_why_a_probe_stopped_is_japanese_with_the_servers_words_kept(japanese: None) -> None:
    for code in ProblemCode:
        problem = Problem(code, "Method not found", 3, "server exited")
        text = probe_texts.problem_text(problem)
        assert text != problem.text and "{" not in text, code
        assert text.endswith("終了コード 3 で終了しました(サーバーが終了しました)"), text
    bare = probe_texts.problem_text(Problem(ProblemCode.NOT_MODERN, "error -32601: nope"))
    assert bare.startswith("サーバーは 2026-07-28 を話しません") and "error -32601: nope" in bare


def _row(inside: Outcome, outside: Outcome, detail: str = "") -> Row:
    return Row(
        "read_file",
        Operation.READ,
        TargetKind.SIBLING,
        Cell([], inside, detail=detail),
        Cell([], outside),
    )


def test_the_matrix_reads_in_japanese(japanese: None) -> None:
    model = ProbeRowsModel()
    rows = [
        _row(Outcome.WORKED, Outcome.REFUSED),
        _row(Outcome.REFUSED, Outcome.REFUSED),
        _row(Outcome.WORKED, Outcome.TIMED_OUT),
        _row(Outcome.NOT_RUN, Outcome.NOT_RUN, "this tool hung on an earlier call"),
    ]
    model.add_rows(rows)
    shown = [model.index(r, READING).data() for r in range(model.rowCount())]
    assert shown == [
        "ルート外: 拒否",
        "決め手なし: ルート内でもツールが失敗しました",
        "決め手なし: ルート外の呼び出しは " + model._marks[Outcome.TIMED_OUT],
        "未実行: this tool hung on an earlier call",
    ]
    assert rows[0].reading == "outside refused"  # the CLI's words are English


def test_the_reasons_are_chinese_too(chinese: None) -> None:
    for f in _every_reason():
        text = probe_texts.reason_text(f)
        # {allow} and {roots} are command-line placeholders, shown as they are written
        literal = text.replace("{allow}", "").replace("{roots}", "")
        assert text != f.reason and "{" not in literal, f.code
