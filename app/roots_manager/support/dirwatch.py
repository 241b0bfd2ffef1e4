"""Watching directories for changes to their entries: the one watcher of the bridge, the app and
the command line.

On Linux it is an inotify descriptor (:mod:`roots_manager.platform.linux.inotify`): the watches
are in place when :class:`DirWatch` returns, and a thread waiting in :meth:`DirWatch.wait`
sleeps in the kernel until something changes, with no timer of its own. Elsewhere, and where
notices miss changes (WSL, or ``WATCHFILES_FORCE_POLLING``), it is watchfiles' public ``watch``
on a thread of its own, which wakes every :data:`STEP_MS` to look at its stop flag; there too the
watch is in place when :class:`DirWatch` returns (it waits for watchfiles' first turn).

A change names the path it is about: ``directory/entry`` for an entry created, removed, renamed,
written or with its permissions changed, the directory itself for the directory. When the kernel
lost notices (its queue overflowed), every entry of every watched directory is named: anything
may have changed.

A watch can be refused (no inotify instance left: ``fs.inotify.max_user_instances``, or no
descriptor left in the process; a directory not there yet) or fail later. :class:`SteadyWatch`,
what a follower of the app or the command line waits on, outlives that: while it cannot watch it
polls the directories' entries, tries to watch again with a backoff up to
:data:`RETRY_MOST` seconds, and says when it stops and starts watching.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

from roots_manager.platform.linux import inotify as _in
from roots_manager.support.paths import inside

STEP_MS = 50
"""How often watchfiles' thread looks at its stop flag (where watchfiles is used)."""
READY_LIMIT = 5.0
"""Seconds to wait at most for watchfiles' watch to be in place."""
RETRY_FIRST = 0.25
RETRY_MOST = 2.0
"""Seconds between two tries to watch again, doubling from the first to the most: a watch
refused because the user's inotify instances ran out comes back within 2 s of one being freed."""
POLL_PERIOD = 0.5
"""How often the entries are compared while the directories cannot be watched."""

_MASK = (
    _in.IN_CREATE
    | _in.IN_DELETE
    | _in.IN_MOVED_FROM
    | _in.IN_MOVED_TO
    | _in.IN_MODIFY
    | _in.IN_CLOSE_WRITE
    | _in.IN_ATTRIB
    | _in.IN_DELETE_SELF
    | _in.IN_MOVE_SELF
    | _in.IN_ONLYDIR
)
"""What a change is, for inotify: an entry coming, going, written or its permissions changed;
the directory itself changing or going."""
_ENTRIES_MASK = _MASK & ~(_in.IN_MODIFY | _in.IN_CLOSE_WRITE)
"""The same but for what is written in the entries (a watch that cares about folders: a file
written beside one, ``~/.bash_history`` beside ``~/proj``, wakes nobody)."""


def force_polling() -> bool:
    """Whether change notices cannot be trusted here: ``WATCHFILES_FORCE_POLLING`` as watchfiles
    reads it, else only under WSL, where notices miss Windows' own writes."""
    setting = os.environ.get("WATCHFILES_FORCE_POLLING")
    if setting:
        return setting.lower() not in {"false", "disable", "disabled"}
    if not sys.platform.startswith("linux"):
        return False
    return "microsoft-standard" in os.uname().release.lower()


