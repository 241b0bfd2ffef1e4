"""Traffic event records: what bridges write and the log views read.

Each bridge run appends JSON Lines to its own files under ``logs/``, named
``<run>-<part>.jsonl``; a part that grows past a size limit is closed and the next begins,
and only the newest parts of a run are kept. Every event is one JSON object with at least
``ts`` (ISO 8601 UTC), ``server``, ``session`` (the bridge run's id: the field kept its first
name, which readers of older logs know), ``kind``, and where they apply ``dir`` (who sent
the message to whom) and ``id`` (its JSON-RPC id).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, cast

from roots_manager.core.directory.layout import Layout
from roots_manager.core.directory.records import EventKind as EventKind
from roots_manager.core.directory.records import EventRecord
from roots_manager.core.log.denials import summary as denial_summary
from roots_manager.core.roots.uri import UriError, uri_to_path
from roots_manager.core.store.state import now_iso
from roots_manager.support.statefile import retrying
from roots_manager.support.translatable import QT_TRANSLATE_NOOP

# the kinds of event (the bus's contract names them: :class:`EventKind`), and by the
# module-level names their callers have used
RUN_START = EventKind.RUN_START
RUN_END = EventKind.RUN_END
HANDSHAKE = EventKind.HANDSHAKE
ROOTS_ASKED = EventKind.ROOTS_ASKED
ROOTS_ANSWERED = EventKind.ROOTS_ANSWERED
ROOTS_RELAYED = EventKind.ROOTS_RELAYED
LIST_CHANGED_SENT = EventKind.LIST_CHANGED_SENT
LIST_CHANGED_RELAYED = EventKind.LIST_CHANGED_RELAYED
LIST_CHANGED_ASKED = EventKind.LIST_CHANGED_ASKED
MRTR_RESOLVED = EventKind.MRTR_RESOLVED
CONSENT_WAIT = EventKind.CONSENT_WAIT
CONSENT_DECIDED = EventKind.CONSENT_DECIDED
RESTART_ASKED = EventKind.RESTART_ASKED
SERVER_RESTARTING = EventKind.SERVER_RESTARTING
SERVER_RESTARTED = EventKind.SERVER_RESTARTED
RESTART_FAILED = EventKind.RESTART_FAILED
NON_JSON = EventKind.NON_JSON
DENIAL = EventKind.DENIAL
ERROR = EventKind.ERROR
MESSAGE = EventKind.MESSAGE

KINDS = tuple(EventKind)

# directions
HOST_TO_SERVER = "host>server"
SERVER_TO_HOST = "server>host"
BRIDGE_TO_SERVER = "bridge>server"
BRIDGE_TO_HOST = "bridge>host"
DIRECTIONS = (HOST_TO_SERVER, SERVER_TO_HOST, BRIDGE_TO_SERVER, BRIDGE_TO_HOST)

DEFAULT_MAX_BYTES = 8 * 1024 * 1024
DEFAULT_KEEP_PARTS = 4

_PART = re.compile(r"^(?P<run>.+)-(?P<part>\d{4})\.jsonl$")


MAX_LOGGED_URIS = 1000
"""URIs one event lists at most (an answer's, a change's, the list before it), the first ones;
``<field>_count`` then says how many there were. An answer of 100,000 roots would otherwise be
a 10 MB line, written at every ``roots/list``, past a log part's size on its own: each answer
then started a new part and the log kept the last four answers and nothing else."""
URI_LISTS = ("uris", "previous")
"""The fields of an event that list URIs."""


def event(kind: EventKind, server: str, run: str, **fields: Any) -> EventRecord:
    """A new event record stamped with the current time; fields that are None are left out,
    and lists of URIs longer than :data:`MAX_LOGGED_URIS` are cut to it. Its fields are the
    bus's contract's (:class:`~roots_manager.core.directory.records.EventRecord`; a test finds
    every field the app writes there)."""
    rec: dict[str, Any] = {"ts": now_iso(), "server": server, "session": run, "kind": kind}
    rec.update({k: v for k, v in fields.items() if v is not None})
    for name in URI_LISTS:
        listed = rec.get(name)
        if type(listed) is list and len(listed) > MAX_LOGGED_URIS:
            rec[name] = listed[:MAX_LOGGED_URIS]
            rec[name + "_count"] = len(listed)
    return cast(EventRecord, rec)


_LINE = json.JSONEncoder(ensure_ascii=False, default=str)
"""The encoder of an event's line, made once (``json.dumps`` with these options makes one at each
call: 0.9 us of each event, two of which every roots/list answered writes)."""


class EventWriter:
    """Appends one bridge run's events to private, size-rotated JSON Lines files."""

    def __init__(
        self,
        layout: Layout,
        run: str,
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        keep_parts: int = DEFAULT_KEEP_PARTS,
        on_rotate: Callable[[], None] | None = None,
    ) -> None:
        self.dir = layout.logs
        self.run = run
        self.max_bytes = max_bytes
        self.keep_parts = keep_parts
        self.on_rotate = on_rotate
        """Called after each rotation (the place to keep all runs' logs within limits)."""
        self.part = 0
        self._file: IO[bytes] | None = None
        self._size = 0
        self._open()

    @property
    def path(self) -> Path:
        return self.dir / f"{self.run}-{self.part:04d}.jsonl"

    def _open(self) -> None:
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self._file = os.fdopen(fd, "ab")
        self._size = self._file.tell()

    def write(self, record: EventRecord) -> None:
        """Append *record* and flush it, so that readers see it at once."""
        # backslashreplace: a command line holding a file name that is not UTF-8 (lone
        # surrogates) is written as JSON escapes instead of stopping the bridge
        line = _LINE.encode(record).encode("utf-8", "backslashreplace") + b"\n"
        if self._file is None:
            self._open()  # the last rotation could not open the next part: try again
        elif self._size and self._size + len(line) > self.max_bytes:
            self._rotate()
        assert self._file is not None
        self._file.write(line)
        self._file.flush()
        self._size += len(line)

    def _rotate(self) -> None:
        assert self._file is not None
        # no file until the next part opens: a refused part (a full disk, a folder made
        # read-only) must not leave a closed file to be written to
        file, self._file = self._file, None
        file.close()
        self.part += 1
        old = self.part - self.keep_parts
        if old >= 0:
            # a reader (the app) may have it open: Windows then refuses for a moment, and a
            # part that stays is swept with the old logs rather than stop the log
            with contextlib.suppress(OSError):
                retrying((self.dir / f"{self.run}-{old:04d}.jsonl").unlink)
        self._open()
        if self.on_rotate is not None:
            self.on_rotate()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def log_files(layout: Layout) -> list[Path]:
    """Every event file, oldest run first, each run's parts in order."""
    try:
        names = [p for p in layout.logs.iterdir() if _PART.match(p.name)]
    except OSError:
        return []
    return sorted(names, key=lambda p: p.name)


