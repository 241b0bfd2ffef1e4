"""The app's live view of the per-user directory: the store and the markers of running bridges.

Changes made elsewhere (the CLI, a bridge, another instance) arrive through a watch on the
*directories* (a save renames a new file over the store, which a watch on the file itself would
miss after the first save). The watch runs in a thread of its own, so the GUI never blocks on it
and no asyncio task is involved; a slow timer also rechecks the markers, because a bridge killed
with SIGKILL leaves its marker behind and only its dead process id tells.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Callable, Iterable
from typing import TypeVar

from PySide6.QtCore import QObject, QThread, QTimer, Signal

from roots_manager.core.confinement.confined import confines_new, network_state, starts_confined
from roots_manager.core.roots import identity
from roots_manager.core.runs import live
from roots_manager.core.runs.live import BridgeMarker
from roots_manager.core.store.file import Store, StoreError, StoreUnreadable
from roots_manager.core.store.state import State
from roots_manager.gui.common.errors import error_text, watch_trouble_text
from roots_manager.support.dirwatch import SteadyWatch
from roots_manager.support.refusal import Refusal

log = logging.getLogger(__name__)

T = TypeVar("T")

RECHECK_MS = 2000
"""How often the store and the live markers are read again, whatever the watch reported."""


def where_changed(
    paths: Iterable[str],
    live_dir: str,
    realpath: identity.Resolve = os.path.realpath,
    platform: str = sys.platform,
) -> tuple[bool, bool]:
    """Whether the changed *paths* lie in the store's directory, in the live markers' one.

    An event names the directory as the watch resolved it (``/private/var/...`` on macOS for
    ``/var/...``), in the disk's case and Unicode form there: compared by
    :func:`identity.watch_key` of both spellings of *live_dir*, a marker change is not taken for
    a store change (and the markers left to the recheck timer).
    """
    live_keys = {identity.watch_key(d, platform) for d in (live_dir, realpath(live_dir))}
    dirs = {identity.watch_key(p.rsplit("/", 1)[0].rsplit("\\", 1)[0], platform) for p in paths}
    return any(d not in live_keys for d in dirs), any(d in live_keys for d in dirs)


class _WatchThread(QThread):
    """Waits on the store and live directories (:class:`SteadyWatch`) until stopped."""

    changed = Signal(bool, bool)
    """Something changed: (in the store's directory, in the live markers' directory)."""
    following = Signal(object)
    """Why the directories are not watched (an exception: polled meanwhile, retried), or None
    once they are again."""

    def __init__(self, store: Store, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._home = str(store.layout.home)
        self._live = str(store.layout.live)
        self._lock = threading.Lock()
        self._watch: SteadyWatch | None = None
        self._stopped = False

    def run(self) -> None:
        try:
            with self._lock:
                if self._stopped:
                    return
                dirs = [os.path.realpath(self._home), os.path.realpath(self._live)]
                self._watch = watch = SteadyWatch(dirs, on_trouble=self.following.emit)
            with watch:
                while (changes := watch.wait(None, debounce=0.03, settle=0.01)) is not None:
                    if changes:
                        self.changed.emit(*where_changed(changes, self._live))
        except Exception:  # the watch is a convenience: the timer still refreshes
            log.exception("watching %s stopped", self._home)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            if self._watch is not None:
                self._watch.stop()
        self.wait(5000)


class StoreWatcher(QObject):
    """Holds the current state and live markers, and announces every change."""

    state_changed = Signal(object)
    """The store changed; the argument is the new :class:`State`."""
    markers_changed = Signal(object)
    """The set of live bridges or what they report changed; the argument is the marker list."""
    store_failed = Signal(str)
    """The store cannot be read (corrupt, newer, unreadable); the argument says why."""
    store_recovered = Signal()
    """The store can be read again after a failure."""
    edit_failed = Signal(str)
    """An edit was refused or could not be saved; the argument is a message for the user."""
    following = Signal(str)
    """Why changes made elsewhere are not followed live ("...; retrying", in the user's
    language), or "" once they are again (the periodic recheck reads the files meanwhile)."""
    live_looked_at = Signal()
    """The live folder changed, or the periodic recheck came: what is read there besides the
    bridges' markers (a learning's, whose process may have died since) may have changed."""

    def __init__(self, store: Store, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.layout = store.layout
        self.state = State()
        self.markers: list[BridgeMarker] = []
        from roots_manager.sandbox.availability import confines_by_default

        self.by_default = confines_by_default()
        """Whether this machine starts a server whose confinement is not decided confined
        (:attr:`~roots_manager.core.servers.server.Server.confine`): what the store's None means here."""
        self.error: str | None = None
        self.trouble = ""
        """Why changes are not followed live now ("" when they are)."""
        self._stamp: tuple[int, int, int] | None = None
        """The store file's (inode, size, modification time) when it was last read well."""
        self._thread: _WatchThread | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(RECHECK_MS)
        self._timer.timeout.connect(self._recheck)

    def start(self) -> None:
        """Read the current state and start following changes."""
        self.reload()
        if self._thread is None:
            self._thread = _WatchThread(self.store, self)
            self._thread.changed.connect(self._on_changed)
            self._thread.following.connect(self._on_following)
            self._thread.start()
        self._timer.start()

    def stop(self) -> None:
        """Stop following changes (waits for the watch thread to end)."""
        self._timer.stop()
        if self._thread is not None:
            self._thread.stop()
            self._thread = None

    def _on_following(self, trouble: BaseException | None) -> None:
        self.trouble = "" if trouble is None else watch_trouble_text(trouble)
        self.following.emit(self.trouble)

    def _on_changed(self, in_home: bool, in_live: bool) -> None:
        if in_home:
            self.reload_state()
        if in_live:
            self.reload_markers()
            self.live_looked_at.emit()

    def reload(self) -> None:
        """Re-read both the store and the markers."""
        self.reload_state()
        self.reload_markers()

    def _recheck(self) -> None:
        # The watch can miss a change: one saved while it was still starting, or on a file
        # system without change notification. Looking at the file's stamp again is cheap,
        # and a reload announces only a real change.
        self.reload_state()
        self.reload_markers()
        self.live_looked_at.emit()

    def _file_stamp(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.store.path)
        except OSError:
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    def reload_state(self) -> None:
        """Re-read the store if the file changed, announcing a change or a failure."""
        # The recheck timer and the watch (which also fires for the lock file) come often, and
        # a large store takes a second to parse: a save or an edit in place changes the inode,
        # the size or the modification time, so the same stamp is the same document.
        stamp = self._file_stamp()
        if stamp is not None and stamp == self._stamp and self.error is None:
            return
        try:
            state = self.store.read()
        except StoreError as exc:
            if self.error != str(exc):
                self.error = str(exc)
                self.store_failed.emit(self.error)
            return
        self._stamp = stamp
        if self.error is not None:
            self.error = None
            self.store_recovered.emit()
        if state.to_json() != self.state.to_json():
            self.state = state
            self.state_changed.emit(state)

    def reload_markers(self) -> None:
        """Re-read the live markers, announcing a change."""
        markers = live.bridge_markers(self.layout)
        if [vars(m) for m in markers] != [vars(m) for m in self.markers]:
            self.markers = markers
            self.markers_changed.emit(markers)

    def runs_confined(self, server: str) -> bool:
        """Whether *server* runs confined: as its running bridges say, else as it would start
        now (its setting, or the default for new servers on this machine)."""
        mine = [m for m in self.markers if m.server == server]
        if mine:
            return any(m.confined for m in mine)
        srv = self.state.servers.get(server)
        if srv is None:
            return confines_new(self.state, self.by_default)
        return starts_confined(self.state, srv, self.by_default)

    def network_of(self, server: str) -> str:
        """*server*'s network when it runs confined: ``allowed``, ``domains`` or ``blocked``
        (:func:`~roots_manager.core.confinement.confined.network_state`; allowed for a server
        not known)."""
        srv = self.state.servers.get(server)
        return "allowed" if srv is None else network_state(srv)

    def act(self, action: Callable[[Store], T]) -> T | None:
        """Run *action*, a use case of :mod:`roots_manager.actions`, on the store and refresh at
        once: ``watcher.act(lambda store: revoke(store, server, [root]))``.

        Returns what *action* returned, or None when it was refused (then ``edit_failed``
        carries the reason, in the user's language).
        """
        try:
            result = action(self.store)
        except StoreUnreadable:
            # the core's message sends the user to the CLI; in the app, Recover is at hand
            self.edit_failed.emit(
                self.tr(
                    "Your change was not saved: the store cannot be read. Choose Recover… "
                    "above the tabs to repair it."
                )
            )
            self.reload_state()
            return None
        except StoreError as exc:
            self.edit_failed.emit(self.tr("Your change was not saved: {reason}").format(reason=exc))
            self.reload_state()
            return None
        except Refusal as exc:  # the state's, or a path or URI that cannot name a root
            self.edit_failed.emit(error_text(exc))
            self.reload_state()
            return None
        self.reload_state()
        return result
