"""What crosses the file bus beside the store: the records of the event logs, the live markers and
the requests to a run, typed here once. This module is the bus's contract; the store has its own
(:mod:`roots_manager.core.store.schema`).

A bridge, the desktop app and the command line of one version read the files of another (an
older app reads the markers of a newer bridge, a newer ``roots-manager log`` reads an older
bridge's log), so the records change only by adding: a field is never renamed, retyped or
given another meaning, a reader ignores a field it does not know, and an optional field may be
missing. :data:`RECORDS_VERSION` is the version of what is written here; a change that a reader
of this version would misread raises it, and the records then carry it. Their JSON Schemas
(:func:`json_schema`) are in the manual's page on the file bus (``docs/file-bus.md``, which a
test holds to this module).

It imports ``typing`` and ``enum`` alone of note: the bridge loads it with the event log, after
its server has started.
"""

from __future__ import annotations

import types
import typing
from enum import StrEnum
from typing import Annotated, Any, Literal, Required, TypedDict, Union

RECORDS_VERSION = 1
"""The version of the records below; the records written so far carry none and are version 1."""

JsonRpcId = Any
"""A JSON-RPC id as a peer sent it: a string or a number, or anything a broken peer sends."""


class EventKind(StrEnum):
    """What an event tells (its ``kind``). A member is its string: it is written as its value and
    equals it, so a record read back, whose ``kind`` is a plain string, compares equal to it.
    A bridge run starts and ends as ``session-*``: the kinds keep the names older logs and their
    readers know."""

    RUN_START = "session-start"
    RUN_END = "session-end"
    HANDSHAKE = "handshake"
    ROOTS_ASKED = "roots-list-asked"
    ROOTS_ANSWERED = "roots-list-answered"
    ROOTS_RELAYED = "roots-list-relayed"
    LIST_CHANGED_SENT = "list-changed-sent"
    LIST_CHANGED_RELAYED = "list-changed-relayed"
    LIST_CHANGED_ASKED = "list-changed-asked"
    """The user asked for a list_changed though nothing changed; ``outcome`` says what was
    done."""
    MRTR_RESOLVED = "mrtr-resolved"
    CONSENT_WAIT = "consent-wait"
    CONSENT_DECIDED = "consent-decided"
    SERVER_RESTARTING = "server-restarting"
    """A consent change (or the user, ``request`` set) needs a restart: the host's messages are
    held from now on."""
    SERVER_RESTARTED = "server-restarted"
    """The bridge restarted the server behind the host's back, for a consent change (or on the
    user's request, ``request`` set)."""
    RESTART_FAILED = "restart-failed"
    NON_JSON = "non-json"
    ERROR = "error"
    MESSAGE = "message"
    DENIAL = "denial"
    """A confined server was refused something (:mod:`roots_manager.core.log.denials`)."""
    RESTART_ASKED = "restart-asked"
    """The user asked for the server to be restarted; ``outcome`` says what was done."""


class RequestAtRefusal(TypedDict, total=False):
    """A request of the host's that the server had when it was refused (a denial's
    ``requests``)."""

    id: JsonRpcId
    method: Required[str]
    tool: str
    """For ``tools/call``: the tool called."""
    argument: str
    """The argument that named the refused path, when one did."""


class EventRecord(TypedDict, total=False):
    """One line of a bridge run's event log (``logs/<run>-<part>.jsonl``): the four fields every
    event has, and those of its kind (:mod:`roots_manager.core.log.events` names the kinds and
    writes the records, :mod:`roots_manager.core.log.denials` makes a denial's)."""

    ts: Required[str]
    """When, ISO 8601 UTC."""
    server: Required[str]
    session: Required[str]
    """The bridge run's id (the field keeps its first name, which readers of older logs know)."""
    kind: Required[Annotated[str, EventKind]]
    """What happened: one of :class:`EventKind`'s values. A record read back holds it as a plain
    string (which equals the member), and a newer bridge's log may hold a kind this version does
    not know."""
    dir: Literal["host>server", "server>host", "bridge>server", "bridge>host"]
    """Who sent the message to whom."""
    id: JsonRpcId
    method: str
    message: str
    reason: str
    outcome: str
    """What was done about a request of the user's (a restart, a list_changed asked for)."""
    by: str
    """Who asked: the app, the command line."""
    request: str
    """The id of the user's request (a restart, a list_changed)."""
    # the roots told
    uris: list[str]
    uris_count: int
    """How many URIs there were, when :data:`uris` was cut to the logged maximum."""
    previous: list[str]
    previous_count: int
    keys: list[str]
    key: str
    mrtr: bool
    """Asked inside a 2026-07-28 round (``input_required``), not as ``roots/list``."""
    host_id: JsonRpcId
    retried_as: JsonRpcId
    held: Any
    """The answer was held (for consent, or until the server had its roots)."""
    us: int
    """Microseconds the answer took."""
    ms: int
    timeout: Any
    # the handshake
    protocol: str
    negotiated: bool
    injected: Any
    capabilities: Any
    first_call_held: bool
    roots_answered: bool
    # the run, its start and its end
    command: list[str]
    pid: int
    server_pid: int
    mode: Literal["managed", "observe"]
    version: str
    confined: bool
    restartable: bool
    folders: list[str] | None
    exit_code: int
    returncode: int | None
    stopped_by: Any
    notices: Any
    # a restart behind the host's back
    old_pid: int
    new_pid: int
    replayed: Any
    held_ms: Any
    drained_ms: Any
    cut: int
    released: Any
    attempts: int
    before: Any
    after: Any
    # a line that was not relayed as it came
    bytes: int
    batch: bool
    blocked: bool
    relayed: Any
    error: Any
    # a confined server's refusal (kind ``denial``)
    path: str
    folder: str
    operation: Literal["read", "write", "list", "execute", "create", "remove", "connect"]
    process: str
    at: str
    call: str
    named: str
    """The path the call named, when it reached the refused one through a link."""
    folded: int
    lost: int
    """Refusals the supervisor could not tell before this one (its pipe was full)."""
    protected: bool
    waits: float
    during: Literal["start-up", "request", "between"]
    requests: list[RequestAtRefusal]
    domain: str
    """The domain the confined server's proxy refused to connect to (with :data:`port`)."""
    port: int
    dropped: int
    """Refusals not logged before this one, past the rate a run logs them at."""
    # a read that waited for the user's answer
    answered: str
    served: bool


