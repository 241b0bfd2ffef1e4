"""The 2026-07-28 ``input_required`` rounds that ask for roots, resolved by the bridge.

Under 2026-07-28 a server asks for roots inside a result: ``{"resultType": "input_required",
"inputRequests": {KEY: {"method": "roots/list"}}, "requestState": ...}`` to a ``tools/call``,
``prompts/get`` or ``resources/read``. Asked for roots alone, the bridge retries the request
itself under an id of its own (``requestState`` echoed exactly, the answers in
``params.inputResponses``) and gives the final result back under the host's id; mixed with
other input requests, it leaves those to the host and adds its roots answers to the host's retry.

To retry a request the bridge keeps the host's recent ones, as the bytes relayed (a parsed
request can take many times the memory of its text, and only the rare one answered with
``input_required`` is parsed): the last :data:`MAX_REMEMBERED` of them, in memory up to
:data:`MAX_REMEMBERED_BYTES` and past that in a :class:`Spill` the run gives it (private files),
so that a large request sent while a call is pending does not push that call out.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from roots_manager.bridge.protocol import lenient_reading
from roots_manager.bridge.protocol.actions import Act, to_server
from roots_manager.bridge.protocol.jsonrpc import (
    MRTR_METHODS,
    EventSink,
    Json,
    dumps,
    error_line,
    key,
    root_uris,
)
from roots_manager.core.consent.effective import ListRootsResult
from roots_manager.core.directory.records import EventKind
from roots_manager.core.log import events as ev

MAX_REMEMBERED = 256
"""Host requests kept in case the server answers them with input_required."""
MAX_REMEMBERED_BYTES = 8 * 1024 * 1024
"""Bytes of kept host requests held in memory; older ones wait in files (the newest is always
in memory)."""


class Spill(Protocol):
    """Where the kept requests past the memory bound wait, out of the protocol (the run's
    private files, :class:`~roots_manager.bridge.run.file_spill.FileSpill`)."""

    def put(self, line: bytes) -> object:
        """Keep *line*; what to take it back with."""
        ...

    def take(self, token: object) -> bytes:
        """The line kept as *token*, let go."""
        ...

    def drop(self, token: object) -> None:
        """Let the line kept as *token* go unread."""
        ...


@dataclass(frozen=True, slots=True)
class _Spilled:
    """A kept request waiting in the :class:`Spill`."""

    token: object


@dataclass(frozen=True)
class HostRequest:
    """What becomes of a host's 2026-07-28 request."""

    changed: bool = False
    """It was rewritten: relay its new text."""
    held: bool = False
    """It waits for roots the gate holds; the bridge sends it itself once they come."""
    keep: bool = False
    """The server may answer it with input_required: keep it once relayed."""


def roots_keys(result: object) -> tuple[list[str], list[str]] | None:
    """For an ``input_required`` result: (keys asking roots/list, other keys); else None."""
    if not isinstance(result, dict) or result.get("resultType") != "input_required":
        return None
    reqs = result.get("inputRequests")
    if not isinstance(reqs, dict):
        return None
    roots = lenient_reading.roots_input_keys(result)
    return roots, [k for k in reqs if k not in roots]


