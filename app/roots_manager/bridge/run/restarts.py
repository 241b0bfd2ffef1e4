"""Restarting the server behind the host's back, when consent changes what it may touch.

Why a restart is needed is decided by :mod:`roots_manager.bridge.protocol.restart` (pure);
:class:`Restarts` carries it out, in one bridge run, with the collaborators the run hands it,
each one named: the server running now and how to start a new one in its place, the
protocol's mediator, the log, the carrier of messages, the judge of why, and how to end the
run. It holds no reference to the bridge, and reaches into nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from roots_manager.bridge.protocol.actions import to_host, to_server
from roots_manager.bridge.protocol.jsonrpc import Json, dumps, error_line
from roots_manager.bridge.protocol.restart import Restart, Why
from roots_manager.core.directory.records import EventKind
from roots_manager.core.log import events as ev

if TYPE_CHECKING:
    from roots_manager.bridge.protocol.mediator import Mediator
    from roots_manager.bridge.run.eventlog import BridgeLog
    from roots_manager.bridge.run.running_server import RunningServer
    from roots_manager.bridge.transport.carrier import Carrier

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
RESTARTED = -32000
"""The JSON-RPC error code of a request the restart cut short (the SDKs' "connection closed")."""
LIST_KINDS = ("tools", "prompts", "resources")


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
       one (:mod:`~roots_manager.bridge.protocol.carryover`): ``initialize``, whose answer is
       swallowed, ``notifications/initialized``, the log level, the subscriptions. Under
       2026-07-28 there is no handshake to replay;
    5. the held messages go to it, in order; if its capabilities or ``serverInfo`` differ from the
       old one's, the host hears the ``list_changed`` notices the old one declared.

    A burst of changes makes one restart (:data:`COALESCE`), restarts start at least
    :data:`MIN_INTERVAL` apart, and a server that cannot be started, or exits (or does not
    answer) during the replay, :data:`CRASH_LOOP` times running is not started again: the run
    ends and says why, in the log and on stderr.
    """

    def __init__(
        self,
        *,
        running: Callable[[], RunningServer],
        start_again: Callable[[bool], Awaitable[None]],
        name: str,
        mediator: Mediator,
        log: BridgeLog,
        carrier: Carrier,
        judge: Callable[[], Restart | None],
        ending: asyncio.Event,
        end: Callable[[str], None],
    ) -> None:
        self.running = running
        """The server running now (a restart swaps it)."""
        self.start_again = start_again
        """Starts a new server in the running one's place, *asked* by the user or not (which
        may loosen its confinement); raises :class:`OSError` if it cannot."""
        self.name = name
        self.mediator = mediator
        self.log = log
        self.carrier = carrier
        self.judge = judge
        """Why the server running now must be restarted (a consent change), or None."""
        self.ending = ending
        """Set once the run is ending: nothing is restarted then."""
        self.end = end
        """Ends the run, for a reason (a server that could not be started again)."""
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
        if self.mediator.carryover is None:
            # the host's handshake was not kept, so a new server could not be told it
            outcome = "not-restartable"
        elif self.active:
            outcome = "under-way"  # the server being started now is a fresh one
        else:
            outcome = "restarting"
            self._asked = (by, request)
        self.log.event(EventKind.RESTART_ASKED, outcome=outcome, by=by, request=request)
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
        if self.active or self.mediator.carryover is None or self.ending.is_set():
            return
        reason = self.reason()
        if reason is None:
            return
        # the old server gets nothing new from now on
        self.mediator.hold_host()
        asked = self._asked[1] if self._asked is not None else None
        self.log.event(
            EventKind.SERVER_RESTARTING,
            reason=str(reason),
            pid=self.running().server.pid,
            request=asked,
        )
        self._task = asyncio.create_task(self._run(reason))
        # a change seen while it runs is let by (the server being started is the one to judge
        # it against): once it has ended, the store is looked at again
        self._task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled():
            self.check()

    def reason(self) -> Restart | None:
        """Why the server running now must be restarted, or None."""
        if self._asked is not None:
            return Restart(Why.ASKED, self._asked[0])
        launch = self.running().launch
        if launch is not None and not launch.restartable:
            # confined with restart on revoke off when it started: the handshake is kept for
            # the user's Restart now alone, and a consent change waits for the next start
            return None
        return self.judge()

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

    async def _run(self, reason: Restart) -> None:
        mediator = self.mediator
        carryover = mediator.carryover
        assert carryover is not None
        loop = asyncio.get_running_loop()
        held_at = time.monotonic()
        await asyncio.sleep(max(COALESCE, self._last_start + MIN_INTERVAL - loop.time()))
        again = self.reason()  # the burst may have undone itself
        if again is None:
            released = mediator.release_host()
            self.log.event(
                EventKind.MESSAGE,
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
        old_pid = self.running().server.pid
        old_result = carryover.server_result
        if carryover.in_flight:
            idle = asyncio.Event()
            carryover.on_idle = idle.set
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(idle.wait(), DRAIN)
            carryover.on_idle = None
        drained = round((time.monotonic() - held_at) * 1000)
        # the old server stops while the new one starts: a restart costs the slower of the two
        closed = self.running().release_stdin()
        stopping = asyncio.create_task(self.running().retire(stdin_closed=True))
        try:
            await closed.wait()
            carryover.stdin_closed()
            mediator.server_replaced()
            attempts, outcome = await self._start_again(reason)
            stopped_by = await stopping
        finally:
            stopping.cancel()  # the run is ending: retire() kills what is left
        # what the old server left unanswered, once all it said has reached the host
        cut = carryover.open_requests()
        why = "on request" if reason.why is Why.ASKED else "for a consent change"
        for msg_id in cut:
            self.carrier(
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
        self.log.event(
            EventKind.SERVER_RESTARTED,
            reason=str(reason),
            old_pid=old_pid,
            new_pid=self.running().server.pid,
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
        self.log.marker(
            server_pid=self.running().server.pid,
            restarts=self.count,
            reachable=self.running().reachable,
        )

    async def _start_again(
        self, reason: Restart
    ) -> tuple[int, tuple[Json | None, list[str]] | None]:
        """Start the new server and replay the host's handshake to it, up to :data:`CRASH_LOOP`
        times (a start that fails is tried again after :data:`START_RETRY`); the attempts made,
        and the replay's outcome (None: given up, run ending)."""
        assert self.mediator.carryover is not None
        attempts = 0
        while True:
            attempts += 1
            try:
                await self.start_again(self._by_user)
            except OSError as exc:
                # what failed may pass (a program being replaced, a folder swapped, no memory
                # for a moment): tried again after a pause, as a crash in the replay is
                why = f"the server cannot be started again: {exc}"
                if attempts >= CRASH_LOOP:
                    self._fail(reason, f"{why} ({attempts} times)", attempts)
                    return attempts, None
                self.log.event(EventKind.MESSAGE, message=f"{why}; trying again", attempts=attempts)
                await asyncio.sleep(START_RETRY)
                continue
            outcome = await self._replay()
            if outcome is not None:
                return attempts, outcome
            why = (
                f"exited with code {self.running().server.returncode}"
                if self.running().server.exited.is_set()
                else f"did not answer within {REPLAY_TIMEOUT:g} s"
            )
            await self.running().retire()
            self.mediator.carryover.forget_expected()
            if attempts >= CRASH_LOOP:
                self._fail(
                    reason,
                    f"the restarted server {why} during the replay, {attempts} times",
                    attempts,
                )
                return attempts, None

    async def _replay(self) -> tuple[Json | None, list[str]] | None:
        """Tell the new server what the host told the old one; None if it failed to listen."""
        carryover = self.mediator.carryover
        assert carryover is not None
        loop = asyncio.get_running_loop()
        result: Json | None = None
        done: list[str] = []
        exited: asyncio.Future[Any] = asyncio.ensure_future(self.running().server.exited.wait())
        try:
            for method, params in carryover.replayed():
                msg: Json = {"jsonrpc": "2.0", "method": method}
                if params is not None:
                    msg["params"] = params
                if method.startswith("notifications/"):
                    self.carrier(to_server(dumps(msg) + b"\n"))
                    done.append(method)
                    continue
                self._replays += 1
                msg["id"] = f"{self.mediator.rounds.prefix}replay-{self._replays}"
                answer: asyncio.Future[Any] = loop.create_future()
                carryover.expect(msg["id"], _settle(answer))
                self.carrier(to_server(dumps(msg) + b"\n"))
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
                self.carrier(to_host(dumps({"jsonrpc": "2.0", "method": method}) + b"\n"))
                sent.append(method)
        self.log.event(
            EventKind.MESSAGE,
            dir=ev.BRIDGE_TO_HOST,
            message="the restarted server declares other capabilities or another serverInfo",
            before={k: old.get(k) for k in ("capabilities", "serverInfo")},
            after={k: new.get(k) for k in ("capabilities", "serverInfo")},
            notices=sent,
        )
        return sent

    def _fail(self, reason: Restart, why: str, attempts: int) -> None:
        self.mediator.release_host()
        self.log.event(EventKind.RESTART_FAILED, reason=str(reason), message=why, attempts=attempts)
        # the host sees its server go: its log (the bridge's stderr) says why
        print(
            f"roots-bridge: {self.name}: the server was not restarted ({reason}): {why}; "
            "the bridge ends",
            file=sys.stderr,
            flush=True,
        )
        self.end(f"not restarted: {why}")


def _settle(answer: asyncio.Future[Any]) -> Callable[[Json], None]:
    def settle(msg: Json) -> None:
        if not answer.done():
            answer.set_result(msg)

    return settle
