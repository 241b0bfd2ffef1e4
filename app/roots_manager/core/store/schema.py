"""What each field of the store document may hold: its type, its range and its form.

The store is only ever written from a :class:`~roots_manager.core.store.state.State`, so a value that
breaks these rules was written by hand or damaged. It is refused when the file is read, with the
field named, rather than failing later in whatever first touches it: a relative root path would
otherwise reach the bridge's answer, and ``true`` would pass for the schema version 1.
"""

from __future__ import annotations

import os
import re
import reprlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from roots_manager.core.roots import uri as uris

SCHEMA_VERSION = 14
"""2 adds each root's real path when it was added (``real``); 3 adds confinement (a server's
``confine``, ``allow_read`` and ``allow_write``, a grant's ``read_only``), which an older version
must not read as if absent: it would start a confined server unconfined and silently; 4 adds a
server's ``restart_on_revoke``, which an older version would not honour; 5 adds the user's last
consent decision on a server and its time (``decision``, ``decided_at``), which an older version
would refuse as unknown fields; 6 adds the Unix sockets a confined server may connect to
(``allow_socket``), which an older version would refuse as an unknown field; 7 adds a confined
server's blocked network (``block_network``), which an older version would refuse rather than
start the server with the network open; 8 lets a server's ``confine`` be null (not decided:
its first start decides, confined by default where the machine can confine) and adds the
setting that says so (``confine_new``), which an older version would refuse or read as off;
9 adds a grant's exceptions (``read_only_inside``, ``hidden_inside``: places inside its root a
confined server may not write, or read) and a server's ``max_processes``, which an older
version would refuse as unknown fields rather than start the server with them writable; 10 adds
whether a root's folder was a mount point when added (``mount_point``), so that the folder an
unmount leaves in its place is withheld, which an older version would refuse as an unknown
field; 11 adds how long a confined server's read outside its grants waits for the user's answer
(``ask_seconds``), which an older version would refuse as an unknown field; 12 lets it be 0 (never
asks: asking is on by default, for :data:`~roots_manager.core.servers.defaults.ASK_SECONDS_DEFAULT`,
where it is absent), which an older version would refuse as out of range; 13 adds the domains a
confined server's network is limited to (``network_domains``), which an older version would
refuse rather than start the server with the whole network open; 14 keeps a server's network
mode apart from its domains (``network``: ``allowed``, ``blocked`` or ``domains``;
``network_domains`` always a list, kept while the network is allowed or blocked so that limiting
it again brings them back), which an older version would refuse as an unknown field, and must
not read without it: it would take a list kept for later for a limit in force. 1 to 13 are read
as they are (no root known to be a mount point before 10), a server's confinement in them
decided (off when absent, before 8), and its network blocked where ``block_network`` says so,
else limited to its ``network_domains`` where they are not null, else allowed."""


MAX_COUNTER = 2**53 - 1
"""The largest revision read: every JSON reader keeps integers up to here exact."""

MAX_ID_LENGTH = 128
"""Ids are made by Roots Manager (12 hexadecimal digits, or a time and 8 digits): far shorter."""


class SchemaError(ValueError):
    """A store document that does not have the expected shape."""


class NewerSchemaError(SchemaError):
    """A store written by a newer Roots Manager."""

    def __init__(self, version: int) -> None:
        super().__init__(
            f"it was written by a newer Roots Manager (store schema {version}; "
            f"this version reads schema {SCHEMA_VERSION})"
        )
        self.version = version


Check = Callable[[object], str | None]
"""Says why a value is refused (completing "<field> ..." or "<field>[i] ..."), or None."""

Column = Callable[[list[Any]], bool]
"""Whether every value of a column (one field of many objects) passes a :data:`Check`, judged
with a few calls that loop in C: True only if each value would pass; False when one may not
(the values are then checked one by one, and the first bad one named)."""

_COLUMNS: dict[Check, Column] = {}
"""The :data:`Column` form of each check that has one (see :func:`column`)."""


def _with_column(check: Check, many: Column) -> Check:
    _COLUMNS[check] = many
    return check


def column(check: Check) -> Column:
    """The :data:`Column` form of *check*: its own, or *check* asked of each value."""
    many = _COLUMNS.get(check)
    if many is not None:
        return many
    return lambda values: all(check(v) is None for v in values)


def _all_of(values: list[Any], kind: type) -> bool:
    """Whether every one of *values* is exactly of type *kind* (as :func:`json.loads` makes)."""
    return set(map(type, values)) <= {kind}


_SHORT = reprlib.Repr()
_SHORT.maxstring = 80
_SHORT.maxother = 80


