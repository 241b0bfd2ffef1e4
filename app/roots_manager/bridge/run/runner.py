"""One bridge run from start to end: the server, both relays, the roots logic, the watchers.

The server process is already running when a :class:`Bridge` is made (``main`` starts it first
thing). The bridge pumps each direction in a thread of its own (:mod:`~roots_manager.bridge.transport.pump`)
and keeps the event loop for the protocol logic, the store watcher, the timers and the process
ladder; it records the run in the store and runs until the host or the server goes.

The server running now is a :class:`~roots_manager.bridge.run.slot.ServerSlot`, which a restart
swaps; the wait for the user's decision is :mod:`~roots_manager.bridge.run.consent`'s; the runners
of the two directions are :mod:`~roots_manager.bridge.run.handlers`'.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Collection, Coroutine, Sequence
from typing import TYPE_CHECKING, Any, Literal

from roots_manager import __version__
from roots_manager.bridge.protocol.actions import to_host, to_server
from roots_manager.bridge.protocol.jsonrpc import Json, dumps, error_line, root_uris
from roots_manager.bridge.protocol.mediator import Mediator
from roots_manager.bridge.run import clock
from roots_manager.bridge.run.confine import Launch, start
from roots_manager.bridge.run.consent import ConsentWait
from roots_manager.bridge.run.denials import Denials
from roots_manager.bridge.run.eventlog import BridgeLog
from roots_manager.bridge.run.handlers import host_runner, server_runner
from roots_manager.bridge.run.process import GRACE
from roots_manager.bridge.run.roots import HeldAnswers, RootsSource
from roots_manager.bridge.run.slot import FLUSH_ASKED, FLUSH_TIMEOUT, ServerSlot
from roots_manager.bridge.run.spawn import EXIT_CANNOT_START, exit_code, grow_pipe
from roots_manager.bridge.run.spill import FileSpill
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
from roots_manager.bridge.transport.relay import LineRelay
from roots_manager.bridge.transport.writer import FdSink, LineWriter
from roots_manager.core import collector, habits, live
from roots_manager.core.log import events as ev
from roots_manager.core.paths import Layout
from roots_manager.core.refusal import ModelError
from roots_manager.core.runid import new_run_id
from roots_manager.core.store.file import Store, StoreError
from roots_manager.core.store.state import State, fingerprint, now_iso
from roots_manager.core.uri import uri_to_path

if TYPE_CHECKING:
    from roots_manager.core.confinement.confined import Key

HOST_IN = 0
HOST_OUT = 1


COALESCE = 0.05
"""Seconds a change waits for others to join it in one restart."""
MIN_INTERVAL = 1.0
"""Seconds between the starts of two restarts."""
DRAIN = 3.0
"""Seconds the old server gets to finish the requests it is handling."""
REPLAY_TIMEOUT = 10.0
"""Seconds a new server gets to answer each replayed request."""
CRASH_LOOP = 3
"""Failed starts or replays in a row after which the server is not started again."""
START_RETRY = 0.5
"""Seconds before a server that could not be started (for a restart) is started again."""
TRIM_AFTER = 1.0
"""Seconds without a change after which a bridge gives back what reading changes freed."""
RESTARTED = -32000
"""The JSON-RPC error code of a request the restart cut short (the SDKs' "connection closed")."""
LIST_KINDS = ("tools", "prompts", "resources")


def restart_reason(
    state: State,
    name: str,
    *,
    fingerprint: str,
    run: str,
    forced: bool,
    running: tuple[tuple[str, ...], ...] | None,
    told: Collection[str],
    current: Callable[[], Collection[str]],
    given: Sequence[str] | None = None,
    undecided: bool = False,
    ceiling: Key | None = None,
) -> str | None:
    """Why the server running now (confined by *running*, told *told*, given the folders
    *given* on its command line) must be restarted.

    *current* gives the root URIs it would be told now; *undecided* is what its start made of
    the default, while its confinement is not recorded as decided; *ceiling*, the confinement
    the host started it under (:func:`~roots_manager.core.confinement.confined.clamp`): a
    change that would loosen it (confinement turned off, an extra folder, a socket, the
    network allowed) is no reason, and waits for the host's next start. None: it need not be.
    """
    if given is not None:
        # such a server learns its folders only when it starts: any change restarts it
        now = [uri_to_path(u) for u in current()]
        if now != list(given):
            taken = sorted(set(given) - set(now))
            return "revoked: " + ", ".join(taken) if taken else "its folders changed"
    srv = state.servers.get(name)
    setting = srv.restart_on_revoke if srv is not None else None
    decided = srv.confine if srv is not None and srv.confine is not None else undecided
    # the default follows confinement: the stored setting, or --confine, or the host's start
    # confined (which no restart behind its back undoes)
    wanted = setting if setting is not None else (forced or decided or ceiling is not None)
    if running is None and not forced and not decided and not wanted:
        return None
    # only for a server that may be restarted: the confinement rules' module is not light
    from roots_manager.core.confinement.confined import clamp, confinement_key

    key = confinement_key(
        state,
        name,
        fingerprint=fingerprint,
        run=run,
        forced=forced or ceiling is not None,
        undecided=undecided,
    )
    key = clamp(key, ceiling)
    if key != running:
        if running is None:
            return "confinement was turned on"
        if key is None:
            return "confinement was turned off"
        if wanted:
            gone = set(running[0] + running[1]) - set(key[0] + key[1])
            if gone:
                return "revoked: " + ", ".join(sorted(gone))
            return "its grants changed"
    if wanted and told:
        gone = set(told) - set(current())
        if gone:
            return "revoked: " + ", ".join(sorted(gone))
    return None


class Restarts:
    """The restarts of one bridge run's server.

    Restarting the server behind the host's back, when consent changes what it may touch.

    A Landlock domain can only shrink, and only from inside: a confined server whose grants change
    must start again under new rules. A server that keeps the roots it was once told must start
    again to forget a revoked one. Either way the host never notices:

    1. from the moment the change is seen, the host's requests and notifications are held: the old
       server gets nothing new (answers to its own requests, and cancellations of what it is
       handling, still reach it);
    2. the requests it is handling get up to :data:`DRAIN` seconds to finish;
    3. it is stopped with the usual ladder, and each request still open is answered with an error
       that says why (:data:`RESTARTED`);
    4. the new server starts (confined under the new rules) and is told what the host told the old
       one (:mod:`~roots_manager.bridge.protocol.carried`): ``initialize``, whose answer is swallowed,
       ``notifications/initialized``, the log level, the subscriptions. Under 2026-07-28 there is no
       handshake to replay;
    5. the held messages go to it, in order; if its capabilities or ``serverInfo`` differ from the
       old one's, the host hears the ``list_changed`` notices the old one declared.

    A burst of changes makes one restart (:data:`COALESCE`), restarts start at least
    :data:`MIN_INTERVAL` apart, and a server that cannot be started, or exits (or does not
    answer) during the replay, :data:`CRASH_LOOP` times running is not started again: the run
    ends and says why, in the log and on stderr.
    """

    def __init__(self, bridge: Bridge) -> None:
        self.b = bridge
        self.count = 0
        self._task: asyncio.Task[None] | None = None
        self._last_start = -MIN_INTERVAL
        self._replays = 0
        self._asked: tuple[str, str | None] | None = None
        """A restart the user asked for (who asked, the request's id), not begun yet."""
        self._request: str | None = None
        """The request of the restart under way, if the user asked for it."""
        self._by_user = False
        """The restart under way is one the user asked for (it may loosen the confinement)."""

    def ask(self, by: str, request: str | None) -> str:
        """The user asked for the server to be restarted (a request file, as a list_changed is
        asked): restart it as a consent change would. Returns, and logs, what was done."""
        b = self.b
        if b.mediator.carried is None:
            # the host's handshake was not kept, so a new server could not be told it
            outcome = "not-restartable"
        elif self.active:
            outcome = "under-way"  # the server being started now is a fresh one
        else:
            outcome = "restarting"
            self._asked = (by, request)
        b.log.event(ev.RESTART_ASKED, outcome=outcome, by=by, request=request)
        if outcome == "restarting":
            self.check()
        return outcome

    @property
    def active(self) -> bool:
        """A restart is under way."""
        return self._task is not None and not self._task.done()

    def check(self) -> None:
        """After any change of the store or of a folder: restart if the server's consent moved
        (or the user asked)."""
        b = self.b
        if self.active or b.mediator.carried is None or b.stop_event.is_set():
            return
        reason = self.reason()
        if reason is None:
            return
        # the old server gets nothing new from now on
        b.mediator.hold_host()
        asked = self._asked[1] if self._asked is not None else None
        b.log.event(ev.SERVER_RESTARTING, reason=reason, pid=b.slot.server.pid, request=asked)
        self._task = asyncio.create_task(self._run(reason))
        # a change seen while it runs is let by (the server being started is the one to judge
        # it against): once it has ended, the store is looked at again
        self._task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled():
            self.check()

    def reason(self) -> str | None:
        """Why the server running now must be restarted, or None."""
        b = self.b
        if self._asked is not None:
            return f"asked by {self._asked[0]}"
        return restart_reason(
            b.source.state(),
            b.name,
            fingerprint=b.fingerprint,
            run=b.run_id,
            forced=b.confine,
            running=b.slot.launch.key if b.slot.launch is not None else None,
            told=b.mediator.told,
            current=lambda: root_uris(b.source.effective()),
            given=b.slot.launch.folders if b.slot.launch is not None else None,
            undecided=bool(b.slot.launch is not None and b.slot.launch.default),
            ceiling=b.ceiling,
        )

    async def wait(self) -> None:
        """Until the restart under way has ended (the run may have ended with it)."""
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(self._task)

    async def cancel(self) -> None:
        """End a restart under way (the run ends): no server is left behind."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self, reason: str) -> None:
        b = self.b
        mediator = b.mediator
        carried = mediator.carried
        assert carried is not None
        loop = asyncio.get_running_loop()
        held_at = time.monotonic()
        await asyncio.sleep(max(COALESCE, self._last_start + MIN_INTERVAL - loop.time()))
        again = self.reason()  # the burst may have undone itself
        if again is None:
            released = mediator.release_host()
            b.log.event(
                ev.MESSAGE,
                message="the consent change was undone before the restart: none needed",
                released=released,
            )
            return
        reason = again
        # the user's request is this restart's: one asked from now on is another
        self._request = self._asked[1] if self._asked is not None else None
        self._by_user = self._asked is not None
        self._asked = None
        self._last_start = loop.time()
        old_pid = b.slot.server.pid
        old_result = carried.server_result
        if carried.in_flight:
            idle = asyncio.Event()
            carried.on_idle = idle.set
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(idle.wait(), DRAIN)
            carried.on_idle = None
        drained = round((time.monotonic() - held_at) * 1000)
        # the old server stops while the new one starts: a restart costs the slower of the two
        closed = b.slot.release_stdin()
        stopping = asyncio.create_task(b.slot.retire(stdin_closed=True))
        try:
            await closed.wait()
            carried.stdin_closed()
            mediator.server_replaced()
            attempts, outcome = await self._start_again(reason)
            stopped_by = await stopping
        finally:
            stopping.cancel()  # the run is ending: retire() kills what is left
        # what the old server left unanswered, once all it said has reached the host
        cut = carried.open_requests()
        why = "on request" if reason.startswith("asked") else "for a consent change"
        for msg_id in cut:
            b.carrier(
                to_host(
                    error_line(
                        msg_id,
                        f"roots-bridge: the server was restarted {why} ({reason}); send the "
                        "request again",
                        RESTARTED,
                    )
                )
            )
        if outcome is None:
            return
        result, replayed = outcome
        notices = self._notify(old_result, result)
        released = mediator.release_host()
        self.count += 1
        held_ms = round((time.monotonic() - held_at) * 1000)
        b.log.event(
            ev.SERVER_RESTARTED,
            reason=reason,
            old_pid=old_pid,
            new_pid=b.slot.server.pid,
            replayed=replayed,
            held_ms=held_ms,
            drained_ms=drained,
            stopped_by=stopped_by,
            cut=len(cut),
            released=released,
            notices=notices,
            attempts=attempts,
            request=self._request,
        )
        self._request = None
        b.log.marker(server_pid=b.slot.server.pid, restarts=self.count)

    async def _start_again(self, reason: str) -> tuple[int, tuple[Json | None, list[str]] | None]:
        """Start the new server and replay the host's handshake to it, up to :data:`CRASH_LOOP`
        times (a start that fails is tried again after :data:`START_RETRY`); the attempts made,
        and the replay's outcome (None: given up, run ending)."""
        b = self.b
        assert b.mediator.carried is not None
        attempts = 0
        while True:
            attempts += 1
            try:
                await b.replace(asked=self._by_user)
            except OSError as exc:
                # what failed may pass (a program being replaced, a folder swapped, no memory
                # for a moment): tried again after a pause, as a crash in the replay is
                why = f"the server cannot be started again: {exc}"
                if attempts >= CRASH_LOOP:
                    self._fail(reason, f"{why} ({attempts} times)", attempts)
                    return attempts, None
                b.log.event(ev.MESSAGE, message=f"{why}; trying again", attempts=attempts)
                await asyncio.sleep(START_RETRY)
                continue
            outcome = await self._replay()
            if outcome is not None:
                return attempts, outcome
            why = (
                f"exited with code {b.slot.server.returncode}"
                if b.slot.server.exited.is_set()
                else f"did not answer within {REPLAY_TIMEOUT:g} s"
            )
            await b.slot.retire()
            b.mediator.carried.forget_expected()
            if attempts >= CRASH_LOOP:
                self._fail(
                    reason,
                    f"the restarted server {why} during the replay, {attempts} times",
                    attempts,
                )
                return attempts, None

    async def _replay(self) -> tuple[Json | None, list[str]] | None:
        """Tell the new server what the host told the old one; None if it failed to listen."""
        b = self.b
        carried = b.mediator.carried
        assert carried is not None
        loop = asyncio.get_running_loop()
        result: Json | None = None
        done: list[str] = []
        exited: asyncio.Future[Any] = asyncio.ensure_future(b.slot.server.exited.wait())
        try:
            for method, params in carried.replayed():
                msg: Json = {"jsonrpc": "2.0", "method": method}
                if params is not None:
                    msg["params"] = params
                if method.startswith("notifications/"):
                    b.carrier(to_server(dumps(msg) + b"\n"))
                    done.append(method)
                    continue
                self._replays += 1
                msg["id"] = f"{b.mediator.rounds.prefix}replay-{self._replays}"
                answer: asyncio.Future[Any] = loop.create_future()
                carried.expect(msg["id"], _settle(answer))
                b.carrier(to_server(dumps(msg) + b"\n"))
                pending: set[asyncio.Future[Any]] = {answer, exited}
                await asyncio.wait(pending, timeout=REPLAY_TIMEOUT, return_when="FIRST_COMPLETED")
                if not answer.done():
                    return None
                response = answer.result()
                if method == "initialize":
                    if not isinstance(response.get("result"), dict):
                        return None
                    result = response["result"]
                done.append(method)
        finally:
            exited.cancel()
        return result, done

    def _notify(self, old: Json | None, new: Json | None) -> list[str]:
        """Tell the host what changed, as far as the protocol lets it hear it."""
        if old is None or new is None:
            return []
        if all(old.get(k) == new.get(k) for k in ("capabilities", "serverInfo")):
            return []
        caps: Any = old.get("capabilities")
        sent = []
        for kind in LIST_KINDS:
            declared = caps.get(kind) if isinstance(caps, dict) else None
            if isinstance(declared, dict) and declared.get("listChanged"):
                method = f"notifications/{kind}/list_changed"
                self.b.carrier(to_host(dumps({"jsonrpc": "2.0", "method": method}) + b"\n"))
                sent.append(method)
        self.b.log.event(
            ev.MESSAGE,
            dir=ev.BRIDGE_TO_HOST,
            message="the restarted server declares other capabilities or another serverInfo",
            before={k: old.get(k) for k in ("capabilities", "serverInfo")},
            after={k: new.get(k) for k in ("capabilities", "serverInfo")},
            notices=sent,
        )
        return sent

    def _fail(self, reason: str, why: str, attempts: int) -> None:
        b = self.b
        b.mediator.release_host()
        b.log.event(ev.RESTART_FAILED, reason=reason, message=why, attempts=attempts)
        # the host sees its server go: its log (the bridge's stderr) says why
        print(
            f"roots-bridge: {b.name}: the server was not restarted ({reason}): {why}; "
            "the bridge ends",
            file=sys.stderr,
            flush=True,
        )
        b.end(f"not restarted: {why}")


def _settle(answer: asyncio.Future[Any]) -> Callable[[Json], None]:
    def settle(msg: Json) -> None:
        if not answer.done():
            answer.set_result(msg)

    return settle


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
    ) -> None:
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
            on_error=lambda m: self.log.event(ev.ERROR, message=m),
        )
        self.answers = HeldAnswers(self.source)
        self.confine = confine
        """``--confine``: every start of the server is confined, whatever the store says."""
        self.ceiling = launch.key if launch is not None else None
        """The confinement of the start the host made (None: unconfined), which no restart
        behind its back loosens; a restart the user asks for sets it anew."""
        self._handoff: HandOff | None = None
        self._s2h: LoopRunner | None = None
        stdin_fd = proc.stdin.fileno() if proc is not None and proc.stdin is not None else -1
        # a server that stopped reading is the ladder's business; nothing to report here
        self._server_in = FdSink(stdin_fd)
        self._host_out = FdSink(HOST_OUT, on_broken=self._host_broken)
        self.to_server = LineWriter(sink=self._server_in, background=True)
        self.to_host = LineWriter(sink=self._host_out, background=True)
        self.slot = ServerSlot(proc, launch, self.to_server)
        """The server running now, swapped by a restart."""
        self.carrier = Carrier(self.to_server, self.to_host)
        """Where the protocol's actions, and the bridge's own messages, are carried out."""
        self.mediator = Mediator(
            answers=self.answers,
            log=self.log,
            act=self.carrier,
            clock=clock.SYSTEM,
            spill=FileSpill(),
            nonce=os.urandom(6).hex(),
            observe=observe,
            log_all=log_all,
            restartable=launch is not None and launch.restartable,
            roots_asked_at_start=not observe
            and habits.asks_roots_at_start(self.layout, server_name),
            # a confined server's refusals are tied to them; one that may be restarted may
            # come back confined
            track_requests=launch is not None
            and (launch.refusals is not None or launch.restartable),
        )
        self.carrier.serve(self.mediator.wake)
        requests = self.mediator.requests
        self.denials = Denials(self.log, requests.snapshot if requests is not None else None)
        """The confined server's refusals, as denial events (:mod:`.denials`)."""
        self.restarts = Restarts(self)
        self.stop_event = asyncio.Event()
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
        self._folders = FolderWatch(self.source.folders, self._store_changed)
        self._store_watched = False
        """Whether the store's folder is watched now (:meth:`_store_watch`)."""
        self._store_refused = False
        self._uncovered = asyncio.Event()
        """Set when the kernel may no longer report every change: the periodic check resumes."""
        self.source.cache.on_uncovered = self._uncovered.set
        self._answer_fd: int | None = None
        self._mounts_watched = False
        self._tasks: list[asyncio.Task[Any]] = []

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
        if ended is not self.slot.out_ended or self.restarts.active:
            ended.set()  # a server stopped for a restart
            return
        # nothing more comes from the server: a held initialized has nothing to wait for
        self.mediator.release_initialized()
        ended.set()
        # a server usually closes its stdout as it exits; one that lives on can never answer
        # again, so after a grace period the run ends as if the host had gone
        self._silent_timer = asyncio.get_running_loop().call_later(GRACE, self._server_silent)

    def _server_silent(self) -> None:
        if not self.slot.server.exited.is_set() and not self.stop_event.is_set():
            self._reason = "the server closed its stdout"
            self.stop_event.set()

    def _signalled(self, signum: int, *, sent: bool = False) -> None:
        # Passed on to the server's tree at once, every time, as npm and a shell do: a host's
        # ladder (Claude Code: SIGINT, SIGTERM 100 ms later, SIGKILL at 500 ms) leaves the
        # bridge no time to close stdin and wait, and a tree told nothing outlives it. (*sent*:
        # it came before the run, and went on to the tree then.)
        if sys.platform != "win32":
            self.slot.server.forward(signum, sent=sent)
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
        for fd in (HOST_IN, HOST_OUT):
            grow_pipe(fd)

        h2s = LineRelay(
            self.to_server,
            self.mediator.host_side,
            runner=host_runner(self.mediator, handoff, self.carrier, self.log),
        )
        self._s2h = server_runner(handoff, self.carrier, self.log)
        Pump("host-to-server", HOST_IN, h2s, lambda: handoff.call(self.host_eof)).start()
        self._pump_server()

    def _pump_server(self) -> None:
        assert self._handoff is not None and self._s2h is not None
        self.slot.pump(
            self._handoff, self.to_host, self.mediator.server_side, self._s2h, self._server_out_end
        )

    # ---- a restart (:class:`Restarts`) ------------------------------------

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
        self.slot = ServerSlot(proc, launch, self.to_server)
        self.slot.take_writer(self._server_in)
        self.slot.server.watch(asyncio.get_running_loop())
        self._read_refusals()
        self._pump_server()
        self._say_folders()

    def _say_folders(self) -> None:
        """Log what the start said of the server's confinement, and the folders ``{roots}``
        gave the server just started; and, when it gave none, say why on stderr too (the
        host's log), for a server that may refuse to start so."""
        for note in self.slot.launch.notes if self.slot.launch is not None else ():
            self.log.event(ev.MESSAGE, message=note)
        folders = self.slot.launch.folders if self.slot.launch is not None else None
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
        self.log.event(ev.MESSAGE, message=message, folders=folders)

    # ---- the run --------------------------------------------------------------------

    async def run(self, early_signals: Sequence[int] = ()) -> int:
        """Run until the host or the server goes; returns the bridge's exit code.

        *early_signals* came after the server started and before this run could take them
        (:class:`~roots_manager.bridge.main.EarlySignals`)."""
        loop = asyncio.get_running_loop()
        self.slot.server.watch(loop)
        self._read_refusals()
        self._handle_signals(loop)
        for sig in list(early_signals):
            self._signalled(sig, sent=True)
        self.log.event(
            ev.RUN_START,
            command=self.command,
            pid=os.getpid(),
            server_pid=self.slot.server.pid,
            mode="observe" if self.observe else "managed",
            version=__version__,
            confined=self.slot.confined,
            restartable=self.mediator.carried is not None,
        )
        self._say_folders()
        self._start_pumps(loop)
        self._tasks.append(asyncio.create_task(self._register()))
        while True:
            exited = asyncio.create_task(self.slot.server.exited.wait())
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
        how = None
        if not self.slot.server.exited.is_set():
            how = await self.slot.server.stop(GRACE, asked=self._host_asked)
        else:
            self._reason = self._reason or "server exited"
            # a host's signal passed on may have ended it before the run could stop it
            how = self.slot.server.forwarded
            await self.slot.server.reap_group(GRACE)
        # what the server said last reaches the host, unless the host does not read it; a
        # host that asked the run to end (a signal, its stdin closed) is ending itself, and its
        # ladder kills the bridge soon: briefly then
        flush = FLUSH_ASKED if self._host_asked else FLUSH_TIMEOUT
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.slot.out_ended.wait(), flush)
        code = exit_code(self.slot.server.returncode)
        stopped.cancel()
        await self._finish(code, how)
        return code

    def _read_refusals(self) -> None:
        launch = self.slot.launch
        if launch is not None and launch.refusals is not None:
            fd, launch.refusals = launch.refusals, None
            self.denials.follow(fd, asyncio.get_running_loop())

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
            ev.RUN_START,
            command=self.command,
            pid=os.getpid(),
            mode="observe" if self.observe else "managed",
            version=__version__,
        )
        self.log.event(ev.ERROR, message=f"cannot start {self.command[0]}: {what}")
        self.log.event(ev.RUN_END, exit_code=code, reason="cannot start")
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
            server_pid=self.slot.server.pid,
            confined=self.slot.confined,
            restartable=self.mediator.carried is not None,
        )
        pending = False
        if not self.observe:
            try:
                pending = await asyncio.to_thread(self._record_start)
                self._registered = True
            except (StoreError, OSError) as exc:
                # answering matters more than the record: the store is still read for answers
                self.log.event(ev.ERROR, message=f"the server's start was not recorded: {exc}")
                print(f"roots-bridge: {exc}", file=sys.stderr, flush=True)
            except ModelError as exc:
                # a name that looks like a known server's (``fѕ`` beside ``fs``): it is not
                # recorded, so no consent is asked for it and it has no grants, the known
                # server's least of all; the server still runs and is answered no folder
                message = f"{exc}; the server runs, and sees no folder until it is renamed"
                self.log.event(ev.ERROR, message=message)
                print(f"roots-bridge: {message}", file=sys.stderr, flush=True)
        self.log.start_marker(marker, loop)
        # earlier runs' logs, kept within the limits, in a thread: with those of the state just
        # recorded (the one the first answer is made from), else read there
        self.log.sweep(self.source.state().log_retention if self._registered else None)
        # requests left for bridges that ended before they could take them; in the background,
        # since it reads every bridge's marker and the first answer must not wait for that
        self._tasks.append(asyncio.create_task(asyncio.to_thread(self._sweep_requests)))
        if self.observe:
            if self.mediator.carried is not None:  # confined: a change of grants restarts it
                self._watch()
            return
        self._watch()
        if pending and live.app_running(self.layout):
            self.consent.begin(self.name, decided=not self.source.pending())
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
        )
        periodic = every(
            AVAILABILITY_PERIOD,
            self._store_changed,
            stop,
            resting=self._kernel_reports,
            wake=self._uncovered,
        )
        watchers: list[tuple[str, Coroutine[Any, Any, None]]] = [
            (
                "the store watcher",
                watch_store(self.layout, self._store_changed, stop, requests, self._store_watch),
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
            return
        self._uncovered.set()
        if not self._store_refused:
            self._store_refused = True
            self.log.event(
                ev.ERROR,
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
            self._store_changed()

    def _mounts_changed(self) -> None:
        self.source.cache.drop()
        self.source.effective()
        self._store_changed()

    def _watcher_ended(self, name: str, task: asyncio.Task[Any]) -> None:
        # a watcher that fails leaves changes to the others (at worst, the periodic check a
        # second later): said in the log, never lost in a task nobody awaits
        if name == "the mount watcher":
            self._mounts_watched = False
            self._uncovered.set()
        if not task.cancelled() and task.exception() is not None:
            self.log.event(ev.ERROR, message=f"{name} failed: {task.exception()!r}")

    def _record_start(self) -> bool:
        runs = live.live_runs(self.layout) | {self.run_id}
        # one walk of the collector over the state of 30,000 roots once it is recorded, not one
        # after each pass over it (reading, the snapshots, the document)
        with collector.paused(), self.store.transaction() as state:
            state.prune_runs(runs)
            default = self.slot.launch.default if self.slot.launch is not None else None
            request = state.server_started(self.name, self.command, self.run_id, confined=default)
        return request is not None

    def _store_changed(self) -> None:
        # the store, a granted folder's parent directory, a request, or the periodic check
        self._trim_when_idle()
        self._folders.refresh()
        self.restarts.check()
        if self.consent.waiting and not self.source.pending():
            self.consent.over(False)
        elif self.answers.is_open:
            self.mediator.check_changes()
        # after a real change, so that one arriving together with a request is logged as such
        self._take_request()

    def _trim_when_idle(self) -> None:
        """Once the changes have stopped coming for a second, give back to the system what
        reading them freed (Linux, glibc): an idle bridge holds what it needs, not what its
        busiest moment left behind (fifty bridges starting at once read the store fifty
        times each)."""
        if sys.platform != "linux":
            return
        if self._trim is not None:
            self._trim.cancel()
        from roots_manager.platform.linux.malloc import trim

        self._trim = asyncio.get_running_loop().call_later(TRIM_AFTER, trim)

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
                self.log.event(ev.ERROR, message=f"a {what} request cannot be taken: {exc}")
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
                self.log.event(ev.ERROR, message=f"what the server did was not kept: {exc}")
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
        await self.log.settle()
        # the end is the log's last event: closed at once, with no wait between, so that
        # nothing handed on meanwhile (the server's lines still read) comes after it
        self.log.event(
            ev.RUN_END,
            exit_code=code,
            returncode=self.slot.server.returncode,
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
