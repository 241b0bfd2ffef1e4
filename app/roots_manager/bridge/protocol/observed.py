"""Observe mode's record of the roots traffic: the bridge relays every request for roots to the
host and every answer back to the server, and logs both.

A server's ``roots/list`` is logged as asked and relayed, and the host's response to it as the
answer; a 2026-07-28 ``input_required`` round that asks for roots is logged as asked, and the
``inputResponses`` of the host's retry as the answer. Nothing here changes a message.
"""

from __future__ import annotations

from roots_manager.bridge.protocol.jsonrpc import EventSink, Json, key, root_uris
from roots_manager.bridge.protocol.mrtr import roots_keys
from roots_manager.core.directory.records import EventKind
from roots_manager.core.log import events as ev


class Observed:
    """What observe mode logs of the roots the host gives the server."""

    def __init__(self, log: EventSink) -> None:
        self.log = log
        self._asked: set[str] = set()  # the server's roots/list ids awaiting the host

    def server_asked(self, msg_id: object) -> None:
        """The server's ``roots/list`` *msg_id* goes to the host."""
        self.log.event(EventKind.ROOTS_ASKED, dir=ev.SERVER_TO_HOST, id=msg_id)
        self._asked.add(key(msg_id))
        self.log.event(EventKind.ROOTS_RELAYED, dir=ev.SERVER_TO_HOST, id=msg_id)

    def server_result(self, msg: Json) -> None:
        """A server's response, which may ask for roots in an ``input_required`` round."""
        found = roots_keys(msg.get("result"))
        if found and found[0]:
            self.log.event(
                EventKind.ROOTS_ASKED, dir=ev.SERVER_TO_HOST, id=msg["id"], keys=found[0], mrtr=True
            )

    def host_response(self, msg: Json) -> None:
        """A host's response, which may answer a ``roots/list`` of the server's."""
        k = key(msg["id"])
        if k not in self._asked:
            return
        self._asked.discard(k)
        result = msg.get("result")
        self.log.event(
            EventKind.ROOTS_ANSWERED,
            dir=ev.HOST_TO_SERVER,
            id=msg["id"],
            uris=root_uris(result) if isinstance(result, dict) else None,
            error=msg.get("error"),
        )

    def host_request(self, msg: Json, params: Json) -> None:
        """A host's 2026-07-28 request, whose ``inputResponses`` may give roots."""
        responses = params.get("inputResponses")
        if not isinstance(responses, dict):
            return
        for k, v in responses.items():
            if isinstance(v, dict) and isinstance(v.get("roots"), list):
                self.log.event(
                    EventKind.ROOTS_ANSWERED,
                    dir=ev.HOST_TO_SERVER,
                    id=msg.get("id"),
                    key=k,
                    uris=root_uris(v),
                )