def _kind(value: object) -> str:
    """The JSON name of *value*'s type, as a reader of the file would call it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object"


def shown(value: object) -> str:
    """*value* for an error message: short, whatever its size or depth in the file."""
    if isinstance(value, list | dict):
        return _kind(value)
    return _SHORT.repr(value)


def text(value: object) -> str | None:
    """Any string."""
    return None if isinstance(value, str) else f"is {_kind(value)}, not a string"


_with_column(text, lambda values: _all_of(values, str))


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""The characters of Unicode's categories Cc (controls) and Cs (surrogates): both are fixed
ranges, and one search of the string is far cheaper than a category look-up per character
(a store of 30,000 roots holds 60,000 ids)."""


def _has_control(value: str) -> bool:
    return _CONTROL.search(value) is not None


def identifier(value: object) -> str | None:
    """An id Roots Manager made: a short string without control characters."""
    if not isinstance(value, str):
        return text(value)
    if not value or len(value) > MAX_ID_LENGTH:
        return f"is not an id (1 to {MAX_ID_LENGTH} characters): {shown(value)}"
    if _has_control(value):
        return f"is not an id (it holds control characters): {shown(value)}"
    return None


def _identifiers(values: list[Any]) -> bool:
    # one search of them all: a control character in the whole is one in one of them
    return (
        _all_of(values, str)
        and (not values or (min(map(len, values)) >= 1 and max(map(len, values)) <= MAX_ID_LENGTH))
        and not _has_control("".join(values))
    )


_with_column(identifier, _identifiers)


def counter(value: object) -> str | None:
    """A whole number from 0 to :data:`MAX_COUNTER`."""
    # bool is an int in Python, but true is no revision in the file
    if isinstance(value, float):
        return f"is not a whole number: {shown(value)}"
    if not isinstance(value, int) or isinstance(value, bool):
        return f"is {_kind(value)}, not a whole number"
    if not 0 <= value <= MAX_COUNTER:
        return f"is out of range (0 to {MAX_COUNTER}): {shown(value)}"
    return None


def flag(value: object) -> str | None:
    """true or false."""
    return None if isinstance(value, bool) else f"is {_kind(value)}, not true or false"


_with_column(flag, lambda values: _all_of(values, bool))


_NOW_ISO = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.\d{3})?Z")
"""What ``now_iso`` writes: checked without :mod:`datetime`, which a bridge never loads else."""
_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


_USUAL = re.compile(
    r"(?!0000)\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d"
    r"(?:\.\d{3})?Z",
    re.ASCII,
)
"""What ``now_iso`` writes, its ranges in the pattern: most times are then judged without a
number made (a store of 30,000 roots holds 60,000 times; this took a fifth of reading it)."""


def _written_by_now_iso(value: str) -> bool:
    """Whether *value* is a real time in exactly the form ``now_iso`` writes."""
    usual = _USUAL.fullmatch(value)
    if usual is not None:
        month, day = usual.group(1, 2)
        if day <= "28":
            return True  # in every month of every year
    m = _NOW_ISO.fullmatch(value)
    if m is None:
        return False
    year, month, day, hour, minute, second = (int(g) for g in m.groups())
    if not (year >= 1 and 1 <= month <= 12 and 1 <= day <= _DAYS[month - 1]):
        return False
    if not (hour < 24 and minute < 60 and second < 60):
        return False
    if (month, day) == (2, 29):
        return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return True


def timestamp(value: object) -> str | None:
    """An ISO 8601 time with its time zone, as ``now_iso`` writes it."""
    if not isinstance(value, str):
        return text(value)
    if _written_by_now_iso(value):
        return None
    from datetime import datetime  # any other form: as datetime reads ISO 8601

    try:
        stamp = datetime.fromisoformat(value)
    except ValueError:
        return f"is not an ISO 8601 time: {shown(value)}"
    if stamp.tzinfo is None:
        return f"is a time without its time zone: {shown(value)}"
    return None


_USUAL_ANY_MONTH = re.compile(
    r"(?!0000)\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d"
    r"(?:\.\d{3})?Z",
    re.ASCII,
)
""":data:`_USUAL` with the days every month has (1 to 28): a match is a real time."""


def _timestamps(values: list[Any]) -> bool:
    if not _all_of(values, str):
        return False
    matches = list(map(_USUAL_ANY_MONTH.fullmatch, values))
    if all(matches):
        return True
    return all(timestamp(v) is None for v, m in zip(values, matches, strict=True) if m is None)


_with_column(timestamp, _timestamps)


def fingerprint(value: object) -> str | None:
    """A command fingerprint: a SHA-256 digest in lowercase hexadecimal."""
    if isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value):
        return None
    return f"is not a command fingerprint (64 lowercase hexadecimal digits): {shown(value)}"