def run_log_files(layout: Layout, run: str) -> list[Path]:
    """The event files of one bridge run, its parts in order."""
    return [p for p in log_files(layout) if run_of(p) == run]


def run_of(path: Path) -> str | None:
    """The run id an event file belongs to."""
    m = _PART.match(path.name)
    return m.group("run") if m else None


def read_events(path: Path, offset: int = 0) -> tuple[list[EventRecord], int]:
    """Read the complete events in *path* from byte *offset*; returns them and the new offset.

    A line still being written (no newline yet) is left for the next read; a line that is not a
    JSON object is skipped. The records are as written, not checked against the contract: a
    line written by hand, or by a newer bridge, may lack a field or hold another kind.
    """
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read()
    except OSError:
        return [], offset
    end = data.rfind(b"\n") + 1
    out: list[EventRecord] = []
    for line in data[:end].splitlines():
        with contextlib.suppress(ValueError):
            rec = json.loads(line)
            if isinstance(rec, dict):
                out.append(cast(EventRecord, rec))
    return out, offset + end


def iter_events(layout: Layout) -> Iterator[EventRecord]:
    """Every event in every file, file by file."""
    for path in log_files(layout):
        events, _ = read_events(path)
        yield from events


# Every template summary_parts() returns, so that a user interface can translate them
# (the GUI lists the same strings for Qt's translation tools; a test keeps the two equal).
SUMMARY_TEMPLATES = (
    QT_TRANSLATE_NOOP("LogSummary", "started {command} (pid {pid}, {mode})"),
    QT_TRANSLATE_NOOP("LogSummary", "ended, exit code {code}"),
    QT_TRANSLATE_NOOP("LogSummary", "ended, exit code {code} ({reason})"),
    QT_TRANSLATE_NOOP("LogSummary", "protocol {protocol}"),
    QT_TRANSLATE_NOOP("LogSummary", "protocol {protocol}, roots capability injected"),
    QT_TRANSLATE_NOOP(
        "LogSummary", "the host's initialized is held until the server has answered initialize"
    ),
    QT_TRANSLATE_NOOP("LogSummary", "the host's handshake, no protocol version named yet"),
    QT_TRANSLATE_NOOP(
        "LogSummary", "the host's first request waited {ms} ms for the server's roots"
    ),
    QT_TRANSLATE_NOOP(
        "LogSummary",
        "the host's first request waited {ms} ms; the server did not ask for its roots",
    ),
    QT_TRANSLATE_NOOP("LogSummary", "the server asked for its roots"),
    QT_TRANSLATE_NOOP("LogSummary", "the server asked for its roots in a batch"),
    QT_TRANSLATE_NOOP("LogSummary", "the server asked for its roots (held until you decide)"),
    QT_TRANSLATE_NOOP("LogSummary", "roots/list relayed to the host"),
    QT_TRANSLATE_NOOP("LogSummary", "no roots"),
    QT_TRANSLATE_NOOP("LogSummary", "1 root: {paths}"),
    QT_TRANSLATE_NOOP("LogSummary", "{count} roots: {paths}"),
    QT_TRANSLATE_NOOP("LogSummary", "roots changed, now no roots"),
    QT_TRANSLATE_NOOP("LogSummary", "roots changed, now 1 root: {paths}"),
    QT_TRANSLATE_NOOP("LogSummary", "roots changed, now {count} roots: {paths}"),
    QT_TRANSLATE_NOOP("LogSummary", "list_changed relayed"),
    QT_TRANSLATE_NOOP("LogSummary", "list_changed sent on request"),
    QT_TRANSLATE_NOOP(
        "LogSummary",
        "list_changed not sent on request: the server has not fetched the list since the last notice",
    ),
    QT_TRANSLATE_NOOP(
        "LogSummary", "list_changed not sent on request: the handshake is not complete"
    ),
    QT_TRANSLATE_NOOP(
        "LogSummary", "list_changed not sent on request: protocol 2026-07-28 has no list_changed"
    ),
    QT_TRANSLATE_NOOP("LogSummary", "list_changed not sent on request: the bridge only observes"),
    QT_TRANSLATE_NOOP(
        "LogSummary", "waiting up to {timeout} s for your decision in the desktop app"
    ),
    QT_TRANSLATE_NOOP("LogSummary", "the decision arrived"),
    QT_TRANSLATE_NOOP("LogSummary", "denied: answered with no folder"),
    QT_TRANSLATE_NOOP("LogSummary", "no decision in time: answered with what is granted"),
    QT_TRANSLATE_NOOP(
        "LogSummary", "consent changed ({reason}): restarting the server, the host's messages wait"
    ),
    QT_TRANSLATE_NOOP(
        "LogSummary",
        "restarted for a consent change: pid {old} is now pid {new}; the host waited {ms} ms",
    ),
    QT_TRANSLATE_NOOP("LogSummary", "the server could not be restarted: {why}"),
    QT_TRANSLATE_NOOP("LogSummary", "restart asked: restarting the server"),
    QT_TRANSLATE_NOOP(
        "LogSummary", "restart asked: a restart is under way, the server starts afresh"
    ),
    QT_TRANSLATE_NOOP(
        "LogSummary",
        "restart asked, not done: this bridge cannot restart its server (turn on restart on "
        "revoke or confinement, from its next start)",
    ),
    QT_TRANSLATE_NOOP("LogSummary", "restarting the server on request, the host's messages wait"),
    QT_TRANSLATE_NOOP(
        "LogSummary", "restarted on request: pid {old} is now pid {new}; the host waited {ms} ms"
    ),
    QT_TRANSLATE_NOOP("LogSummary", "{bytes} bytes that are not {reason}"),
    QT_TRANSLATE_NOOP("LogSummary", "response"),
    QT_TRANSLATE_NOOP("LogSummary", "{text}"),
)


