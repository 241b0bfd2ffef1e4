"""One bridge run from start to end: the server, both relays, the roots logic, the watchers.

The server process is already running when a :class:`Bridge` is made (``main`` starts it first
thing). The bridge pumps each direction in a thread of its own (:mod:`~roots_manager.bridge.transport.pump`)
and keeps the event loop for the protocol logic, the store watcher, the timers and the process
ladder; it records the run in the store and runs until the host or the server goes.

The server running now is a :class:`~roots_manager.bridge.run.running_server.RunningServer`,
which a restart swaps; the wait for the user's decision is
:mod:`~roots_manager.bridge.run.consent`'s; the runners of the two directions are
:mod:`~roots_manager.bridge.run.handlers`'.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Literal

from roots_manager import __version__
from roots_manager.bridge.protocol.inflight import Snapshot
from roots_manager.bridge.protocol.jsonrpc import root_uris
from roots_manager.bridge.protocol.mediator import Mediator
from roots_manager.bridge.protocol.restart import Restart, Seen, restart_reason
from roots_manager.bridge.run import clock
from roots_manager.bridge.run.confine import Launch, start
from roots_manager.bridge.run.consent import ConsentWait
from roots_manager.bridge.run.denials import Denials
from roots_manager.bridge.run.eventlog import BridgeLog
from roots_manager.bridge.run.file_spill import FileSpill
from roots_manager.bridge.run.handlers import host_runner, server_runner
from roots_manager.bridge.run.noted import Noted
from roots_manager.bridge.run.process import GRACE
from roots_manager.bridge.run.restarts import Restarts
from roots_manager.bridge.run.roots import HeldAnswers, RootsSource
from roots_manager.bridge.run.running_server import FLUSH_ASKED, FLUSH_TIMEOUT, RunningServer
from roots_manager.bridge.run.spawn import EXIT_CANNOT_START, exit_code, grow_pipe
from roots_manager.bridge.run.watch import (
    AVAILABILITY_PERIOD,
    FolderWatch,
    every,
    refusal,
    watch_mounts,
    watch_store,
)
from roots_manager.bridge.transport.carrier import Carrier
from roots_manager.bridge.transport.pump import HandOff, LoopRunner, Pump
from roots_manager.bridge.transport.relay import Counting, LineRelay
from roots_manager.bridge.transport.writer import FdSink, LineWriter
from roots_manager.core.consent.effective import ListRootsResult
from roots_manager.core.directory.layout import Layout
from roots_manager.core.directory.records import EventKind
from roots_manager.core.roots.uri import uri_to_path
from roots_manager.core.runs import habits, live
from roots_manager.core.runs.run_id import new_run_id
from roots_manager.core.store.file import Store, StoreError
from roots_manager.core.store.grants import Decision
from roots_manager.core.store.state import fingerprint, now_iso
from roots_manager.support import cyclic_gc, oserror, trace
from roots_manager.support.refusal import ModelError

TYPE_CHECKING = False  # not typing's: see roots_manager.bridge.main
if TYPE_CHECKING:
    from roots_manager.bridge.run.asking import Asking
    from roots_manager.bridge.transport._fastrelay import Ledger
    from roots_manager.bridge.transport.early import EarlyRelay, Opening

HOST_IN = 0
HOST_OUT = 1

STORE = "the store's watch"
ANSWER = "the answer's watch"
FOLDERS = "the folders' watch"
MOUNTS = "the mount table's watch"
PERIODIC = "the periodic check"
"""The watches that say the server's roots may have changed (:meth:`Bridge._changed`)."""


TRIM_AFTER = 1.0
"""Seconds without a change after which a bridge gives back what reading changes freed."""


