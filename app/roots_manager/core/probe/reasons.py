"""What the boundary probe says, as codes with parameters: its verdict's reasons, its steps.

The core decides and the views word it: a verdict line carries a :class:`Reason` and the values
that fill it (tool names, counts), a progress report a :class:`Step`. The English wording is
here (:data:`REASON_TEXT`, :data:`STEP_TEXT`), for the CLI, the JSON document and the saved
tables; the desktop app words the same codes through its translations. Parameters are data
(names of tools, numbers), never sentences, so that every language can place them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from roots_manager.core.probe.plan import Operation, PathTool
from roots_manager.support.translatable import QT_TRANSLATE_NOOP


class Reason(StrEnum):
    """Why a verdict line is what it is."""

    NO_PAIRED_ROW = "no_paired_row"
    OUTSIDE_WORKED = "outside_worked"
    REFUSED_ALLOWANCE_UNKNOWN = "refused_allowance_unknown"
    ENFORCED = "enforced"
    NO_SIBLING_ROW = "no_sibling_row"
    SIBLING_WORKED = "sibling_worked"
    SIBLING_REFUSED_ALLOWANCE_UNKNOWN = "sibling_refused_allowance_unknown"
    SIBLING_REFUSED = "sibling_refused"
    ROOTS_NEVER_ASKED = "roots_never_asked"
    NO_SECOND_ROOT_ROW = "no_second_root_row"
    SECOND_ROOT_REFUSED_AT_START = "second_root_refused_at_start"
    ADDED_ROOT_REFUSED = "added_root_refused"
    SECOND_ROOT_REACHABLE = "second_root_reachable"
    SECOND_ROOT_REACHABLE_BOTH = "second_root_reachable_both"
    NO_READ_ROW = "no_read_row"
    NO_WRITE_ROW = "no_write_row"
    READS_REFUSED_WRITES_WORKED = "reads_refused_writes_worked"
    WRITES_REFUSED_READS_WORKED = "writes_refused_reads_worked"
    CHECKED_ALIKE = "checked_alike"
    READS_WORKED_TOO = "reads_worked_too"
    WRITES_WORKED_TOO = "writes_worked_too"
    NEVER_ASKED_NO_NOTICE = "never_asked_no_notice"
    NO_NOTICE_SENT = "no_notice_sent"
    DID_NOT_REASK = "did_not_reask"
    DID_NOT_REASK_TOOK_EFFECT = "did_not_reask_took_effect"
    REASKED = "reasked"
    REASKED_TOOK_EFFECT = "reasked_took_effect"
    REASKED_NO_EFFECT = "reasked_no_effect"
    NO_LIST_CHANGED = "no_list_changed"
    NO_LIST_CHANGED_TOOK_EFFECT = "no_list_changed_took_effect"
    NO_LIST_CHANGED_NO_EFFECT = "no_list_changed_no_effect"
    NEVER_GOT_EMPTY_LIST = "never_got_empty_list"
    NARROWS_NOTHING = "narrows_nothing"
    NO_LAST_ROOT_ROW = "no_last_root_row"
    KEPT_AFTER_EMPTY = "kept_after_empty"
    REFUSED_AFTER_EMPTY = "refused_after_empty"
    SYMLINK_UNTESTED = "symlink_untested"
    SYMLINK_ESCAPED = "symlink_escaped"
    SYMLINK_REFUSED = "symlink_refused"
    PREFIX_UNTESTED = "prefix_untested"
    PREFIX_ESCAPED = "prefix_escaped"
    PREFIX_REFUSED = "prefix_refused"
    ARGUMENTS_UNTESTED = "arguments_untested"
    NO_ARGUMENTS_ROW = "no_arguments_row"
    ROOTS_UNDECIDED = "roots_undecided"
    HONOURS_ROOTS = "honours_roots"
    IGNORES_ROOTS_HONOURS_ARGUMENTS = "ignores_roots_honours_arguments"
    HONOURS_NEITHER = "honours_neither"


class Phase(StrEnum):
    """The part of the run whose rows decided a verdict line."""

    START = "start"
    """Two roots given at once, before any change."""
    CHANGED = "changed"
    """After the roots were replaced (``list_changed``, or the next request under 2026-07-28)."""
    ADDED = "added"
    """After a second root was added to the changed list."""
    EMPTIED = "emptied"
    """After the list was emptied."""


REASON_TEXT: dict[Reason, str] = {
    Reason.NO_PAIRED_ROW: QT_TRANSLATE_NOOP(
        "ProbeReason", "no row paired a working inside call (inconclusive rows: {inconclusive})"
    ),
    Reason.OUTSIDE_WORKED: QT_TRANSLATE_NOOP("ProbeReason", "outside targets worked: {rows}"),
    Reason.REFUSED_ALLOWANCE_UNKNOWN: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "every outside target was refused, but the server's own "
        "allowance is unknown (no {{allow}} in its command line), so a refusal outside the root may "
        "be its command line's rather than the roots': it proves less",
    ),
    Reason.ENFORCED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "every outside target was refused while its inside partner worked "
        "(pairs: {pairs}, inconclusive rows: {inconclusive})",
    ),
    Reason.NO_SIBLING_ROW: QT_TRANSLATE_NOOP(
        "ProbeReason", "no sibling row paired a working inside call"
    ),
    Reason.SIBLING_WORKED: QT_TRANSLATE_NOOP(
        "ProbeReason", "every operation on the sibling package worked: the roots narrow nothing"
    ),
    Reason.SIBLING_REFUSED_ALLOWANCE_UNKNOWN: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the sibling package was refused, but the "
        "server's own allowance is unknown (no {{allow}} in its command line), so a refusal outside "
        "the root may be its command line's rather than the roots': it proves less",
    ),
    Reason.SIBLING_REFUSED: QT_TRANSLATE_NOOP(
        "ProbeReason", "operations on the sibling package were refused"
    ),
    Reason.ROOTS_NEVER_ASKED: QT_TRANSLATE_NOOP(
        "ProbeReason", "the server never asked for its roots: no second root reached it"
    ),
    Reason.NO_SECOND_ROOT_ROW: QT_TRANSLATE_NOOP(
        "ProbeReason", "no second-root row paired a working inside call"
    ),
    Reason.SECOND_ROOT_REFUSED_AT_START: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "given two roots from the start, the server refused "
        "the second root's files while the first root's worked: {rows}",
    ),
    Reason.ADDED_ROOT_REFUSED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "a second root added to the changed list was refused after the "
        "server had asked for the new list, while the first root's files worked: {rows}",
    ),
    Reason.SECOND_ROOT_REACHABLE: QT_TRANSLATE_NOOP(
        "ProbeReason", "the second root's files were reachable when it was given from the start"
    ),
    Reason.SECOND_ROOT_REACHABLE_BOTH: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the second root's files were reachable, given from the "
        "start and added to the changed list",
    ),
    Reason.NO_READ_ROW: QT_TRANSLATE_NOOP(
        "ProbeReason", "no read operation paired a working inside call"
    ),
    Reason.NO_WRITE_ROW: QT_TRANSLATE_NOOP(
        "ProbeReason", "no write operation paired a working inside call"
    ),
    Reason.READS_REFUSED_WRITES_WORKED: QT_TRANSLATE_NOOP(
        "ProbeReason", "reads outside were refused, writes outside worked: {rows}"
    ),
    Reason.WRITES_REFUSED_READS_WORKED: QT_TRANSLATE_NOOP(
        "ProbeReason", "writes outside were refused, reads outside worked: {rows}"
    ),
    Reason.CHECKED_ALIKE: QT_TRANSLATE_NOOP("ProbeReason", "reads and writes are checked alike"),
    Reason.READS_WORKED_TOO: QT_TRANSLATE_NOOP("ProbeReason", "reads outside worked too"),
    Reason.WRITES_WORKED_TOO: QT_TRANSLATE_NOOP("ProbeReason", "writes outside worked too"),
    Reason.NEVER_ASKED_NO_NOTICE: QT_TRANSLATE_NOOP(
        "ProbeReason", "the server never asked for roots/list, so no notice was sent"
    ),
    Reason.NO_NOTICE_SENT: QT_TRANSLATE_NOOP(
        "ProbeReason", "the bridge sent no list_changed (see the log)"
    ),
    Reason.DID_NOT_REASK: QT_TRANSLATE_NOOP(
        "ProbeReason", "the server did not ask for roots/list again after list_changed"
    ),
    Reason.DID_NOT_REASK_TOOK_EFFECT: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the server did not ask for roots/list right after "
        "list_changed, but the new root took effect: it asks when a call needs its roots",
    ),
    Reason.REASKED: QT_TRANSLATE_NOOP(
        "ProbeReason", "the server asked for roots/list again after list_changed"
    ),
    Reason.REASKED_TOOK_EFFECT: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the server asked for roots/list again after list_changed; the new root took effect",
    ),
    Reason.REASKED_NO_EFFECT: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the server asked for roots/list again after list_changed; but "
        "the new root did not take effect in any tool",
    ),
    Reason.NO_LIST_CHANGED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "does not apply under 2026-07-28: there is no list_changed, the "
        "roots travel with each request",
    ),
    Reason.NO_LIST_CHANGED_TOOK_EFFECT: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "does not apply under 2026-07-28: there is no "
        "list_changed, the roots travel with each request; the changed root took effect on the "
        "next request",
    ),
    Reason.NO_LIST_CHANGED_NO_EFFECT: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "does not apply under 2026-07-28: there is no "
        "list_changed, the roots travel with each request; but the changed root did not take "
        "effect in any tool",
    ),
    Reason.NEVER_GOT_EMPTY_LIST: QT_TRANSLATE_NOOP(
        "ProbeReason", "the server never asked for the empty list"
    ),
    Reason.NARROWS_NOTHING: QT_TRANSLATE_NOOP(
        "ProbeReason", "the roots narrow nothing for this server"
    ),
    Reason.NO_LAST_ROOT_ROW: QT_TRANSLATE_NOOP(
        "ProbeReason", "no tool worked on the last root before the list was emptied"
    ),
    Reason.KEPT_AFTER_EMPTY: QT_TRANSLATE_NOOP(
        "ProbeReason", "the last root still worked after the empty list"
    ),
    Reason.REFUSED_AFTER_EMPTY: QT_TRANSLATE_NOOP(
        "ProbeReason", "the last root was refused after the empty list"
    ),
    Reason.SYMLINK_UNTESTED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "no tool that kept the sibling package out was tried on the link "
        "out of the root conclusively",
    ),
    Reason.SYMLINK_ESCAPED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the link out of the root worked where the sibling package was refused: {rows}",
    ),
    Reason.SYMLINK_REFUSED: QT_TRANSLATE_NOOP(
        "ProbeReason", "the link out of the root was refused"
    ),
    Reason.PREFIX_UNTESTED: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "no tool that kept the sibling package out was tried on packages/checkout-old conclusively",
    ),
    Reason.PREFIX_ESCAPED: QT_TRANSLATE_NOOP(
        "ProbeReason", "packages/checkout-old worked where the sibling package was refused: {rows}"
    ),
    Reason.PREFIX_REFUSED: QT_TRANSLATE_NOOP("ProbeReason", "packages/checkout-old was refused"),
    Reason.ARGUMENTS_UNTESTED: QT_TRANSLATE_NOOP(
        "ProbeReason", "the server was not started with the root as its only argument"
    ),
    Reason.NO_ARGUMENTS_ROW: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "started with the root as its only argument, no sibling row paired a working inside call",
    ),
    Reason.ROOTS_UNDECIDED: QT_TRANSLATE_NOOP(
        "ProbeReason", "whether the roots narrow anything is undecided"
    ),
    Reason.HONOURS_ROOTS: QT_TRANSLATE_NOOP(
        "ProbeReason", "the server keeps to the roots it is given: roots/list is enough"
    ),
    Reason.IGNORES_ROOTS_HONOURS_ARGUMENTS: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the roots narrow nothing, but started with the root as its only argument the server "
        "refused the sibling package: give it {{roots}} in its command line",
    ),
    Reason.HONOURS_NEITHER: QT_TRANSLATE_NOOP(
        "ProbeReason",
        "the server reached the sibling package with the root as its only argument too: "
        "neither roots nor arguments keep it in, only confinement does",
    ),
}

ALLOWANCE_UNKNOWN = REASON_TEXT[Reason.REFUSED_ALLOWANCE_UNKNOWN].split(", but ", 1)[1]
"""Why a refusal proves less without ``{allow}``, as the reasons word it (a template:
``{{allow}}`` is the literal ``{allow}`` once formatted)."""

STOPPED_EARLY = QT_TRANSLATE_NOOP("ProbeReason", "the probe stopped early; so far: {reason}")


class Reading(StrEnum):
    """What a row of the matrix shows, in a word or two."""

    NOT_RUN = "not_run"
    SERVER_WENT = "server_went"
    TIMED_OUT_INSIDE = "timed_out_inside"
    FAILED_INSIDE = "failed_inside"
    OUTSIDE_UNANSWERED = "outside_unanswered"
    OUTSIDE = "outside"


READING_TEXT: dict[Reading, str] = {
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
"""``{outcome}`` is a cell's outcome (``refused``), ``{detail}`` why a call was not made."""


