"""What ``hosts wrap`` changed, kept so that it can be undone exactly.

The record (``hosts/record.json`` in the per-user directory, private like the store) keeps, for
each server put behind the bridge, its original command line and the exact text of its entry
before and after (for JSON), so that ``unwrap`` gives back the original bytes; and the steps Undo
takes back, newest last: one step for each command (or click), with every file it changed. Every
file is backed up before it is changed, under ``hosts/backups``, with a timestamp in its name.

On disk a step is one entry per file, the files of a step sharing its id: the shape of the
versions before steps, which read each entry as a change of its own (and so still read this
record), and whose entries, each with an id of its own, are read here as steps of one file.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from roots_manager.core.directory.layout import Layout, ensure_private_dir
from roots_manager.core.store.file import json_bytes, write_atomic
from roots_manager.support import statefile
from roots_manager.support.lockfile import LockFile

RECORD_VERSION = 1
CHANGES_KEPT = 100
"""How many steps Undo can go back through (their backups stay until removed by hand)."""
MAX_RECORD_BYTES = 16 * 1024 * 1024


class RecordError(OSError):
    """The record cannot be read; nothing is changed until it is repaired or moved away."""


@dataclass
class WrapRecord:
    """One server put behind the bridge by ``hosts wrap``."""

    host: str
    file: str
    loc: list[str | int]
    """The keys to the entry (an index where it is an item of a list)."""
    name: str
    """The host's key for the server."""
    server: str
    """The name the bridge keeps its grants under."""
    argv: list[str]
    """The server's command line behind the bridge: its original one, but for the folders
    ``--roots-args`` replaced with ``{roots}``."""
    args_absent: bool
    """The entry had no args list before: unwrapping removes the one made."""
    env: str | None
    """"added" (a key put in the entry's env), "created" (the env table made), or None."""
    entry_before: str | None
    entry_after: str | None
    """For JSON files: the entry's exact text before and after wrapping."""
    backup: str
    at: str
    original: list[str] | None = None
    """With ``--roots-args``: the command line as the host file had it, its folders in it."""
    folders: list[str] | None = None
    """With ``--roots-args``: the folder arguments replaced with ``{roots}``, as written."""


@dataclass
class FileChange:
    """One file a step changed: which servers, and the backup of the file before."""

    host: str
    file: str
    project: str | None
    servers: list[str]
    backup: str


@dataclass
class ChangeStep:
    """One command's change of host files, for Undo, which takes it back whole."""

    id: str
    at: str
    action: str  # "wrap" or "unwrap"
    files: list[FileChange] = field(default_factory=list)


@dataclass
class HostRecord:
    wrapped: list[WrapRecord] = field(default_factory=list)
    changes: list[ChangeStep] = field(default_factory=list)

    def find(self, file: Path, loc: tuple[str | int, ...]) -> WrapRecord | None:
        for w in self.wrapped:
            if w.file == str(file) and tuple(w.loc) == loc:
                return w
        return None

    def forget(self, file: Path, loc: tuple[str | int, ...]) -> None:
        self.wrapped = [
            w for w in self.wrapped if not (w.file == str(file) and tuple(w.loc) == loc)
        ]

    def add(self, step: ChangeStep, change: FileChange) -> None:
        """Add *change* to *step*, the newest step (made so if it is not there yet)."""
        if not self.changes or self.changes[-1].id != step.id:
            self.changes.append(ChangeStep(step.id, step.at, step.action))
        self.changes[-1].files.append(change)
        del self.changes[:-CHANGES_KEPT]


def _steps(entries: list[dict[str, Any]]) -> list[ChangeStep]:
    """The steps of the entries on disk: the entries in a row with one id are one step."""
    steps: list[ChangeStep] = []
    for e in entries:
        change = FileChange(e["host"], e["file"], e["project"], e["servers"], e["backup"])
        if not steps or steps[-1].id != e["id"]:
            steps.append(ChangeStep(e["id"], e["at"], e["action"]))
        steps[-1].files.append(change)
    return steps


def _entries(steps: list[ChangeStep]) -> list[dict[str, Any]]:
    return [
        {"id": step.id, "at": step.at, "action": step.action, **asdict(change)}
        for step in steps
        for change in step.files
    ]


def record_path(layout: Layout) -> Path:
    return layout.home / "hosts" / "record.json"


def backups_dir(layout: Layout) -> Path:
    return layout.home / "hosts" / "backups"


def load(layout: Layout) -> HostRecord:
    """The record; an empty one if there is none. Raises :class:`RecordError` if unreadable."""
    path = record_path(layout)
    try:
        doc = json.loads(statefile.read_regular(path, MAX_RECORD_BYTES))
    except FileNotFoundError:
        return HostRecord()
    except (OSError, ValueError) as exc:
        raise RecordError(f"the record of host changes {path} cannot be read: {exc}") from exc
    try:
        if doc.get("version") != RECORD_VERSION:
            raise ValueError(f"version {doc.get('version')!r}, this one reads {RECORD_VERSION}")
        return HostRecord(
            [WrapRecord(**w) for w in doc["wrapped"]],
            _steps(doc["changes"]),
        )
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise RecordError(
            f"the record of host changes {path} is damaged ({exc}); move it away to go on "
            "(the backups next to it keep every original file)"
        ) from exc


def save(layout: Layout, record: HostRecord) -> None:
    ensure_private_dir(record_path(layout).parent)
    doc: dict[str, Any] = {
        "version": RECORD_VERSION,
        "wrapped": [asdict(w) for w in record.wrapped],
        "changes": _entries(record.changes),
    }
    write_atomic(record_path(layout), json_bytes(doc, indent=2) + b"\n")


@contextlib.contextmanager
def locked(layout: Layout) -> Iterator[None]:
    """Hold the record's lock: one change of host files at a time."""
    lock_path = ensure_private_dir(record_path(layout).parent) / "record.json.lock"
    with LockFile(lock_path, timeout=30, mode=0o600).held():
        yield


def stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")


def backup(layout: Layout, host: str, path: Path, data: bytes) -> Path:
    """Keep *data*, the bytes of host file *path* before a change; returns the backup's path."""
    folder = ensure_private_dir(backups_dir(layout))
    when = stamp()
    target = folder / f"{when}-{host}-{path.name}"
    n = 1
    while target.exists():  # two files of one name (a user's and a project's) in one step
        n += 1
        target = folder / f"{when}-{host}-{n}-{path.name}"
    write_atomic(target, data)
    return target
