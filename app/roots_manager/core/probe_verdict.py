"""The boundary probe's cells, rows and verdict.

A cell is one call and what came of it; a row pairs the same operation on a target inside the
root with its partner outside (:mod:`~roots_manager.core.probe_plan`). The verdict is derived
from paired cells only: a row whose inside cell did not work proves nothing about its partner
(the tool may be broken, or pointed at the wrong place) and is reported as inconclusive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from roots_manager.core.probe_plan import BOUNDARY_KINDS, Operation, TargetKind


class Outcome(StrEnum):
    """What came of one call."""

    WORKED = "worked"
    REFUSED = "refused"
    TIMED_OUT = "timed out"
    SERVER_GONE = "server gone"
    NOT_RUN = "not run"


class Evidence(StrEnum):
    """What an outcome rests on, strongest first."""

    DISK = "disk"
    """The scratch tree changed under the target."""
    TOKEN = "token"
    """The answer holds the target file's unique token."""
    ANSWER = "answer"
    """Only what the answer says (an error flag, or words of refusal)."""
    NONE = "none"


_REFUSAL_WORDS = re.compile(
    r"denied|not allowed|outside|forbidden|permission denied|no permission|refus|\berror\b|"
    r"invalid|not found|no such|does not exist|doesn't exist|enoent|eacces|eperm|"
    r"not permitted|cannot|can't|unauthori[sz]ed",
    re.I,
)


def judge(
    is_error: bool,
    text: str,
    token: str | None,
    changed: list[str],
) -> tuple[Outcome, Evidence]:
    """The outcome of a call that answered: by what changed on disk, the token, then the answer.

    A change on disk under the target proves a write worked whatever the answer says; the token
    of the target's file proves a read did. Without either, an error flag or words of refusal in
    the answer (``Access denied``, as some servers say inside a result that is not an error)
    count as a refusal, and anything else as a success the answer alone vouches for.
    """
    if changed:
        return Outcome.WORKED, Evidence.DISK
    if token is not None and token in text:
        return Outcome.WORKED, Evidence.TOKEN
    if is_error or _REFUSAL_WORDS.search(text):
        return Outcome.REFUSED, Evidence.ANSWER
    # a read that did not show the token, or a write that changed nothing, and neither said
    # no (a file's size, an edit with nothing to change): the answer is all there is
    return Outcome.WORKED, Evidence.ANSWER


@dataclass
class Cell:
    """One call of the matrix and what came of it."""

    targets: list[str]
    outcome: Outcome = Outcome.NOT_RUN
    evidence: Evidence = Evidence.NONE
    detail: str = ""
    """A short line: the answer's first words, the error, or why the call was not made."""
    request: dict[str, Any] = field(default_factory=dict)
    answer: Any = None
    ms: float = 0.0
    changed: list[str] = field(default_factory=list)
    """Paths of the scratch tree the call changed (relative to its top)."""
    revealed_secret: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "targets": self.targets,
            "outcome": self.outcome.value,
            "evidence": self.evidence.value,
            "detail": self.detail,
            "request": self.request,
            "answer": self.answer,
            "ms": round(self.ms, 1),
            "changed": self.changed,
            "revealed_secret": self.revealed_secret,
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Cell:
        return cls(
            targets=list(doc.get("targets") or []),
            outcome=Outcome(doc.get("outcome", Outcome.NOT_RUN.value)),
            evidence=Evidence(doc.get("evidence", Evidence.NONE.value)),
            detail=str(doc.get("detail", "")),
            request=dict(doc.get("request") or {}),
            answer=doc.get("answer"),
            ms=float(doc.get("ms", 0.0)),
            changed=list(doc.get("changed") or []),
            revealed_secret=bool(doc.get("revealed_secret", False)),
        )


ANSWERED = (Outcome.WORKED, Outcome.REFUSED)