@dataclass(frozen=True)
class Finding:
    """One line of the verdict: true, false, or None (not decidable), and why."""

    value: bool | None
    code: Reason
    params: dict[str, Any] = field(default_factory=dict)
    phase: Phase | None = None
    """Which part of the run decided it (None: no single part, or nothing decided)."""
    early: bool = False
    """The probe stopped before the end: what is said holds so far."""
    worded: str = ""
    """The reason as a table saved before reasons had codes worded it (then it is the reason)."""

    @property
    def reason(self) -> str:
        """The reason in English."""
        if self.worded:
            return self.worded
        text = REASON_TEXT[self.code].format(**self.params)
        return STOPPED_EARLY.format(reason=text) if self.early else text

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "code": self.code.value,
            "params": self.params,
            "phase": None if self.phase is None else self.phase.value,
            "early": self.early,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, value: bool | None, doc: Any, worded: str = "") -> Finding:
        """A finding read back from a saved table; one of an older format, or whose code this
        version does not know, keeps the reason as it was worded."""
        if not isinstance(doc, dict):
            doc = {}
        params = doc.get("params") if isinstance(doc.get("params"), dict) else {}
        try:
            code = Reason(str(doc.get("code")))
            phase = Phase(doc["phase"]) if doc.get("phase") else None
            REASON_TEXT[code].format(**params)
        except (ValueError, KeyError, IndexError):
            return cls(value, Reason.NO_PAIRED_ROW, {}, None, False, worded or "?")
        return cls(value, code, dict(params), phase, bool(doc.get("early", False)))


