"""The store: one versioned JSON file, written atomically under a cross-process lock.

A save writes a temporary file in the same directory, fsyncs it, renames it over the store and
fsyncs the directory, so a crash at any moment leaves either the old or the new document. The
document being replaced is first kept as the last good copy (``store.json.bak``). A store that
is a symbolic link is saved in the same way where the link points, so the link stays.

A file that cannot be read is never overwritten: every operation fails with :class:`StoreError`,
naming the file and the way out (``roots-manager store recover``). That covers a damaged or
newer document, and whatever is not a regular file of at most 64 MiB: a named pipe, a device,
a link to nothing (which must not pass for "no store yet" and start an empty one).
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import stat
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from roots_manager.core.directory.layout import Layout
from roots_manager.core.store import indented
from roots_manager.core.store.document import snapshot
from roots_manager.core.store.schema import NewerSchemaError, SchemaError
from roots_manager.core.store.state import State
from roots_manager.support import cyclic_gc, statefile, trace, unchanged, writeerror

if TYPE_CHECKING:
    from roots_manager.support.lockfile import LockFile

LOCK_TIMEOUT = 30.0

MAX_STORE_BYTES = 64 * 1024 * 1024
"""The largest store file read. A store holds well under a kilobyte per root, server or grant:
a file far past this is not one, and reading it would only cost memory."""

_WAY_OUT = (
    "Nothing was changed. Run 'roots-manager store recover' to restore the last good copy "
    "(the bad file is kept aside)."
)


class StoreError(Exception):
    """The store cannot be used as it is; the message says which file and what to do."""

    def __init__(self, message: str, path: Path) -> None:
        super().__init__(message)
        self.path = path


class StoreChanged(StoreError):
    """The store was replaced, by a writer that does not take the lock, while a transaction
    held it: its change was not saved over that one."""


class StoreUnreadable(StoreError):
    """The store file exists but is corrupt, unreadable, or from a newer version.

    *newer* says it is a good store written by a newer Roots Manager: not damaged, and put
    aside under that name by :meth:`Store.recover`.
    """

    def __init__(self, message: str, path: Path, *, newer: bool = False) -> None:
        super().__init__(message, path)
        self.newer = newer


@dataclass(frozen=True)
class CheckReport:
    """What ``store check`` found."""

    ok: bool
    message: str
    backup_ok: bool


Stamp = tuple[int, int, int, int]
"""A file's device, inode, size and modification time: a save renames a new file into place
(a new inode), so a file with the stamp it had when read holds what was read."""


def stamp_of(st: os.stat_result) -> Stamp:
    """The :data:`Stamp` of a file from its ``stat``."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _parse(data: bytes, path: Path) -> State:
    """Parse a store document; raises :class:`StoreUnreadable` naming *path*."""
    with cyclic_gc.paused():  # no cycles in a document: its objects are freed by counts
        return _parse_document(data, path)


def _parse_document(data: bytes, path: Path) -> State:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StoreUnreadable(
            f"the store {path} is not valid UTF-8 (byte {exc.start}). {_WAY_OUT}", path
        ) from exc
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StoreUnreadable(
            f"the store {path} is not valid JSON (line {exc.lineno}, column {exc.colno}: "
            f"{exc.msg}). {_WAY_OUT}",
            path,
        ) from exc
    except RecursionError as exc:
        # the parser recurses once per level: thousands of nested brackets exhaust the stack
        raise StoreUnreadable(
            f"the store {path} is damaged: its JSON is nested too deeply to read. {_WAY_OUT}",
            path,
        ) from exc
    except ValueError as exc:
        # a number with more digits than Python converts (4300): no store holds one
        raise StoreUnreadable(
            f"the store {path} is damaged: it holds a number too long to read. {_WAY_OUT}", path
        ) from exc
    try:
        return State.from_json(doc)
    except NewerSchemaError as exc:
        raise StoreUnreadable(
            f"the store {path} cannot be read: {exc}. Upgrade Roots Manager, or run "
            "'roots-manager store recover' to go back to the last copy this version wrote "
            "(the newer file is kept aside).",
            path,
            newer=True,
        ) from exc
    except SchemaError as exc:
        raise StoreUnreadable(f"the store {path} is damaged: {exc}. {_WAY_OUT}", path) from exc