class InputRounds:
    """The bridge's side of ``input_required`` rounds for roots, in managed mode."""

    def __init__(
        self,
        *,
        want: Callable[[Callable[[ListRootsResult], None]], bool],
        log: EventSink,
        act: Act,
        answered: Callable[[ListRootsResult], None],
        prefix: str,
        perf: Callable[[], float],
        spill: Spill,
    ) -> None:
        """*want*: have a function called with the server's roots, at once (True) or once the
        run hands them in (:meth:`~roots_manager.bridge.protocol.server_roots.ServerRoots.want`);
        *perf*: the finest seconds there are, for how long a retry took; *spill*: where kept
        requests past :data:`MAX_REMEMBERED_BYTES` wait."""
        self.want = want
        self.perf = perf
        self.spill = spill
        self.log = log
        self.act = act
        """Where the retries go (actions: to the server)."""
        self.answered = answered
        self.prefix = prefix
        """The ids of the bridge's own requests start with this."""
        self._requests: OrderedDict[str, bytes | _Spilled] = OrderedDict()
        self._kept_bytes = 0
        self._retries: dict[str, tuple[object, Json]] = {}
        self._retried: dict[str, str] = {}
        """The key of a host id whose call the bridge retried, to the id it is pending under."""
        self._mixed: OrderedDict[str, list[str]] = OrderedDict()
        self._counter = 0

    @property
    def busy(self) -> bool:
        """True while a request of the bridge's own awaits its response."""
        return bool(self._retries)

    # ---- the host's requests --------------------------------------------------------------

    def host_request(self, msg: Json, params: Json) -> HostRequest:
        """Take a host's request: roots the host answered go, roots the bridge owes are added."""
        changed = self._without_host_roots(msg, params)
        if msg.get("method") not in MRTR_METHODS or "id" not in msg:
            return HostRequest(changed=changed)
        state = params.get("requestState")
        keys = (
            self._mixed.pop(state if isinstance(state, str) else "", None)
            if self._mixed and "inputResponses" in params
            else None
        )
        if keys:
            given: list[ListRootsResult] = []

            def fill(roots: ListRootsResult) -> None:
                if held:  # handed in later: the retry goes on from here
                    self._fill_host_retry(msg, keys, roots, send=True)
                else:
                    given.append(roots)

            held = False
            if not self.want(fill):
                held = True
                return HostRequest(changed=changed, held=True)
            self._fill_host_retry(msg, keys, given[0], send=False)
            changed = True
        return HostRequest(changed=changed, keep=True)

    def _without_host_roots(self, msg: Json, params: Json) -> bool:
        """Remove roots the host put in a retry; True if there were any."""
        responses = params.get("inputResponses")
        if not isinstance(responses, dict):
            return False
        foreign = [k for k, v in responses.items() if isinstance(v, dict) and "roots" in v]
        if not foreign:
            return False
        # roots answered by the host, to a request that got past the bridge somehow
        for k in foreign:
            del responses[k]
        self.log.event(
            EventKind.ERROR,
            dir=ev.HOST_TO_SERVER,
            id=msg.get("id"),
            keys=foreign,
            blocked=True,
            message="the host answered a request for roots the bridge never relayed; "
            "removed from its retry",
        )
        return True

    def _fill_host_retry(
        self, msg: Json, keys: list[str], roots: ListRootsResult, *, send: bool
    ) -> None:
        params = msg["params"]
        responses = params.get("inputResponses")
        if not isinstance(responses, dict):
            responses = params["inputResponses"] = {}
        for k in keys:
            responses[k] = roots
        self.answered(roots)
        self.log.event(
            EventKind.MRTR_RESOLVED,
            dir=ev.BRIDGE_TO_SERVER,
            id=msg.get("id"),
            keys=keys,
            uris=root_uris(roots),
            path="host-retry",
        )
        if send:
            line = dumps(msg) + b"\n"
            self.remember(msg["id"], line)
            self.act(to_server(line))

    def remember(self, msg_id: object, line: bytes) -> None:
        """Keep the host request *msg_id* as relayed, in case it must be retried."""
        self.forget(msg_id)
        self._requests[key(msg_id)] = line
        self._kept_bytes += len(line)
        kept = self._requests
        while len(kept) > MAX_REMEMBERED:
            self._drop(kept.popitem(last=False)[1])
        if self._kept_bytes > MAX_REMEMBERED_BYTES:
            # the oldest in memory wait in files, the newest stays
            for k, v in list(kept.items())[:-1]:
                if self._kept_bytes <= MAX_REMEMBERED_BYTES:
                    break
                if isinstance(v, bytes):
                    kept[k] = _Spilled(self.spill.put(v))
                    self._kept_bytes -= len(v)

    def forget(self, msg_id: object) -> bytes | None:
        """Let the kept request *msg_id* go; the line it was, if it was kept."""
        kept = self._requests.pop(key(msg_id), None)
        if isinstance(kept, _Spilled):
            return self.spill.take(kept.token)
        if kept is not None:
            self._kept_bytes -= len(kept)
        return kept

    def _drop(self, kept: bytes | _Spilled) -> None:
        if isinstance(kept, _Spilled):
            self.spill.drop(kept.token)
        else:
            self._kept_bytes -= len(kept)

    def forget_all(self) -> None:
        """The server was replaced: nothing it was asked is retried or answered any more."""
        for kept in self._requests.values():
            self._drop(kept)
        self._requests.clear()
        self._retries.clear()
        self._retried.clear()
        self._mixed.clear()

    @property
    def kept_bytes(self) -> int:
        """Bytes of host requests kept in memory now."""
        return self._kept_bytes

    def cancelled(self, msg: Json, params: Json | None) -> bool:
        """Point a host's ``notifications/cancelled`` at the id its call is pending under now;
        True if it was rewritten."""
        if params is None or "requestId" not in params:
            return False
        pending = self._retried.get(key(params["requestId"]))
        if pending is None:
            return False
        self.log.event(
            EventKind.MESSAGE,
            dir=ev.HOST_TO_SERVER,
            method=msg.get("method"),
            id=params["requestId"],
            retried_as=pending,
        )
        params["requestId"] = pending
        return True

    # ---- the server's results -------------------------------------------------------------

    def server_response(self, msg: Json) -> bytes | None:
        """Take a server response: what to relay in its place (b"" for nothing), or None to
        relay it as it is."""
        msg_id = msg["id"]
        if isinstance(msg_id, str) and msg_id.startswith(self.prefix):
            retry = self._retries.pop(msg_id, None)
            if retry is None:
                # a response to an id of ours that we never sent: nobody is waiting for it
                self.log.event(
                    EventKind.ERROR,
                    dir=ev.SERVER_TO_HOST,
                    id=msg_id,
                    message="a response to a request the bridge never sent; dropped",
                )
                return b""
            host_id, original = retry
            self._retried.pop(key(host_id), None)
            msg["id"] = host_id
            out = self._round(msg, host_id, original)
            return dumps(msg) if out is None else out
        return self._round(msg, msg_id, self.forget(msg_id))

    def _round(self, msg: Json, host_id: object, original: Json | bytes | None) -> bytes | None:
        result = msg.get("result")
        found = roots_keys(result)
        if not found or not found[0]:
            return None
        assert isinstance(result, dict)
        keys, others = found
        state = result.get("requestState")
        self.log.event(
            EventKind.ROOTS_ASKED, dir=ev.SERVER_TO_HOST, id=host_id, keys=keys, mrtr=True
        )
        if others:
            # the host answers the rest; the bridge adds its roots answers to the host's retry
            reqs = result["inputRequests"]
            for k in keys:
                del reqs[k]
            self._mixed[state if isinstance(state, str) else ""] = keys
            while len(self._mixed) > MAX_REMEMBERED:
                self._mixed.popitem(last=False)
            return dumps(msg)
        if original is None:
            self.log.event(
                EventKind.ERROR,
                dir=ev.SERVER_TO_HOST,
                id=host_id,
                message="input_required for roots/list on a request the bridge did not keep; "
                "the host gets an error instead",
            )
            return error_line(
                host_id,
                "roots-bridge: the server asked for roots on a request the "
                "bridge no longer holds; send the request again",
            )[:-1]
        request: Json = json.loads(original) if isinstance(original, bytes) else original
        started = self.perf()

        def retry(roots: ListRootsResult) -> None:
            self._counter += 1
            bridge_id = f"{self.prefix}{self._counter}"
            params = dict(request.get("params") or {})
            params["inputResponses"] = {k: roots for k in keys}
            if state is None:
                params.pop("requestState", None)
            else:
                params["requestState"] = state
            again = {**request, "params": params, "id": bridge_id}
            self._retries[bridge_id] = (host_id, request)
            self._retried[key(host_id)] = bridge_id
            self.answered(roots)
            self.log.event(
                EventKind.MRTR_RESOLVED,
                dir=ev.BRIDGE_TO_SERVER,
                id=bridge_id,
                host_id=host_id,
                keys=keys,
                uris=root_uris(roots),
                path="retry",
                us=round((self.perf() - started) * 1e6),
            )
            self.act(to_server(dumps(again) + b"\n"))

        self.want(retry)
        return b""