class Step(StrEnum):
    """What the probe is doing now."""

    STARTING = "starting"
    WAITING_FIRST_ASK = "waiting_first_ask"
    LISTING_TOOLS = "listing_tools"
    LISTING_RESOURCES = "listing_resources"
    PLANNED = "planned"
    ROW = "row"
    CHANGING_ROOTS = "changing_roots"
    ADDING_ROOT = "adding_root"
    EMPTYING_ROOTS = "emptying_roots"


STEP_TEXT: dict[Step, str] = {
    Step.STARTING: QT_TRANSLATE_NOOP("ProbeStep", "starting the server"),
    Step.WAITING_FIRST_ASK: QT_TRANSLATE_NOOP(
        "ProbeStep", "waiting for the server to ask for its roots"
    ),
    Step.LISTING_TOOLS: QT_TRANSLATE_NOOP("ProbeStep", "listing the tools"),
    Step.LISTING_RESOURCES: QT_TRANSLATE_NOOP("ProbeStep", "listing the resources"),
    Step.PLANNED: QT_TRANSLATE_NOOP("ProbeStep", "tools to probe: {tools}; calls planned: {cells}"),
    Step.ROW: QT_TRANSLATE_NOOP("ProbeStep", "{tool}: {target}"),
    Step.CHANGING_ROOTS: QT_TRANSLATE_NOOP("ProbeStep", "changing the roots"),
    Step.ADDING_ROOT: QT_TRANSLATE_NOOP("ProbeStep", "adding a second root"),
    Step.EMPTYING_ROOTS: QT_TRANSLATE_NOOP("ProbeStep", "emptying the roots"),
}