@dataclass
class Row:
    """One operation: its inside cell and its partner outside."""

    tool: str
    operation: Operation
    target_kind: TargetKind
    inside: Cell
    outside: Cell

    @property
    def conclusive(self) -> bool:
        """The inside cell worked and the outside one answered: the pair proves something."""
        return self.inside.outcome is Outcome.WORKED and self.outside.outcome in ANSWERED

    @property
    def reading(self) -> str:
        """The row in words."""
        if self.inside.outcome is not Outcome.WORKED:
            if self.inside.outcome is Outcome.NOT_RUN:
                return f"not run: {self.inside.detail}"
            if self.inside.outcome is Outcome.SERVER_GONE:
                return "the server went"
            if self.inside.outcome is Outcome.TIMED_OUT:
                return "inconclusive: the call timed out inside"
            return "inconclusive: the tool failed inside too"
        if self.outside.outcome not in ANSWERED:
            return f"inconclusive: outside, the call {self.outside.outcome.value}"
        return f"outside {self.outside.outcome.value}"

    def key(self) -> tuple[str, str, str]:
        return (self.tool, self.operation.value, self.target_kind.value)

    def to_json(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "operation": self.operation.value,
            "target_kind": self.target_kind.value,
            "inside": self.inside.to_json(),
            "outside": self.outside.to_json(),
            "reading": self.reading,
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Row:
        return cls(
            tool=str(doc["tool"]),
            operation=Operation(doc["operation"]),
            target_kind=TargetKind(doc["target_kind"]),
            inside=Cell.from_json(doc["inside"]),
            outside=Cell.from_json(doc["outside"]),
        )


@dataclass(frozen=True)
class Finding:
    """One line of the verdict: true, false, or None (not decidable), and why."""

    value: bool | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "reason": self.reason}


@dataclass(frozen=True)
class Traffic:
    """What the bridge's log showed of the roots traffic around ``list_changed``."""

    asked_at_start: bool
    notice_sent: bool
    asked_after_notice: bool
    empty_notice_sent: bool
    asked_for_empty_list: bool


VERDICT_NAMES = (
    "enforces_roots",
    "advisory",
    "first_root_only",
    "reads_checked_writes_not",
    "writes_checked_reads_not",
    "reasks_after_list_changed",
    "keeps_roots_after_empty_list",
    "symlink_escape",
    "prefix_bug",
)

ALLOWANCE_UNKNOWN = (
    "the server's own allowance is unknown (no {allow} in its command line), so a refusal "
    "outside the root may be its command line's rather than the roots': it proves less"
)


def _of(rows: list[Row], *kinds: TargetKind) -> list[Row]:
    return [r for r in rows if r.target_kind in kinds and r.conclusive]


def _worked(rows: list[Row]) -> list[Row]:
    return [r for r in rows if r.outside.outcome is Outcome.WORKED]


def _names(rows: list[Row]) -> str:
    shown = sorted({f"{r.tool} ({r.target_kind.value})" for r in rows})
    return ", ".join(shown[:4]) + (f" and {len(shown) - 4} more" if len(shown) > 4 else "")


def verdict(
    rows: list[Row], traffic: Traffic, allowance_known: bool, complete: bool = True
) -> dict[str, Finding]:
    """Each finding of :data:`VERDICT_NAMES`, from the paired rows and the roots traffic.

    A probe that stopped early keeps what it found (a ``yes`` other than ``enforces_roots``
    was seen happen), and decides nothing that claims an absence: the rows not run might
    have shown it.
    """
    found = _verdict(rows, traffic, allowance_known)
    if complete:
        return found
    out = {}
    for name, f in found.items():
        if f.value is False or (name == "enforces_roots" and f.value is True):
            f = Finding(None, f"the probe stopped early; so far: {f.reason}")
        out[name] = f
    return out


