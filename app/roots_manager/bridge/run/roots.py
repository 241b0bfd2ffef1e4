"""The answer the bridge gives to ``roots/list``: the store, the consent rules, and consent waits.

Every answer is :func:`roots_manager.core.consent.effective.effective` for this server, this command line and
this bridge run. It is computed on the spot (the folders' availability checked each time) unless
nothing it rests on can have changed since the last one, which the kernel tells
(:mod:`~roots_manager.bridge.run.answercache`, Linux): then the last answer is given again without a
file-system call. The store file is parsed again only when it changed on disk (its inode, size or
modification time), which keeps a computed answer well under a millisecond.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from roots_manager.bridge.run.answercache import AnswerCache
from roots_manager.core.consent.effective import ListRootsResult, effective, visible_roots
from roots_manager.core.store.file import Stamp, Store, StoreError, stamp_of
from roots_manager.core.store.state import State
from roots_manager.support import cyclic_gc

MISSING: Stamp = (0, 0, 0, 0)
"""The stamp of a store that is not there."""


class RootsSource:
    """Reads the store (parsing it again only when the file changed) and computes answers."""

    def __init__(
        self,
        store: Store,
        server: str,
        fingerprint: str,
        run: str,
        on_error: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        self.server = server
        self.fingerprint = fingerprint
        self.run = run
        self.on_error = on_error
        self._stamp: Stamp | None = None
        self._state = State()
        self._last_error: str | None = None
        self.cache = AnswerCache()
        self._listed: tuple[State, list[str]] | None = None

    def state(self) -> State:
        """The store's state; the last good one if the file cannot be read now, or is gone
        after this bridge read it (deleted, a link left dangling, a sync drive between two
        copies): no news, said once, until it is back."""
        try:
            stamp: Stamp | None = stamp_of(os.stat(self.store.path))
        except FileNotFoundError:
            stamp = MISSING
        except OSError:
            stamp = None
        if stamp is not None and stamp == self._stamp:
            return self._state
        if stamp == MISSING and self._stamp not in (None, MISSING):
            message = (
                f"the store is gone ({self.store.path} is missing, or a link to nothing): the "
                "grants last read are kept until it is back"
            )
            if message != self._last_error and self.on_error is not None:
                self.on_error(message)
            self._last_error = message
            return self._state
        saved = self.store.take_saved(stamp) if stamp is not None else None
        if saved is not None:
            # the file this bridge's store just wrote (its start recorded): that state, not
            # a second parse of tens of thousands of roots before the first answer
            self._state, self._stamp, self._last_error = saved, stamp, None
            return saved
        try:
            self._state = self.store.read()
        except StoreError as exc:
            # never answer from a damaged file, and never forget what was granted because of it
            message = str(exc)
            if message != self._last_error and self.on_error is not None:
                self.on_error(message)
            self._last_error = message
            return self._state
        self._last_error = None
        self._stamp = stamp
        return self._state

    def effective(self) -> ListRootsResult:
        """The ``ListRootsResult`` this server gets now; no folder when it cannot be computed."""
        kept = self.cache.get()
        if kept is not None:
            return kept
        try:
            watched_state = self.state() if self.cache.enabled else None
            watched = self._paths(watched_state) if watched_state is not None else []
            watching = self.cache.enabled and self.cache.watch(watched, str(self.store.path))
            # computed after the watches are in place: a change from now on drops the answer
            state = self.state()
            result = effective(state, self.server, fingerprint=self.fingerprint, run=self.run)
            if watching:
                # the folders of the state the answer was made from (the same state, most
                # often: its folders not listed again, 30,000 grants looked through once more)
                paths = watched if state is watched_state else self._paths(state)
                self.cache.keep(result, paths, watched)
            return result
        except Exception as exc:  # an answer the bridge gives, never a relay to the host
            message = f"the roots could not be computed ({exc!r}); the server is told no folder"
            if message != self._last_error and self.on_error is not None:
                self.on_error(message)
            self._last_error = message
            return {"roots": []}

    def folders(self) -> list[str]:
        """The paths of the folders this server may see, whether they are available or not
        (the same list until the state changes: not to be changed)."""
        return self._paths(self.state())

    def _paths(self, state: State) -> list[str]:
        # listed once per state read: the watches, the answer cache and the folder watcher each
        # ask, and at 30,000 grants each listing was 30 ms more before the first answer (a
        # state read is never changed: a new one comes with each change of the file)
        listed = self._listed
        if listed is None or listed[0] is not state:
            roots = visible_roots(state, self.server, fingerprint=self.fingerprint, run=self.run)
            listed = self._listed = (state, [r.path for r in roots])
        return listed[1]

    def pending(self) -> bool:
        """Whether a consent request for this server's command is still waiting for the user."""
        return any(
            p.server == self.server and p.fingerprint == self.fingerprint
            for p in self.state().pending
        )


class HeldAnswers:
    """The server's roots, handed to the protocol when it asks for them
    (:attr:`~roots_manager.bridge.protocol.actions.Kind.ROOTS_WANTED`), but held until the gate
    opens (registration done, consent decided). What waits for them waits in the protocol."""

    def __init__(
        self,
        source: RootsSource,
        give: Callable[[ListRootsResult], object],
        waiting: Callable[[], int],
    ) -> None:
        """*give*: where the roots are handed in (the protocol's ``roots_changed``);
        *waiting*: how many answers wait for them there."""
        self.source = source
        self.give = give
        self._waiting = waiting
        self.is_open = False
        self.first_held: float | None = None
        """When (``time.monotonic``) the first answer was held, if one was."""
        self.on_first_hold: Callable[[], None] | None = None
        """Called when the first answer is held (a consent wait counts from then)."""

    def wanted(self) -> None:
        """The protocol asks for the roots: handed in now, unless the gate is closed."""
        if self.is_open:
            self.give(self.source.effective())
        elif self.first_held is None and self.waiting:
            self.first_held = time.monotonic()
            if self.on_first_hold is not None:
                self.on_first_hold()

    @property
    def waiting(self) -> int:
        """How many answers are held now."""
        return self._waiting()

    def open(self) -> bool:
        """Stop holding the roots and give them to the answers held; True if there were any."""
        self.is_open = True
        if not self.waiting:
            return False
        # the cyclic collector would walk the answer of 30,000 folders as soon as it was
        # made, before it is written: it does so once the answers are out
        with cyclic_gc.paused():
            self.give(self.source.effective())
        return True