@dataclass(frozen=True)
class Status:
    """A progress report: the step and what fills its words."""

    step: Step
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The status in English."""
        return STEP_TEXT[self.step].format(**self.params)


class PlanLine(StrEnum):
    """One line of the plan the probe shows before and while it runs."""

    FIXTURE = "fixture"
    ROOTS = "roots"
    TOOLS_UNKNOWN = "tools_unknown"
    TOOL_READ = "tool_read"
    TOOL_WRITE = "tool_write"
    RESOURCES = "resources"
    NO_TOOLS = "no_tools"
    CHANGES = "changes"
    CHANGES_MODERN = "changes_modern"
    ALLOWANCE_UNKNOWN = "allowance_unknown"


PLAN_TEXT: dict[PlanLine, str] = {
    PlanLine.FIXTURE: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "The server starts behind a private bridge over a scratch tree in a "
        "temporary folder, never your own folders or grants; {{allow}} in the command line stands "
        "for the tree's top. Its roots traffic shows in the log as {server}.",
    ),
    PlanLine.ROOTS: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "Its roots at the start: packages/checkout and packages/shipping, strictly "
        "narrower than the tree.",
    ),
    PlanLine.TOOLS_UNKNOWN: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "Each tool that takes paths (known once the server lists them) is "
        "called on a target inside the root and on partners outside it: a sibling, a sibling "
        "whose name starts the same, '..', a link out, '#' and non-ASCII names.",
    ),
    PlanLine.TOOL_READ: QT_TRANSLATE_NOOP(
        "ProbePlan", "{tool} (reads): {pairs} pairs, inside and outside"
    ),
    PlanLine.TOOL_WRITE: QT_TRANSLATE_NOOP(
        "ProbePlan", "{tool} (writes): {pairs} pairs, inside and outside"
    ),
    PlanLine.RESOURCES: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "resources/read of the resources the server listed: {pairs} pairs, inside and outside",
    ),
    PlanLine.NO_TOOLS: QT_TRANSLATE_NOOP(
        "ProbePlan", "No tool takes paths: only the roots traffic is watched."
    ),
    PlanLine.CHANGES: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "Then packages/billing replaces both roots (list_changed: does the "
        "server ask again?), packages/docs is added as a second root, and the list is emptied.",
    ),
    PlanLine.CHANGES_MODERN: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "Then packages/billing replaces both roots, packages/docs is "
        "added, and the list is emptied; under 2026-07-28 each change travels with the next "
        "request (there is no list_changed).",
    ),
    PlanLine.ALLOWANCE_UNKNOWN: QT_TRANSLATE_NOOP(
        "ProbePlan",
        "Without {{allow}} a refusal proves less: the server's own allowance is unknown.",
    ),
}


@dataclass(frozen=True)
class PlanItem:
    """A line of the plan and what fills its words."""

    line: PlanLine
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The line in English."""
        return PLAN_TEXT[self.line].format(**self.params)


