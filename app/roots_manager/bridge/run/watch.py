"""Noticing that a server's effective roots may have moved: the store directory and the folders.

The store is watched through its *directory*: a save renames a new file over the old one, so a
watch on the file itself would miss every save after the first. A granted folder that is deleted,
renamed away, made unreadable or that comes back shows as an event in its parent directory, so
the parents of the granted folders are watched too (:class:`FolderWatch`). A folder can also
vanish together with any of its ancestors, or be hidden by a mount: on Linux the answer cache
watches every directory on the way to each folder and :func:`watch_mounts` the mount table, so
an idle bridge sleeps in the kernel; a one-second check of everything runs only while that
coverage is incomplete, and everywhere else (less often when checking takes long: tens of
thousands of granted folders).

Events name paths as the watch sees them: resolved through links (macOS reports ``/private/tmp``
for ``/tmp``), and on macOS in the disk's case and Unicode form. A granted folder is matched under
every such name (:func:`folder_targets`), so its changes do not wait for the periodic check.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Collection, Iterable, Sequence

from roots_manager.core.directory.layout import Layout
from roots_manager.core.roots import identity
from roots_manager.support.dirwatch import DirWatch

STORE_DEBOUNCE = 0.030
STORE_SETTLE = 0.005
"""A save is a few calls in a row (write, rename): it is told 5 ms after the last of them."""
FOLDER_DEBOUNCE = 0.050
FOLDER_SETTLE = 0.050
AVAILABILITY_PERIOD = 1.0
CHECK_SHARE = 0.1
"""The most of the bridge's time the periodic check may take. Checking tens of thousands of
granted folders takes seconds; every second, it would keep the bridge busy for good."""


def folder_targets(
    folders: Iterable[str],
    realpath: identity.Resolve | None = None,
    isdir: Callable[[str], bool] = os.path.isdir,
    platform: str = sys.platform,
) -> tuple[frozenset[str], frozenset[str]]:
    """What to watch for *folders*: the keys (:func:`identity.watch_key`) of every path an
    event about one of them can carry, and the existing directories to watch for it.

    *realpath* resolves links (by default :class:`identity.RealPaths`, which resolves the
    folders' shared parents once: this runs at every store change and periodic check)."""
    resolve = identity.RealPaths().realpath if realpath is None else realpath
    names = {name for folder in folders for name in identity.watched_as(folder, resolve)}
    dirs = {os.path.dirname(n) for n in names}
    parents = frozenset(p for p in dirs if p and isdir(p))
    return frozenset(identity.watch_key(n, platform) for n in names), parents


Outcome = set[str] | BaseException | None


async def watch_dirs(
    paths: Sequence[str],
    keep: Callable[[str], bool],
    on_change: Callable[[], None],
    stop: asyncio.Event,
    *,
    debounce: float,
    settle: float,
    written: bool = True,
    on_ready: Callable[[], None] | None = None,
) -> None:
    """Call *on_change* after each burst of changes in the directories *paths* (not their
    subdirectories) that names a path *keep* accepts, until *stop* is set (*written*: whether
    a file written in place is a change, :class:`~roots_manager.support.dirwatch.DirWatch`).

    The watch is in place when this first yields to the loop; a thread of its own waits on it
    (in the kernel, with no timer, on Linux) and hands each burst to the loop. Raises
    ``OSError`` when a directory cannot be watched, ``RuntimeError`` when the watch fails
    later; *on_change*'s own errors propagate too. *on_ready* is called once the watch is in
    place.
    """
    watch = DirWatch(paths, written=written)
    if on_ready is not None:
        on_ready()
    loop = asyncio.get_running_loop()
    bursts: asyncio.Queue[Outcome] = asyncio.Queue()

    def wait() -> None:
        end: Outcome = None
        try:
            while (changes := watch.wait(None, debounce, settle)) is not None:
                loop.call_soon_threadsafe(bursts.put_nowait, changes)
        except BaseException as exc:  # handed to the loop: the watch's owner decides
            end = exc
        finally:
            watch.close()  # by this thread, which no longer waits on it
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(bursts.put_nowait, end)

    threading.Thread(target=wait, name="roots-bridge watch", daemon=True).start()
    stopper = loop.create_task(stop.wait())
    stopper.add_done_callback(lambda _: watch.stop())
    try:
        while (outcome := await bursts.get()) is not None:
            if isinstance(outcome, BaseException):
                raise outcome
            # every path looked at (not the first kept alone): *keep* may note what it kept
            if [path for path in outcome if keep(path)]:
                on_change()
    finally:
        stopper.cancel()  # cancelled, or on_change failed: the thread ends at once
        watch.stop()


async def _pause(event: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(event.wait(), seconds)


def refusal(exc: BaseException) -> str:
    """Why a watch could not be made or kept, in words a user can act on."""
    if isinstance(exc, OSError) and exc.errno == errno.EMFILE:
        return (
            "this user has no inotify instance left, the limit being fs.inotify.max_user_instances"
        )
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return "this user has no inotify watch left, the limit being fs.inotify.max_user_watches"
    return str(exc) or type(exc).__name__


async def watch_store(
    layout: Layout,
    on_change: Callable[[set[str]], None],
    stop: asyncio.Event,
    also: Collection[str] = (),
    watching: Callable[[BaseException | None], None] | None = None,
) -> None:
    """Call *on_change* after each burst of saves of the store file, until *stop* is set, with
    the names of the files of the burst that count (the store's and those of *also*).

    *also* names other files of the per-user directory whose changes count too. *watching* is
    told each time the watch is in place (None) or could not be made or kept (the error): while
    it is not, only a periodic check notices what changes.
    """
    names = {layout.store.name, *also}
    burst: set[str] = set()

    def only_store(path: str) -> bool:
        name = os.path.basename(path)
        if name in names:
            burst.add(name)
            return True
        return False

    def changed() -> None:
        seen = set(burst)
        burst.clear()
        on_change(seen)

    def ready() -> None:
        if watching is not None:
            watching(None)

    while not stop.is_set():
        try:
            await watch_dirs(
                [str(layout.home)],
                only_store,
                changed,
                stop,
                debounce=STORE_DEBOUNCE,
                settle=STORE_SETTLE,
                on_ready=ready,
            )
        except (OSError, RuntimeError) as exc:
            # the directory went away, the kernel refused the watch (no inotify instance
            # left), or the watcher failed: the periodic check re-reads the store, so keep
            # trying without busy-looping
            if watching is not None:
                watching(exc)
            await _pause(stop, AVAILABILITY_PERIOD)


class FolderWatch:
    """Calls *on_change* when a granted folder appears, vanishes or changes its permissions.

    *folders* gives the paths of the folders the server may see (available or not);
    :meth:`refresh` picks up a new set, :meth:`close` ends :meth:`run`.
    """

    def __init__(
        self, folders: Callable[[], Collection[str]], on_change: Callable[[], None]
    ) -> None:
        self._folders = folders
        self._on_change = on_change
        self._watched: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
        self._rearm = asyncio.Event()
        self._closed = False

    def _targets(self) -> tuple[frozenset[str], frozenset[str]]:
        return folder_targets(self._folders())

    @property
    def watched(self) -> frozenset[str]:
        """The directories being watched now (set once their watch is in place)."""
        return self._watched[1]

    def refresh(self) -> None:
        """Watch the folders' parents as they are now, if that differs from what is watched."""
        if self._targets() != self._watched:
            self._rearm.set()

    def close(self) -> None:
        """End :meth:`run` (its watcher thread stops at once)."""
        self._closed = True
        self._rearm.set()

    async def run(self) -> None:
        """Watch until :meth:`close`."""
        while not self._closed:
            self._rearm.clear()
            # the watch is in place before watch_dirs first yields to the loop, so whoever
            # reads `watched` on the loop sees directories that are really watched
            self._watched = paths, parents = self._targets()
            if not parents:
                await self._rearm.wait()
                continue

            def granted(path: str, paths: frozenset[str] = paths) -> bool:
                return identity.watch_key(path) in paths

            try:
                await watch_dirs(
                    sorted(parents),
                    granted,
                    self._on_change,
                    self._rearm,
                    debounce=FOLDER_DEBOUNCE,
                    settle=FOLDER_SETTLE,
                    written=False,  # a folder is not written in place
                )
            except (OSError, RuntimeError):
                # a parent vanished between the look and the watch: the periodic check
                # notices the change and asks for a refresh
                await _pause(self._rearm, AVAILABILITY_PERIOD)


async def watch_mounts(on_change: Callable[[], None], stop: asyncio.Event) -> None:
    """Call *on_change* after each change of this process's mount table, until *stop* is set
    (Linux; raises :class:`OSError` where the table cannot be watched).

    A thread waits in the kernel for the change; nothing wakes in between."""
    if sys.platform != "linux":
        raise OSError("the mount table is watched on Linux only")
    from roots_manager.platform.linux import mounts

    watch = mounts.MountWatch()
    loop = asyncio.get_running_loop()

    def wait() -> None:
        try:
            while watch.wait():
                with contextlib.suppress(RuntimeError):  # the loop is gone: the run ended
                    loop.call_soon_threadsafe(on_change)
        finally:
            watch.release()

    threading.Thread(target=wait, name="mount-watch", daemon=True).start()
    try:
        await stop.wait()
    finally:
        watch.close()


async def _first(*events: asyncio.Event) -> None:
    """Wait until any of *events* is set."""
    waits = [asyncio.ensure_future(e.wait()) for e in events]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()


def pause_after(period: float, took: float, share: float = CHECK_SHARE) -> float:
    """How long to wait after a check that took *took* seconds: *period*, or longer, so that
    the checks take at most *share* of the time."""
    return max(period, took * (1.0 - share) / share)


async def every(
    period: float,
    tick: Callable[[], None],
    stop: asyncio.Event,
    *,
    resting: Callable[[], bool] = lambda: False,
    wake: asyncio.Event | None = None,
) -> None:
    """Call *tick* every *period* seconds until *stop* is set (less often if it is slow), but
    while *resting* says the kernel reports every change: then sleep until *wake* is set.

    A tick that fails is reported on stderr and the next one runs: this is the fallback that
    must outlive whatever made one check fail.
    """
    pause = period
    while not stop.is_set():
        if wake is not None and resting():
            wake.clear()
            if resting():  # not woken between the look and the clear
                await _first(stop, wake)
            continue
        await _pause(stop, pause)
        if not stop.is_set():
            started = time.monotonic()
            try:
                tick()
            except Exception:  # a bug; say so, and keep checking
                print("roots-bridge: a periodic check failed:", file=sys.stderr)
                traceback.print_exc()
            pause = pause_after(period, time.monotonic() - started)