class DirWatch:
    """Changes to the entries of *dirs* (not of their subdirectories), until :meth:`close`.

    Raises ``OSError`` when a directory cannot be watched. :meth:`wait` is for one thread at a
    time; :meth:`stop` may be called from any thread.
    """

    def __init__(
        self,
        dirs: Sequence[str],
        *,
        polling: bool | None = None,
        portable: bool = False,
        written: bool = True,
    ) -> None:
        """*polling*: poll rather than be notified (default: :func:`force_polling`);
        *portable*: use watchfiles, as on macOS and Windows, on Linux too; *written*: whether
        a file written in place counts (Linux's notices; watchfiles always tells it)."""
        self.dirs = [os.path.abspath(d) for d in dirs]
        polling = force_polling() if polling is None else polling
        self._stopped = threading.Event()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._backend: _Inotify | _Watchfiles
        try:
            if sys.platform.startswith("linux") and not polling and not portable:
                self._backend = _Inotify(self.dirs, _MASK if written else _ENTRIES_MASK)
            else:
                self._backend = _Watchfiles(
                    self.dirs, polling, self._stopped, self._wake_r, self._wake_w
                )
        except BaseException:
            self._wake_r.close()
            self._wake_w.close()
            raise
        own = self._backend.own_fd()
        self._fds = [self._wake_r.fileno()] + ([] if own is None else [own])
        """What a wait waits on: the wake socket (a stop; watchfiles' changes), inotify's."""
        self._poller: Any = None
        if sys.platform != "win32":  # poll: any descriptor number (select stops at 1024)
            self._poller = select.poll()
            for fd in self._fds:
                self._poller.register(fd, select.POLLIN)

    def fileno(self) -> int:
        """A descriptor that is readable when :meth:`take` has something."""
        own = self._backend.own_fd()
        return self._wake_r.fileno() if own is None else own

    def take(self) -> set[str]:
        """The paths changed since the last take (empty when none). Raises ``RuntimeError``
        when the watch failed."""
        return self._backend.take()

    def wait(
        self, timeout: float | None = None, debounce: float = 0.0, settle: float = 0.005
    ) -> set[str] | None:
        """Block until something changes and return what changed: after the first change,
        changes are gathered until none came for *settle* seconds, for at most *debounce*
        seconds. An empty set after *timeout* seconds with no change; None once stopped."""
        if not self._readable(timeout):
            return None if self._stopped.is_set() else set()
        changes = self.take()
        end = time.monotonic() + debounce
        while (left := end - time.monotonic()) > 0 and self._readable(min(settle, left)):
            changes |= self.take()
        return None if self._stopped.is_set() else changes

    def _readable(self, timeout: float | None) -> bool:
        """Whether a change is waiting (False after *timeout* seconds, or once stopped)."""
        if self._stopped.is_set():
            return False
        if self._poller is not None:
            polled = self._poller.poll(None if timeout is None else max(0, int(timeout * 1000)))
            ready = bool(polled)
        else:  # Windows: sockets only, which these are
            readable, _, _ = select.select(self._fds, [], [], timeout)
            ready = bool(readable)
        return ready and not self._stopped.is_set()

    def stop(self) -> None:
        """Make :meth:`wait` return None, now and from now on (from any thread)."""
        self._stopped.set()
        try:
            self._wake_w.send(b"\0")
        except OSError:
            return  # closed already: nobody waits

    def close(self) -> None:
        """Stop, and release the watches (by the thread that waits, once it is done)."""
        self.stop()
        self._backend.close()
        self._wake_r.close()
        self._wake_w.close()

    def __enter__(self) -> DirWatch:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


class _Inotify:
    def __init__(self, dirs: Sequence[str], mask: int) -> None:
        self._inotify = _in.Inotify()
        self._dirs: dict[int, str] = {}
        try:
            for d in dirs:
                self._dirs[self._inotify.add(d, mask)] = d
        except BaseException:
            self._inotify.close()
            raise

    def own_fd(self) -> int | None:
        return self._inotify.fileno()

    def take(self) -> set[str]:
        changed: set[str] = set()
        while True:
            events = self._inotify.read()
            if events is None:
                raise RuntimeError("the inotify descriptor failed")
            if not events:
                return changed
            for event in events:
                if event.mask & _in.IN_Q_OVERFLOW:
                    changed |= self._everything()
                elif event.mask & _in.IN_IGNORED:
                    continue
                elif event.wd in self._dirs:
                    d = self._dirs[event.wd]
                    changed.add(os.path.join(d, event.name) if event.name else d)

    def _everything(self) -> set[str]:
        paths = set(self._dirs.values())
        for d in self._dirs.values():
            try:
                paths |= {os.path.join(d, name) for name in os.listdir(d)}
            except OSError:
                continue  # gone: the directory itself is named
        return paths

    def close(self) -> None:
        self._inotify.close()


