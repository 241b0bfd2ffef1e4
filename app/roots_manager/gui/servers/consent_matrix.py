"""The server x root consent matrix: who sees what, how long, read-only or not, confined or not."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, Qt
from PySide6.QtGui import QIcon, QPalette

from roots_manager.actions.consent import set_scope
from roots_manager.core.confinement.confined import network_state, starts_confined
from roots_manager.core.consent.effective import grant_active
from roots_manager.core.servers.names import visible
from roots_manager.core.store.grants import Grant, Scope
from roots_manager.gui.common import confinement_text
from roots_manager.gui.common.resources import lock_icon, scope_icon
from roots_manager.gui.common.rows_model import Index
from roots_manager.gui.common.watcher import StoreWatcher

CellScopeRole = Qt.ItemDataRole.UserRole + 2
"""The grant scope of a matrix cell: a :class:`Scope`, or None when nothing is granted."""
CellReadOnlyRole = Qt.ItemDataRole.UserRole + 3
"""Whether the grant of a matrix cell is read-only (False when there is no grant)."""
ServerConfinedRole = Qt.ItemDataRole.UserRole + 4
"""On the vertical header: whether the row's server is set to start confined."""

NEXT_SCOPE: dict[Scope | None, Scope | None] = {
    None: Scope.WHILE_RUNNING,
    Scope.WHILE_RUNNING: Scope.ALWAYS,
    Scope.ALWAYS: None,
}
"""What a click or Space makes of a cell: not granted -> while running -> always -> not granted."""


