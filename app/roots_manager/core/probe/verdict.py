"""The boundary probe's cells, rows and verdict.

A cell is one call and what came of it; a row pairs the same operation on a target inside the
root with its partner outside (:mod:`~roots_manager.core.probe.plan`). The verdict is derived
from paired cells only: a row whose inside cell did not work proves nothing about its partner
(the tool may be broken, or pointed at the wrong place) and is reported as inconclusive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from roots_manager.core.probe.plan import BOUNDARY_KINDS, Operation, TargetKind
from roots_manager.core.probe.reasons import READING_TEXT, Finding, Reading
from roots_manager.core.probe.reasons import Phase as P
from roots_manager.core.probe.reasons import Reason as R


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
    def reading_code(self) -> tuple[Reading, dict[str, str]]:
        """The row in a word or two: the code, and the outcome or detail that fills it."""
        if self.inside.outcome is not Outcome.WORKED:
            if self.inside.outcome is Outcome.NOT_RUN:
                return Reading.NOT_RUN, {"detail": self.inside.detail}
            if self.inside.outcome is Outcome.SERVER_GONE:
                return Reading.SERVER_WENT, {}
            if self.inside.outcome is Outcome.TIMED_OUT:
                return Reading.TIMED_OUT_INSIDE, {}
            return Reading.FAILED_INSIDE, {}
        if self.outside.outcome not in ANSWERED:
            return Reading.OUTSIDE_UNANSWERED, {"outcome": self.outside.outcome.value}
        return Reading.OUTSIDE, {"outcome": self.outside.outcome.value}

    @property
    def reading(self) -> str:
        """The row in words, in English."""
        code, params = self.reading_code
        return READING_TEXT[code].format(**params)

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
class Traffic:
    """What the bridge's log showed of the roots traffic around each change of the roots."""

    asked_at_start: bool
    notice_sent: bool
    asked_after_notice: bool
    empty_notice_sent: bool
    asked_for_empty_list: bool
    added_notice_sent: bool = False
    asked_after_added: bool = False
    """The server asked for (or, under 2026-07-28, was sent) the list with a second root added."""
    modern: bool = False
    """2026-07-28: no ``list_changed``, the roots travel with each request."""


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


def _of(rows: list[Row], *kinds: TargetKind) -> list[Row]:
    return [r for r in rows if r.target_kind in kinds and r.conclusive]


def _worked(rows: list[Row]) -> list[Row]:
    return [r for r in rows if r.outside.outcome is Outcome.WORKED]


def _names(rows: list[Row]) -> str:
    """The rows' tools and target kinds, a few of them: data for a reason, not a sentence."""
    shown = sorted({f"{r.tool} ({r.target_kind.value})" for r in rows})
    return ", ".join(shown[:4]) + (f", +{len(shown) - 4}" if len(shown) > 4 else "")


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
            f = Finding(None, f.code, f.params, f.phase, early=True)
        out[name] = f
    return out


