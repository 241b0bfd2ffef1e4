"""What ``hosts wrap`` changed, kept so that it can be undone exactly, and how host files are written.

The record (``hosts/record.json`` in the per-user directory, private like the store) keeps, for
each server put behind the bridge, its original command line and the exact text of its entry
before and after (for JSON), so that ``unwrap`` gives back the original bytes; and the list of
changes, newest last, for the app's Undo. Every file is backed up before it is changed, under
``hosts/backups``, with a timestamp in its name.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from filelock import FileLock

from roots_manager.core import statefile
from roots_manager.core.paths import Layout, ensure_private_dir
from roots_manager.core.store.file import json_bytes, write_atomic

RECORD_VERSION = 1
CHANGES_KEPT = 100
"""How many changes Undo can go back through (their backups stay until removed by hand)."""
MAX_RECORD_BYTES = 16 * 1024 * 1024
MAX_HOST_FILE_BYTES = 16 * 1024 * 1024
"""The largest host file read: a host's settings are kilobytes, a file far past this is not one."""


class RecordError(OSError):
    """The record cannot be read; nothing is changed until it is repaired or moved away."""


class FileChanged(OSError):
    """The host file changed between our read and our write."""


@dataclass
class WrapRecord:
    """One server put behind the bridge by ``hosts wrap``."""

    host: str
    file: str
    loc: list[str]
    name: str
    """The host's key for the server."""
    server: str
    """The name the bridge keeps its grants under."""
    argv: list[str]
    """The server's original command line."""
    args_absent: bool
    """The entry had no args list before: unwrapping removes the one made."""
    env: str | None
    """"added" (a key put in the entry's env), "created" (the env table made), or None."""
    entry_before: str | None
    entry_after: str | None
    """For JSON files: the entry's exact text before and after wrapping."""
    backup: str
    at: str


@dataclass
class ChangeRecord:
    """One change of one host file, for Undo."""

    id: str
    at: str
    action: str  # "wrap" or "unwrap"
    host: str
    file: str
    project: str | None
    servers: list[str]
    backup: str


@dataclass
class HostRecord:
    wrapped: list[WrapRecord] = field(default_factory=list)
    changes: list[ChangeRecord] = field(default_factory=list)

    def find(self, file: Path, loc: tuple[str, ...]) -> WrapRecord | None:
        for w in self.wrapped:
            if w.file == str(file) and tuple(w.loc) == loc:
                return w
        return None

    def forget(self, file: Path, loc: tuple[str, ...]) -> None:
        self.wrapped = [
            w for w in self.wrapped if not (w.file == str(file) and tuple(w.loc) == loc)
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
            [ChangeRecord(**c) for c in doc["changes"]],
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
        "changes": [asdict(c) for c in record.changes],
    }
    write_atomic(record_path(layout), json_bytes(doc, indent=2) + b"\n")


@contextlib.contextmanager
def locked(layout: Layout) -> Iterator[None]:
    """Hold the record's lock: one change of host files at a time."""
    lock_path = ensure_private_dir(record_path(layout).parent) / "record.json.lock"
    with FileLock(str(lock_path), timeout=30, mode=0o600):
        yield


def stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")


def backup(layout: Layout, host: str, path: Path, data: bytes) -> Path:
    """Keep *data*, the bytes of host file *path* before a change; returns the backup's path."""
    folder = ensure_private_dir(backups_dir(layout))
    target = folder / f"{stamp()}-{host}-{path.name}"
    write_atomic(target, data)
    return target


def read_host_file(path: Path) -> bytes:
    """The bytes of a host file (links followed); only a regular file of sensible size."""
    return statefile.read_regular(path, MAX_HOST_FILE_BYTES)


def write_host_file(path: Path, data: bytes, expected: bytes) -> None:
    """Replace host file *path* with *data*, atomically, keeping its mode.

    Raises :class:`FileChanged` (writing nothing) if the file no longer holds *expected*, the
    bytes the change was made from: the host wrote it in the meantime. A file that is a symbolic
    link is replaced where the link points, so the link stays (dotfile managers use them).
    """
    target = Path(os.path.realpath(path))
    mode = stat.S_IMODE(os.stat(target).st_mode)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        if read_host_file(target) != expected:
            raise FileChanged(f"{path} changed while it was being edited")
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if os.name != "nt":
        dfd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