class _Watchfiles:
    """watchfiles' public ``watch`` on a thread, handing its changes over through a socket."""

    def __init__(
        self,
        dirs: Sequence[str],
        polling: bool,
        stopped: threading.Event,
        signalled: socket.socket,
        wake: socket.socket,
    ) -> None:
        for d in dirs:  # as inotify would: a directory that is not there cannot be watched
            if not os.path.isdir(d):
                raise FileNotFoundError(2, "no such directory", d)
        self._lock = threading.Lock()
        self._pending: set[str] = set()
        self._error: BaseException | None = None
        self._signalled = signalled
        self._wake = wake
        self._ready = threading.Event()
        self._thread = threading.Thread(
            target=self._run,
            args=(list(dirs), polling, stopped),
            name="roots-manager watch",
            daemon=True,
        )
        self._thread.start()
        # watchfiles' watch is in place once its generator yields the first time (it yields an
        # empty set at each STEP_MS without a change): what happens from now on is seen
        self._ready.wait(READY_LIMIT)
        with self._lock:
            if isinstance(self._error, OSError):
                raise self._error

    def _run(self, dirs: list[str], polling: bool, stopped: threading.Event) -> None:
        from watchfiles import watch

        try:
            for changes in watch(
                *dirs,
                watch_filter=None,
                debounce=10,
                step=STEP_MS,
                rust_timeout=STEP_MS,
                yield_on_timeout=True,
                stop_event=stopped,
                recursive=False,
                raise_interrupt=False,
                force_polling=polling,
                ignore_permission_denied=True,
            ):
                self._ready.set()
                if not changes:
                    continue  # a turn without a change
                with self._lock:
                    self._pending |= {path for _, path in changes}
                self._signal()
        except Exception as exc:  # handed to whoever takes next
            with self._lock:
                self._error = exc
            self._signal()
        finally:
            self._ready.set()

    def _signal(self) -> None:
        try:
            self._wake.send(b"\1")
        except OSError:
            return  # closed: nobody waits

    def own_fd(self) -> int | None:
        return None  # its changes are signalled on the wake socket

    def take(self) -> set[str]:
        # what the thread signalled is read off the socket (a stop's byte too: harmless)
        with contextlib.suppress(OSError):
            self._signalled.recv(4096)
        with self._lock:
            if self._error is not None:
                raise RuntimeError(f"the watch failed: {self._error}") from self._error
            pending, self._pending = self._pending, set()
        return pending

    def close(self) -> None:
        self._thread.join(timeout=2 * STEP_MS / 1000 + 1)


def _identity(path: str) -> tuple[int, int]:
    st = os.stat(path)
    return (st.st_dev, st.st_ino)


Trouble = Callable[[BaseException | None], None]
"""Told why the directories cannot be watched (an error), or that they are watched again (None)."""


