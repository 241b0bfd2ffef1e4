"""The table model of the servers: what is known and what runs now."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QApplication, QStyle

from roots_manager.core.confinement.confined import starts_confined
from roots_manager.core.runs.live import BridgeMarker
from roots_manager.core.servers.names import visible
from roots_manager.core.store.grants import Decision
from roots_manager.core.store.state import State
from roots_manager.gui.common.rows_model import Index, RowsModel
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.log.log_texts import bridge_mode_name

SERVER, STATUS, BRIDGE, STARTED, LAST_ASKED, STALE, COMMAND = range(7)
ServerNameRole = Qt.ItemDataRole.UserRole + 1


def local_time(stamp: str | None) -> str:
    """An ISO UTC timestamp shown in the local time zone, to the second."""
    if not stamp:
        return ""
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    return when.astimezone().strftime("%Y-%m-%d %H:%M:%S")


@dataclass(frozen=True)
class ServerRow:
    name: str
    known: bool
    suspended: bool
    pending: str | None
    """The reason of a pending consent request, if one waits."""
    command: tuple[str, ...]
    markers: tuple[BridgeMarker, ...]
    confined: bool = False
    """The store asks for the server to start confined to its grants."""
    decision: Decision | None = None
    """The user's answer to the last consent request about it."""
    decided_at: str | None = None
    asked_before: str | None = None
    """The last roots/list seen from a bridge of it that has ended (or in the logs)."""

    @property
    def stale(self) -> bool:
        return any(m.stale for m in self.markers)

    @property
    def last_asked(self) -> str | None:
        stamps = [m.last_roots_list_at for m in self.markers if m.last_roots_list_at]
        if self.asked_before:
            stamps.append(self.asked_before)
        return max(stamps) if stamps else None


def _server_rows(
    state: State,
    markers: list[BridgeMarker],
    asked: dict[str, str] | None = None,
    by_default: bool = False,
) -> list[ServerRow]:
    names = sorted(set(state.servers) | {m.server for m in markers}, key=str.casefold)
    rows = []
    for name in names:
        srv = state.servers.get(name)
        pending = next((p.reason for p in state.pending if p.server == name), None)
        mine = tuple(sorted((m for m in markers if m.server == name), key=lambda m: m.started_at))
        command = tuple(srv.command or []) if srv else (tuple(mine[0].command) if mine else ())
        rows.append(
            ServerRow(
                name,
                srv is not None,
                bool(srv and srv.suspended),
                pending,
                command,
                mine,
                srv is not None and starts_confined(state, srv, by_default),
                srv.decision if srv else None,
                srv.decided_at if srv else None,
                (asked or {}).get(name),
            )
        )
    return rows


class ServersModel(RowsModel[ServerRow]):
    """Known and running servers: one row per server name."""

    column_count = 7

    def __init__(self, watcher: StoreWatcher, parent: QObject | None = None) -> None:
        # the last roots/list per server, kept when its bridge (and marker) is gone
        self._asked: dict[str, str] = {}
        super().__init__(watcher, parent)
        self.refresh()

    def build(self) -> list[ServerRow]:
        for m in self.watcher.markers:
            stamp = m.last_roots_list_at
            if stamp and stamp > self._asked.get(m.server, ""):
                self._asked[m.server] = stamp
        return _server_rows(
            self.watcher.state, self.watcher.markers, self._asked, self.watcher.by_default
        )

    def note_last_asked(self, stamps: dict[str, str]) -> None:
        """Roots requests found in the event logs: the newest (ISO UTC time) per server."""
        changed = False
        for server, stamp in stamps.items():
            if stamp > self._asked.get(server, ""):
                self._asked[server] = stamp
                changed = True
        if changed:
            self.refresh()

    def key(self, row: ServerRow) -> str:
        return row.name

    def headers(self) -> list[str]:
        return [
            self.tr("Server"),
            self.tr("Status"),
            self.tr("Bridge"),
            self.tr("Started"),
            self.tr("Last roots/list"),
            self.tr("Stale"),
            self.tr("Command line"),
        ]

    def _status(self, row: ServerRow) -> str:
        parts = []
        if row.markers:
            parts.append(
                self.tr("running")
                if len(row.markers) == 1
                else self.tr("running ({count})").format(count=len(row.markers))
            )
        else:
            parts.append(self.tr("not running"))
        if row.confined:
            parts.append(self.tr("confined"))
        if row.pending == "new-server":
            parts.append(self.tr("consent pending"))
        elif row.pending == "command-changed":
            parts.append(self.tr("command changed, consent pending"))
        elif row.suspended:
            parts.append(self.tr("command changed: grants suspended"))
        if row.pending is None and row.decision is not None:
            parts.append(self._decision(row.decision, local_time(row.decided_at)))
        return self.tr(", ", "between the parts of a server's status").join(parts)

    def _decision(self, decision: Decision, when: str) -> str:
        if decision == Decision.DENY:
            return self.tr("denied on {when}").format(when=when)
        if decision == Decision.WHILE_RUNNING:
            return self.tr("allowed while it runs, on {when}").format(when=when)
        return self.tr("allowed on {when}").format(when=when)

    def _bridge(self, row: ServerRow) -> str:
        return self.tr("; ", "between the bridges of one server").join(
            self.tr("pid {pid}, {mode}, protocol {protocol}").format(
                pid=m.pid,
                mode=bridge_mode_name(m.mode),
                protocol=m.protocol or self.tr("not yet known"),
            )
            + (self.tr(", running confined") if m.confined else "")
            + (self.tr(", restarted %n time(s)", "", m.restarts) if m.restarts else "")
            for m in row.markers
        )

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == SERVER:
                return visible(row.name)
            if col == STATUS:
                return self._status(row)
            if col == BRIDGE:
                return self._bridge(row)
            if col == STARTED:
                return ", ".join(local_time(m.started_at) for m in row.markers)
            if col == LAST_ASKED:
                return local_time(row.last_asked) if row.last_asked else self.tr("never")
            if col == STALE:
                return self.tr("stale") if row.stale else ""
            if col == COMMAND:
                return shlex.join(row.command)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col in (SERVER, COMMAND):
                return shlex.join(row.command) if row.command else None
            if col == STALE and row.stale:
                sent = max((m.last_list_changed_at or "" for m in row.markers), default="")
                return self.tr(
                    "Roots Manager told this server that its roots changed ({when}) and it has "
                    "not asked for them since: it may still work with the old folders. "
                    "Restarting the server makes it ask again."
                ).format(when=local_time(sent))
        if role == Qt.ItemDataRole.DecorationRole and col == STALE and row.stale:
            style = QApplication.style()
            return style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning) if style else None
        if role == ServerNameRole:
            return row.name
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