def plan(
    tools: list[PathTool] | None, *, server: str, modern: bool, allowance_known: bool
) -> list[PlanItem]:
    """The plan: the phases, and once ``tools/list`` is known (*tools* not None) the tools
    and operations that will be probed, with the number of pairs of each."""
    out = [PlanItem(PlanLine.FIXTURE, {"server": server}), PlanItem(PlanLine.ROOTS)]
    if tools is None:
        out.append(PlanItem(PlanLine.TOOLS_UNKNOWN))
    elif not tools:
        out.append(PlanItem(PlanLine.NO_TOOLS))
    for tool in tools or []:
        # the boundary kinds, the second root, the new root, the added root, after the empty list
        pairs = len(tool.kinds()) + 4
        if tool.resource:
            out.append(PlanItem(PlanLine.RESOURCES, {"pairs": pairs}))
        else:
            line = PlanLine.TOOL_READ if tool.operation is Operation.READ else PlanLine.TOOL_WRITE
            out.append(PlanItem(line, {"tool": tool.name, "pairs": pairs}))
    out.append(PlanItem(PlanLine.CHANGES_MODERN if modern else PlanLine.CHANGES))
    if not allowance_known:
        out.append(PlanItem(PlanLine.ALLOWANCE_UNKNOWN))
    return out


