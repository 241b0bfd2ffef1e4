"""Table models of the servers: what runs now, and the server x root consent matrix."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    Qt,
)
from PySide6.QtWidgets import QApplication, QStyle

from roots_manager.core.consent import grant_active
from roots_manager.core.live import BridgeMarker
from roots_manager.core.model import Grant, Scope, State
from roots_manager.core.names import visible
from roots_manager.gui.log_model import bridge_mode_name
from roots_manager.gui.rows_model import Index, RowsModel
from roots_manager.gui.watcher import StoreWatcher

SERVER, STATUS, BRIDGE, STARTED, LAST_ASKED, STALE, COMMAND = range(7)
ServerNameRole = Qt.ItemDataRole.UserRole + 1
CellScopeRole = Qt.ItemDataRole.UserRole + 2
"""The grant scope of a matrix cell: "always", "session" or None."""


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

    @property
    def stale(self) -> bool:
        return any(m.stale for m in self.markers)

    @property
    def last_asked(self) -> str | None:
        stamps = [m.last_roots_list_at for m in self.markers if m.last_roots_list_at]
        return max(stamps) if stamps else None


def _server_rows(state: State, markers: list[BridgeMarker]) -> list[ServerRow]:
    names = sorted(set(state.servers) | {m.server for m in markers}, key=str.casefold)
    rows = []
    for name in names:
        srv = state.servers.get(name)
        pending = next((p.reason for p in state.pending if p.server == name), None)
        mine = tuple(sorted((m for m in markers if m.server == name), key=lambda m: m.started_at))
        command = tuple(srv.command or []) if srv else (tuple(mine[0].command) if mine else ())
        rows.append(
            ServerRow(name, srv is not None, bool(srv and srv.suspended), pending, command, mine)
        )
    return rows


class ServersModel(RowsModel[ServerRow]):
    """Known and running servers: one row per server name."""

    column_count = 7

    def __init__(self, watcher: StoreWatcher, parent: QObject | None = None) -> None:
        super().__init__(watcher, parent)
        self.refresh()

    def build(self) -> list[ServerRow]:
        return _server_rows(self.watcher.state, self.watcher.markers)

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
        if row.pending == "new-server":
            parts.append(self.tr("consent pending"))
        elif row.pending == "command-changed":
            parts.append(self.tr("command changed, consent pending"))
        elif row.suspended:
            parts.append(self.tr("command changed: grants suspended"))
        return self.tr(", ", "between the parts of a server's status").join(parts)

    def _bridge(self, row: ServerRow) -> str:
        return self.tr("; ", "between the bridges of one server").join(
            self.tr("pid {pid}, {mode}, protocol {protocol}").format(
                pid=m.pid,
                mode=bridge_mode_name(m.mode),
                protocol=m.protocol or self.tr("not yet known"),
            )
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


_SCOPE_TO_STATE: dict[Scope | None, Qt.CheckState] = {
    None: Qt.CheckState.Unchecked,
    "session": Qt.CheckState.PartiallyChecked,
    "always": Qt.CheckState.Checked,
}


class ConsentMatrixModel(QAbstractTableModel):
    """Servers down, roots across; each cell is the grant: none, this session, or always.

    The check state of a cell cycles none -> this session -> always -> none (Space or a click);
    :meth:`set_scope` sets one directly. Every change is written to the store at once.
    """

    def __init__(self, watcher: StoreWatcher, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self._servers: list[str] = []
        self._roots: list[tuple[str, str, str]] = []  # (id, name, path)
        self._cells: dict[tuple[str, str], Grant] = {}
        self._policy = "ask"
        self._suspended: set[str] = set()
        watcher.state_changed.connect(self._refresh)
        watcher.markers_changed.connect(self._refresh)
        self._refresh()

    def _refresh(self, *_: object) -> None:
        state = self.watcher.state
        sessions = {m.session for m in self.watcher.markers}
        servers = sorted(state.servers, key=str.casefold)
        roots = [(r.id, r.name, r.path) for r in state.roots]
        cells = {
            (g.server, g.root): g
            for g in state.grants
            if g.server in state.servers and grant_active(g, live_sessions=sessions)
        }
        suspended = {n for n, s in state.servers.items() if s.suspended}
        same_shape = servers == self._servers and [r[0] for r in roots] == [
            r[0] for r in self._roots
        ]
        if not same_shape:
            self.beginResetModel()
        names_changed = roots != self._roots
        self._servers, self._roots, self._cells = servers, roots, cells
        self._policy, self._suspended = state.policy, suspended
        if not same_shape:
            self.endResetModel()
            return
        if names_changed and roots:
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(roots) - 1)
        if servers and roots:
            self.dataChanged.emit(self.index(0, 0), self.index(len(servers) - 1, len(roots) - 1))

    def server_at(self, row: int) -> str | None:
        return self._servers[row] if 0 <= row < len(self._servers) else None

    def root_id_at(self, column: int) -> str | None:
        return self._roots[column][0] if 0 <= column < len(self._roots) else None

    def scope_at(self, index: Index) -> Scope | None:
        """The scope of the grant in the cell at *index* (None: not granted)."""
        server, root = self.server_at(index.row()), self.root_id_at(index.column())
        if server is None or root is None:
            return None
        g = self._cells.get((server, root))
        return g.scope if g else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._servers)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._roots)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self._roots):
            _, name, path = self._roots[section]
            if role == Qt.ItemDataRole.DisplayRole:
                return name
            if role == Qt.ItemDataRole.ToolTipRole:
                return path
        if orientation == Qt.Orientation.Vertical and 0 <= section < len(self._servers):
            name = self._servers[section]
            if role == Qt.ItemDataRole.DisplayRole:
                return visible(name)
            if role == Qt.ItemDataRole.ToolTipRole and name in self._suspended:
                return self.tr("Its command line changed: its grants are suspended until approved")
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        server, root = self.server_at(index.row()), self.root_id_at(index.column())
        if server is None or root is None:
            return None
        scope = self.scope_at(index)
        if role == Qt.ItemDataRole.CheckStateRole:
            return _SCOPE_TO_STATE[scope]
        if role == Qt.ItemDataRole.DisplayRole:
            if scope == "always":
                return self.tr("Always")
            if scope == "session":
                return self.tr("This session")
            return self.tr("Allowed by policy") if self._policy == "allow-all" else ""
        if role == Qt.ItemDataRole.ToolTipRole:
            root_name = self._roots[index.column()][1]
            text = {
                "always": self.tr("{server} always sees {root}"),
                "session": self.tr("{server} sees {root} until its running session ends"),
                None: self.tr("{server} does not see {root}"),
            }[scope].format(server=visible(server), root=root_name)
            if server in self._suspended:
                text += "\n" + self.tr("Suspended: its command line changed since it was approved")
            return text + "\n" + self.tr("Space: none, this session, always")
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return self.tr("{server}, {root}: {scope}").format(
                server=visible(server),
                root=self._roots[index.column()][1],
                scope={
                    "always": self.tr("always"),
                    "session": self.tr("this session"),
                    None: self.tr("not granted"),
                }[scope],
            )
        if role == CellScopeRole:
            return scope
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return (
            Qt.ItemFlag.ItemIsEnabled
            | Qt.ItemFlag.ItemIsSelectable
            | Qt.ItemFlag.ItemIsUserCheckable
            | Qt.ItemFlag.ItemIsUserTristate
        )

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or role != Qt.ItemDataRole.CheckStateRole:
            return False
        try:
            check = Qt.CheckState(value)
        except ValueError:
            return False
        scope: Scope | None = {
            Qt.CheckState.Unchecked: None,
            Qt.CheckState.PartiallyChecked: "session",
            Qt.CheckState.Checked: "always",
        }[check]
        return self.set_scope(index, scope)

    def set_scope(self, index: Index, scope: Scope | None) -> bool:
        """Grant the cell's root to its server for *scope*, or revoke it (None)."""
        server, root = self.server_at(index.row()), self.root_id_at(index.column())
        if server is None or root is None or scope == self.scope_at(index):
            return False
        sessions = self.watcher.sessions_of(server)

        def change(state: State) -> bool:
            state.revoke(server, [root])
            if scope is not None:
                state.grant(server, [root], scope, sessions if scope == "session" else ())
            return True

        return self.watcher.edit(change) is not None
