"""The probe's words in the user's language: its verdict's reasons, its steps, its plan.

The core says what it found as codes with parameters (:mod:`roots_manager.core.probe.reasons`)
and words them in English, each template marked for Qt's translation tools where the core
defines it; this module translates them when shown.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QCoreApplication

from roots_manager.core.probe import reasons as core
from roots_manager.core.probe.reasons import Finding, PlanItem, Problem, Status
from roots_manager.core.probe.verdict import Outcome, Row
from roots_manager.gui.log.log_texts import end_reason


def _format(context: str, template: object, params: dict[str, object]) -> str:
    english = str(template)
    try:
        return QCoreApplication.translate(context, english).format(**params)
    except (KeyError, IndexError, ValueError):  # a translation with broken placeholders
        return english.format(**params)


def reason_text(finding: Finding) -> str:
    """Why a verdict line is what it is, in the user's language."""
    if finding.worded:  # from a table saved before reasons had codes: as it was worded
        return finding.worded
    text = _format("ProbeReason", core.REASON_TEXT[finding.code], finding.params)
    return _format("ProbeReason", core.STOPPED_EARLY, {"reason": text}) if finding.early else text


def status_text(status: Status) -> str:
    """What the probe is doing now, in the user's language."""
    params = {k: v for k, v in status.params.items() if k != "plan"}
    return _format("ProbeStep", core.STEP_TEXT[status.step], params)


def plan_text(items: list[PlanItem]) -> str:
    """The plan, one line each, in the user's language."""
    return "\n".join(_format("ProbePlan", core.PLAN_TEXT[i.line], i.params) for i in items)


def problem_text(problem: Problem) -> str:
    """Why the probe stopped, in the user's language (the server's own words kept as said)."""
    text = _format("ProbeProblem", core.PROBLEM_TEXT[problem.code], {"detail": problem.detail})
    if problem.exit_code is None:
        return text
    if not problem.end_reason:
        return text + _format("ProbeProblem", core.ENDED_TEXT, {"code": problem.exit_code})
    reason = end_reason(problem.end_reason)
    return text + _format(
        "ProbeProblem", core.ENDED_REASON_TEXT, {"code": problem.exit_code, "reason": reason}
    )


def reading_text(row: Row, outcomes: Mapping[Outcome, str]) -> str:
    """A row of the matrix in a word or two, the outcome in the words of *outcomes*."""
    code, params = row.reading_code
    if "outcome" in params:
        params = {**params, "outcome": outcomes[Outcome(params["outcome"])]}
    return _format("ProbeReading", core.READING_TEXT[code], dict(params))