class Bridge:
    """One bridge run: the server, both relays, the roots logic, the watchers."""

    def __init__(
        self,
        server_name: str,
        command: Sequence[str],
        proc: subprocess.Popen[bytes] | None,
        *,
        observe: bool = False,
        consent_timeout: float,
        log_all: bool = False,
        layout: Layout | None = None,
        launch: Launch | None = None,
        confine: bool = False,
        run_id: str | None = None,
        early_relay: EarlyRelay | None = None,
    ) -> None:
        """*early_relay*: what relays the host's first exchange while the bridge loads
        (:mod:`~roots_manager.bridge.transport.early`), taken over as the pumps start."""
        self.name = server_name
        self.command = list(command)
        self.observe = observe
        self.layout = (layout or Layout.default()).ensure()
        self.run_id = run_id or new_run_id()
        self.fingerprint = fingerprint(self.command)
        self.store = Store(self.layout)
        self.log = BridgeLog(self.layout, server_name, self.run_id)
        self.source = RootsSource(
            self.store,
            server_name,
            self.fingerprint,
            self.run_id,
            on_error=lambda m: self.log.event(EventKind.ERROR, message=m),
        )
        self.confine = confine
        """``--confine``: every start of the server is confined, whatever the store says."""
        self.ceiling = launch.key if launch is not None else None
        """The confinement of the start the host made (None: unconfined), which no restart
        behind its back loosens; a restart the user asks for sets it anew."""
        self._handoff: HandOff | None = None
        self._s2h: LoopRunner | None = None
        self._ledger: Ledger | None = None
        """Where the hot path notes the lines it relays only counted (the run's Noted's)."""
        stdin_fd = proc.stdin.fileno() if proc is not None and proc.stdin is not None else -1
        # a server that stopped reading is the ladder's business; nothing to report here
        self._server_in = FdSink(stdin_fd)
        self._host_out = FdSink(HOST_OUT, on_broken=self._host_broken)
        self.to_server = LineWriter(sink=self._server_in, background=True)
        self.to_host = LineWriter(sink=self._host_out, background=True)
        self.running = RunningServer(proc, launch, self.to_server)
        """The server running now, swapped by a restart."""
        self.carrier = Carrier(self.to_server, self.to_host)
        """Where the protocol's actions, and the bridge's own messages, are carried out."""
        self.mediator = Mediator(
            log=self.log,
            act=self.carrier,
            clock=clock.SYSTEM,
            spill=FileSpill(),
            nonce=os.urandom(6).hex(),
            observe=observe,
            log_all=log_all,
            # a confined run keeps the host's handshake even with restart on revoke off: a
            # folder revoked stays readable until the server starts again, and the user's
            # Restart now (a request file) can then do that (Restarts.reason: a consent change
            # alone restarts it only as launch.restartable says)
            restartable=launch is not None and (launch.restartable or launch.key is not None),
            roots_asked_at_start=not observe
            and habits.asks_roots_at_start(self.layout, server_name),
            # a confined server's refusals are tied to them; one that may be restarted may
            # come back confined
            track_requests=launch is not None
            and (launch.refusals is not None or launch.restartable),
        )
        self.answers = HeldAnswers(
            self.source, self.mediator.roots_changed, lambda: self.mediator.waiting_roots
        )
        """The roots the protocol asks for, held until the gate opens."""
        self.carrier.serve(self.mediator.wake, self.answers.wanted)
        requests = self.mediator.requests
        self.denials = Denials(self.log, self._requests_now if requests is not None else None)
        """The confined server's refusals, as denial events (:mod:`.denials`)."""
        self.asking: Asking | None = None
        """What the supervisor of a server that asks is told (:mod:`.asking`); None: it asks
        nothing."""
        self.stop_event = asyncio.Event()
        self.restarts = Restarts(
            running=lambda: self.running,
            start_again=lambda asked: self.replace(asked=asked),
            name=server_name,
            mediator=self.mediator,
            log=self.log,
            carrier=self.carrier,
            judge=self._restart_reason,
            ending=self.stop_event,
            end=self.end,
        )
        self._reason = ""
        self._host_asked = False
        """The host asked the run to end (a signal, its stdin closed, its stdout gone)."""
        self._registered = False
        self._request_failed = False
        self.consent = ConsentWait(
            self.answers, self.log, consent_timeout, on_open=self.mediator.check_changes
        )
        self._silent_timer: asyncio.TimerHandle | None = None
        self._trim: asyncio.TimerHandle | None = None
        self._folders = FolderWatch(self.source.folders, self._folders_changed)
        self._store_watched = False
        """Whether the store's folder is watched now (:meth:`_store_watch`)."""
        self._store_refused = False
        self._uncovered = asyncio.Event()
        """Set when the kernel may no longer report every change: the periodic check resumes."""
        self.source.cache.on_uncovered = self._uncovered.set
        self._answer_fd: int | None = None
        self._looked_at: tuple[object, ...] = ()
        """What the last change looked at: the store's state, the server's roots (None: not
        worked out) and the last roots it was given. A watch that reports what another already
        did (a save is seen by the store's watch and by the answer's) finds nothing new, and
        does nothing."""
        self._mounts_watched = False
        self._tasks: list[asyncio.Task[Any]] = []
        self._early_relay = early_relay

    # ---- wiring ---------------------------------------------------------------------------

    def _host_broken(self, exc: OSError) -> None:
        # called from whichever thread wrote last
        if self._handoff is not None:
            self._handoff.call(lambda: self.host_gone(exc))

    def host_eof(self) -> None:
        """The host closed its end of our stdin."""
        if not self.stop_event.is_set():
            self._reason = self._reason or "host closed stdin"
            self._host_asked = True
            self.stop_event.set()

    def host_gone(self, exc: Exception | None) -> None:
        """Our stdout broke: nobody reads what the server says any more."""
        if exc is not None and not self.stop_event.is_set():
            self._reason = self._reason or "host stopped reading"
            self._host_asked = True
            self.stop_event.set()

    def end(self, reason: str) -> None:
        """End the run now, for *reason*."""
        if not self.stop_event.is_set():
            self._reason = self._reason or reason
            self.stop_event.set()

    def _server_out_end(self, ended: asyncio.Event) -> None:
        if ended is not self.running.out_ended or self.restarts.active:
            ended.set()  # a server stopped for a restart
            return
        # nothing more comes from the server: a held initialized has nothing to wait for
        self.mediator.release_initialized()
        ended.set()
        # a server usually closes its stdout as it exits; one that lives on can never answer
        # again, so after a grace period the run ends as if the host had gone
        self._silent_timer = asyncio.get_running_loop().call_later(GRACE, self._server_silent)

    def _server_silent(self) -> None:
        if not self.running.server.exited.is_set() and not self.stop_event.is_set():
            self._reason = "the server closed its stdout"
            self.stop_event.set()

    def _signalled(self, signum: int, *, sent: bool = False) -> None:
        # Passed on to the server's tree at once, every time, as npm and a shell do: a host's
        # ladder (Claude Code: SIGINT, SIGTERM 100 ms later, SIGKILL at 500 ms) leaves the
        # bridge no time to close stdin and wait, and a tree told nothing outlives it. (*sent*:
        # it came before the run, and went on to the tree then.)
        if sys.platform != "win32":
            self.running.server.forward(signum, sent=sent)
        self.log.ending()
        if not self.stop_event.is_set():
            self._host_asked = True
            self._reason = f"{signal.Signals(signum).name} received"
            self.stop_event.set()

    def _handle_signals(self, loop: asyncio.AbstractEventLoop) -> None:
        """End the run in order on the signals that ask a process to end."""
        # SIGHUP too: a closed terminal must not end the bridge without the server; Windows
        # has none, but Ctrl+Break (SIGBREAK), and no add_signal_handler: a plain handler
        # hands the signal to the loop there
        names = ("SIGTERM", "SIGINT", "SIGHUP", "SIGBREAK")
        for sig in [getattr(signal, n) for n in names if hasattr(signal, n)]:
            try:
                loop.add_signal_handler(sig, self._signalled, sig)
            except NotImplementedError:
                signal.signal(sig, lambda s, _f: loop.call_soon_threadsafe(self._signalled, s))
            except RuntimeError:  # not the main thread (a test running the bridge inline)
                pass

    def _start_pumps(self, loop: asyncio.AbstractEventLoop) -> None:
        handoff = self._handoff = self.carrier.deferrer = HandOff(loop)

        if self.mediator.carryover is not None or self.mediator.requests is not None:
            # lines only counted wait no loop: each is noted before the server has it, and
            # counted before anything that depends on it (a refusal's attribution, a question)
            self._ledger = Noted(self.mediator, clock.SYSTEM.wall, loop).ledger
        opening = self._take_over()
        for fd in (HOST_IN, HOST_OUT):
            grow_pipe(fd)

        h2s = LineRelay(
            self.to_server,
            self.mediator.host_side,
            runner=host_runner(self.mediator, handoff, self.carrier, self.log),
            counting=None if self._ledger is None else Counting(self._ledger, True),
        )
        self._s2h = server_runner(handoff, self.carrier, self.log)
        Pump(
            "host-to-server",
            HOST_IN,
            h2s,
            lambda: handoff.call(self.host_eof),
            first=opening.host_rest if opening is not None else b"",
            ended=opening is not None and opening.host_ended,
        ).start()
        self._pump_server(opening)

    def _pump_server(self, opening: Opening | None = None) -> None:
        assert self._handoff is not None and self._s2h is not None
        self.running.pump(
            self._handoff,
            self.to_host,
            self.mediator.server_side,
            self._s2h,
            self._server_out_end,
            counting=None if self._ledger is None else Counting(self._ledger, False),
            first=opening.server_rest if opening is not None else b"",
            ended=opening is not None and opening.server_ended,
        )

    def _take_over(self) -> Opening | None:
        """Stop the early relay, and give the mediator what it relayed, in order and with the
        times it went, as the pumps would have handed it over: what the mediator records is
        what it would have. What it relays for those lines went already; that it is the same
        is checked (a difference would be a fault of the early relay's judgement, logged)."""
        relay, self._early_relay = self._early_relay, None
        if relay is None:
            return None
        opening = relay.finish()
        if opening.host is not None:
            line, relayed, at = opening.host
            self._replay(
                "the host's initialize", relayed, lambda: self.mediator.from_host(line, at)
            )
        if opening.answer is not None:
            answer, at = opening.answer
            self._replay("its answer", answer, lambda: self.mediator.from_server(answer, at))
        return opening

    def _replay(self, what: str, relayed: bytes, handle: Callable[[], object]) -> None:
        try:
            out = handle()
        except Exception as exc:  # as a relay's line whose handling failed: it went already
            self.log.event(
                EventKind.ERROR, message=f"{what} could not be handled ({exc!r}); relayed"
            )
            return
        finally:
            self.carrier.published()
        if out != relayed:
            self.log.event(
                EventKind.ERROR,
                message=f"{what} was relayed before the bridge had loaded, otherwise than "
                "the bridge relays it now",
            )

    # ---- a restart (:class:`Restarts`) ------------------------------------

    def _restart_reason(self) -> Restart | None:
        """Why the server running now must be restarted for a consent change, or None."""
        launch = self.running.launch
        state = self.source.state()
        srv = state.servers.get(self.name)
        current = root_uris(self.source.effective())
        undecided = bool(launch is not None and launch.default)
        given = launch.folders if launch is not None else None
        seen = Seen(
            running=launch.key if launch is not None else None,
            told=self.mediator.told,
            current=current,
            forced=self.confine,
            decided=srv.confine if srv is not None and srv.confine is not None else undecided,
            setting=srv.restart_on_revoke if srv is not None else None,
            ceiling=self.ceiling is not None,
            given=given,
            # only a server given its folders on its command line is compared with them
            given_now=[uri_to_path(u) for u in current] if given is not None else (),
            asks=launch is not None and launch.ask > 0 and launch.supervised,
            questions=self.asking is not None and bool(self.asking.questions),
        )
        if not seen.needs_key:
            return restart_reason(seen, None)
        # only for a server that may be restarted: the confinement rules' module is not light
        from roots_manager.core.confinement.confined import clamp, confinement_key

        key = confinement_key(
            state,
            self.name,
            fingerprint=self.fingerprint,
            run=self.run_id,
            forced=self.confine or self.ceiling is not None,
            undecided=undecided,
        )
        return restart_reason(seen, clamp(key, self.ceiling))

    async def replace(self, *, asked: bool = False) -> None:
        """Start the server again, in this run; raises :class:`OSError` if it cannot. Under
        :attr:`ceiling`, unless the user *asked* for the restart (then what the store says now
        is the new ceiling)."""
        proc, launch = await asyncio.to_thread(
            functools.partial(start, run_id=self.run_id, ceiling=None if asked else self.ceiling),
            self.command,
            self.name,
            self.confine,
            self.run_id,
        )
        if asked:
            self.ceiling = launch.key
        self.running = RunningServer(proc, launch, self.to_server)
        self.running.take_writer(self._server_in)
        self.running.server.watch(asyncio.get_running_loop())
        self._read_refusals()
        self._pump_server()
        self._say_folders()

    def _say_folders(self) -> None:
        """Log what the start said of the server's confinement, and the folders ``{roots}``
        gave the server just started; and, when it gave none, say why on stderr too (the
        host's log), for a server that may refuse to start so."""
        for note in self.running.launch.notes if self.running.launch is not None else ():
            self.log.event(EventKind.MESSAGE, message=note)
        folders = self.running.launch.folders if self.running.launch is not None else None
        if folders is None:
            return
        if folders:
            message = "{roots} gives the server its granted folders: " + ", ".join(folders)
        else:
            message = (
                "{roots} gives the server no folder: none is granted to it now (a grant "
                "restarts it with its folders; until then it has only what roots/list answers)"
            )
            print(f"roots-bridge: {self.name}: {message}", file=sys.stderr, flush=True)
        self.log.event(EventKind.MESSAGE, message=message, folders=folders)

    # ---- the run --------------------------------------------------------------------

    async def run(self, early_signals: Sequence[int] = ()) -> int:
        """Run until the host or the server goes; returns the bridge's exit code.

        *early_signals* came after the server started and before this run could take them
        (:class:`~roots_manager.bridge.main.EarlySignals`)."""
        loop = asyncio.get_running_loop()
        self.running.server.watch(loop)
        self._read_refusals()
        self._handle_signals(loop)
        for sig in list(early_signals):
            self._signalled(sig, sent=True)
        self.log.event(
            EventKind.RUN_START,
            command=self.command,
            pid=os.getpid(),
            server_pid=self.running.server.pid,
            mode="observe" if self.observe else "managed",
            version=__version__,
            confined=self.running.confined,
            restartable=self.mediator.carryover is not None,
        )
        self._say_folders()
        self._start_pumps(loop)
        self._tasks.append(asyncio.create_task(self._register()))
        while True:
            exited = asyncio.create_task(self.running.server.exited.wait())
            stopped = asyncio.create_task(self.stop_event.wait())
            await asyncio.wait({exited, stopped}, return_when=asyncio.FIRST_COMPLETED)
            exited.cancel()
            if self.stop_event.is_set() or not self.restarts.active:
                break
            # stopped for a restart: on with the new server, unless the run ends first
            restarted = asyncio.create_task(self.restarts.wait())
            await asyncio.wait({restarted, stopped}, return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if self.stop_event.is_set():
                break
        await self.restarts.cancel()
        self.mediator.closing = True  # what the server asks from now on goes unanswered
        self.carrier.published()  # and the hot path relays no request of its own any more
        how = None
        if not self.running.server.exited.is_set():
            how = await self.running.server.stop(GRACE, asked=self._host_asked)
        else:
            self._reason = self._reason or "server exited"
            # a host's signal passed on may have ended it before the run could stop it
            how = self.running.server.forwarded
            await self.running.server.reap_group(GRACE)
        # what the server said last reaches the host, unless the host does not read it; a
        # host that asked the run to end (a signal, its stdin closed) is ending itself, and its
        # ladder kills the bridge soon: briefly then
        flush = FLUSH_ASKED if self._host_asked else FLUSH_TIMEOUT
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.running.out_ended.wait(), flush)
        code = exit_code(self.running.server.returncode)
        stopped.cancel()
        await self._finish(code, how)
        return code

    def _requests_now(self) -> Snapshot:
        """The host's requests open and answered lately, every line noted counted first."""
        assert self.mediator.requests is not None
        self.mediator.count_noted()
        return self.mediator.requests.snapshot()

    def _read_refusals(self) -> None:
        launch = self.running.launch
        if launch is not None and launch.refusals is not None:
            fd, launch.refusals = launch.refusals, None
            self.denials.follow(fd, asyncio.get_running_loop())
        if self.asking is not None:
            self.asking.close()  # the server it spoke to is gone
            self.asking = None
            self.denials.on_held = self.denials.on_answered = None
        if launch is not None and launch.answers is not None and self.mediator.requests:
            from roots_manager.bridge.run.asking import Asking
            from roots_manager.bridge.run.confine import rules_now
            from roots_manager.core.runs.live import answerer_present

            fd, launch.answers = launch.answers, None
            # the user's answer is the store as it is now: not held to the host's start
            # (:attr:`ceiling`), which only a restart behind the host's back must not loosen
            command, name, run = self.command, self.name, self.run_id
            layout = self.layout
            self.asking = Asking(
                fd,
                launch.readable,
                lambda: rules_now(command, name, run, None),
                lambda: answerer_present(layout),
            )
            self.mediator.requests.on_waiting = self.asking.requests
            self.denials.on_held = self.asking.held
            self.denials.on_answered = self._question_over

    def _question_over(self, path: str) -> None:
        """A read's question is over: a grant that answered it and that a restart must apply
        (for writing) waited for it."""
        if self.asking is not None:
            self.asking.answered(path)
            if not self.asking.questions:
                self.restarts.check()

    def cannot_start(self, exc: OSError) -> int:
        """Report a command that cannot be started; returns the exit code (127, or 126 when
        it was to run confined and cannot be)."""
        what = exc.strerror or str(exc)
        code = getattr(exc, "exit_code", EXIT_CANNOT_START)
        print(
            f"roots-bridge: cannot start the server {self.name!r}: {self.command[0]}: {what}",
            file=sys.stderr,
            flush=True,
        )
        self.log.event(
            EventKind.RUN_START,
            command=self.command,
            pid=os.getpid(),
            mode="observe" if self.observe else "managed",
            version=__version__,
        )
        self.log.event(EventKind.ERROR, message=f"cannot start {self.command[0]}: {what}")
        self.log.event(EventKind.RUN_END, exit_code=code, reason="cannot start")
        self.log.close()
        return int(code)

    async def _register(self) -> None:
        loop = asyncio.get_running_loop()
        marker = live.BridgeMarker(
            run=self.run_id,
            server=self.name,
            pid=os.getpid(),
            started_at=now_iso(),
            command=self.command,
            mode="observe" if self.observe else "managed",
            log_file=str(self.log.path) if self.log.path is not None else None,
            server_pid=self.running.server.pid,
            confined=self.running.confined,
            restartable=self.mediator.carryover is not None,
            reachable=self.running.reachable,
        )
        pending = False
        if not self.observe:
            try:
                pending = await asyncio.to_thread(self._record_start)
                self._registered = True
            except (StoreError, OSError) as exc:
                # answering matters more than the record: the store is still read for answers
                why = oserror.message(exc) if isinstance(exc, OSError) else str(exc)
                self.log.event(
                    EventKind.ERROR, message=f"the server's start was not recorded: {why}"
                )
                print(f"roots-bridge: {why}", file=sys.stderr, flush=True)
            except ModelError as exc:
                # a name that looks like a known server's (``fѕ`` beside ``fs``): it is not
                # recorded, so no consent is asked for it and it has no grants, the known
                # server's least of all; the server still runs and is answered no folder
                message = f"{exc}; the server runs, and sees no folder until it is renamed"
                self.log.event(EventKind.ERROR, message=message)
                print(f"roots-bridge: {message}", file=sys.stderr, flush=True)
        self.log.start_marker(marker, loop)
        # earlier runs' logs, kept within the limits, in a thread: with those of the state just
        # recorded (the one the first answer is made from), else read there
        self.log.sweep(self.source.state().log_retention if self._registered else None)
        # requests left for bridges that ended before they could take them; in the background,
        # since it reads every bridge's marker and the first answer must not wait for that
        self._tasks.append(asyncio.create_task(asyncio.to_thread(self._sweep_requests)))
        if self.observe:
            if self.mediator.carryover is not None:  # confined: a change of grants restarts it
                self._watch()
            return
        self._watch()
        if pending and live.app_running(self.layout):
            decided = not self.source.pending()
            self.consent.begin(self.name, decided=decided, denied=decided and self._denied())
        elif not self.answers.open():
            # nothing was held: the server may have been answered before (a list moved since
            # is told); an answer just given was made now, and has nothing to tell
            self.mediator.check_changes()

    def _watch(self) -> None:
        """Follow the store, the granted folders and the requests of the desktop app.

        On Linux an idle bridge then sleeps in the kernel: the answer cache's watches cover
        every path the last answer rests on (each directory on the way to each folder), the
        mount table is watched for what inotify does not report, and the periodic check runs
        only while that coverage is incomplete (no answer watched yet, too many folders, a
        watch refused)."""
        stop = self.stop_event
        requests = (
            live.list_changed_request_name(self.run_id),
            live.restart_request_name(self.run_id),
            live.deny_request_name(self.run_id),
            live.allow_request_name(self.run_id),
        )
        periodic = every(
            AVAILABILITY_PERIOD,
            self._periodic_check,
            stop,
            resting=self._kernel_reports,
            wake=self._uncovered,
        )
        watchers: list[tuple[str, Coroutine[Any, Any, None]]] = [
            (
                "the store watcher",
                watch_store(self.layout, self._store_saved, stop, requests, self._store_watch),
            ),
            ("the folder watcher", self._folders.run()),
            ("the periodic check", periodic),
        ]
        if self.source.cache.enabled and sys.platform == "linux":
            watchers.append(("the mount watcher", watch_mounts(self._mounts_changed, stop)))
            self._mounts_watched = True
            if self.source.cache.keeps(len(self.source.folders())):
                # its watches in place before any request: covered now (an answer that cannot
                # be kept, tens of thousands of folders, would be computed for nothing)
                self.source.effective()
            self._read_answer_changes()
        for name, work in watchers:
            task = asyncio.create_task(work)
            task.add_done_callback(functools.partial(self._watcher_ended, name))
            self._tasks.append(task)

    def _kernel_reports(self) -> bool:
        """Whether every change that could move the answer, and every request beside the store
        (``notify``, ``restart``), is reported by the kernel now."""
        self._read_answer_changes()
        return (
            self._store_watched
            and self._mounts_watched
            and self._answer_fd is not None
            and self.source.cache.covering
        )

    def _store_watch(self, failed: BaseException | None) -> None:
        """The store's folder is watched (*failed* None) or cannot be: the answer's watches then
        still see the store change, but not the requests written beside it, so the periodic
        check takes over until the watch is back (said once a run, in the log)."""
        self._store_watched = failed is None
        if failed is None:
            # a request written before the watch was in place is seen by nothing else
            self._take_request()
            return
        self._uncovered.set()
        if not self._store_refused:
            self._store_refused = True
            self.log.event(
                EventKind.ERROR,
                message=f"the store's folder cannot be watched: {refusal(failed)}; changes "
                "and requests are looked for every second instead",
            )

    def _read_answer_changes(self) -> None:
        fd = self.source.cache.fileno()
        if fd is None or fd == self._answer_fd:
            return
        asyncio.get_running_loop().add_reader(fd, self._answer_moved)
        self._answer_fd = fd

    def _answer_moved(self) -> None:
        # a path the last answer rests on changed: compute it again (watching anew), then act
        if self.source.cache.changed():
            self.source.effective()
            self._changed(ANSWER)

    def _mounts_changed(self) -> None:
        self.source.cache.drop()
        self.source.effective()
        self._changed(MOUNTS)

    def _watcher_ended(self, name: str, task: asyncio.Task[Any]) -> None:
        # a watcher that fails leaves changes to the others (at worst, the periodic check a
        # second later): said in the log, never lost in a task nobody awaits
        if name == "the mount watcher":
            self._mounts_watched = False
            self._uncovered.set()
        if not task.cancelled() and task.exception() is not None:
            self.log.event(EventKind.ERROR, message=f"{name} failed: {task.exception()!r}")

    def _record_start(self) -> bool:
        runs = live.live_runs(self.layout) | {self.run_id}
        # one walk of the collector over the state of 30,000 roots once it is recorded, not one
        # after each pass over it (reading, the snapshots, the document)
        with cyclic_gc.paused(), self.store.transaction() as state:
            state.prune_runs(runs)
            default = self.running.launch.default if self.running.launch is not None else None
            request = state.server_started(self.name, self.command, self.run_id, confined=default)
        return request is not None

    def _store_saved(self, names: set[str]) -> None:
        """The store's watch saw the files *names* change: the store, requests beside it."""
        if self.layout.store.name in names:
            self._changed(STORE)
        if names - {self.layout.store.name}:
            self._take_request()

    def _folders_changed(self) -> None:
        self._changed(FOLDERS)

    def _periodic_check(self) -> None:
        """The safety net, while the kernel may not report every change (and where it never
        does): what a watch already saw is not looked at again."""
        if not self._changed(PERIODIC):
            self._folders.refresh()  # a folder's parent that came back is watched again
        if not self._store_watched:
            self._take_request()  # nothing else sees the requests now

    def _changed(self, by: str) -> bool:
        """Something the server's roots rest on may have changed, as the watch *by* saw it:
        act on it once. A save is seen by the store's watch and by the answer's, and the
        periodic check looks at what both already saw: the first to find the store read
        anew, or the roots moved, acts; the others find nothing new."""
        state = self.source.state()
        roots: ListRootsResult | None = None
        if self.answers.is_open and (
            self.mediator.looks_for_changes or self.mediator.carryover is not None
        ):
            roots = self.source.effective()
        given = self.mediator.last_answered
        looked_at, self._looked_at = self._looked_at, (state, roots, given)
        # the roots are compared when they were worked out (they matter to someone now), the
        # state and the roots given by identity: a new read, a new answer, are news
        if (
            by not in (FOLDERS, MOUNTS)
            and looked_at
            and state is looked_at[0]
            and (roots is None or roots == looked_at[1])
            and given is looked_at[2]
        ):
            return False
        trace.debug("%s: the store or a folder changed", by)
        self._trim_when_idle()
        self._folders.refresh()
        if self.asking is not None:
            self.asking.granted()
        self.restarts.check()
        if self.consent.waiting and not self.source.pending():
            self.consent.over(False, denied=self._denied())
        elif self.answers.is_open:
            if roots is None:
                self.mediator.check_changes()
            else:
                self.mediator.roots_changed(roots)
        return True

    def _denied(self) -> bool:
        """Whether the user's last decision on this server was a denial."""
        srv = self.source.state().servers.get(self.name)
        return srv is not None and srv.decision == Decision.DENY

    def _trim_when_idle(self) -> None:
        """Once the changes have stopped coming for a second, give back to the system what
        reading them freed (Linux, glibc): an idle bridge holds what it needs, not what its
        busiest moment left behind (fifty bridges starting at once read the store fifty
        times each)."""
        if sys.platform != "linux":
            return  # the other C libraries give large blocks back on their own
        if self._trim is not None:
            self._trim.cancel()
        from roots_manager.support import freed_memory

        self._trim = asyncio.get_running_loop().call_later(TRIM_AFTER, freed_memory.give_back)

    def _sweep_requests(self) -> None:
        with contextlib.suppress(OSError):
            live.sweep_list_changed_requests(self.layout)

    def _take_request(self) -> None:
        asked = self._taken(live.take_list_changed_request, "list_changed")
        if asked is False:
            return
        if asked is not None:
            self.mediator.list_changed_asked(*asked)
        restart = self._taken(live.take_restart_request, "restart")
        if restart:
            self.restarts.ask(*restart)
        denied = self._taken(live.take_deny_request, "deny")
        if denied and self.asking is not None:
            self.asking.deny()
            self.log.event(
                EventKind.MESSAGE, message=f"the reads waiting were refused, by {denied[0]}"
            )
        self._take_allows()

    def _take_allows(self) -> None:
        """The user's answers for the reads waiting now, or for the rest of the run, with
        nothing saved (``roots-manager answer N ... --for once|run``)."""
        try:
            allows = live.take_allow_request(self.layout, self.run_id)
        except OSError as exc:
            if not self._request_failed:
                self._request_failed = True
                self.log.event(EventKind.ERROR, message=f"an answer cannot be taken: {exc}")
            return
        for entry in allows:
            by, domain = entry["by"], "domain" in entry
            path = entry["domain"] if domain else entry["path"]
            if self.asking is None or not self.asking.allow(path, entry["for"], domain=domain):
                self.log.event(
                    EventKind.ERROR, message=f"{path} cannot be served now (asked by {by})"
                )
                continue
            calls = "connections to" if domain else "reads of"
            served = "reached" if domain else "served"
            when = "waiting now are" if entry["for"] == live.ONCE else "are, until the server ends,"
            self.log.event(
                EventKind.MESSAGE, message=f"the {calls} {path} {when} {served}, by {by}"
            )

    def _taken(
        self, take: Callable[[Layout, str], dict[str, Any] | None], what: str
    ) -> tuple[str, str | None] | Literal[False] | None:
        """The request for this run that *take* finds (who asked, its id), or None; False when
        its file cannot be taken, which is said once (the change checks go on whatever it is)."""
        try:
            asked = take(self.layout, self.run_id)
        except OSError as exc:
            if not self._request_failed:
                self._request_failed = True
                self.log.event(EventKind.ERROR, message=f"a {what} request cannot be taken: {exc}")
            return False
        if asked is None:
            return None
        by, request = asked.get("by"), asked.get("id")
        return (by if isinstance(by, str) else "?", request if isinstance(request, str) else None)

    async def _finish(self, code: int, how: str | None) -> None:
        if self._answer_fd is not None:
            asyncio.get_running_loop().remove_reader(self._answer_fd)
        self.mediator.first_call.release()
        asked_at_start = self.mediator.first_call.asked_at_start
        if asked_at_start is not None and not self.observe:
            try:
                habits.remember(self.layout, self.name, asks_at_start=asked_at_start)
            except OSError as exc:  # the next run's first call may not wait; nothing worse
                why = oserror.message(exc)
                self.log.event(EventKind.ERROR, message=f"what the server did was not kept: {why}")
        self._folders.close()
        for t in self._tasks:
            t.cancel()
        self.consent.cancel()
        if self._silent_timer is not None:
            self._silent_timer.cancel()
        if self._registered:
            with contextlib.suppress(StoreError, OSError):
                await asyncio.to_thread(self._record_end)
        self.denials.close()  # the counts of what was folded, told as the server ended
        if self.asking is not None:
            self.asking.close()
        if self._reason == "server exited" and not self._host_asked:
            # the host sees only "connection closed": what the server was refused just before
            # is the likeliest why, said where the user looks (the host's log)
            self.denials.tell_host(self.name, home=os.path.expanduser("~"))
        await self.log.settle()
        # the end is the log's last event: closed at once, with no wait between, so that
        # nothing handed on meanwhile (the server's lines still read) comes after it
        self.log.event(
            EventKind.RUN_END,
            exit_code=code,
            returncode=self.running.server.returncode,
            reason=self._reason or None,
            stopped_by=how,
            notices=self.mediator.notices,
            **({"unanswered": self.mediator.unanswered} if self.mediator.unanswered else {}),
        )
        self.log.close()
        # a request that came too late (once the marker is gone, no new one can come)
        with contextlib.suppress(OSError):
            live.take_list_changed_request(self.layout, self.run_id)
        with contextlib.suppress(OSError):
            live.take_restart_request(self.layout, self.run_id)

    def _record_end(self) -> None:
        with self.store.transaction() as state:
            state.run_ended(self.name, self.run_id)