def command(value: object) -> str | None:
    """A command line: a list of one or more strings."""
    if not isinstance(value, list) or not value:
        return f"is {shown(value)}, not a command line (a list of strings)"
    for i, arg in enumerate(value):
        if not isinstance(arg, str):
            return f"[{i}] is {_kind(arg)}, not a string"
    return None


def root_path(value: object) -> str | None:
    """A root's folder: absolute, without NUL, in the normal form a root is stored in."""
    if not isinstance(value, str):
        return text(value)
    if "\x00" in value:
        return f"holds a NUL character: {shown(value)}"
    if not (value.startswith("/") if os.name == "posix" else os.path.isabs(value)):
        return f"is not an absolute path: {shown(value)}"
    normal = os.path.normpath(value)
    if normal != value:
        return f"is not in normal form (that is {shown(normal)}): {shown(value)}"
    if os.name == "posix" and value.isascii():
        # an absolute ASCII path without NUL always has a POSIX URI (path_to_uri fails only on
        # those): the check per root, path and real path, was a fifth of reading 30,000 roots
        return None
    try:
        uris.path_to_uri(value)
    except uris.UriError as exc:
        return f"has no file:// URI ({exc})"
    return None


def _root_paths(values: list[Any]) -> bool:
    """Whether every one of *values* passes :func:`root_path`, judged on them all joined by a
    NUL (which no root path holds): each starts with ``/``, and no ``//``, ``/.`` or ``/..``
    part, nor a ``/`` at the end, makes one other than its normal form. ``//`` (two slashes
    lead a normal path), ``/`` alone and the paths that are not ASCII are checked one by one."""
    if os.name != "posix" or not _all_of(values, str):
        return all(root_path(v) is None for v in values)
    if not values:
        return True
    joined = "\x00".join(values)
    if joined.count("\x00") != len(values) - 1:  # a NUL in one of them
        return False
    ends = "\x00" + joined + "\x00"
    if ends.count("\x00/") != len(values) or "//" in ends or "/\x00" in ends:
        return all(root_path(v) is None for v in values)
    if "/./" in ends or "/.\x00" in ends or "/../" in ends or "/..\x00" in ends:
        return False
    return joined.isascii() or all(root_path(v) is None for v in values if not v.isascii())


_with_column(root_path, _root_paths)


def optional(check: Check) -> Check:
    """*check*, or null."""
    checked: Check = lambda value: None if value is None else check(value)  # noqa: E731
    many = column(check)
    return _with_column(checked, lambda values: many([v for v in values if v is not None]))


MAX_PROCESS_LIMIT = 1_000_000


def process_count(value: object) -> str | None:
    """A limit of processes: a whole number from 1 to :data:`MAX_PROCESS_LIMIT`."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_PROCESS_LIMIT:
        return f"is not a whole number from 1 to {MAX_PROCESS_LIMIT:,}: {shown(value)}"
    return None


MAX_ASK_SECONDS = 600


def ask_seconds(value: object) -> str | None:
    """How long a call waits for the user's answer: a whole number of seconds up to
    :data:`MAX_ASK_SECONDS` (0: it is never held)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ASK_SECONDS:
        return f"is not a whole number of seconds from 0 to {MAX_ASK_SECONDS}: {shown(value)}"
    return None


def domain(value: object) -> str | None:
    """A domain a confined server may reach, as :func:`~roots_manager.support.domains.pattern`
    keeps it (``api.github.com``, ``*.npmjs.org``, an address)."""
    from roots_manager.support.domains import DomainError, pattern

    if not isinstance(value, str):
        return text(value)
    try:
        kept = pattern(value)
    except DomainError as exc:
        return f"is not a domain: {exc}"
    return None if kept == value else f"is not a domain in normal form: {shown(value)}"


def inside_path(value: object) -> str | None:
    """A place inside a root: a relative path in normal form, never above the root."""
    if not isinstance(value, str):
        return text(value)
    if not value or "\x00" in value or _has_control(value):
        return f"is empty or holds a control character: {shown(value)}"
    if os.path.isabs(value) or value.startswith("/"):
        return f"is not a path inside its root (it is absolute): {shown(value)}"
    normal = os.path.normpath(value)
    if normal != value or normal == "." or normal.split(os.sep)[0] == "..":
        return f"is not a path inside its root in normal form: {shown(value)}"
    return None


def list_of(check: Check) -> Check:
    """A list whose every item passes *check*."""

    def checked(value: object) -> str | None:
        if not isinstance(value, list):
            return f"is {_kind(value)}, not a list"
        for i, item in enumerate(value):
            why = check(item)
            if why is not None:
                return f"[{i}] {why}"
        return None

    many = column(check)
    return _with_column(
        checked,
        lambda values: _all_of(values, list) and many([x for v in values for x in v]),
    )


