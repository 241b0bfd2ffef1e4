"""What the bridge does with the messages that concern roots, in managed and observe mode.

The session sees only the lines the relays' byte-level triage hands it, parses them, and
returns what to relay in their place. It owns:

- capability injection: ``roots: {"listChanged": true}`` into ``initialize`` (2025 revisions),
  ``roots: {}`` into ``_meta["io.modelcontextprotocol/clientCapabilities"]`` of every request
  (2026-07-28);
- answering the server's ``roots/list`` (also inside 2025-03-26 batches) with the effective roots;
- resolving 2026-07-28 ``input_required`` rounds that ask for ``roots/list``: alone, by retrying the
  request itself under a bridge id; mixed with other input requests, by leaving them to the host
  and adding the roots answers to the host's retry;
- the ``list_changed`` policy: one notice per effective change, only once the handshake is
  complete, and only if the server fetched the list since the previous notice;
- an early ``notifications/initialized`` (sent before the server answered ``initialize``) is
  held until that answer has reached the host: some servers settle their capabilities then.

The session runs on the event loop only; the relays' pump threads hand it the lines it must see
and wait for what to relay in their place (a future, for a line it holds back).

In managed mode a server's request for roots never reaches the host, however it is spelled: the
server's lines are read as leniently as any host reads them (:mod:`~roots_manager.bridge.
lenient`), a line that some reading takes for a request for roots is answered by the bridge or
dropped, and an answer the bridge cannot compute is still an answer the bridge gives. A response
from the host that carries roots (which only a request the bridge never relayed could have asked
for) is replaced by an error before it reaches the server.

Requests the bridge sends carry string ids ``"roots-bridge-<nonce>-<n>"``: the host's ids can never
collide with them (the nonce is random per session), and their responses never reach the host.
The ``roots`` in that prefix is deliberate: it makes the relay's single ``b"roots"`` test catch
the responses to them without a second scan of every line.
"""

from __future__ import annotations

import json
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, Protocol

from roots_manager.bridge import lenient
from roots_manager.bridge.writer import LineWriter
from roots_manager.core import events as ev
from roots_manager.core.model import now_iso

META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPS = "io.modelcontextprotocol/clientCapabilities"
MRTR_METHODS = frozenset({"tools/call", "prompts/get", "resources/read"})
LIST_CHANGED = "notifications/roots/list_changed"
MAX_REMEMBERED = 256
"""Host requests (2026-07-28) kept in case the server answers them with input_required."""
MAX_REMEMBERED_BYTES = 8 * 1024 * 1024
"""Bytes of kept host requests beyond which the oldest go (the newest is always kept)."""

Json = dict[str, Any]
Result = dict[str, Any]


class Answers(Protocol):
    """The effective ``roots/list`` result, available now or once consent allows it."""

    def now(self) -> Result | None:
        """The answer now, or None while answers are held (consent pending, not registered)."""

    def later(self, reply: Callable[[Result], None]) -> None:
        """Call *reply* with the answer once answers are no longer held."""


class EventSink(Protocol):
    """Where the session records what it sees."""

    def event(self, kind: str, **fields: Any) -> None: ...

    def marker(self, **fields: Any) -> None: ...


def _key(msg_id: object) -> str:
    # 1 and "1" are different JSON-RPC ids; their JSON texts keep them apart
    return json.dumps(msg_id, sort_keys=True)


def _dumps(doc: object) -> bytes:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _split(line: bytes) -> tuple[bytes, bytes]:
    body = line.rstrip(b"\r\n")
    return body, line[len(body) :]


def _uris(result: Result) -> list[str]:
    return [str(r.get("uri")) for r in result.get("roots", []) if isinstance(r, dict)]


def _is_response(msg: Json) -> bool:
    return "method" not in msg and "id" in msg and ("result" in msg or "error" in msg)


def _params(msg: Json) -> Json | None:
    params = msg.get("params")
    return params if isinstance(params, dict) else None