def _verdict(rows: list[Row], traffic: Traffic, allowance_known: bool) -> dict[str, Finding]:
    boundary = _of(rows, *BOUNDARY_KINDS)
    siblings = _of(rows, TargetKind.SIBLING)
    out: dict[str, Finding] = {}
    inconclusive = len([r for r in rows if r.target_kind in BOUNDARY_KINDS and not r.conclusive])

    escaped = _worked(boundary)
    if not boundary:
        out["enforces_roots"] = Finding(None, R.NO_PAIRED_ROW, {"inconclusive": inconclusive})
    elif escaped:
        out["enforces_roots"] = Finding(False, R.OUTSIDE_WORKED, {"rows": _names(escaped)})
    elif not allowance_known:
        out["enforces_roots"] = Finding(None, R.REFUSED_ALLOWANCE_UNKNOWN)
    else:
        out["enforces_roots"] = Finding(
            True, R.ENFORCED, {"pairs": len(boundary), "inconclusive": inconclusive}
        )

    if not siblings:
        out["advisory"] = Finding(None, R.NO_SIBLING_ROW)
    elif len(_worked(siblings)) == len(siblings):
        out["advisory"] = Finding(True, R.SIBLING_WORKED)
    elif not allowance_known and not _worked(siblings):
        out["advisory"] = Finding(None, R.SIBLING_REFUSED_ALLOWANCE_UNKNOWN)
    else:
        out["advisory"] = Finding(False, R.SIBLING_REFUSED)
    advisory = out["advisory"].value is True

    out["first_root_only"] = _first_root_only(rows, traffic)
    out["reads_checked_writes_not"], out["writes_checked_reads_not"] = _by_operation(boundary)
    out["reasks_after_list_changed"] = _reasks(rows, traffic)
    out["keeps_roots_after_empty_list"] = _keeps(rows, traffic, advisory)
    out["symlink_escape"] = _escape(rows, TargetKind.SYMLINK, _SYMLINK, advisory)
    out["prefix_bug"] = _escape(rows, TargetKind.PREFIX_SIBLING, _PREFIX, advisory)
    return out


def _first_root_only(rows: list[Row], traffic: Traffic) -> Finding:
    """Whether a second root is refused: given from the start, or added to a changed list.

    The start decides alone when it is conclusive: two roots at once need no re-asking, so a
    server that never asks again is judged there like any other. The added root counts only
    when the server did ask for (or was sent) the list that holds it: a server that never
    re-asks still has its old roots, and its refusal of the added one says nothing of how
    many roots it honours.
    """
    if not traffic.asked_at_start:
        return Finding(None, R.ROOTS_NEVER_ASKED)
    start = _of(rows, TargetKind.SECOND_ROOT)
    added = _of(rows, TargetKind.ADDED_ROOT) if traffic.asked_after_added else []
    if start and not _worked(start):
        return Finding(True, R.SECOND_ROOT_REFUSED_AT_START, {"rows": _names(start)}, P.START)
    if added and not _worked(added):
        return Finding(True, R.ADDED_ROOT_REFUSED, {"rows": _names(added)}, P.ADDED)
    if start:
        if added:
            return Finding(False, R.SECOND_ROOT_REACHABLE_BOTH, phase=None)
        return Finding(False, R.SECOND_ROOT_REACHABLE, phase=P.START)
    return Finding(None, R.NO_SECOND_ROOT_ROW)


def _by_operation(boundary: list[Row]) -> tuple[Finding, Finding]:
    reads = [r for r in boundary if r.operation is Operation.READ]
    writes = [r for r in boundary if r.operation is Operation.WRITE]
    if not reads or not writes:
        why = R.NO_READ_ROW if not reads else R.NO_WRITE_ROW
        return Finding(None, why), Finding(None, why)
    read_open, write_open = _worked(reads), _worked(writes)
    rw = (
        Finding(True, R.READS_REFUSED_WRITES_WORKED, {"rows": _names(write_open)})
        if not read_open and write_open
        else Finding(False, R.CHECKED_ALIKE if not read_open else R.READS_WORKED_TOO)
    )
    wr = (
        Finding(True, R.WRITES_REFUSED_READS_WORKED, {"rows": _names(read_open)})
        if not write_open and read_open
        else Finding(False, R.CHECKED_ALIKE if not write_open else R.WRITES_WORKED_TOO)
    )
    return rw, wr


