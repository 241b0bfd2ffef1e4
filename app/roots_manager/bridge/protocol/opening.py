"""The host's first exchange judged from its lines alone, before the rest of the bridge is loaded.

A host waits for its ``initialize`` to be answered at every start of every server, and a bridge
takes longer to load than many servers take to answer. So while the run loads, the early relay
(:mod:`roots_manager.bridge.transport.early`) relays the host's first line and the server's first
line back on its own, when these functions say from the line alone what the mediator relays
for it:

- the host's ``initialize`` request, with the roots capability told to the server as
  :class:`~roots_manager.bridge.protocol.handshake.Handshake` tells it (:func:`tell_roots`, the
  one rule for both);
- the server's answer to it, relayed as it is, when no reading of it could ask for roots (no
  ``roots`` in its bytes, nor an escape or a NUL that could spell it).

Anything else waits for the run, as every line did. Once loaded, the run gives the mediator both
lines as if its relays had just handed them over, with the times they were relayed: what it
records (the handshake, the requests in flight, what a restart replays) is what it would have
recorded, and what it relays for them is what went already (the run checks that it is).
"""

from __future__ import annotations

import json

from roots_manager.bridge.protocol.wire import disguised, dumps, key, split_line

TOLD = {"listChanged": True}
"""The roots capability a server is told in the handshake era: what the bridge does."""

EARLY_LIMIT = 32 * 1024
"""The longest line relayed before the run has loaded (bytes): far more than an ``initialize``
and its answer take, and within a pipe's usual room (64 KiB; the bridge grows the server's to
1 MiB), so that writing it to a pipe nobody has written to yet does not wait for the reader.
Where it must (past the kernel's pipe limit a user gets pipes of a page or two), the run's
take-over waits with it, as a relay's write would have. A longer line waits for the run."""


def tell_roots(params: dict[str, object] | None, *, observe: bool) -> bool:
    """Tell the server the roots capability in *params*, an ``initialize``'s (in place); True if it
    was added or changed.

    In managed mode the server is told what the bridge does, not what the host declared: the
    bridge answers ``roots/list`` and says when the roots change, so the server gets
    ``roots: {"listChanged": true}`` even where the host said ``roots: {}`` or
    ``listChanged: false``. In observe mode, and without params, nothing is told.
    """
    if observe or params is None:
        return False
    caps = params.get("capabilities")
    if not isinstance(caps, dict):
        caps = params["capabilities"] = {}
    if caps.get("roots") == TOLD:
        return False
    caps["roots"] = dict(TOLD)
    return True


def _plain_id(msg_id: object) -> bool:
    return isinstance(msg_id, int | str) and not isinstance(msg_id, bool)


def initialize_relayed(line: bytes, *, observe: bool) -> tuple[bytes, str] | None:
    """What the mediator relays for *line*, the host's first, and the key of its id
    (:func:`~roots_manager.bridge.protocol.wire.key`), when *line* is a whole ``initialize``
    request no longer than :data:`EARLY_LIMIT`; None for anything else."""
    if not line.endswith(b"\n") or len(line) > EARLY_LIMIT:
        return None
    body, ending = split_line(line)
    try:
        msg = json.loads(body.decode("utf-8"))  # as the mediator reads the host's lines
    except (ValueError, RecursionError):
        return None
    if (
        not isinstance(msg, dict)
        or msg.get("method") != "initialize"
        or not _plain_id(msg.get("id"))
    ):
        return None
    params = msg.get("params")
    told = tell_roots(params if isinstance(params, dict) else None, observe=observe)
    return (dumps(msg) + ending if told else line), key(msg["id"])


def answers_initialize(line: bytes, initialize: str) -> bool:
    """Whether *line*, the server's first, answers the host's ``initialize`` (the key of whose id
    is *initialize*) and goes to the host as it is: a whole response no longer than
    :data:`EARLY_LIMIT` that no reading could take for a request for roots."""
    if not line.endswith(b"\n") or len(line) > EARLY_LIMIT:
        return False
    body = split_line(line)[0]
    if b"roots" in body or disguised(body):
        return False
    try:
        msg = json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError):
        return False
    return (
        isinstance(msg, dict)
        and "method" not in msg
        and ("result" in msg or "error" in msg)
        and _plain_id(msg.get("id"))
        and key(msg["id"]) == initialize
    )