def _roots_keys(result: object) -> tuple[list[str], list[str]] | None:
    """For an ``input_required`` result: (keys asking roots/list, other keys); else None."""
    if not isinstance(result, dict) or result.get("resultType") != "input_required":
        return None
    reqs = result.get("inputRequests")
    if not isinstance(reqs, dict):
        return None
    roots = lenient.roots_input_keys(result)
    return roots, [k for k in reqs if k not in roots]


def _error(msg_id: object, message: str) -> bytes:
    doc = {"jsonrpc": "2.0", "id": msg_id, "error": {"code": -32603, "message": message}}
    return _dumps(doc) + b"\n"


class Session:
    """The roots protocol logic of one bridge session, shared by both directions."""

    def __init__(
        self,
        *,
        answers: Answers,
        log: EventSink,
        to_server: LineWriter,
        to_host: LineWriter,
        defer: Callable[[Callable[[], object]], None],
        observe: bool = False,
        log_all: bool = False,
        nonce: str | None = None,
    ) -> None:
        self.answers = answers
        self.log = log
        self.to_server = to_server
        self.to_host = to_host
        self.defer = defer
        self.observe = observe
        self.log_all = log_all
        self.prefix = f"roots-bridge-{nonce or secrets.token_hex(6)}-"
        self.era: str | None = None
        """None until known, "2025" (initialize handshake) or "2026" (per-request _meta)."""
        self.protocol: str | None = None
        self.handshake_done = False
        self.last_answered: Result | None = None
        self.stale = False
        """A list_changed went out and the server has not fetched the list since."""
        self.notices = 0
        self._init_id: str | None = None
        self._held_initialized: tuple[Future[bytes], bytes] | None = None
        self._announced_2026 = False
        self._asked: set[str] = set()  # observe mode: server roots/list ids awaiting the host
        self._host_requests: OrderedDict[str, bytes] = OrderedDict()
        self._kept_bytes = 0
        self._keep = False
        """The host request being handled may be answered with input_required: keep it."""
        self._retries: dict[str, tuple[object, Json]] = {}
        self._mixed: OrderedDict[str, list[str]] = OrderedDict()
        self._counter = 0
        self.host_side = _HostSide(self)
        self.server_side = _ServerSide(self)

    # ---- shared ---------------------------------------------------------------------------

    def _parse(self, line: bytes, direction: str) -> tuple[object, bytes] | None:
        """The message in *line* and the line ending to put back; None if it is not JSON."""
        body, ending = _split(line)
        try:
            # decoded first: json.loads(bytes) lets encoded surrogates through, which are not
            # UTF-8 (and could not be written back)
            return json.loads(body.decode("utf-8")), ending
        except UnicodeDecodeError:
            reason = "UTF-8"
        except ValueError:
            reason = "JSON"
        if body.strip():
            self.log.event(ev.NON_JSON, dir=direction, bytes=len(body), reason=reason)
        return None

    def _log_message(self, msg: object, direction: str) -> None:
        if not self.log_all or not isinstance(msg, dict):
            return
        self.log.event(ev.MESSAGE, dir=direction, id=msg.get("id"), method=msg.get("method"))

    def _next_id(self) -> str:
        self._counter += 1
        return f"{self.prefix}{self._counter}"

    # ---- host -> server -------------------------------------------------------------------

    def from_host(self, line: bytes) -> bytes | Future[bytes]:
        """What to relay for a host line; a future for a line held back until it may go."""
        parsed = self._parse(line, ev.HOST_TO_SERVER)
        if parsed is None:
            return line
        msg, ending = parsed
        if isinstance(msg, list):
            # batches are 2025-03-26 only: no input_required round can follow them
            changed = False
            for item in msg:
                if isinstance(item, dict):
                    self._log_message(item, ev.HOST_TO_SERVER)
                    changed = self._host_message(item) or changed
            self._keep = False
            return _dumps(msg) + ending if changed else line
        if not isinstance(msg, dict):
            return line
        self._log_message(msg, ev.HOST_TO_SERVER)
        if (
            msg.get("method") == "notifications/initialized"
            and self._init_id is not None
            and not self.observe
            and not self.handshake_done
            and self._held_initialized is None
        ):
            return self._hold_initialized(line, msg)
        held: list[bool] = []
        changed = self._host_message(msg, held)
        keep, self._keep = self._keep, False
        if held:
            return b""
        out = _dumps(msg) + ending if changed else line
        if keep:
            self._remember(msg["id"], out)
        return out

    def _host_message(self, msg: Json, held: list[bool] | None = None) -> bool:
        method = msg.get("method")
        params = _params(msg)
        if method == "initialize":
            return self._initialize(msg, params)
        if method == "notifications/initialized":
            if not self.handshake_done:
                self.handshake_done = True
                # after the relay has written this notification, not before it
                self.defer(self.check_changes)
            return False
        if method == LIST_CHANGED:
            self.log.event(ev.LIST_CHANGED_RELAYED, dir=ev.HOST_TO_SERVER)
            return False
        if _is_response(msg):
            if not self.observe:
                return self._roots_from_host(msg)
            key = _key(msg["id"])
            if key in self._asked:
                self._asked.discard(key)
                result = msg.get("result")
                uris = _uris(result) if isinstance(result, dict) else None
                self.log.event(
                    ev.ROOTS_ANSWERED,
                    dir=ev.HOST_TO_SERVER,
                    id=msg["id"],
                    uris=uris,
                    error=msg.get("error"),
                )
            return False
        meta = params.get("_meta") if params else None
        if not isinstance(meta, dict) or META_VERSION not in meta:
            return False
        return self._modern_request(msg, params, meta, held)

    def _roots_from_host(self, msg: Json) -> bool:
        """Replace a host's answer that carries roots by an error; True if it was replaced.

        In managed mode no request for roots reaches the host, so such an answer can only
        follow a request that got past the bridge: the server must not have it.
        """
        result = msg.get("result")
        if not isinstance(result, dict) or not isinstance(result.get("roots"), list):
            return False
        del msg["result"]
        msg["error"] = {"code": -32603, "message": "roots-bridge: roots come from the bridge"}
        self.log.event(
            ev.ERROR,
            dir=ev.HOST_TO_SERVER,
            id=msg.get("id"),
            blocked=True,
            message="the host answered a request for roots the bridge never relayed; the "
            "server gets an error instead",
        )
        return True

    def _hold_initialized(self, line: bytes, msg: Json) -> Future[bytes]:
        # a server may settle its capabilities when initialized arrives (the reference
        # filesystem server ignores the roots capability if it comes before its own answer),
        # so an early one waits for the server's initialize result to reach the host
        held: Future[bytes] = Future()
        self._held_initialized = (held, line)
        self.log.event(
            ev.HANDSHAKE,
            dir=ev.HOST_TO_SERVER,
            method=msg.get("method"),
            held=True,
            message="initialized arrived before the server's initialize result; held until "
            "that result has reached the host",
        )
        # runs once the released line has been written, like the check after an on-time one
        self.defer(self.check_changes)
        return held

    def release_initialized(self) -> None:
        """Let a held ``notifications/initialized`` go to the server (no-op if none is held)."""
        held = self._held_initialized
        if held is None:
            return
        self._held_initialized = None
        self.handshake_done = True
        held[0].set_result(held[1])

    def _initialize(self, msg: Json, params: Json | None) -> bool:
        self.era = "2025"
        caps = params.get("capabilities") if params else None
        version = params.get("protocolVersion") if params else None
        self.protocol = str(version) if version is not None else None
        self._init_id = _key(msg.get("id"))
        seen = sorted(caps) if isinstance(caps, dict) else None
        host_roots = caps.get("roots") if isinstance(caps, dict) else None
        injected = False
        if not self.observe and params is not None:
            if not isinstance(caps, dict):
                caps = params["capabilities"] = {}
            if "roots" not in caps:
                caps["roots"] = {"listChanged": True}
                injected = True
        self._log_host_handshake(
            msg, seen, {"roots": {"listChanged": True}} if injected else None, host_roots=host_roots
        )
        self.log.marker(protocol=self.protocol)
        return injected

    def _log_host_handshake(
        self, msg: Json, seen: object, injected: Json | None, **details: object
    ) -> None:
        """Log the host's side of a handshake: the capabilities seen and what was added."""
        self.log.event(
            ev.HANDSHAKE,
            dir=ev.HOST_TO_SERVER,
            id=msg.get("id"),
            protocol=self.protocol,
            capabilities=seen,
            injected=injected,
            **details,
        )

    def _modern_request(
        self, msg: Json, params: Json | None, meta: Json, held: list[bool] | None
    ) -> bool:
        assert params is not None
        changed = False
        if self.era != "2026":
            self.era = "2026"
            self.protocol = str(meta.get(META_VERSION))
            self.log.marker(protocol=self.protocol)
        caps = meta.get(META_CAPS)
        seen = sorted(caps) if isinstance(caps, dict) else None
        if not self.observe:
            if not isinstance(caps, dict):
                caps = meta[META_CAPS] = {}
            if "roots" not in caps:
                caps["roots"] = {}
                changed = True
        if not self._announced_2026 and msg.get("method") != "server/discover":
            # a discovery probe may be followed by a fall back to initialize: not yet an era
            self._announced_2026 = True
            self._log_host_handshake(msg, seen, {"roots": {}} if changed else None)
        if self.observe:
            responses = params.get("inputResponses")
            if isinstance(responses, dict):
                for k, v in responses.items():
                    if isinstance(v, dict) and isinstance(v.get("roots"), list):
                        self.log.event(
                            ev.ROOTS_ANSWERED,
                            dir=ev.HOST_TO_SERVER,
                            id=msg.get("id"),
                            key=k,
                            uris=_uris(v),
                        )
            return False
        responses = params.get("inputResponses")
        if isinstance(responses, dict):
            foreign = [k for k, v in responses.items() if isinstance(v, dict) and "roots" in v]
            if foreign:
                # roots answered by the host, to a request that got past the bridge somehow
                for k in foreign:
                    del responses[k]
                changed = True
                self.log.event(
                    ev.ERROR,
                    dir=ev.HOST_TO_SERVER,
                    id=msg.get("id"),
                    keys=foreign,
                    blocked=True,
                    message="the host answered a request for roots the bridge never relayed; "
                    "removed from its retry",
                )
        if msg.get("method") in MRTR_METHODS and "id" in msg:
            state = params.get("requestState")
            keys = (
                self._mixed.pop(state if isinstance(state, str) else "", None)
                if self._mixed and "inputResponses" in params
                else None
            )
            if keys:
                roots = self.answers.now()
                if roots is None:
                    if held is not None:
                        held.append(True)
                    self.answers.later(lambda r: self._fill_host_retry(msg, keys, r, True))
                    return changed
                self._fill_host_retry(msg, keys, roots, False)
                changed = True
            self._keep = True
        return changed

    def _fill_host_retry(self, msg: Json, keys: list[str], roots: Result, inject: bool) -> None:
        params = msg["params"]
        responses = params.get("inputResponses")
        if not isinstance(responses, dict):
            responses = params["inputResponses"] = {}
        for k in keys:
            responses[k] = roots
        self._answered(roots)
        self.log.event(
            ev.MRTR_RESOLVED,
            dir=ev.BRIDGE_TO_SERVER,
            id=msg.get("id"),
            keys=keys,
            uris=_uris(roots),
            path="host-retry",
        )
        if inject:
            line = _dumps(msg) + b"\n"
            self._remember(msg["id"], line)
            self.to_server.inject(line)

    def _remember(self, msg_id: object, line: bytes) -> None:
        # kept as the bytes relayed, not parsed: a parsed request can take many times the
        # memory of its text, and only the rare one answered with input_required is parsed
        self._forget(msg_id)
        self._host_requests[_key(msg_id)] = line
        self._kept_bytes += len(line)
        kept = self._host_requests
        while len(kept) > MAX_REMEMBERED or (
            self._kept_bytes > MAX_REMEMBERED_BYTES and len(kept) > 1
        ):
            self._kept_bytes -= len(kept.popitem(last=False)[1])

    def _forget(self, msg_id: object) -> bytes | None:
        line = self._host_requests.pop(_key(msg_id), None)
        if line is not None:
            self._kept_bytes -= len(line)
        return line

    # ---- server -> host -------------------------------------------------------------------

    def from_server(self, line: bytes) -> bytes:
        started = time.perf_counter()
        body, ending = _split(line)
        reading = lenient.read(body)
        if (reading.lossy or not reading.readable) and body.strip():
            shaped = body.strip()[:1] in (b"{", b"[") and body.strip()[-1:] in (b"}", b"]")
            reason = "UTF-8" if reading.lossy and shaped else "JSON"
            self.log.event(ev.NON_JSON, dir=ev.SERVER_TO_HOST, bytes=len(body), reason=reason)
        if not reading.readable:
            if not self.observe and lenient.mentions_roots(reading.text):
                return self._blocked(None, len(body), "a line no parser reads, spelling roots/list")
            return line
        msg = reading.message
        if (
            not self.observe
            and reading.first_wins is not None
            and lenient.asks_for_roots(reading.first_wins)
            and not lenient.asks_for_roots(msg)
        ):
            return self._blocked(
                msg,
                len(body),
                "a message that asks for roots when the first of its duplicate keys is read",
            )
        if isinstance(msg, list):
            return self._server_batch(msg, line, ending, started)
        if not isinstance(msg, dict):
            return line
        self._log_message(msg, ev.SERVER_TO_HOST)
        out = self._server_message(msg, started)
        if out is None:
            if not self.observe and lenient.asks_for_roots(msg):
                return self._blocked(
                    msg,
                    len(body),
                    "a message that asks for roots in a form the bridge does not answer",
                )
            return line
        return out + ending if out else b""

    def _blocked(self, msg: object, size: int, what: str) -> bytes:
        """Keep a server's line that asks for roots from the host; what goes in its place.

        A request gets an error from the bridge, a response that asks (2026-07-28) becomes an
        error for the host's request, anything else is dropped; the log says so.
        """
        self.log.event(
            ev.ERROR,
            dir=ev.SERVER_TO_HOST,
            bytes=size,
            blocked=True,
            message=f"{what}: kept from the host",
        )
        if not isinstance(msg, dict) or "id" not in msg:
            return b""
        text = "roots-bridge: roots are asked for with roots/list, answered by the bridge"
        if "method" in msg:
            self.to_server.inject(_error(msg["id"], text))
            return b""
        return _error(
            msg["id"],
            "roots-bridge: the server asked for roots in a form the bridge does not answer",
        )

    def failed(self, line: bytes) -> bytes:
        """What to relay for a server line whose handling raised: never a request for roots."""
        body = _split(line)[0]
        reading = lenient.read(body)
        if self.observe or not lenient.could_ask_for_roots(reading):
            return line
        return self._blocked(
            reading.message, len(body), "a message that may ask for roots could not be handled"
        )

    def _server_batch(self, batch: list[Any], line: bytes, ending: bytes, started: float) -> bytes:
        if self.observe:
            for item in batch:
                if isinstance(item, dict):
                    self._server_message(item, started)
            return line
        rest: list[Any] = []
        asked: list[Json] = []
        blocked = 0
        for item in batch:
            if isinstance(item, dict) and item.get("method") == "roots/list" and "id" in item:
                asked.append(item)
                self.log.event(ev.ROOTS_ASKED, dir=ev.SERVER_TO_HOST, id=item["id"], batch=True)
            elif lenient.asks_for_roots(item):
                blocked += 1
                self._blocked(
                    item, 0, "a batch item that asks for roots in a form the bridge does not answer"
                )
            else:
                rest.append(item)
        if not asked:
            return line if not blocked else (_dumps(rest) + ending if rest else b"")

        def reply(result: Result) -> None:
            answers = [{"jsonrpc": "2.0", "id": m["id"], "result": result} for m in asked]
            self.to_server.inject(_dumps(answers) + b"\n")
            self._answered(result)
            for m in asked:
                self.log.event(
                    ev.ROOTS_ANSWERED,
                    dir=ev.BRIDGE_TO_SERVER,
                    id=m["id"],
                    uris=_uris(result),
                    batch=True,
                    us=round((time.perf_counter() - started) * 1e6),
                )

        self._answer(reply)
        return _dumps(rest) + ending if rest else b""

    def _server_message(self, msg: Json, started: float) -> bytes | None:
        """Bytes to relay instead of *msg* (without newline), b"" to drop it, None to keep it."""
        method = msg.get("method")
        if method == "roots/list" and "id" in msg:
            msg_id = msg["id"]
            if self.observe:
                self.log.event(ev.ROOTS_ASKED, dir=ev.SERVER_TO_HOST, id=msg_id)
                self._asked.add(_key(msg_id))
                self.log.event(ev.ROOTS_RELAYED, dir=ev.SERVER_TO_HOST, id=msg_id)
                return None
            logged = False

            def reply(result: Result) -> None:
                answer = {"jsonrpc": "2.0", "id": msg_id, "result": result}
                self.to_server.inject(_dumps(answer) + b"\n")
                # timed up to the write: the log records below are not on the server's path
                us = round((time.perf_counter() - started) * 1e6)
                if not logged:
                    self.log.event(ev.ROOTS_ASKED, dir=ev.SERVER_TO_HOST, id=msg_id)
                self._answered(result)
                self.log.event(
                    ev.ROOTS_ANSWERED, dir=ev.BRIDGE_TO_SERVER, id=msg_id, uris=_uris(result), us=us
                )

            result = self.answers.now()
            if result is not None:
                reply(result)
            else:
                self.log.event(ev.ROOTS_ASKED, dir=ev.SERVER_TO_HOST, id=msg_id, held=True)
                logged = True
                self.answers.later(reply)
            return b""
        if method == LIST_CHANGED:
            self.log.event(ev.LIST_CHANGED_RELAYED, dir=ev.SERVER_TO_HOST)
            return None
        if not _is_response(msg):
            return None
        msg_id = msg["id"]
        if self._init_id is not None and _key(msg_id) == self._init_id:
            self._init_id = None
            if self._held_initialized is not None:
                # after this result has been written to the host
                self.defer(self.release_initialized)
            result = msg.get("result")
            if isinstance(result, dict) and result.get("protocolVersion"):
                self.protocol = str(result["protocolVersion"])
                self.log.event(
                    ev.HANDSHAKE,
                    dir=ev.SERVER_TO_HOST,
                    id=msg_id,
                    protocol=self.protocol,
                    negotiated=True,
                )
                self.log.marker(protocol=self.protocol)
            return None
        if isinstance(msg_id, str) and msg_id.startswith(self.prefix):
            retry = self._retries.pop(msg_id, None)
            if retry is None:
                # a response to an id of ours that we never sent: nobody is waiting for it
                self.log.event(
                    ev.ERROR,
                    dir=ev.SERVER_TO_HOST,
                    id=msg_id,
                    message="a response to a request the bridge never sent; dropped",
                )
                return b""
            host_id, original = retry
            msg["id"] = host_id
            out = self._maybe_mrtr(msg, host_id, original)
            return _dumps(msg) if out is None else out
        if self.observe:
            found = _roots_keys(msg.get("result"))
            if found and found[0]:
                self.log.event(
                    ev.ROOTS_ASKED, dir=ev.SERVER_TO_HOST, id=msg_id, keys=found[0], mrtr=True
                )
            return None
        return self._maybe_mrtr(msg, msg_id, self._forget(msg_id))

    def _maybe_mrtr(
        self, msg: Json, host_id: object, original: Json | bytes | None
    ) -> bytes | None:
        result = msg.get("result")
        found = _roots_keys(result)
        if not found or not found[0]:
            return None
        assert isinstance(result, dict)
        roots_keys, others = found
        state = result.get("requestState")
        self.log.event(
            ev.ROOTS_ASKED, dir=ev.SERVER_TO_HOST, id=host_id, keys=roots_keys, mrtr=True
        )
        if others:
            # the host answers the rest; the bridge adds its roots answers to the host's retry
            reqs = result["inputRequests"]
            for k in roots_keys:
                del reqs[k]
            self._mixed[state if isinstance(state, str) else ""] = roots_keys
            while len(self._mixed) > MAX_REMEMBERED:
                self._mixed.popitem(last=False)
            return _dumps(msg)
        if original is None:
            self.log.event(
                ev.ERROR,
                dir=ev.SERVER_TO_HOST,
                id=host_id,
                message="input_required for roots/list on a request the bridge did not keep; "
                "the host gets an error instead",
            )
            return _error(
                host_id,
                "roots-bridge: the server asked for roots on a request the "
                "bridge no longer holds; send the request again",
            )[:-1]
        request: Json = json.loads(original) if isinstance(original, bytes) else original
        started = time.perf_counter()

        def retry(roots: Result) -> None:
            bridge_id = self._next_id()
            again = dict(request)
            params = dict(request.get("params") or {})
            params["inputResponses"] = {k: roots for k in roots_keys}
            if state is None:
                params.pop("requestState", None)
            else:
                params["requestState"] = state
            again["params"] = params
            again["id"] = bridge_id
            self._retries[bridge_id] = (host_id, request)
            self._answered(roots)
            self.log.event(
                ev.MRTR_RESOLVED,
                dir=ev.BRIDGE_TO_SERVER,
                id=bridge_id,
                host_id=host_id,
                keys=roots_keys,
                uris=_uris(roots),
                path="retry",
                us=round((time.perf_counter() - started) * 1e6),
            )
            self.to_server.inject(_dumps(again) + b"\n")

        self._answer(retry)
        return b""

    # ---- answers and list_changed --------------------------------------------------------

    def _answer(self, reply: Callable[[Result], None]) -> None:
        result = self.answers.now()
        if result is None:
            self.answers.later(reply)
        else:
            reply(result)

    def _answered(self, result: Result) -> None:
        self.last_answered = result
        self.stale = False
        self.log.marker(last_roots_list_at=now_iso(), stale=False)

    def check_changes(self) -> bool:
        """Send ``list_changed`` if the server's effective roots moved; True if it was sent."""
        if self.observe or self.era == "2026" or not self.handshake_done:
            return False
        if self.last_answered is None or self.stale:
            return False
        current = self.answers.now()
        if current is None or current == self.last_answered:
            return False
        self._send_list_changed()
        self.log.event(
            ev.LIST_CHANGED_SENT,
            dir=ev.BRIDGE_TO_SERVER,
            uris=_uris(current),
            previous=_uris(self.last_answered),
        )
        return True

    def list_changed_asked(self, by: str, request: str | None = None) -> bool:
        """Send ``list_changed`` though nothing changed, because the user asked; True if sent.

        For a developer watching whether their server asks again. The rules against storms
        still hold: not before the handshake, and not while the server has not fetched the
        list since the previous notice; the log says why when it is not sent.
        """
        if self.observe:
            outcome = "observe"
        elif self.era == "2026":
            outcome = "no-notice"
        elif not self.handshake_done:
            outcome = "handshake"
        elif self.stale:
            outcome = "not-fetched"
        else:
            outcome = "sent"
            self._send_list_changed()
        sent = outcome == "sent"
        self.log.event(
            ev.LIST_CHANGED_ASKED,
            dir=ev.BRIDGE_TO_SERVER if sent else None,
            outcome=outcome,
            by=by,
            request=request,
        )
        return sent

    def _send_list_changed(self) -> None:
        self.stale = True
        self.notices += 1
        self.to_server.inject(_dumps({"jsonrpc": "2.0", "method": LIST_CHANGED}) + b"\n")
        self.log.marker(last_list_changed_at=now_iso(), stale=True)

    @property
    def busy(self) -> bool:
        """True while a request of the bridge's own awaits its response."""
        return bool(self._retries)