class SteadyWatch:
    """Changes to the entries of *dirs*, as :class:`DirWatch` names them, that keep coming when
    a watch cannot be made or fails: the follower never stops for good.

    While there is no watch, :meth:`wait` compares the directories' entries every *poll*
    seconds (names, inodes, modes, and sizes and times when *written*) and tries to watch again
    after :data:`RETRY_FIRST` seconds, then twice as long each time up to *retry*. Once it
    watches again it names every directory: what changed between the last comparison and the
    new watch is not known. *on_trouble* is told, on the thread that waits (or the one that
    makes it), each time the reason changes: the error, then None once watched again.

    :meth:`wait` is for one thread at a time; :meth:`stop` may be called from any thread.
    """

    def __init__(
        self,
        dirs: Sequence[str],
        *,
        written: bool = True,
        poll: float = POLL_PERIOD,
        retry: float = RETRY_MOST,
        on_trouble: Trouble | None = None,
    ) -> None:
        self.dirs = [os.path.abspath(d) for d in dirs]
        self._written = written
        self._poll = poll
        self._retry_most = retry
        self._on_trouble = on_trouble
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._watch: DirWatch | None = None
        self._trouble: BaseException | None = None
        self._delay = RETRY_FIRST
        self._next_try = 0.0
        self._seen: dict[str, tuple[int, ...] | None] = {}
        self._ids: dict[str, tuple[int, int]] = {}
        """The watched directories' (device, inode): one removed and made again is watched anew."""
        self._try_watch()

    @property
    def trouble(self) -> BaseException | None:
        """Why the directories are not watched now (None: they are)."""
        return self._trouble

    def _tell(self, trouble: BaseException | None) -> None:
        before, self._trouble = self._trouble, trouble
        if self._on_trouble is not None and str(before or "") != str(trouble or ""):
            self._on_trouble(trouble)

    def _try_watch(self) -> bool:
        """Make the watch; on failure start (or go on) polling, and retry later."""
        try:
            watch = DirWatch(self.dirs, written=self._written)
        except (OSError, RuntimeError) as exc:
            self._lost(exc)
            return False
        try:
            ids = {d: _identity(d) for d in self.dirs}
        except OSError as exc:  # gone again already
            watch.close()
            self._lost(exc)
            return False
        with self._lock:
            if self._stopped.is_set():
                watch.close()
                return False
            self._watch, self._ids = watch, ids
        self._delay = RETRY_FIRST
        self._tell(None)
        return True

    def _same_dirs(self) -> None:
        """Raise ``FileNotFoundError`` when a watched directory is gone or another one now
        (a watch follows the inode, which no longer has that name)."""
        for d, was in self._ids.items():
            if _identity(d) != was:
                raise FileNotFoundError(2, "the watched directory was removed or replaced", d)

    def _lost(self, exc: BaseException) -> None:
        if self._trouble is None:
            self._seen = self._entries(self._seen)  # what is there now: polling starts here
        self._next_try = time.monotonic() + self._delay
        self._delay = min(self._delay * 2, self._retry_most)
        self._tell(exc)

    def wait(
        self, timeout: float | None = None, debounce: float = 0.0, settle: float = 0.005
    ) -> set[str] | None:
        """As :meth:`DirWatch.wait`: what changed, an empty set after *timeout* seconds with
        no change, None once stopped."""
        end = None if timeout is None else time.monotonic() + timeout
        while not self._stopped.is_set():
            watch = self._watch
            if watch is not None:
                left = None if end is None else max(0.0, end - time.monotonic())
                try:
                    changes = watch.wait(left, debounce, settle)
                    if changes and not changes.isdisjoint(self.dirs):
                        self._same_dirs()
                    return changes
                except (OSError, RuntimeError) as exc:  # failed, or a directory went
                    with self._lock:
                        self._watch = None
                    watch.close()
                    self._lost(exc)
                    return set(self.dirs)  # what happened since the last notice is unknown
            now = time.monotonic()
            if now >= self._next_try:
                if self._try_watch():
                    return set(self.dirs)  # what changed since the last comparison
                continue
            pause = min(self._poll, self._next_try - now)
            if end is not None:
                pause = min(pause, max(0.0, end - now))
            if self._stopped.wait(pause):
                break
            seen = self._entries(self._seen)
            changed = {
                p for p in seen.keys() | self._seen.keys() if seen.get(p) != self._seen.get(p)
            }
            self._seen = seen
            if changed:
                return changed
            if end is not None and time.monotonic() >= end:
                return set()
        return None

    def _entries(
        self, before: dict[str, tuple[int, ...] | None]
    ) -> dict[str, tuple[int, ...] | None]:
        """What the directories hold now, for a comparison; a directory that cannot be read
        now (no descriptor left) keeps what was seen of it last, one that is gone is None."""
        found: dict[str, tuple[int, ...] | None] = {}
        for d in self.dirs:
            try:
                with os.scandir(d) as listing:
                    for entry in listing:
                        with contextlib.suppress(OSError):  # gone meanwhile
                            st = entry.stat(follow_symlinks=False)
                            seen: tuple[int, ...] = (st.st_ino, st.st_mode)
                            if self._written:
                                seen += (st.st_size, st.st_mtime_ns)
                            found[entry.path] = seen
                found[d] = (0,)
            except (FileNotFoundError, NotADirectoryError):
                found[d] = None
            except OSError:
                found.update({p: v for p, v in before.items() if inside(p, d)})
        return found

    def stop(self) -> None:
        """Make :meth:`wait` return None, now and from now on (from any thread)."""
        self._stopped.set()
        with self._lock:
            watch = self._watch
        if watch is not None:
            watch.stop()

    def close(self) -> None:
        """Stop, and release the watch (by the thread that waits, once it is done)."""
        self.stop()
        with self._lock:
            watch, self._watch = self._watch, None
        if watch is not None:
            watch.close()

    def __enter__(self) -> SteadyWatch:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
