"""The probe's result in words a user can act on: one sentence, and each finding as a statement.

The report's verdict names (``reads_checked_writes_not``) are for tables and scripts; a person
reads "Checks reads but not writes: yes". Whether a value is good news depends on the finding
(a server that keeps to its roots: yes is good; one that a symbolic link leads out of: yes is
bad), so each statement says which value is the good one, and the views mark it so.

Every text here is marked for translation (:mod:`roots_manager.support.translatable`) under the
context ``ProbeHeadline``; the views translate it when shown and fill in its parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from roots_manager.core.probe.plan import BOUNDARY_KINDS
from roots_manager.core.probe.reasons import ProblemCode, Reason
from roots_manager.core.probe.report import Report
from roots_manager.core.probe.verdict import ANSWERED, VERDICT_NAMES, Outcome
from roots_manager.support.translatable import QT_TRANSLATE_NOOP

CONTEXT = "ProbeHeadline"
"""The translation context of every text here (lupdate reads it as a literal in each mark)."""

STATEMENT: dict[str, str] = {
    "enforces_roots": QT_TRANSLATE_NOOP("ProbeHeadline", "Keeps to its roots"),
    "advisory": QT_TRANSLATE_NOOP("ProbeHeadline", "Takes roots as advice only"),
    "first_root_only": QT_TRANSLATE_NOOP("ProbeHeadline", "Uses only the first root"),
    "reads_checked_writes_not": QT_TRANSLATE_NOOP("ProbeHeadline", "Checks reads but not writes"),
    "writes_checked_reads_not": QT_TRANSLATE_NOOP("ProbeHeadline", "Checks writes but not reads"),
    "reasks_after_list_changed": QT_TRANSLATE_NOOP("ProbeHeadline", "Asks again after a change"),
    "keeps_roots_after_empty_list": QT_TRANSLATE_NOOP(
        "ProbeHeadline", "Keeps its old folders when given none"
    ),
    "symlink_escape": QT_TRANSLATE_NOOP(
        "ProbeHeadline", "A symbolic link leads it out of its roots"
    ),
    "prefix_bug": QT_TRANSLATE_NOOP(
        "ProbeHeadline", "Takes a folder whose name starts with a root's for the root"
    ),
}
"""Each verdict line as a statement the value answers."""

GOOD: dict[str, bool] = {
    "enforces_roots": True,
    "advisory": False,
    "first_root_only": False,
    "reads_checked_writes_not": False,
    "writes_checked_reads_not": False,
    "reasks_after_list_changed": True,
    "keeps_roots_after_empty_list": False,
    "symlink_escape": False,
    "prefix_bug": False,
}
"""The value of each finding that is good news for the user's grants."""

VALUE: dict[bool | None, str] = {
    True: QT_TRANSLATE_NOOP("ProbeHeadline", "yes"),
    False: QT_TRANSLATE_NOOP("ProbeHeadline", "no"),
    None: QT_TRANSLATE_NOOP("ProbeHeadline", "unknown"),
}

NOTHING_TO_PROBE = QT_TRANSLATE_NOOP(
    "ProbeHeadline", "Nothing to probe: {server} has no tool that takes a path."
)
KEEPS = QT_TRANSLATE_NOOP(
    "ProbeHeadline", "{server} keeps to its roots: {refused} of {outside} outside targets refused"
)
ESCAPES = QT_TRANSLATE_NOOP(
    "ProbeHeadline",
    "{server} does not keep to its roots: {worked} of {outside} outside targets worked; "
    "confine it to make your grants hold",
)
UNDECIDED = QT_TRANSLATE_NOOP(
    "ProbeHeadline",
    "Whether {server} keeps to its roots is unknown: {refused} of {outside} outside "
    "targets refused, but without {{allow}} in its command line a refusal may be its own",
)
STOPPED = QT_TRANSLATE_NOOP("ProbeHeadline", "The probe of {server} stopped before it could tell")
REASKS = QT_TRANSLATE_NOOP("ProbeHeadline", ", and it asks again after a change")
NO_REASK = QT_TRANSLATE_NOOP(
    "ProbeHeadline",
    ", but it does not ask again after a change: it keeps the folders it was first told",
)
KEEPS_OLD = QT_TRANSLATE_NOOP("ProbeHeadline", "; it keeps its old folders when given none")
END = QT_TRANSLATE_NOOP("ProbeHeadline", ".")


@dataclass(frozen=True)
class Line:
    """One finding in words: its statement, its value, and whether that value is good news
    (None: neither, the value is unknown)."""

    name: str
    statement: str
    value: bool | None
    good: bool | None
    reason: str
    """Why, in English (the views word it from the finding itself)."""


@dataclass(frozen=True)
class Headline:
    """The sentence on top, as templates to translate and join, with their parameters."""

    parts: list[str]
    params: dict[str, Any] = field(default_factory=dict)


def nothing_to_probe(report: Report) -> bool:
    """Whether the server offered no tool that takes a path (such a run is no result to keep)."""
    detail = report.problem_detail
    return detail is not None and detail.code is ProblemCode.NO_PATH_TOOLS


def _counts(report: Report) -> tuple[int, int, int]:
    """Of the outside targets answered in conclusive rows: how many, refused, worked."""
    outside = [
        r.outside.outcome
        for r in report.rows
        if r.target_kind in BOUNDARY_KINDS
        and r.inside.outcome is Outcome.WORKED
        and r.outside.outcome in ANSWERED
    ]
    refused = outside.count(Outcome.REFUSED)
    return len(outside), refused, len(outside) - refused


def headline(report: Report, server: str) -> Headline:
    """The one sentence that says what the probe found, for *server* (its name as shown)."""
    if nothing_to_probe(report):
        return Headline([NOTHING_TO_PROBE], {"server": server})
    outside, refused, worked = _counts(report)
    params: dict[str, Any] = {
        "server": server,
        "outside": outside,
        "refused": refused,
        "worked": worked,
    }
    enforces = report.verdict.get("enforces_roots")
    if enforces is None or not outside:
        return Headline([STOPPED, END], params)
    if enforces.value is False:
        return Headline([ESCAPES, END], params)
    if enforces.value is None and enforces.code is not Reason.REFUSED_ALLOWANCE_UNKNOWN:
        return Headline([STOPPED, END], params)  # stopped early: what it found holds so far
    parts = [KEEPS if enforces.value else UNDECIDED]
    reasks = report.verdict.get("reasks_after_list_changed")
    if reasks is not None and reasks.value is not None:
        parts.append(REASKS if reasks.value else NO_REASK)
    keeps_old = report.verdict.get("keeps_roots_after_empty_list")
    if keeps_old is not None and keeps_old.value:
        parts.append(KEEPS_OLD)
    parts.append(END)
    return Headline(parts, params)


def lines(report: Report) -> list[Line]:
    """Each finding of the report, in the verdict's order, as a statement and its value."""
    out = []
    for name in VERDICT_NAMES:
        f = report.verdict.get(name)
        if f is None:
            continue
        good = None if f.value is None else f.value == GOOD[name]
        out.append(Line(name, STATEMENT[name], f.value, good, f.reason))
    return out