def _reasks(rows: list[Row], traffic: Traffic) -> Finding:
    new = [r for r in rows if r.target_kind is TargetKind.NEW_ROOT]
    took = any(r.inside.outcome is Outcome.WORKED for r in new)
    if traffic.modern:
        # no list_changed to re-ask after: what is left to see is whether the next request's
        # roots were the changed ones
        code = (
            R.NO_LIST_CHANGED_TOOK_EFFECT
            if took
            else R.NO_LIST_CHANGED_NO_EFFECT
            if new
            else R.NO_LIST_CHANGED
        )
        return Finding(None, code, phase=P.CHANGED if new else None)
    if not traffic.asked_at_start:
        return Finding(None, R.NEVER_ASKED_NO_NOTICE)
    if not traffic.notice_sent:
        return Finding(None, R.NO_NOTICE_SENT)
    if not traffic.asked_after_notice:
        code = R.DID_NOT_REASK_TOOK_EFFECT if took else R.DID_NOT_REASK
        return Finding(False, code, phase=P.CHANGED)
    code = R.REASKED_TOOK_EFFECT if took else R.REASKED_NO_EFFECT if new else R.REASKED
    return Finding(True, code, phase=P.CHANGED)


def _keeps(rows: list[Row], traffic: Traffic, advisory: bool) -> Finding:
    if not traffic.asked_for_empty_list:
        return Finding(None, R.NEVER_GOT_EMPTY_LIST)
    if advisory:
        return Finding(None, R.NARROWS_NOTHING)
    after = _of(rows, TargetKind.AFTER_EMPTY_LIST)
    if not after:
        return Finding(None, R.NO_LAST_ROOT_ROW)
    if _worked(after):
        return Finding(True, R.KEPT_AFTER_EMPTY, phase=P.EMPTIED)
    return Finding(False, R.REFUSED_AFTER_EMPTY, phase=P.EMPTIED)


ARGUMENTS_NAME = "ignores_roots_honours_arguments"
"""The finding of :func:`arguments_finding`, beside :data:`VERDICT_NAMES` (from a run of its
own, which the probe makes only when the roots narrowed nothing)."""


def arguments_finding(roots: dict[str, Finding], arguments: list[Row] | None) -> Finding:
    """Whether the server ignores ``roots/list`` but honours the folders of its command line:
    ``{roots}`` in its command line, rather than roots, keeps such a server to its grants.

    *roots* is the verdict of the probe's run (the scratch tree's top on the command line, the
    root through ``roots/list``); *arguments* the rows of a run of the same plan with the root
    as the command line's only folder and no roots capability (None: not run). The sibling
    rows decide, as they decide ``advisory``: a sibling refused when only the command line
    named the root is the command line's doing.
    """
    advisory = roots.get("advisory")
    if advisory is not None and advisory.value is False:
        return Finding(False, R.HONOURS_ROOTS)
    if arguments is None:
        return Finding(None, R.ARGUMENTS_UNTESTED)
    siblings = _of(arguments, TargetKind.SIBLING)
    if not siblings:
        return Finding(None, R.NO_ARGUMENTS_ROW)
    if advisory is None or advisory.value is None:
        return Finding(None, R.ROOTS_UNDECIDED)
    if _worked(siblings):
        return Finding(False, R.HONOURS_NEITHER)
    return Finding(True, R.IGNORES_ROOTS_HONOURS_ARGUMENTS)


_SYMLINK = (R.SYMLINK_UNTESTED, R.SYMLINK_ESCAPED, R.SYMLINK_REFUSED)
_PREFIX = (R.PREFIX_UNTESTED, R.PREFIX_ESCAPED, R.PREFIX_REFUSED)


def _escape(rows: list[Row], kind: TargetKind, codes: tuple[R, R, R], advisory: bool) -> Finding:
    """Whether *kind*'s target got through where the plain sibling was kept out."""
    if advisory:
        return Finding(None, R.NARROWS_NOTHING)
    untested, escaped_code, refused = codes
    guarded = {
        r.tool for r in _of(rows, TargetKind.SIBLING) if r.outside.outcome is Outcome.REFUSED
    }
    mine = [r for r in _of(rows, kind) if r.tool in guarded]
    if not mine:
        return Finding(None, untested)
    escaped = _worked(mine)
    if escaped:
        return Finding(True, escaped_code, {"rows": _names(escaped)}, P.START)
    return Finding(False, refused, phase=P.START)