class BridgeMarkerRecord(TypedDict, total=False):
    """A live bridge run's marker (``live/bridge-<run>.json``), written by the run, removed at
    its end (:class:`roots_manager.core.runs.live.BridgeMarker` is the run's view of it)."""

    session: Required[str]
    """The run's id (the field keeps its first name: older apps read it)."""
    server: Required[str]
    pid: Required[int]
    started_at: Required[str]
    command: Required[list[str]]
    mode: str
    protocol: str | None
    log_file: str | None
    server_pid: int | None
    last_roots_list_at: str | None
    last_list_changed_at: str | None
    stale: bool
    confined: bool
    restartable: bool
    restarts: int
    reachable: list[str] | None
    process_started: float | None


class AppMarkerRecord(TypedDict):
    """The desktop app's marker (``live/app.json``): while it runs, bridges wait for consent."""

    pid: int
    process_started: float | None


class AnswererMarkerRecord(TypedDict):
    """A process that answers questions (``live/answerer-<pid>.json``: ``roots-manager questions
    --follow``): while one runs, or the app does, a confined server's read outside its grants made
    for a host's request waits for the answer."""

    pid: int
    process_started: float | None


class LearningMarkerRecord(TypedDict):
    """A learning of a server under way (``live/learning-<key>.json``)."""

    server: str
    pid: int
    process_started: float | None
    started: float
    before: bool | None
    """The server's confinement setting before learning turned it on (None: not decided)."""


class RunRequestRecord(TypedDict, total=False):
    """A request to one bridge run (``notify-<run>.json``, ``restart-<run>.json``,
    ``deny-<run>.json``), taken and deleted by the run it names."""

    by: str
    """Who asks: shown in the run's log."""
    id: str
    """The request's id, which the run's log names as it acts on it."""


AnswerRecord = TypedDict(
    "AnswerRecord",
    {"path": str, "domain": str, "for": Literal["once", "run"], "by": str, "id": str},
    total=False,
)
"""One answer of the user to a question of one bridge run, with nothing saved: the folder or
file (``path``) whose reads the run's supervisor serves, or the domain (``domain``) its proxy
connects to, for the calls waiting now (``once``) or until the server ends (``run``); who
answered and the answer's id. (``for`` is a keyword: hence the functional form.)"""


class AllowRequestRecord(TypedDict, total=False):
    """The answers to one bridge run's questions (``allow-<run>.json``), each added under the
    store's lock, taken and deleted by the run it names."""

    allow: list[AnswerRecord]


RECORDS: dict[str, type] = {
    "event": EventRecord,
    "bridge-marker": BridgeMarkerRecord,
    "app-marker": AppMarkerRecord,
    "answerer-marker": AnswererMarkerRecord,
    "learning-marker": LearningMarkerRecord,
    "run-request": RunRequestRecord,
    "allow-request": AllowRequestRecord,
}
"""Every record of the bus, by the name its schema goes by."""

_SCALARS: dict[object, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


def _schema_of(annotation: object) -> dict[str, Any]:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is Required:
        return _schema_of(args[0])
    if origin is Annotated:
        # a string of a set known to this version, which a newer one may add to
        # (Annotated[str, SomeStrEnum]): named as examples, which validate nothing
        known = [m for m in args[1:] if isinstance(m, type) and issubclass(m, StrEnum)]
        if known:
            return {"type": "string", "examples": [member.value for member in known[0]]}
        return _schema_of(args[0])
    if annotation is Any:
        return {}
    if annotation is type(None):
        return {"type": "null"}
    if annotation in _SCALARS:
        return {"type": _SCALARS[annotation]}
    if origin is Literal:
        return {"enum": list(args)}
    if origin is list:
        return {"type": "array", "items": _schema_of(args[0])}
    if origin in (Union, types.UnionType):
        return {"anyOf": [_schema_of(a) for a in args]}
    if typing.is_typeddict(annotation):
        return json_schema(annotation)  # type: ignore[arg-type]
    raise TypeError(f"no JSON Schema for {annotation!r}")


def json_schema(record: type) -> dict[str, Any]:
    """The JSON Schema of *record*, one of the TypedDicts above: its fields typed, the required
    ones listed, and any other field allowed (a newer writer may add one)."""
    hints = typing.get_type_hints(record, include_extras=True)
    required = sorted(record.__required_keys__)  # type: ignore[attr-defined]
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {name: _schema_of(hint) for name, hint in hints.items()},
    }
    if required:
        schema["required"] = required
    return schema