class ConsentMatrixModel(QAbstractTableModel):
    """Servers down, roots across; each cell is the grant: none, while running, or always.

    A cell shows its scope in words with a mark (:func:`scope_icon`), read-only grants say so;
    :meth:`cycle` moves it on (the view calls it on a click or Space), :meth:`set_scope` sets
    one directly and :meth:`set_read_only` makes a grant read-only or read-write. Every change
    is written to the store at once. A confined server's row header carries a lock.
    """

    def __init__(self, watcher: StoreWatcher, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self._servers: list[str] = []
        self._roots: list[tuple[str, str, str]] = []  # (id, name, path)
        self._cells: dict[tuple[str, str], Grant] = {}
        self._policy = "ask"
        self._suspended: set[str] = set()
        self._confined: set[str] = set()
        self._networks: dict[str, str] = {}
        """Each server's network, as :func:`network_state` says it."""
        self._lock: QIcon | None = None
        self._marks: dict[Scope | None, QIcon] = {}  # made once: every paint asks
        watcher.state_changed.connect(self._refresh)
        watcher.markers_changed.connect(self._refresh)
        self._refresh()

    def _refresh(self, *_: object) -> None:
        state = self.watcher.state
        runs = {m.run for m in self.watcher.markers}
        servers = sorted(state.servers, key=str.casefold)
        roots = [(r.id, r.name, r.path) for r in state.roots]
        cells = {
            (g.server, g.root): g
            for g in state.grants
            if g.server in state.servers and grant_active(g, live_runs=runs)
        }
        suspended = {n for n, s in state.servers.items() if s.suspended}
        by_default = self.watcher.by_default
        confined = {n for n, s in state.servers.items() if starts_confined(state, s, by_default)}
        same_shape = servers == self._servers and [r[0] for r in roots] == [
            r[0] for r in self._roots
        ]
        if not same_shape:
            self.beginResetModel()
        names_changed = roots != self._roots
        networks = {n: network_state(s) for n, s in state.servers.items()}
        servers_changed = (
            confined != self._confined or suspended != self._suspended or networks != self._networks
        )
        self._networks = networks
        self._servers, self._roots, self._cells = servers, roots, cells
        self._policy, self._suspended, self._confined = state.policy, suspended, confined
        if not same_shape:
            self.endResetModel()
            return
        if names_changed and roots:
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(roots) - 1)
        if servers_changed and servers:
            self.headerDataChanged.emit(Qt.Orientation.Vertical, 0, len(servers) - 1)
        if servers and roots:
            self.dataChanged.emit(self.index(0, 0), self.index(len(servers) - 1, len(roots) - 1))

    def server_at(self, row: int) -> str | None:
        return self._servers[row] if 0 <= row < len(self._servers) else None

    def root_id_at(self, column: int) -> str | None:
        return self._roots[column][0] if 0 <= column < len(self._roots) else None

    def _grant_at(self, index: Index) -> Grant | None:
        server, root = self.server_at(index.row()), self.root_id_at(index.column())
        if server is None or root is None:
            return None
        return self._cells.get((server, root))

    def scope_at(self, index: Index) -> Scope | None:
        """The scope of the grant in the cell at *index* (None: not granted)."""
        g = self._grant_at(index)
        return g.scope if g else None

    def read_only_at(self, index: Index) -> bool:
        """Whether the grant in the cell at *index* is read-only (False: none, or read-write)."""
        g = self._grant_at(index)
        return bool(g and g.read_only)

    def confined_at(self, row: int) -> bool:
        """Whether the server of *row* is set to start confined."""
        return self.server_at(row) in self._confined

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
            return self._server_header(self._servers[section], role)
        return None

    def _server_header(self, name: str, role: int) -> Any:
        confined = name in self._confined
        if role == Qt.ItemDataRole.DisplayRole:
            return visible(name)
        if role == Qt.ItemDataRole.DecorationRole and confined:
            if self._lock is None:  # made once: every repaint of the header asks
                self._lock = lock_icon()
            return self._lock
        if role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            lines = [
                self.tr("{server}: confined").format(server=visible(name))
                if confined
                else self.tr("{server}: not confined").format(server=visible(name)),
                confinement_text.means(confined, self._networks.get(name, "allowed")),
            ]
            if name in self._suspended:
                lines.append(
                    self.tr("Its command line changed: its grants are suspended until approved")
                )
            return "\n".join(lines)
        if role == ServerConfinedRole:
            return confined
        return None

    def _scope_words(self, scope: Scope | None, read_only: bool) -> str:
        if scope is None:
            return self.tr("not granted")
        if read_only:
            return (
                self.tr("always, read-only")
                if scope == Scope.ALWAYS
                else self.tr("while running, read-only")
            )
        return self.tr("always") if scope == Scope.ALWAYS else self.tr("while running")

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        server, root = self.server_at(index.row()), self.root_id_at(index.column())
        if server is None or root is None:
            return None
        scope = self.scope_at(index)
        read_only = self.read_only_at(index)
        if role == Qt.ItemDataRole.DisplayRole:
            if scope == Scope.ALWAYS:
                return self.tr("Always, read-only") if read_only else self.tr("Always")
            if scope == Scope.WHILE_RUNNING:
                return (
                    self.tr("While running, read-only") if read_only else self.tr("While running")
                )
            return (
                self.tr("Allowed by policy")
                if self._policy == "allow-all"
                else self.tr("Not granted")
            )
        if role == Qt.ItemDataRole.DecorationRole:
            if scope not in self._marks:
                self._marks[scope] = scope_icon(scope)
            return self._marks[scope]
        if role == Qt.ItemDataRole.ForegroundRole and scope is None:
            # the words of an empty cell recede; a grant is what the eye should find
            return QPalette().brush(QPalette.ColorGroup.Active, QPalette.ColorRole.PlaceholderText)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._cell_tip(server, index.column(), scope, read_only)
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return self.tr("{server}, {root}: {scope}").format(
                server=visible(server),
                root=self._roots[index.column()][1],
                scope=self._scope_words(scope, read_only),
            )
        if role == CellScopeRole:
            return scope
        if role == CellReadOnlyRole:
            return read_only
        return None

    def _cell_tip(self, server: str, column: int, scope: Scope | None, read_only: bool) -> str:
        root_name = self._roots[column][1]
        text = {
            Scope.ALWAYS: self.tr("{server} always sees {root}"),
            Scope.WHILE_RUNNING: self.tr("{server} sees {root} until it stops running"),
            None: self.tr("{server} does not see {root}"),
        }[scope].format(server=visible(server), root=root_name)
        if read_only and server in self._confined:
            text += "\n" + self.tr("Read-only: the kernel lets it read the folder, not write in it")
        elif read_only:
            text += "\n" + self.tr(
                "Read-only, but not enforced: read-only holds only while the server runs confined"
            )
        if server in self._suspended:
            text += "\n" + self.tr("Suspended: its command line changed since it was approved")
        return text + "\n" + self.tr("Click or Space: not granted, while running, always")

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def cycle(self, index: Index) -> bool:
        """Move the cell on: not granted -> while running -> always -> not granted."""
        if not index.isValid():
            return False
        return self.set_scope(index, NEXT_SCOPE[self.scope_at(index)])

    def set_scope(self, index: Index, scope: Scope | None) -> bool:
        """Grant the cell's root to its server for *scope*, or revoke it (None).

        A read-only grant stays read-only when only its scope changes.
        """
        server, root = self.server_at(index.row()), self.root_id_at(index.column())
        if server is None or root is None or scope == self.scope_at(index):
            return False
        return self.watcher.act(lambda store: set_scope(store, server, [root], scope)) is not None

    def set_read_only(self, index: Index, read_only: bool) -> bool:
        """Make the cell's grant read-only or read-write; False if the cell has no grant."""
        server, root = self.server_at(index.row()), self.root_id_at(index.column())
        scope = self.scope_at(index)
        if server is None or root is None or scope is None:
            return False
        if read_only == self.read_only_at(index):
            return False
        return (
            self.watcher.act(
                lambda store: set_scope(store, server, [root], scope, read_only=read_only)
            )
            is not None
        )