_ASKED_OUTCOMES = {
    "sent": "list_changed sent on request",
    "not-fetched": "list_changed not sent on request: the server has not fetched the list since "
    "the last notice",
    "handshake": "list_changed not sent on request: the handshake is not complete",
    "no-notice": "list_changed not sent on request: protocol 2026-07-28 has no list_changed",
    "observe": "list_changed not sent on request: the bridge only observes",
}


_RESTART_OUTCOMES = {
    "restarting": "restart asked: restarting the server",
    "under-way": "restart asked: a restart is under way, the server starts afresh",
    "not-restartable": "restart asked, not done: this bridge cannot restart its server (turn on "
    "restart on revoke or confinement, from its next start)",
}


def shown_path(uri: object) -> str:
    """The folder a root's URI names, decoded as the user knows it; the URI itself when it does
    not name a local folder (a server's own odd URI is shown as it came)."""
    try:
        return uri_to_path(str(uri))
    except UriError:
        return str(uri)


def summary_parts(rec: EventRecord) -> tuple[str, dict[str, Any]]:
    """The summary of an event as a template (one of `SUMMARY_TEMPLATES`) and its values."""
    kind = rec.get("kind")
    if kind == EventKind.RUN_START:
        return "started {command} (pid {pid}, {mode})", {
            "command": " ".join(map(str, rec.get("command", []))),
            "pid": rec.get("pid"),
            "mode": rec.get("mode", "managed"),
        }
    if kind == EventKind.RUN_END:
        if rec.get("reason"):
            return "ended, exit code {code} ({reason})", {
                "code": rec.get("exit_code"),
                "reason": rec["reason"],
            }
        return "ended, exit code {code}", {"code": rec.get("exit_code")}
    if kind == EventKind.HANDSHAKE:
        if rec.get("first_call_held"):
            if rec.get("roots_answered"):
                return "the host's first request waited {ms} ms for the server's roots", {
                    "ms": rec.get("ms", "?")
                }
            return (
                "the host's first request waited {ms} ms; the server did not ask for its roots",
                {"ms": rec.get("ms", "?")},
            )
        if rec.get("held"):
            # notifications/initialized, early: the event has no protocol of its own
            return "the host's initialized is held until the server has answered initialize", {}
        if not rec.get("protocol"):
            return "the host's handshake, no protocol version named yet", {}
        if rec.get("injected"):
            return "protocol {protocol}, roots capability injected", {"protocol": rec["protocol"]}
        return "protocol {protocol}", {"protocol": rec["protocol"]}
    if kind == EventKind.ROOTS_ASKED:
        if rec.get("held"):
            return "the server asked for its roots (held until you decide)", {}
        if rec.get("batch"):
            return "the server asked for its roots in a batch", {}
        return "the server asked for its roots", {}
    if kind == EventKind.ROOTS_RELAYED:
        return "roots/list relayed to the host", {}
    if kind in (EventKind.ROOTS_ANSWERED, EventKind.MRTR_RESOLVED, EventKind.LIST_CHANGED_SENT):
        uris = rec.get("uris")
        prefix = "roots changed, now " if kind == EventKind.LIST_CHANGED_SENT else ""
        if not isinstance(uris, list) or not uris:
            return prefix + "no roots", {}
        # the folders as the user knows them; the URIs stay in the event's JSON
        paths = ", ".join(shown_path(u) for u in uris)
        count = rec.get("uris_count")
        if not isinstance(count, int) or count <= len(uris):
            count = len(uris)
        else:  # the event lists the first ones (MAX_LOGGED_URIS)
            paths += ", …"
        if count == 1:
            return prefix + "1 root: {paths}", {"paths": paths}
        return prefix + "{count} roots: {paths}", {"count": count, "paths": paths}
    if kind == EventKind.LIST_CHANGED_RELAYED:
        return "list_changed relayed", {}
    if kind == EventKind.LIST_CHANGED_ASKED and rec.get("outcome") in _ASKED_OUTCOMES:
        return _ASKED_OUTCOMES[rec["outcome"]], {}
    if kind == EventKind.CONSENT_WAIT and rec.get("timeout") is not None:
        return "waiting up to {timeout} s for your decision in the desktop app", {
            "timeout": f"{rec['timeout']:g}"
            if isinstance(rec["timeout"], float)
            else rec["timeout"]
        }
    if kind == EventKind.CONSENT_DECIDED and rec.get("outcome") in ("decided", "denied", "timeout"):
        if rec["outcome"] == "decided":
            return "the decision arrived", {}
        if rec["outcome"] == "denied":
            return "denied: answered with no folder", {}
        return "no decision in time: answered with what is granted", {}
    if kind == EventKind.RESTART_ASKED and rec.get("outcome") in _RESTART_OUTCOMES:
        return _RESTART_OUTCOMES[rec["outcome"]], {}
    if kind == EventKind.SERVER_RESTARTING and rec.get("request") is not None:
        return "restarting the server on request, the host's messages wait", {}
    if kind == EventKind.SERVER_RESTARTED and rec.get("request") is not None:
        return (
            "restarted on request: pid {old} is now pid {new}; the host waited {ms} ms",
            {
                "old": rec.get("old_pid", "?"),
                "new": rec.get("new_pid", "?"),
                "ms": rec.get("held_ms", "?"),
            },
        )
    if kind == EventKind.SERVER_RESTARTING:
        return "consent changed ({reason}): restarting the server, the host's messages wait", {
            "reason": rec.get("reason", "?")
        }
    if kind == EventKind.SERVER_RESTARTED:
        return (
            "restarted for a consent change: pid {old} is now pid {new}; the host waited {ms} ms",
            {
                "old": rec.get("old_pid", "?"),
                "new": rec.get("new_pid", "?"),
                "ms": rec.get("held_ms", "?"),
            },
        )
    if kind == EventKind.RESTART_FAILED:
        return "the server could not be restarted: {why}", {"why": rec.get("message", "?")}
    if kind == EventKind.NON_JSON:
        return "{bytes} bytes that are not {reason}", {
            "bytes": rec.get("bytes", "?"),
            "reason": rec.get("reason", "JSON"),
        }
    if kind == EventKind.DENIAL:
        return "{text}", {"text": denial_summary(rec)}
    if kind == EventKind.MESSAGE:
        if rec.get("method"):
            return "{text}", {"text": rec["method"]}
        if "id" in rec:
            return "response", {}
    return "{text}", {"text": str(rec.get("message", ""))}


def summarize(rec: EventRecord) -> str:
    """A one-line human summary of an event, in English (front ends translate `summary_parts`)."""
    template, values = summary_parts(rec)
    return template.format(**values)
