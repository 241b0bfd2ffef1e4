"""What a server did in its earlier runs that the bridge acts on before this run can show it.

One habit is kept today: whether the server asked for its roots right after the handshake. A
bridge in front of such a server holds the host's first request until the server has its roots
(for a short while at most), so that a host that calls at once (Codex lists the allowed folders
as the server connects) is not answered from the folders on the command line.

One small file per server, beside the live markers and apart from the store: it is what the bridge
saw, not what the user decided, and a lost or damaged file only costs the first call of a run.
"""

from __future__ import annotations

import json
from pathlib import Path

from roots_manager.core.directory.file_key import file_key
from roots_manager.core.directory.layout import Layout, ensure_private_dir
from roots_manager.core.store.file import json_bytes, write_atomic
from roots_manager.support import statefile

ASKS_AT_START = "asks_roots_at_start"
MAX_BYTES = 4096


def _path(layout: Layout, server: str) -> Path:
    return layout.home / "habits" / f"{file_key(server)}.json"


def asks_roots_at_start(layout: Layout, server: str) -> bool:
    """Whether *server* asked for its roots right after the handshake in its last run that got
    that far (False when nothing is known, or the record cannot be read)."""
    try:
        doc = json.loads(statefile.read_regular(_path(layout, server), MAX_BYTES))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and doc.get("server") == server and doc.get(ASKS_AT_START) is True


def remember(layout: Layout, server: str, *, asks_at_start: bool) -> None:
    """Keep what this run of *server* showed; raises :class:`OSError` if it cannot be written."""
    path = _path(layout, server)
    ensure_private_dir(path.parent)
    write_atomic(path, json_bytes({"server": server, ASKS_AT_START: asks_at_start}))
