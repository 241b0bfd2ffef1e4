"""The last ``roots/list`` answer, kept for as long as nothing it rests on can have changed.

An answer rests on the store file and on every folder it names: whether each exists, is a folder,
may be read, and where its path leads. On Linux an ``inotify`` descriptor watches every directory
the kernel consults to reach each of those paths (each component, and for a symbolic link every
directory its target passes through), the folders themselves and the store's directory. The
kernel queues an event before the call that made the change returns, so draining the descriptor
right before answering, and finding it empty, proves that no watched entry changed since the
answer was computed: the answer is given again without a single file-system call. Any event, an
overflow of the queue, or a watch the kernel refused, and the answer is computed afresh.

What inotify does not report, a file system mounted over a folder or over one of its parents,
is seen by the bridge's watch of the mount table, which drops the answer; a kept answer is
also given for at most :data:`MAX_AGE`. The same descriptor tells the bridge, while it idles,
that a path an answer rests on changed (:attr:`AnswerCache.covering`): it then sleeps with no
periodic check at all.

Elsewhere (macOS, Windows), and for a server granted more than :data:`MAX_FOLDERS` folders,
nothing is kept: every answer is computed.
"""

from __future__ import annotations

import os
import stat
import sys
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from roots_manager.platform.linux.inotify import (
    IN_ATTRIB,
    IN_CLOSE_WRITE,
    IN_CREATE,
    IN_DELETE,
    IN_DELETE_SELF,
    IN_DONT_FOLLOW,
    IN_IGNORED,
    IN_MODIFY,
    IN_MOVE_SELF,
    IN_MOVED_FROM,
    IN_MOVED_TO,
    IN_Q_OVERFLOW,
    Event,
    Inotify,
)

if TYPE_CHECKING:
    from roots_manager.core.consent.effective import ListRootsResult

_SELF = IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF
"""A folder, a directory on the way or a link there: its own permissions and links, it going
away or being replaced (what is inside does not matter, but for the names looked up in it)."""
_ENTRIES = _SELF | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
"""A directory in which a name looked up is missing: that entry appearing."""
_STORE_DIR = _ENTRIES | IN_MODIFY | IN_CLOSE_WRITE
"""The store's directory: also the store written in place (an edit by hand)."""
MAX_FOLDERS = 256
"""Granted folders beyond which nothing is kept: watching costs more than answering then."""
MAX_AGE = 1.0
"""Seconds an answer is kept at most: what inotify does not report (a mount) is seen by then."""
_MAX_LINKS = 40
"""Symbolic links followed along one path before giving up, as the kernel does."""


def consulted(path: str) -> tuple[set[str], str | None]:
    """The directories whose entries the kernel reads to reach *path* (every component, and for
    each symbolic link on the way the directories its target passes through), and where *path*
    leads if it exists. A path that leads nowhere gives the directories up to where it stops
    (the one in which the missing name would appear) and None."""
    steps, final = consulted_names(path)
    return set(steps), final


def consulted_names(path: str) -> tuple[dict[str, set[str]], str | None]:
    """As :func:`consulted`, with the names looked up in each directory: only an entry of one of
    those names appearing, going or changing there can change where *path* leads."""
    steps: dict[str, set[str]] = {}
    todo = [c for c in os.path.abspath(path).split("/") if c]
    cur = "/"
    links = 0
    while todo:
        name = todo.pop(0)
        if name == ".":
            continue
        if name == "..":
            cur = os.path.dirname(cur)
            continue
        steps.setdefault(cur, set()).add(name)
        nxt = os.path.join(cur, name)
        try:
            st = os.lstat(nxt)
        except (OSError, ValueError):
            return steps, None
        if stat.S_ISLNK(st.st_mode):
            links += 1
            if links > _MAX_LINKS:
                return steps, None
            try:
                target = os.readlink(nxt)
            except OSError:
                return steps, None
            if target.startswith("/"):
                cur = "/"
            todo[:0] = [c for c in target.split("/") if c]
            continue
        cur = nxt
    return steps, cur


