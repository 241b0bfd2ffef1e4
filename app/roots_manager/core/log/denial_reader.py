"""Reading the denial events (:mod:`roots_manager.core.log.denials`) of every log file, on from
where the last read stopped: what ``roots-manager denials`` prints and what learning a server's
grants looks at."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

from roots_manager.core.directory.layout import Layout
from roots_manager.core.directory.records import EventKind, EventRecord
from roots_manager.core.log import events as ev
from roots_manager.core.log.event_time import parse_ts
from roots_manager.core.servers.names import visible

_DENIAL = f'"{EventKind.DENIAL}"'.encode()
"""A denial's kind as its line holds it."""


class Reader:
    """The denial events of every log file of *layout*: only *server*'s (as stored or as shown;
    None: every server's), only those written at or after *since* (seconds since the epoch;
    None: all kept). Each :meth:`read` returns the events written since the one before."""

    def __init__(
        self, layout: Layout, server: str | None, since: float | None, *, answers: bool = False
    ) -> None:
        self.layout = layout
        self.server = server
        self.since = since
        self.answers = answers
        """Read the ends of the questions too: the messages that say a read that waited for
        the user's answer was served or refused (``answered``, the path)."""
        self.offsets: dict[str, int] = {}

    def read(self) -> list[EventRecord]:
        """The denial events written since the last read (all of them, the first time)."""
        out = []
        for path in ev.log_files(self.layout):
            for rec in self._denials(path):
                server = str(rec.get("server", ""))
                if self.server not in (None, server) and visible(server) != self.server:
                    continue
                if self.since is not None and parse_ts(str(rec.get("ts", ""))) < self.since:
                    continue
                out.append(rec)
        return out

    def _denials(self, path: Path) -> list[EventRecord]:
        offset = self.offsets.get(str(path), 0)
        try:
            with open(path, "rb") as f:
                f.seek(offset)
                data = f.read()
        except OSError:
            return []
        end = data.rfind(b"\n") + 1
        self.offsets[str(path)] = offset + end
        found: list[EventRecord] = []
        for raw in data[:end].splitlines():
            answer = self.answers and b'"answered"' in raw
            if _DENIAL not in raw and not answer:  # most lines are neither: no parse
                continue
            try:
                rec = json.loads(raw)
            except ValueError:
                continue
            if not isinstance(rec, dict):
                continue
            if rec.get("kind") == EventKind.DENIAL or (
                answer and isinstance(rec.get("answered"), str)
            ):
                found.append(cast(EventRecord, rec))
        return found
