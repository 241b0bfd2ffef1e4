"""Restarting the server behind the host's back, when consent changes what it may touch.

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
   one (:mod:`~roots_manager.bridge.carried`): ``initialize``, whose answer is swallowed,
   ``notifications/initialized``, the log level, the subscriptions. Under 2026-07-28 there is no
   handshake to replay;
5. the held messages go to it, in order; if its capabilities or ``serverInfo`` differ from the
   old one's, the host hears the ``list_changed`` notices the old one declared.

A burst of changes makes one restart (:data:`COALESCE`), restarts start at least
:data:`MIN_INTERVAL` apart, and a server that exits (or does not answer) during the replay
:data:`CRASH_LOOP` times running is not started again: the run ends and says why.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

from roots_manager.bridge.jsonrpc import Json, dumps, error_line, root_uris
from roots_manager.core import events as ev

if TYPE_CHECKING:
    from roots_manager.bridge.runner import Bridge
    from roots_manager.core.model import State

COALESCE = 0.05
"""Seconds a change waits for others to join it in one restart."""
MIN_INTERVAL = 1.0
"""Seconds between the starts of two restarts."""
DRAIN = 3.0
"""Seconds the old server gets to finish the requests it is handling."""
REPLAY_TIMEOUT = 10.0
"""Seconds a new server gets to answer each replayed request."""
CRASH_LOOP = 3
"""Failed replays in a row after which the server is not started again."""
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
) -> str | None:
    """Why the server running now (confined by *running*, told *told*) must be restarted.

    *current* gives the root URIs it would be told now. None: it need not be.
    """
    srv = state.servers.get(name)
    setting = srv.restart_on_revoke if srv is not None else None
    # the default follows confinement: the stored setting, or --confine
    wanted = setting if setting is not None else (forced or bool(srv and srv.confine))
    if running is None and not forced and not (srv and srv.confine) and not wanted:
        return None
    # only for a server that may be restarted: the confinement rules' module is not light
    from roots_manager.core.confined import confinement_key

    key = confinement_key(state, name, fingerprint=fingerprint, run=run, forced=forced)
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
    """The restarts of one bridge run's server."""

    def __init__(self, bridge: Bridge) -> None:
        self.b = bridge
        self.count = 0
        self._task: asyncio.Task[None] | None = None
        self._last_start = -MIN_INTERVAL
        self._replays = 0

    @property
    def active(self) -> bool:
        """A restart is under way."""
        return self._task is not None and not self._task.done()

    def check(self) -> None:
        """After any change of the store or of a folder: restart if the server's consent moved."""
        b = self.b
        if self.active or b.mediator.carried is None or b.stop_event.is_set():
            return
        reason = self.reason()
        if reason is None:
            return
        # the old server gets nothing new from now on
        b.mediator.hold_host()
        b.log.event(ev.SERVER_RESTARTING, reason=reason, pid=b.slot.server.pid)
        self._task = asyncio.create_task(self._run(reason))

    def reason(self) -> str | None:
        """Why the server running now must be restarted, or None."""
        b = self.b
        return restart_reason(
            b.source.state(),
            b.name,
            fingerprint=b.fingerprint,
            run=b.run_id,
            forced=b.confine,
            running=b.slot.launch.key if b.slot.launch is not None else None,
            told=b.mediator.told,
            current=lambda: root_uris(b.source.effective()),
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
        for msg_id in cut:
            b.to_host.inject(
                error_line(
                    msg_id,
                    "roots-bridge: the server was restarted for a consent change "
                    f"({reason}); send the request again",
                    RESTARTED,
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
        )
        b.log.marker(server_pid=b.slot.server.pid, restarts=self.count)
        # a change that came during the restart
        self.check()

    async def _start_again(self, reason: str) -> tuple[int, tuple[Json | None, list[str]] | None]:
        """Start the new server and replay the host's handshake to it, up to :data:`CRASH_LOOP`
        times; the attempts made, and the replay's outcome (None: given up, run ending)."""
        b = self.b
        assert b.mediator.carried is not None
        attempts = 0
        while True:
            attempts += 1
            try:
                await b.replace()
            except OSError as exc:
                self._fail(reason, f"the server cannot be started again: {exc}", attempts)
                return attempts, None
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
                    b.to_server.inject(dumps(msg) + b"\n")
                    done.append(method)
                    continue
                self._replays += 1
                msg["id"] = f"{b.mediator.rounds.prefix}replay-{self._replays}"
                answer: asyncio.Future[Any] = loop.create_future()
                carried.expect(msg["id"], _settle(answer))
                b.to_server.inject(dumps(msg) + b"\n")
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
                self.b.to_host.inject(dumps({"jsonrpc": "2.0", "method": method}) + b"\n")
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
        b.end(f"not restarted: {why}")


def _settle(answer: asyncio.Future[Any]) -> Callable[[Json], None]:
    def settle(msg: Json) -> None:
        if not answer.done():
            answer.set_result(msg)

    return settle