class AnswerCache:
    """Keeps one answer while an ``inotify`` descriptor proves nothing it rests on changed.

    The descriptor lives as long as the cache: its watches are changed to what the next answer
    rests on, never dropped with it (closing an inotify descriptor waits for the kernel to
    retire its watches, which takes milliseconds).
    """

    def __init__(self) -> None:
        self._inotify: Inotify | None = None
        self._wds: set[int] = set()
        self._answer: ListRootsResult | None = None
        self._kept_at = 0.0
        self.enabled = sys.platform.startswith("linux") and not os.environ.get(
            "ROOTS_MANAGER_NO_ANSWER_CACHE"
        )
        self._relevant: dict[int, set[str]] = {}
        """For each watch, the entry names that matter in it (an event about the watched
        directory itself always does): a file created beside a folder on the way (in ``/tmp``,
        in the home folder) neither wakes the bridge nor costs the kept answer."""
        self._covering = False
        self.on_uncovered: Callable[[], None] | None = None
        """Called when the watches stop covering the last answer (the periodic check must
        take over until an answer is watched again)."""

    @property
    def covering(self) -> bool:
        """Whether every path the last answer rests on is watched and nothing changed since:
        the kernel then reports any change that could move it (but for mounts)."""
        return self._covering

    def fileno(self) -> int | None:
        """The descriptor that becomes readable when a watched path changes (None: none yet)."""
        return self._inotify.fileno() if self._inotify is not None else None

    def _uncover(self) -> None:
        if self._covering:
            self._covering = False
            if self.on_uncovered is not None:
                self.on_uncovered()

    def changed(self) -> bool:
        """Take the kernel's notices: True (and the answer forgotten) if a watched path changed."""
        if self._inotify is None or not self._moved():
            return False
        self._answer = None
        self._uncover()
        return True

    def _moved(self) -> bool:
        """Read every notice queued; True if one is about a path an answer rests on (or the
        descriptor failed, or its queue overflowed)."""
        assert self._inotify is not None
        return self._inotify.drain(self._matters)

    def _matters(self, event: Event) -> bool:
        if not event.name or event.mask & (IN_Q_OVERFLOW | IN_IGNORED):
            return True
        names = self._relevant.get(event.wd)
        return names is None or event.name in names

    def get(self) -> ListRootsResult | None:
        """The kept answer, if nothing it rests on changed since it was kept; else None."""
        if self._answer is None:
            return None
        if time.monotonic() - self._kept_at > MAX_AGE:
            self._answer = None
            return None
        if self._inotify is None or self._moved():
            self._answer = None
            self._uncover()
            return None
        return self._answer

    def keeps(self, folders: int) -> bool:
        """Whether an answer for that many *folders* can be kept (watched) at all."""
        return self.enabled and folders <= MAX_FOLDERS

    def watch(self, folders: Iterable[str], store: str) -> bool:
        """Watch what the answer for *folders* and the store at *store* rests on, before the
        answer is computed; False when that cannot be done (nothing will be kept)."""
        self._answer = None
        folders = list(folders)
        if not self.keeps(len(folders)):
            self._uncover()
            return False
        if self._inotify is None:
            try:
                self._inotify = Inotify()
            except OSError:  # no inotify here, or the limit of instances: nothing is kept
                return False
        inotify = self._inotify
        masks: dict[str, int] = {}
        names: dict[str, set[str]] = {}
        """The entries that matter in each directory watched for its entries."""

        def want(path: str, mask: int, entries: Iterable[str] = ()) -> None:
            masks[path] = masks.get(path, 0) | mask
            names.setdefault(path, set()).update(entries)

        def on_the_way(steps: dict[str, set[str]]) -> None:
            # each entry on the way is watched itself (a link as the link): it going, being
            # renamed, replaced or its permissions changed is told there, and a file created
            # beside it (in /tmp, in the home folder) wakes nobody; only where a name is
            # missing are the directory's entries watched, for it to appear
            for d, looked_up in steps.items():
                want(d, _SELF, looked_up)
                for name in looked_up:
                    entry = os.path.join(d, name)
                    if os.path.lexists(entry):
                        want(entry, _SELF | IN_DONT_FOLLOW)
                    else:
                        want(d, _ENTRIES)

        for folder in folders:
            steps, final = consulted_names(folder)
            on_the_way(steps)
            if final is not None:
                want(final, _SELF)
        store_path = os.path.abspath(store)
        steps, final = consulted_names(os.path.dirname(store_path))
        on_the_way(steps)
        if final is not None:
            want(final, _STORE_DIR, [os.path.basename(store_path)])
        # every path again: one that leads to another directory now gets a watch of its own
        wds = set()
        relevant: dict[int, set[str]] = {}
        ok = True
        for path, mask in masks.items():
            try:
                wd = inotify.add(path, mask)
                wds.add(wd)
                relevant.setdefault(wd, set()).update(names[path])
            except OSError:
                # gone since it was looked at, or a limit: the event that would say what changed
                # may have come before the watch, so nothing can be kept this time
                ok = False
                break
        for wd in self._wds - wds:
            inotify.remove(wd)
        self._wds = wds if ok else self._wds | wds
        self._relevant = relevant
        # what happened before now is in the answer about to be computed
        inotify.drain()
        if ok:
            self._covering = True
        else:
            self._uncover()
        return ok

    def keep(self, answer: ListRootsResult, folders: Iterable[str], watched: Iterable[str]) -> None:
        """Keep *answer*, computed after :meth:`watch` of *watched*, if it rests on the same
        *folders* (the store may have named others in between)."""
        if self._inotify is not None and list(folders) == list(watched):
            self._answer = answer
            self._kept_at = time.monotonic()
        else:  # what is watched is not what the answer rests on
            self._uncover()

    def drop(self) -> None:
        """Forget the answer (the watches stay until the next :meth:`watch`)."""
        self._answer = None
        self._uncover()