def _verdict(rows: list[Row], traffic: Traffic, allowance_known: bool) -> dict[str, Finding]:
    boundary = _of(rows, *BOUNDARY_KINDS)
    siblings = _of(rows, TargetKind.SIBLING)
    out: dict[str, Finding] = {}
    inconclusive = [r for r in rows if r.target_kind in BOUNDARY_KINDS and not r.conclusive]
    tail = f" ({len(inconclusive)} row(s) inconclusive)" if inconclusive else ""

    escaped = _worked(boundary)
    if not boundary:
        out["enforces_roots"] = Finding(None, "no row paired a working inside call" + tail)
    elif escaped:
        out["enforces_roots"] = Finding(False, f"outside targets worked: {_names(escaped)}")
    elif not allowance_known:
        out["enforces_roots"] = Finding(
            None, "every outside target was refused, but " + ALLOWANCE_UNKNOWN
        )
    else:
        out["enforces_roots"] = Finding(
            True,
            f"every outside target was refused while its inside partner worked "
            f"({len(boundary)} pair(s)){tail}",
        )

    if not siblings:
        out["advisory"] = Finding(None, "no sibling row paired a working inside call")
    elif len(_worked(siblings)) == len(siblings):
        out["advisory"] = Finding(
            True, "every operation on the sibling package worked: the roots narrow nothing"
        )
    elif not allowance_known and not _worked(siblings):
        out["advisory"] = Finding(None, "the sibling package was refused, but " + ALLOWANCE_UNKNOWN)
    else:
        out["advisory"] = Finding(False, "operations on the sibling package were refused")
    advisory = out["advisory"].value is True

    second = _of(rows, TargetKind.SECOND_ROOT)
    if not second:
        out["first_root_only"] = Finding(None, "no second-root row paired a working inside call")
    elif _worked(second):
        out["first_root_only"] = Finding(False, "the second root's files were reachable")
    else:
        out["first_root_only"] = Finding(
            True, "the second root's files were refused while the first root's worked"
        )

    out["reads_checked_writes_not"], out["writes_checked_reads_not"] = _by_operation(boundary)
    out["reasks_after_list_changed"] = _reasks(rows, traffic)
    out["keeps_roots_after_empty_list"] = _keeps(rows, traffic, advisory)
    out["symlink_escape"] = _escape(rows, TargetKind.SYMLINK, "the link out of the root", advisory)
    out["prefix_bug"] = _escape(rows, TargetKind.PREFIX_SIBLING, "packages/checkout-old", advisory)
    return out


def _by_operation(boundary: list[Row]) -> tuple[Finding, Finding]:
    reads = [r for r in boundary if r.operation is Operation.READ]
    writes = [r for r in boundary if r.operation is Operation.WRITE]
    if not reads or not writes:
        missing = "read" if not reads else "write"
        why = f"no {missing} operation paired a working inside call"
        return Finding(None, why), Finding(None, why)
    read_open, write_open = _worked(reads), _worked(writes)
    rw = (
        Finding(True, f"reads outside were refused, writes outside worked: {_names(write_open)}")
        if not read_open and write_open
        else Finding(
            False,
            "reads and writes are checked alike" if not read_open else "reads outside worked too",
        )
    )
    wr = (
        Finding(True, f"writes outside were refused, reads outside worked: {_names(read_open)}")
        if not write_open and read_open
        else Finding(
            False,
            "writes and reads are checked alike" if not write_open else "writes outside worked too",
        )
    )
    return rw, wr


def _reasks(rows: list[Row], traffic: Traffic) -> Finding:
    if not traffic.asked_at_start:
        return Finding(None, "the server never asked for roots/list, so no notice was sent")
    if not traffic.notice_sent:
        return Finding(None, "the bridge sent no list_changed (see the log)")
    if not traffic.asked_after_notice:
        return Finding(False, "the server did not ask for roots/list again after list_changed")
    new = [r for r in rows if r.target_kind is TargetKind.NEW_ROOT]
    effect = ""
    if any(r.inside.outcome is Outcome.WORKED for r in new):
        effect = "; the new root took effect"
    elif new:
        effect = "; but the new root did not take effect in any tool"
    return Finding(True, "the server asked for roots/list again after list_changed" + effect)


def _keeps(rows: list[Row], traffic: Traffic, advisory: bool) -> Finding:
    if not traffic.empty_notice_sent or not traffic.asked_for_empty_list:
        return Finding(None, "the server never asked for the empty list")
    if advisory:
        return Finding(None, "the roots narrow nothing for this server")
    after = _of(rows, TargetKind.AFTER_EMPTY_LIST)
    if not after:
        return Finding(None, "no tool worked on the last root before the list was emptied")
    if _worked(after):
        return Finding(True, "the last root still worked after the empty list")
    return Finding(False, "the last root was refused after the empty list")


def _escape(rows: list[Row], kind: TargetKind, what: str, advisory: bool) -> Finding:
    """Whether *kind*'s target got through where the plain sibling was kept out."""
    if advisory:
        return Finding(None, "the roots narrow nothing for this server")
    guarded = {
        r.tool for r in _of(rows, TargetKind.SIBLING) if r.outside.outcome is Outcome.REFUSED
    }
    mine = [r for r in _of(rows, kind) if r.tool in guarded]
    if not mine:
        return Finding(
            None, f"no tool that kept the sibling package out was tried on {what} conclusively"
        )
    escaped = _worked(mine)
    if escaped:
        return Finding(
            True, f"{what} worked where the sibling package was refused: {_names(escaped)}"
        )
    return Finding(False, f"{what} was refused")
