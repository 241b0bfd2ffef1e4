"""The probe's words in the user's language: its verdict's reasons, its steps, its plan.

The core says what it found as codes with parameters (:mod:`roots_manager.core.probe.reasons`)
and words them in English; this module lists the same templates for Qt's translation tools and
translates them when shown. A test checks that these templates and the core's stay the same.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from roots_manager.core.probe.reasons import (
    Finding,
    PlanItem,
    PlanLine,
    Problem,
    ProblemCode,
    Reading,
    Reason,
    Status,
    Step,
)
from roots_manager.core.probe.verdict import Outcome, Row
from roots_manager.gui.log_texts import end_reason

REASONS: dict[Reason, object] = {
    Reason.NO_PAIRED_ROW: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "no row paired a working inside call ({inconclusive} row(s) inconclusive)",
    ),
    Reason.OUTSIDE_WORKED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "outside targets worked: {rows}",
    ),
    Reason.REFUSED_ALLOWANCE_UNKNOWN: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "every outside target was refused, but the server's own allowance is unknown (no {{allow}} in its command line), so a refusal outside the root may be its command line's rather than the roots': it proves less",
    ),
    Reason.ENFORCED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "every outside target was refused while its inside partner worked ({pairs} pair(s), {inconclusive} row(s) inconclusive)",
    ),
    Reason.NO_SIBLING_ROW: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "no sibling row paired a working inside call",
    ),
    Reason.SIBLING_WORKED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "every operation on the sibling package worked: the roots narrow nothing",
    ),
    Reason.SIBLING_REFUSED_ALLOWANCE_UNKNOWN: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the sibling package was refused, but the server's own allowance is unknown (no {{allow}} in its command line), so a refusal outside the root may be its command line's rather than the roots': it proves less",
    ),
    Reason.SIBLING_REFUSED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "operations on the sibling package were refused",
    ),
    Reason.ROOTS_NEVER_ASKED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the server never asked for its roots: no second root reached it",
    ),
    Reason.NO_SECOND_ROOT_ROW: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "no second-root row paired a working inside call",
    ),
    Reason.SECOND_ROOT_REFUSED_AT_START: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "given two roots from the start, the server refused the second root's files while the first root's worked: {rows}",
    ),
    Reason.ADDED_ROOT_REFUSED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "a second root added to the changed list was refused after the server had asked for the new list, while the first root's files worked: {rows}",
    ),
    Reason.SECOND_ROOT_REACHABLE: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the second root's files were reachable when it was given from the start",
    ),
    Reason.SECOND_ROOT_REACHABLE_BOTH: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the second root's files were reachable, given from the start and added to the changed list",
    ),
    Reason.NO_READ_ROW: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "no read operation paired a working inside call",
    ),
    Reason.NO_WRITE_ROW: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "no write operation paired a working inside call",
    ),
    Reason.READS_REFUSED_WRITES_WORKED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "reads outside were refused, writes outside worked: {rows}",
    ),
    Reason.WRITES_REFUSED_READS_WORKED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "writes outside were refused, reads outside worked: {rows}",
    ),
    Reason.CHECKED_ALIKE: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "reads and writes are checked alike",
    ),
    Reason.READS_WORKED_TOO: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "reads outside worked too",
    ),
    Reason.WRITES_WORKED_TOO: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "writes outside worked too",
    ),
    Reason.NEVER_ASKED_NO_NOTICE: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the server never asked for roots/list, so no notice was sent",
    ),
    Reason.NO_NOTICE_SENT: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the bridge sent no list_changed (see the log)",
    ),
    Reason.DID_NOT_REASK: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the server did not ask for roots/list again after list_changed",
    ),
    Reason.DID_NOT_REASK_TOOK_EFFECT: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the server did not ask for roots/list right after list_changed, but the new root took effect: it asks when a call needs its roots",
    ),
    Reason.REASKED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the server asked for roots/list again after list_changed",
    ),
    Reason.REASKED_TOOK_EFFECT: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the server asked for roots/list again after list_changed; the new root took effect",
    ),
    Reason.REASKED_NO_EFFECT: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the server asked for roots/list again after list_changed; but the new root did not take effect in any tool",
    ),
    Reason.NO_LIST_CHANGED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "does not apply under 2026-07-28: there is no list_changed, the roots travel with each request",
    ),
    Reason.NO_LIST_CHANGED_TOOK_EFFECT: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "does not apply under 2026-07-28: there is no list_changed, the roots travel with each request; the changed root took effect on the next request",
    ),
    Reason.NO_LIST_CHANGED_NO_EFFECT: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "does not apply under 2026-07-28: there is no list_changed, the roots travel with each request; but the changed root did not take effect in any tool",
    ),
    Reason.NEVER_GOT_EMPTY_LIST: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the server never asked for the empty list",
    ),
    Reason.NARROWS_NOTHING: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the roots narrow nothing for this server",
    ),
    Reason.NO_LAST_ROOT_ROW: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "no tool worked on the last root before the list was emptied",
    ),
    Reason.KEPT_AFTER_EMPTY: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the last root still worked after the empty list",
    ),
    Reason.REFUSED_AFTER_EMPTY: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the last root was refused after the empty list",
    ),
    Reason.SYMLINK_UNTESTED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "no tool that kept the sibling package out was tried on the link out of the root conclusively",
    ),
    Reason.SYMLINK_ESCAPED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the link out of the root worked where the sibling package was refused: {rows}",
    ),
    Reason.SYMLINK_REFUSED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the link out of the root was refused",
    ),
    Reason.PREFIX_UNTESTED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "no tool that kept the sibling package out was tried on packages/checkout-old conclusively",
    ),
    Reason.PREFIX_ESCAPED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "packages/checkout-old worked where the sibling package was refused: {rows}",
    ),
    Reason.PREFIX_REFUSED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "packages/checkout-old was refused",
    ),
}

STOPPED_EARLY = QT_TRANSLATE_NOOP("ProbeReason", "the probe stopped early; so far: {reason}")

STEPS: dict[Step, object] = {
    Step.STARTING: QT_TRANSLATE_NOOP(
        "ProbeStep",
        "starting the server",
    ),
    Step.WAITING_FIRST_ASK: QT_TRANSLATE_NOOP(
        "ProbeStep",
        "waiting for the server to ask for its roots",
    ),
    Step.LISTING_TOOLS: QT_TRANSLATE_NOOP(
        "ProbeStep",
        "listing the tools",
    ),
    Step.LISTING_RESOURCES: QT_TRANSLATE_NOOP(
        "ProbeStep",
        "listing the resources",
    ),
    Step.PLANNED: QT_TRANSLATE_NOOP(
        "ProbeStep",
        "{tools} tool(s) to probe, {cells} call(s) planned",
    ),
    Step.ROW: QT_TRANSLATE_NOOP(
        "ProbeStep",
        "{tool}: {target}",
    ),
    Step.CHANGING_ROOTS: QT_TRANSLATE_NOOP(
        "ProbeStep",
        "changing the roots",
    ),
    Step.ADDING_ROOT: QT_TRANSLATE_NOOP(
        "ProbeStep",
        "adding a second root",
    ),
    Step.EMPTYING_ROOTS: QT_TRANSLATE_NOOP(
        "ProbeStep",
        "emptying the roots",
    ),
}

PLAN: dict[PlanLine, object] = {
    PlanLine.FIXTURE: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "The server starts behind a private bridge over a scratch tree in a temporary folder, never your own folders or grants; {{allow}} in the command line stands for the tree's top. Its roots traffic shows in the log as {server}.",
    ),
    PlanLine.ROOTS: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "Its roots at the start: packages/checkout and packages/shipping, strictly narrower than the tree.",
    ),
    PlanLine.TOOLS_UNKNOWN: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "Each tool that takes paths (known once the server lists them) is called on a target inside the root and on partners outside it: a sibling, a sibling whose name starts the same, '..', a link out, '#' and non-ASCII names.",
    ),
    PlanLine.TOOL_READ: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "{tool} (reads): {pairs} pairs, inside and outside",
    ),
    PlanLine.TOOL_WRITE: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "{tool} (writes): {pairs} pairs, inside and outside",
    ),
    PlanLine.RESOURCES: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "resources/read of the resources the server listed: {pairs} pairs, inside and outside",
    ),
    PlanLine.NO_TOOLS: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "No tool takes paths: only the roots traffic is watched.",
    ),
    PlanLine.CHANGES: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "Then packages/billing replaces both roots (list_changed: does the server ask again?), packages/docs is added as a second root, and the list is emptied.",
    ),
    PlanLine.CHANGES_MODERN: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "Then packages/billing replaces both roots, packages/docs is added, and the list is emptied; under 2026-07-28 each change travels with the next request (there is no list_changed).",
    ),
    PlanLine.ALLOWANCE_UNKNOWN: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "Without {{allow}} a refusal proves less: the server's own allowance is unknown.",
    ),
}


PROBLEMS: dict[ProblemCode, object] = {
    ProblemCode.NO_PATH_TOOLS: QT_TRANSLATE_NOOP(
        "ProbeProblem",
        "the server offers no tool that takes paths: nothing to probe",
    ),
    ProblemCode.DID_NOT_START: QT_TRANSLATE_NOOP(
        "ProbeProblem",
        "the server did not start: {detail}",
    ),
    ProblemCode.NOT_MODERN: QT_TRANSLATE_NOOP(
        "ProbeProblem",
        "the server does not speak 2026-07-28: it answered server/discover with {detail}; probe it with the initialize handshake",
    ),
    ProblemCode.UNREACHABLE: QT_TRANSLATE_NOOP(
        "ProbeProblem",
        "the server could not be reached: {detail}",
    ),
    ProblemCode.WENT: QT_TRANSLATE_NOOP(
        "ProbeProblem",
        "the server went during the probe ({detail})",
    ),
    ProblemCode.STOPPED_ANSWERING: QT_TRANSLATE_NOOP(
        "ProbeProblem",
        "the server went during the probe (it stopped answering, even to ping)",
    ),
}
ENDED = QT_TRANSLATE_NOOP(
    "ProbeProblem", "; the bridge's log: the server ended with exit code {code}"
)
ENDED_REASON = QT_TRANSLATE_NOOP(
    "ProbeProblem", "; the bridge's log: the server ended with exit code {code} ({reason})"
)


READINGS: dict[Reading, object] = {
    Reading.NOT_RUN: QT_TRANSLATE_NOOP("ProbeReading", "not run: {detail}"),
    Reading.SERVER_WENT: QT_TRANSLATE_NOOP("ProbeReading", "the server went"),
    Reading.TIMED_OUT_INSIDE: QT_TRANSLATE_NOOP(
        "ProbeReading", "inconclusive: the call timed out inside"
    ),
    Reading.FAILED_INSIDE: QT_TRANSLATE_NOOP(
        "ProbeReading", "inconclusive: the tool failed inside too"
    ),
    Reading.OUTSIDE_UNANSWERED: QT_TRANSLATE_NOOP(
        "ProbeReading", "inconclusive: outside, the call {outcome}"
    ),
    Reading.OUTSIDE: QT_TRANSLATE_NOOP("ProbeReading", "outside {outcome}"),
}


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
    text = _format("ProbeReason", REASONS[finding.code], finding.params)
    return _format("ProbeReason", STOPPED_EARLY, {"reason": text}) if finding.early else text


def status_text(status: Status) -> str:
    """What the probe is doing now, in the user's language."""
    params = {k: v for k, v in status.params.items() if k != "plan"}
    return _format("ProbeStep", STEPS[status.step], params)


def plan_text(items: list[PlanItem]) -> str:
    """The plan, one line each, in the user's language."""
    return "\n".join(_format("ProbePlan", PLAN[i.line], i.params) for i in items)


def problem_text(problem: Problem) -> str:
    """Why the probe stopped, in the user's language (the server's own words kept as said)."""
    text = _format("ProbeProblem", PROBLEMS[problem.code], {"detail": problem.detail})
    if problem.exit_code is None:
        return text
    if not problem.end_reason:
        return text + _format("ProbeProblem", ENDED, {"code": problem.exit_code})
    reason = end_reason(problem.end_reason)
    return text + _format(
        "ProbeProblem", ENDED_REASON, {"code": problem.exit_code, "reason": reason}
    )


def reading_text(row: Row, outcomes: Mapping[Outcome, str]) -> str:
    """A row of the matrix in a word or two, the outcome in the words of *outcomes*."""
    code, params = row.reading_code
    if "outcome" in params:
        params = {**params, "outcome": outcomes[Outcome(params["outcome"])]}
    return _format("ProbeReading", READINGS[code], dict(params))