def json_bytes(doc: object, *, indent: int | None = None) -> bytes:
    """*doc* as UTF-8 JSON, readable (non-ASCII kept as is) and safe for any file name.

    A POSIX file name that is not valid UTF-8 reaches Python as lone surrogates; they cannot be
    encoded as UTF-8, so they are written as the JSON escapes (``\\udcff``) that read back as
    the same string.
    """
    # indented: the same text as json.dumps writes, a store's lists made in C
    text = json.dumps(doc, ensure_ascii=False) if indent is None else indented.dumps(doc, indent)
    return text.encode("utf-8", "backslashreplace")


def _dump(doc: dict[str, Any]) -> bytes:
    return json_bytes(doc, indent=2) + b"\n"


def write_atomic(path: Path, data: bytes, read: unchanged.Read | None = None) -> None:
    """Replace *path* with *data* atomically and durably; the file is private (0600).

    With *read* (what *path* held when *data* was made from it), *path* is replaced only if it
    still holds that, else :class:`roots_manager.support.unchanged.Changed` is raised and the
    other program's file stays (:func:`roots_manager.support.unchanged.replace_unchanged`).
    An :class:`OSError` names *path* (:func:`roots_manager.support.writeerror.named`), not the
    temporary file beside it, nor nothing as a full disk's does.
    """
    directory = path.parent
    try:
        fd, tmp = _new_private_file(directory, f".{path.name}.")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o600)
            if read is None:
                statefile.retrying(lambda: os.replace(tmp, path))
            else:
                unchanged.replace_unchanged(tmp, path, read, limit=MAX_STORE_BYTES)
                trace.debug("checked %s is as read: yes", path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _fsync_dir(directory)
    except OSError as exc:
        failed = writeerror.named(exc, path)
        if failed is exc:
            raise
        raise failed from exc
    trace.debug("wrote %s (%d bytes)", path, len(data))


_NEW_FILE = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_NOINHERIT", 0)
    | getattr(os, "O_BINARY", 0)
)