class _Side:
    """One direction of the session as its relay sees it."""

    direction = ""

    def __init__(self, session: Session) -> None:
        self.s = session

    def parse_all(self) -> bool:
        return self.s.log_all

    def not_json(self, size: int, reason: str) -> None:
        self.s.log.event(ev.NON_JSON, dir=self.direction, bytes=size, reason=reason)

    def streamed(self, size: int, matched: bool) -> None:
        if matched:
            self.s.log.event(
                ev.ERROR,
                dir=self.direction,
                bytes=size,
                message="a long message mentioning roots was relayed unparsed",
            )

    def guarded(self) -> bool:
        return False

    def withheld(self, size: int, relayed: int) -> None:
        self.s.log.event(
            ev.ERROR,
            dir=self.direction,
            bytes=size,
            relayed=relayed,
            blocked=True,
            message="a message too long to be read whole that may ask for roots; "
            + ("dropped" if not relayed else "cut after its first bytes"),
        )

    def failed(self, line: bytes) -> bytes:
        """What to relay for a line whose handling raised."""
        return line


class _HostSide(_Side):
    """The host-to-server direction."""

    direction = ev.HOST_TO_SERVER
    # every 2026-07-28 request names the protocol version in its _meta, whether or not it
    # declares the capabilities the roots capability must be added to
    _early = (b"roots", b"initialize", META_VERSION.encode())
    _late = (b"roots",)

    def patterns(self) -> Sequence[bytes]:
        s = self.s
        if s.era == "2025" and s.handshake_done:
            return self._late
        return self._early

    def may_stream(self) -> bool:
        # a 2026-07-28 request may need the roots capability added; a 2025 one never changes
        return self.s.observe or (self.s.era == "2025" and self.s.handshake_done)

    def handle(self, line: bytes) -> bytes | Future[bytes]:
        return self.s.from_host(line)

    def failed(self, line: bytes) -> bytes:
        msg = lenient.read(_split(line)[0]).message
        if not self.s.observe and isinstance(msg, dict) and _is_response(msg):
            result = msg.get("result")
            if isinstance(result, dict) and "roots" in result:
                return b""  # a host's roots answer goes to the server only through the checks
        return line


class _ServerSide(_Side):
    """The server-to-host direction."""

    direction = ev.SERVER_TO_HOST
    _plain = (b"roots",)
    _init = (b"roots", b"protocolVersion")

    def patterns(self) -> Sequence[bytes]:
        return self._init if self.s._init_id is not None else self._plain

    def may_stream(self) -> bool:
        # the response to a retry of ours must get the host's id back: it is held whole
        return not self.s.busy

    def handle(self, line: bytes) -> bytes:
        return self.s.from_server(line)

    def guarded(self) -> bool:
        return not self.s.observe

    def failed(self, line: bytes) -> bytes:
        return self.s.failed(line)