class ProblemCode(StrEnum):
    """Why a probe stopped early, or found nothing to probe."""

    NO_PATH_TOOLS = "no_path_tools"
    DID_NOT_START = "did_not_start"
    NOT_MODERN = "not_modern"
    UNREACHABLE = "unreachable"
    WENT = "went"
    STOPPED_ANSWERING = "stopped_answering"


PROBLEM_TEXT: dict[ProblemCode, str] = {
    ProblemCode.NO_PATH_TOOLS: QT_TRANSLATE_NOOP(
        "ProbeProblem", "the server offers no tool that takes paths: nothing to probe"
    ),
    ProblemCode.DID_NOT_START: QT_TRANSLATE_NOOP(
        "ProbeProblem", "the server did not start: {detail}"
    ),
    ProblemCode.NOT_MODERN: QT_TRANSLATE_NOOP(
        "ProbeProblem",
        "the server does not speak 2026-07-28: it answered server/discover "
        "with {detail}; probe it with the initialize handshake",
    ),
    ProblemCode.UNREACHABLE: QT_TRANSLATE_NOOP(
        "ProbeProblem", "the server could not be reached: {detail}"
    ),
    ProblemCode.WENT: QT_TRANSLATE_NOOP(
        "ProbeProblem", "the server went during the probe ({detail})"
    ),
    ProblemCode.STOPPED_ANSWERING: QT_TRANSLATE_NOOP(
        "ProbeProblem", "the server went during the probe (it stopped answering, even to ping)"
    ),
}
ENDED_TEXT = QT_TRANSLATE_NOOP(
    "ProbeProblem", "; the bridge's log: the server ended with exit code {code}"
)
ENDED_REASON_TEXT = QT_TRANSLATE_NOOP(
    "ProbeProblem", "; the bridge's log: the server ended with exit code {code} ({reason})"
)


@dataclass(frozen=True)
class Problem:
    """Why a probe stopped: the code, the words the server or the SDK said, how it ended."""

    code: ProblemCode
    detail: str = ""
    """What the server or the SDK said (their words, not translated)."""
    exit_code: int | str | None = None
    """The server's exit code, from the bridge's ``session-end`` event, if it ended."""
    end_reason: str = ""
    """Why the bridge says it ended (``server exited``), if it says."""

    @property
    def text(self) -> str:
        """The problem in English."""
        text = PROBLEM_TEXT[self.code].format(detail=self.detail)
        if self.exit_code is None:
            return text
        ended = ENDED_REASON_TEXT if self.end_reason else ENDED_TEXT
        return text + ended.format(code=self.exit_code, reason=self.end_reason)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code.value,
            "detail": self.detail,
            "exit_code": self.exit_code,
            "end_reason": self.end_reason,
        }

    @classmethod
    def from_json(cls, doc: Any) -> Problem | None:
        """A problem read back from a saved table (None: none, or of an unknown kind)."""
        if not isinstance(doc, dict):
            return None
        try:
            code = ProblemCode(str(doc.get("code")))
        except ValueError:
            return None
        return cls(
            code, str(doc.get("detail", "")), doc.get("exit_code"), str(doc.get("end_reason", ""))
        )