def _new_private_file(directory: Path, prefix: str) -> tuple[int, str]:
    """A new file (0600) in *directory* with a name no other writer can have chosen, as
    ``tempfile.mkstemp`` makes one: every bridge writes its marker with this, and tempfile
    would load shutil, lzma and bz2 into each for its life (0.7 MiB)."""
    for _ in range(100):
        name = os.path.join(directory, f"{prefix}{os.urandom(6).hex()}.tmp")
        try:
            return os.open(name, _NEW_FILE, 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {directory}")


def _fsync_dir(directory: Path) -> None:
    if os.name == "nt":  # pragma: no cover - directories cannot be opened for fsync there
        return
    dfd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def read_store_file(path: Path, *, told: bool = True) -> bytes | None:
    """The bytes of the store file (or its last good copy) at *path*; None if there is none.

    Only a regular file of at most :data:`MAX_STORE_BYTES` is read (see
    :mod:`roots_manager.support.statefile`). A symbolic link to nothing is an error, not a missing
    store: an empty store must not start in the place of one on a drive not mounted.
    Raises :class:`StoreUnreadable` naming *path*.
    """
    try:
        data = statefile.read_regular(path, MAX_STORE_BYTES)
        if told:
            trace.debug("read %s (%d bytes)", path, len(data))
        return data
    except statefile.DanglingLink as exc:
        raise StoreUnreadable(
            f"the store {path} is a symbolic link to {exc.target}, which does not exist. "
            "Nothing was read, changed or started in its place: point the link at the store "
            "(is a drive missing?), or run 'roots-manager store recover' to keep the link aside "
            "and restore the last good copy.",
            path,
        ) from exc
    except FileNotFoundError:
        return None
    except statefile.NotRegularFile as exc:
        raise StoreUnreadable(
            f"the store {statefile.described(path)} is {exc.kind}, not a regular file, so it "
            f"was not read. {_WAY_OUT}",
            path,
        ) from exc
    except statefile.TooLarge as exc:
        raise StoreUnreadable(
            f"the store {statefile.described(path)} is larger than "
            f"{MAX_STORE_BYTES // (1024 * 1024)} MiB ({exc.size} bytes or more); no store is "
            f"that large, so it was not read. {_WAY_OUT}",
            path,
        ) from exc
    except OSError as exc:
        raise StoreUnreadable(
            f"the store {statefile.described(path)} cannot be read: {exc.strerror}. Nothing "
            "was changed; check the file's owner and permissions.",
            path,
        ) from exc


_MAKING_LOCK = threading.Lock()


class Store:
    """The store file of one per-user directory."""

    def __init__(self, layout: Layout | None = None) -> None:
        self.layout = (layout or Layout.default()).ensure()
        self.path = self.layout.store
        self._lock: LockFile | None = None
        self._saved: tuple[Stamp, State] | None = None
        trace.debug("the store is %s", self.path)

    # Reads need no lock: a save replaces the whole file by rename, so a reader sees either
    # the old or the new document, never half of one.
    def read(self) -> State:
        """The current state (an empty one if the store does not exist yet)."""
        data = read_store_file(self.path)
        return State() if data is None else _parse(data, self.path)

    def take_saved(self, stamp: Stamp) -> State | None:
        """The state the last :meth:`transaction` of this object saved, if the file it wrote
        is the one with *stamp* now; None otherwise. Given once (not kept after).

        A reader that found the file with that stamp has that state without parsing tens of
        thousands of roots again (a bridge records its start, then answers from the store).
        It is the object the transaction yielded: its block must not change it afterwards.
        """
        saved, self._saved = self._saved, None
        return saved[1] if saved is not None and saved[0] == stamp else None

    @contextlib.contextmanager
    def transaction(self) -> Iterator[State]:
        """Lock the store, yield its state for editing, and save it if it changed.

        Nothing is saved if the block raises. The revision number grows by one per save.
        A store that is a symbolic link is saved where the link points, and stays a link.
        """
        with self._locked():
            target = self._target()
            self._sweep_orphans(target)
            before_bytes = read_store_file(self.path)
            state = _parse(before_bytes, self.path) if before_bytes is not None else State()
            with cyclic_gc.paused():  # a document of many objects, none in a cycle
                before = snapshot(state)
            yield state
            with cyclic_gc.paused():
                if snapshot(state) == before:
                    return
                state.revision += 1
                data = _dump(state.to_json())  # the document made once, as it is written
            if before_bytes is not None:
                write_atomic(self.layout.store_backup, before_bytes)
            try:
                # never over a store that is no longer what was read: a writer that does not
                # take the lock (an editor saving by hand, an older copy) changed it since, and
                # replacing it would lose that change without a word
                write_atomic(target, data, unchanged.Read(before_bytes))
            except unchanged.Changed as exc:
                trace.debug("%s", exc)
                raise StoreChanged(
                    f"the store {self.path} was changed by another program while this ran (an "
                    "editor, or a copy of Roots Manager that does not take its lock); nothing "
                    "was saved, so that change is kept: run the command again",
                    self.path,
                ) from exc
            # under the lock: no other save can have replaced the file since
            self._saved = (stamp_of(os.stat(target)), state)

    def _target(self) -> Path:
        # A save renames a new file over the old one; over a link that would replace the link
        # and leave its target behind unchanged, so the file it points to is replaced instead.
        # (A link to nothing, or to something not a file, is refused by the read that follows.)
        if os.path.islink(self.path):
            return Path(os.path.realpath(self.path))
        return self.path

    def _file_lock(self) -> LockFile:
        """The store's cross-process lock, made when first taken (commands that only read
        the store never load it): one object for all the threads that use this store."""
        if self._lock is None:
            from roots_manager.support.lockfile import LockFile

            with _MAKING_LOCK:
                if self._lock is None:
                    self._lock = LockFile(self.layout.store_lock, LOCK_TIMEOUT, mode=0o600)
        return self._lock

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        lock = self._file_lock()
        try:
            lock.acquire()
        except PermissionError as exc:  # a lock file left by another user (sudo)
            raise writeerror.named(exc, self.layout.store_lock) from exc
        except TimeoutError as exc:
            raise StoreError(
                f"the store {self.path} stayed locked for {LOCK_TIMEOUT:.0f} s by another "
                f"process (lock file {self.layout.store_lock}); nothing was changed",
                self.path,
            ) from exc
        trace.debug("took the store's lock %s", self.layout.store_lock)
        try:
            yield
        finally:
            lock.release()
            trace.debug("released the store's lock")

    def _sweep_orphans(self, target: Path) -> None:
        # Only lock holders write these temporary files, so under the lock any left over
        # belong to a writer that was killed mid-save.
        for directory, name in {(self.layout.home, self.path.name), (target.parent, target.name)}:
            for leftover in directory.glob(f".{glob.escape(name)}*.tmp"):
                with contextlib.suppress(OSError):
                    leftover.unlink()

    def check(self) -> CheckReport:
        """Verify the store and its last good copy without changing anything."""
        backup_ok = self._backup() is not None
        try:
            state = self.read()
        except StoreError as exc:
            return CheckReport(False, str(exc), backup_ok)
        if not os.path.lexists(self.path):
            return CheckReport(
                True, f"no store yet at {self.path} (it is made on first change)", backup_ok
            )
        return CheckReport(
            True,
            f"the store {self.path} is good: revision {state.revision}, {len(state.roots)} "
            f"roots, {len(state.servers)} servers, {len(state.grants)} grants, "
            f"{len(state.pending)} pending",
            backup_ok,
        )

    def _backup(self) -> tuple[bytes, State] | None:
        """The last good copy, as bytes and as read, if there is a usable one."""
        path = self.layout.store_backup
        try:
            data = read_store_file(path)
            return None if data is None else (data, _parse(data, path))
        except StoreError:
            return None

    def recover(self, *, empty: bool = False) -> tuple[Path | None, str]:
        """Restore the last good copy, keeping the current file aside.

        Returns the path the bad file was moved to (None if there was nothing to move) and a
        message. With *empty*, starts from an empty store when no good copy exists. A link to
        a damaged file stays a link: the file it points to is put aside and replaced. A link
        to nothing, or to something that is not a file, is itself put aside.
        """
        with self._locked():
            try:
                self.read()
                return None, f"the store {self.path} is good; nothing to recover"
            except StoreUnreadable as exc:
                newer = exc.newer
            # a store from a newer version is not damaged: it is named, and said, for what it is
            what = "the file written by a newer Roots Manager" if newer else "the damaged file"
            backup = self._backup()
            if backup is None and not empty:
                why = "was written by a newer Roots Manager" if newer else "is damaged"
                raise StoreError(
                    f"the store {self.path} {why} and there is no good copy at "
                    f"{self.layout.store_backup}. Run 'roots-manager store recover --empty' to "
                    f"keep {what} aside and start with an empty store.",
                    self.path,
                )
            bad = self._target()
            if not os.path.isfile(bad):
                bad = self.path
            aside = _aside(bad, "newer" if newer else "damaged")
            os.replace(bad, aside)
            if stat.S_ISREG(os.lstat(aside).st_mode):  # chmod would follow a link
                with contextlib.suppress(OSError):
                    os.chmod(aside, 0o600)  # it may have been written by hand with looser rights
            if backup is not None:
                write_atomic(bad, backup[0])
                msg = f"restored the last good copy (revision {backup[1].revision})"
            else:
                write_atomic(bad, _dump(State().to_json()))
                msg = "started an empty store"
            return aside, f"{msg}; {what} is kept at {aside}"


def _aside(path: Path, kind: str) -> Path:
    """A new name next to *path* for a store kept aside: ``<name>.<kind>-<time>``."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    aside = path.with_name(f"{path.name}.{kind}-{stamp}")
    n = 1
    while os.path.lexists(aside):
        n += 1
        aside = path.with_name(f"{path.name}.{kind}-{stamp}-{n}")
    return aside