def one_of(*choices: str) -> Check:
    """One of the strings *choices*."""
    listed = ", ".join(choices)
    allowed = frozenset(choices)

    def many(values: list[Any]) -> bool:
        try:
            return set(values) <= allowed
        except TypeError:  # a list or an object among them: refused one by one
            return False

    checked: Check = (  # noqa: E731
        lambda value: None if value in choices else f"is not one of {listed}: {shown(value)}"
    )
    return _with_column(checked, many)


def empty_or(check: Check) -> Check:
    """*check*, or the empty string a field defaults to."""
    checked: Check = lambda value: None if value == "" else check(value)  # noqa: E731
    many = column(check)
    return _with_column(checked, lambda values: many([v for v in values if v != ""]))


def language(value: object) -> str | None:
    """A language code such as ``ja`` or ``zh_CN``: the app looks for a translation by it."""
    if not isinstance(value, str):
        return text(value)
    parts = value.replace("-", "_").split("_")
    if 2 <= len(parts[0]) <= 8 and all(p.isascii() and p.isalnum() and p for p in parts):
        return None
    return f"is not a language code (such as ja or zh_CN): {shown(value)}"


@dataclass(frozen=True)
class Record:
    """The fields one kind of object in the file has: each with its check, some required."""

    checks: Mapping[str, Check]
    required: frozenset[str]

    def read(self, doc: object, where: str) -> dict[str, Any]:
        """*doc*'s fields, checked; raises :class:`SchemaError` naming the first bad one."""
        if not isinstance(doc, dict):
            raise SchemaError(f"{where} is {_kind(doc)}, not an object")
        checks = self.checks
        # set operations first, the key-by-key walk only to name what they found
        if not doc.keys() <= checks.keys():
            for key in doc:
                if key not in checks:
                    raise SchemaError(f"{where} has an unknown field {shown(key)}")
        if not self.required <= doc.keys():
            raise SchemaError(f"{where} lacks its {sorted(self.required - doc.keys())[0]!r}")
        for key, value in doc.items():
            why = checks[key](value)
            if why is not None:
                # an item's reason starts with its index: "command[1] is a number"
                raise SchemaError(f"{where}.{key}{'' if why.startswith('[') else ' '}{why}")
        return doc

    def read_all(self, docs: list[Any], where: str) -> list[dict[str, Any]]:
        """*docs*, each checked as :meth:`read` checks it (*where* and its index name a bad
        one), a field at a time: a few calls over each column rather than one per value (a
        store of 30,000 roots holds 150,000 of their values). Any doubt, and each is read."""
        if not self._all_pass(docs):
            for i, doc in enumerate(docs):
                self.read(doc, f"{where}[{i}]")
        return docs

    def _all_pass(self, docs: list[Any]) -> bool:
        if not docs:
            return True
        if not _all_of(docs, dict):
            return False
        shapes = set(map(tuple, docs))  # the keys of each, in order: a few shapes at most
        checks = self.checks
        present: set[str] = set()
        everywhere: set[str] | None = None
        for shape in shapes:
            keys = set(shape)
            if not keys <= checks.keys() or not self.required <= keys:
                return False
            present |= keys
            everywhere = keys if everywhere is None else everywhere & keys
        for key in present:
            if everywhere is not None and key in everywhere:
                values = list(map(itemgetter(key), docs))
            else:
                values = [d[key] for d in docs if key in d]
            if not column(checks[key])(values):
                return False
        return True


def member(doc: Mapping[str, Any], key: str, kind: type[list[Any] | dict[str, Any]]) -> Any:
    """The list or object at top-level *key* of *doc* (empty when missing)."""
    value = doc.get(key, kind())
    if not isinstance(value, kind):
        raise SchemaError(f"{key} is {_kind(value)}, not {_kind(kind())}")
    return value


def unique(values: Iterable[str], where: str) -> None:
    """Refuse a second occurrence of any of *values* (ids and paths name one thing each)."""
    values = list(values)
    if len(set(values)) == len(values):
        return
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise SchemaError(f"{where} {shown(value)} appears twice")
        seen.add(value)


def version(doc: object) -> dict[str, Any]:
    """The top level of a store document, after checking its schema version and revision."""
    if not isinstance(doc, dict):
        raise SchemaError(f"the top level is {_kind(doc)}, not an object")
    if "schema" not in doc:
        raise SchemaError("the 'schema' version number is missing")
    schema = doc["schema"]
    why = counter(schema)
    if why is not None:
        raise SchemaError(f"schema {why}")
    if schema > SCHEMA_VERSION:
        raise NewerSchemaError(schema)
    if schema < 1:
        raise SchemaError(f"schema is {schema}; versions start at 1")
    why = counter(doc.get("revision", 0))
    if why is not None:
        raise SchemaError(f"revision {why}")
    return doc
