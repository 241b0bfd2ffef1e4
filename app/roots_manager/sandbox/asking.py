"""Ask, don't refuse: a confined server's read outside its grants waits while the user is asked.

Landlock's rules are fixed when the server starts, so a folder granted while it runs is out of
its reach until a restart. This closes that gap for reading, without one: a call that opens a
file or a folder to read and that the rules refuse is *held* (the seccomp notification is not
answered) and told as a refusal that waits (``waits``: its seconds). The bridge, which relays
the host's requests, reads that line and says at once whether it is a question: a host's request
is in flight (the one the refusal is tied to) and someone can answer (the app, or
``roots-manager questions --follow``). Not a question: the call goes on to the kernel, which
refuses it, a moment later (the bridge's answer is a line on a pipe, well under a millisecond
on an idle machine). A question: it waits for up to the server's ask timeout, and the app and
``roots-manager questions`` show it. If the user grants a folder holding it meanwhile
(``roots-manager grant``, the app's **Allow**), the bridge tells the supervisor the folders
granted since the start (``allow``), and the supervisor opens the file itself and puts the
descriptor into the caller's table (``SECCOMP_IOCTL_NOTIF_ADDFD``): the call returns as if it
had been allowed all along, and every later read there is served the same way, for the rest of
the run. No answer in time: the call goes on to the kernel, which refuses it, and so is every
later read in that folder, at once (a server reading five files there waits for one question,
not five).

The bridge decides whether a refusal is a question, not the supervisor, because only the bridge
knows the host's requests, and it learns them late: its relay notes each line in C and counts
them together a moment later. Every line is noted before it is written to the server, and the
bridge counts what was noted before it reads a refusal, so a request that caused a refusal is
always known by the time its refusal is judged.

What is served is decided on the object, never a path read twice: the path is opened here as the
kernel would reach it for the caller
(:meth:`~roots_manager.sandbox.notified_calls._Caller.resolve`), and that very object must be
reached again from the granted folder's own descriptor without leaving it
(:meth:`~roots_manager.sandbox.notified_calls.NotifiedCalls.beneath`), and lie in none of the
folder's hidden places (secrets, which the bridge lists with each folder). Only reading is
served: a file opened to write, a program run, a name made still need the next start (the
bridge offers the restart).

The bridge's messages, one JSON object a line on the answers pipe: ``{"ask": P}``, the refusal
told for path P is a question: the calls held there wait for the answer; ``{"refuse": P}``, it
is not: they go on to be refused now; ``{"idle": true}``, the host's requests are all answered:
the questions held are over (refused, their folders not marked); ``{"deny": true}``, the user's
no: every read waiting is refused now (its folder not asked about again); ``{"allow": [{"path":
P, "hidden": [...]}, ...]}``, the whole list each time (a folder revoked since is left out, and
served no more); ``{"once": [{"path": P, "hidden": [...]}]}``, the user's yes for the reads
waiting now only: those held when it comes are served there, and a later read there is asked
about again; ``{"domains": [...]}``, the domains a server limited to them may reach now, the
whole list each time: a connection its proxy refused waits as a read does (its path
``network: HOST:PORT``, :meth:`Asker.connection`), and goes on once they allow it;
``{"domains_once": [D]}``, the user's yes to domain D for the connections waiting now only.
The pipe's end (the bridge is gone) ends every wait.

One read the rules refuse is answered at once, and never asked about: the folder the server was
started in (where the host started it: the home, ``/``), opened to be listed. It is answered
with an empty folder of Roots Manager's (:data:`STAND_IN`), so a runtime that lists its start
folder and stops if it cannot (bun) goes on, and sees none of the names there
(:meth:`Asker._serve_start`).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import sys
import threading
import time

from roots_manager.sandbox import notified_calls
from roots_manager.support.paths import inside

assert sys.platform == "linux", "imported only where Landlock confines (Linux)"

TYPE_CHECKING = False  # not typing's: the supervisor must not pay for importing it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from roots_manager.sandbox.observer import Observer

    Send = Callable[[notified_calls.Notification, int, bool], None]

HELD = 16
"""Calls held at once, at most; past that a refusal is not held (the kernel refuses it)."""
NOT_ASKED_FOR = 1.0
"""Seconds after the bridge said a read held in a folder is no question during which the next
reads refused there are not held (refused at once, and folded as any refusal): a walk refused
with nobody to answer, or between requests, waits for the bridge once a second, not once a
file."""
UNANSWERED_KEPT = 4096
"""Folders whose question went unanswered, remembered (past that, the oldest are forgotten)."""
LINE_MAX = 1 << 20
READ_ONLY_RIGHTS = 0o3 | 0o100 | 0o1000  # O_WRONLY|O_RDWR, O_CREAT, O_TRUNC: none of them
O_PATH = 0o10000000
STAND_IN = "empty"
"""The folder beside each server's own temporary folder (Roots Manager's ``confined/empty``),
kept empty: it stands in for a folder a server may not list, its start folder here (and a
hidden place mounted into a container, in the bridge)."""


class Folder:
    """A folder (or a file) granted while the server runs: its real path, a descriptor of it,
    and its hidden places."""

    __slots__ = ("fd", "hidden", "path")

    def __init__(self, path: str, fd: int, hidden: tuple[str, ...]) -> None:
        self.path = path
        self.fd = fd
        self.hidden = hidden


class Asker:
    """Holds the reads the rules refuse while the user is asked, and serves those a folder
    granted since the start holds (see the module's text), and the start folder as an empty
    one (:meth:`_serve_start`)."""

    def __init__(
        self,
        answers: int | None,
        timeout: float,
        observer: Observer,
        calls: notified_calls.NotifiedCalls,
        send: Send,
        empty: str | None = None,
    ) -> None:
        self.timeout = timeout
        self.empty = empty
        """An empty folder of Roots Manager's that stands in for the start folder (None: none)."""
        self.start: tuple[str, int, int] | None = None
        """The folder the server started in: its path, device and inode; None if it is gone."""
        self.start_said = False
        """Whether the host's log was told the start folder reads empty (once a run)."""
        try:
            # the supervisor's working folder is the one the server started in
            st = os.stat(where := os.getcwd())
            self.start = (where, st.st_dev, st.st_ino)
        except OSError:
            pass  # gone already: nothing to stand in for
        self.observer = observer
        self.calls = calls
        self.send = send
        self.folders: list[Folder] = []
        self.once: list[tuple[float, Folder]] = []
        """Folders allowed for the reads held when the answer came (and when it came)."""
        self.retired: list[int] = []
        self.open = True
        """The bridge is there to say which refusals are questions (its pipe has not ended)."""
        self.questions: dict[str, tuple[int, int]] = {}
        """Per path held: how many times the bridge said it is a question, and
        :attr:`idle` then."""
        self.refusals: dict[str, int] = {}
        """Per path held: how many times the bridge said it is not a question."""
        self.idle = 0
        """How many times the bridge said the host's requests were all answered."""
        self.not_asked: dict[str, float] = {}
        """When the bridge last said a read held in a folder was no question."""
        self.changed = threading.Condition()
        self.held = threading.BoundedSemaphore(HELD)
        self.unanswered: dict[str, None] = {}
        """The folders a question went unanswered in: their reads are refused at once."""
        self.denials = 0
        """How many times the user said no: a read held before the last one is refused."""
        self.domains_once: list[tuple[float, str]] = []
        """Domains allowed for the connections held when the answer came (and when it came)."""
        self.domains: tuple[str, ...] | None = None
        """The domains a server limited to them may reach now, as the bridge last said (None:
        not said since the start): its proxy connects where these match too."""
        if answers is None:  # no bridge to answer (the server asks nothing): nothing is held
            self.open = False
        else:
            threading.Thread(
                target=self._read, args=(answers,), name="answers", daemon=True
            ).start()

    # the bridge's side

    def _read(self, fd: int) -> None:
        """Read the bridge's messages until the pipe ends."""
        pending = b""
        while True:
            try:
                data = os.read(fd, 65536)
            except InterruptedError:
                continue
            except OSError:
                data = b""
            if not data:
                with self.changed:
                    self.open = False
                    self.changed.notify_all()
                return
            pending += data
            *lines, pending = pending.split(b"\n")
            if len(pending) > LINE_MAX:
                pending = b""  # not the bridge's: dropped
            for line in lines:
                self._message(line)

    def _message(self, line: bytes) -> None:
        try:
            message = json.loads(line)
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        with self.changed:
            if isinstance(message.get("ask"), str):
                told = self.questions.get(message["ask"], (0, 0))[0]
                self.questions[message["ask"]] = (told + 1, self.idle)
                _bound(self.questions)
            if isinstance(message.get("refuse"), str):
                self.refusals[message["refuse"]] = self.refusals.get(message["refuse"], 0) + 1
                _bound(self.refusals)
                self.not_asked[os.path.dirname(message["refuse"])] = time.monotonic()
                _bound(self.not_asked)
            if message.get("idle") is True:
                self.idle += 1
            if message.get("deny") is True:
                self.denials += 1
            if isinstance(message.get("allow"), list):
                self._allow(message["allow"])
            if isinstance(message.get("domains"), list):
                self.domains = tuple(d for d in message["domains"] if isinstance(d, str))
            if isinstance(message.get("domains_once"), list):
                now = time.monotonic()
                self.domains_once = [
                    (at, d) for at, d in self.domains_once if at >= now - self.timeout
                ]
                self.domains_once += [
                    (now, d) for d in message["domains_once"] if isinstance(d, str)
                ]
            if isinstance(message.get("once"), list):
                now = time.monotonic()
                # no call waits longer than the timeout: what is older is of no one's use
                old = [f for at, f in self.once if at < now - self.timeout]
                self.retired.extend(f.fd for f in old)
                self.once = [(at, f) for at, f in self.once if at >= now - self.timeout]
                self.once += [(now, f) for f in self._opened(message["once"], {})]
            self.changed.notify_all()

    def _allow(self, allowed: list[object]) -> None:
        """Replace the folders granted since the start (the caller holds :attr:`changed`)."""
        kept = {f.path: f for f in self.folders}
        folders = self._opened(allowed, kept)
        # a folder revoked is served no more; its descriptor stays open for the run, as a
        # serving thread may hold it now (a number closed and reused would name another)
        self.retired.extend(gone.fd for gone in kept.values())
        self.folders = folders

    def _opened(self, allowed: list[object], kept: dict[str, Folder]) -> list[Folder]:
        """The folders (or files) of the bridge's list *allowed*, each opened here, or taken
        from *kept* (and removed from it) where it was already."""
        from roots_manager.support.nofollow import open_no_follow

        folders: list[Folder] = []
        for entry in allowed:
            if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
                continue
            path = os.path.realpath(entry["path"])
            hidden = tuple(
                os.path.realpath(h) for h in entry.get("hidden", ()) if isinstance(h, str)
            )
            old = kept.pop(path, None)
            if old is not None:
                old.hidden = hidden
                folders.append(old)
                continue
            try:
                fd = open_no_follow(path)
            except OSError:
                continue  # gone, or a link on its way: nothing is served there
            folders.append(Folder(path, fd, hidden))  # a file granted alone: itself only
        return folders

    # the server's side

    def takes(self, caller: notified_calls._Caller, name: str, args: tuple[int, ...]) -> bool:
        """Whether this observed call is a read the rules refuse that is answered here: served
        now from a folder granted since the start, or held while the user is asked. The call
        is then answered (now or later) and *caller* closed here; False: the caller goes on
        as without this."""
        if name not in ("open", "openat"):
            return False
        at = name == "openat"
        flags = notified_calls._int(args[2] if at else args[1])
        if flags & (READ_ONLY_RIGHTS | O_PATH):
            return False
        found = self.observer.judge(caller, name, args)
        if found is None:
            return False
        dirfd = notified_calls._int(args[0]) if at else notified_calls.AT_FDCWD
        address = args[1] if at else args[0]
        if self._serve(caller, dirfd, address, flags) or self._serve_start(
            caller, dirfd, address, flags, found[0]
        ):
            caller.close()
            return True
        folder = os.path.dirname(found[0])
        with self.changed:
            said = self.not_asked.get(folder)
            asking = (
                self.open
                and self.timeout > 0
                and folder not in self.unanswered
                and (said is None or time.monotonic() - said >= NOT_ASKED_FOR)
            )
            # what the bridge says of this path from now on is about this call
            told = (self.questions.get(found[0], (0, 0))[0], self.refusals.get(found[0], 0))
        if not asking or not self.held.acquire(blocking=False):
            return False
        since = time.monotonic()  # an answer once from now on is this call's too
        if not self.observer.tell(caller, name, *found, waits=self.timeout):
            self.held.release()  # the bridge will not hear of it: nobody could answer
            return False
        threading.Thread(
            target=self._hold,
            args=(caller, dirfd, address, flags, found[0], since, told),
            daemon=True,
        ).start()
        return True

    def _hold(
        self,
        caller: notified_calls._Caller,
        dirfd: int,
        address: int,
        flags: int,
        path: str,
        since: float,
        told: tuple[int, int],
    ) -> None:
        """Wait for the bridge to say whether the call is a question (*told*: what it had said
        of *path* before), then for a folder granted that holds the call's object (*path*, as
        judged): served; or else refused (the kernel's answer) at :meth:`_await`'s end."""

        def served() -> bool:
            with self.changed:
                once = [f for at, f in self.once if at >= since]
            return self._serve(caller, dirfd, address, flags, once)

        done = asked = False
        try:
            done, asked = self._await(path, os.path.dirname(path), since, told, served)
            if not done:
                with contextlib.suppress(OSError):
                    notified_calls.respond(
                        caller.listener, caller.note, flags=notified_calls.FLAG_CONTINUE
                    )
        finally:
            if done or asked:  # a question (or served while not one yet)
                self._answered(path, done)
            caller.close()
            self.held.release()

    def _await(
        self,
        path: str,
        folder: str,
        since: float,
        told: tuple[int, int],
        ready: Callable[[], bool],
    ) -> tuple[bool, bool]:
        """Wait, for what was held at *path* (*told*: what the bridge had said of it before),
        until *ready* says it may go on, or the bridge says it is no question, or the
        timeout, the user's no (then *folder* is not asked about again), or the host's
        requests all answered. Returns whether *ready* said yes, and whether it was a
        question."""
        deadline = since + self.timeout
        with self.changed:
            denials = self.denials
        asked: int | None = None
        """:attr:`idle` when the bridge said it is a question (None: not said yet)."""
        while True:
            if ready():
                return True, asked is not None
            with self.changed:
                if asked is None:
                    said, idle = self.questions.get(path, (0, 0))
                    if said != told[0]:
                        asked = idle
                    elif self.refusals.get(path, 0) != told[1]:
                        break  # not a question: refused now, as without asking
                left = deadline - time.monotonic()
                if not self.open or (asked is not None and self.idle != asked):
                    break
                if left <= 0 or self.denials != denials:
                    if asked is not None:
                        self.unanswered[folder] = None
                        _bound(self.unanswered)
                    break
                self.changed.wait(left)
        return False, asked is not None

    def connection(
        self, path: str, allowed: Callable[[tuple[str, ...]], bool], tell: Callable[[float], bool]
    ) -> bool:
        """A connection the proxy refused (*path*, ``network: HOST:PORT``) held while the user
        is asked, as a read is: told by *tell* (with its wait, False if it could not be),
        then waiting until the domains the bridge sends allow it (*allowed*): True, it may
        be made. False: refused (at once where it is no question)."""
        with self.changed:
            asking = self.open and self.timeout > 0 and path not in self.unanswered
            told = (self.questions.get(path, (0, 0))[0], self.refusals.get(path, 0))
        if not asking or not self.held.acquire(blocking=False):
            return False
        done = asked = False
        try:
            since = time.monotonic()
            if not tell(self.timeout):
                return False

            def ready() -> bool:
                with self.changed:
                    once = tuple(d for at, d in self.domains_once if at >= since)
                    return allowed(once) or (self.domains is not None and allowed(self.domains))

            done, asked = self._await(path, path, since, told, ready)
            return done
        finally:
            if done or asked:
                self._answered(path, done)
            self.held.release()

    def _answered(self, path: str, served: bool) -> None:
        """Tell the bridge the question of the read of *path* is over: served, or refused
        (``roots-manager questions`` lists it no more)."""
        line = {"time": round(time.time(), 6), "answered": path, "served": served}
        with contextlib.suppress(OSError):  # a line under PIPE_BUF: written whole, or not
            os.write(self.observer.events, json.dumps(line).encode() + b"\n")

    def _serve(
        self,
        caller: notified_calls._Caller,
        dirfd: int,
        address: int,
        flags: int,
        once: list[Folder] | None = None,
    ) -> bool:
        """Open the call's object here and answer with it, if a folder granted since the start
        holds it (outside its hidden places), or one of *once* (allowed while it waited);
        False otherwise."""
        with self.changed:
            folders = [*self.folders, *(once or ())]
        if not folders:
            return False
        try:
            target = caller.resolve(dirfd, caller.string(address), follow=not flags & os.O_NOFOLLOW)
            where = os.readlink(f"/proc/self/fd/{target}")
        except (OSError, notified_calls.Refused):
            return False
        holding = [f for f in folders if inside(where, f.path)]
        if not holding or any(inside(where, h) for f in holding for h in f.hidden):
            return False
        if not self.calls.beneath(target, [(f.path, f.fd) for f in holding]):
            return False
        mode = os.fstat(target).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            return False  # a FIFO would wait here, a device is not a folder's file
        asked = os.O_RDONLY | (flags & (os.O_DIRECTORY | os.O_NONBLOCK | os.O_NOATIME))
        try:
            opened = os.open(f"/proc/self/fd/{target}", asked | os.O_CLOEXEC)
        except OSError as exc:
            if exc.errno == errno.EPERM and flags & os.O_NOATIME:
                opened = os.open(f"/proc/self/fd/{target}", (asked & ~os.O_NOATIME) | os.O_CLOEXEC)
            else:
                return False
        try:
            self.send(caller.note, opened, bool(flags & os.O_CLOEXEC))
        except notified_calls.Refused:
            return True  # the caller is gone: nothing is left to answer
        return True

    def _serve_start(
        self, caller: notified_calls._Caller, dirfd: int, address: int, flags: int, path: str
    ) -> bool:
        """Answer a read the rules refuse of *path* (as judged), if it is the folder the server
        was started in (where the host started it: the home, ``/``), with an empty folder;
        False if the call's object is another, or :attr:`empty` is not an empty folder of this
        user's only.

        Some runtimes list the folder they start in and stop if they cannot (bun: "error
        loading current directory"). Its names are not the server's to see, and it needs none
        of them: the listing it gets is empty, and it goes on. Nothing else changes: a path
        named from the start folder still reaches the real one, under the same rules, and
        the empty folder opens nothing (its descriptor is only a place to start from; what is
        reached from it is judged by the rules as from anywhere, and it takes no writes)."""
        if self.start is None or self.empty is None or path != self.start[0]:
            return False  # judged by its real path first: no other refusal opens anything here
        try:
            target = caller.resolve(dirfd, caller.string(address), follow=not flags & os.O_NOFOLLOW)
            st = os.fstat(target)
        except (OSError, notified_calls.Refused):
            return False
        if (st.st_dev, st.st_ino) != self.start[1:] or not stat.S_ISDIR(st.st_mode):
            return False
        with contextlib.suppress(OSError):  # made at its first use; one there is checked
            os.mkdir(self.empty, 0o700)
        try:
            empty = os.open(self.empty, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return False
        try:
            mine = os.fstat(empty)
            if mine.st_uid != os.geteuid() or mine.st_mode & 0o022 or os.listdir(empty):
                os.close(empty)  # not ours alone, or not empty: it stands in for nothing
                return False
            os.lseek(empty, 0, os.SEEK_SET)  # listed from its start by the caller
        except OSError:
            os.close(empty)
            return False
        with contextlib.suppress(notified_calls.Refused):  # the caller is gone: nothing to answer
            self.send(caller.note, empty, bool(flags & os.O_CLOEXEC))
        if not self.start_said:
            self.start_said = True
            line = f"roots-manager confine: the folder it started in ({path}) reads empty to it\n"
            with contextlib.suppress(OSError):
                os.write(2, line.encode(errors="replace"))
        return True


def _bound(kept: dict[str, Any]) -> None:
    """Forget the oldest of *kept* past :data:`UNANSWERED_KEPT`."""
    while len(kept) > UNANSWERED_KEPT:
        del kept[next(iter(kept))]
