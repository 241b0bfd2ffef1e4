"""The servers panel: running servers, the consent matrix and the policy for unknown servers."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from roots_manager.core import live
from roots_manager.core.live import BridgeMarker
from roots_manager.core.model import POLICIES, State
from roots_manager.core.names import visible
from roots_manager.gui.confine_box import ConfineBox
from roots_manager.gui.consent_matrix import ConsentMatrixModel
from roots_manager.gui.servers_model import (
    BRIDGE,
    COMMAND,
    LAST_ASKED,
    SERVER,
    STALE,
    STARTED,
    STATUS,
    ServerRow,
    ServersModel,
)
from roots_manager.gui.watcher import StoreWatcher

MATRIX_COLUMN_WIDTH = 110
MATRIX_FIT_LIMIT = 200
"""Up to this many roots the matrix's columns fit their names. Fitting measures every column
again at each change (a running bridge's marker changes with every answer it gives), about a
millisecond a column: past this many, the columns keep a fixed width the user can drag."""


class ServersPanel(QWidget):
    """Known servers with their live state, and the server x root consent matrix."""

    connect_requested = Signal()
    disconnect_requested = Signal(str)
    """Disconnect the server named by the argument ("" when none is selected)."""
    list_changed_requested = Signal(str, int)
    """The running bridges of a server (name, how many) were asked for a list_changed."""
    probe_requested = Signal(str)
    """Probe the server named by the argument (what it really does with its roots)."""

    def __init__(self, watcher: StoreWatcher, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self.servers_model = ServersModel(watcher, self)
        self.matrix_model = ConsentMatrixModel(watcher, self)

        notice = QLabel(
            self.tr(
                "<b>Roots tell a server where to look; they are not an access control.</b> "
                "A server can still open any file its process is allowed to. Check what it "
                "really does in the Log."
            ),
            self,
        )
        notice.setWordWrap(True)
        notice.setFrameShape(QFrame.Shape.StyledPanel)
        notice.setMargin(6)
        notice.setAccessibleName(self.tr("Notice: roots are not an access control"))

        self.policy = QComboBox(self)
        self.policy.setAccessibleName(self.tr("Policy for unknown servers"))
        labels = {
            "ask": self.tr("Ask me"),
            "deny": self.tr("Show them nothing"),
            "allow-all": self.tr("Show them every root"),
        }
        for p in POLICIES:
            self.policy.addItem(labels[p], p)
        self.policy.activated.connect(self._policy_chosen)
        policy_label = QLabel(self.tr("When an &unknown server starts:"), self)
        policy_label.setBuddy(self.policy)

        self.servers = QTableView(self)
        self.servers.setModel(self.servers_model)
        self.servers.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.servers.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.servers.verticalHeader().setVisible(False)
        self.servers.setAlternatingRowColors(True)
        self.servers.setAccessibleName(self.tr("Servers"))
        sh = self.servers.horizontalHeader()
        for col in (SERVER, STATUS, BRIDGE, STARTED, LAST_ASKED, STALE):
            sh.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        sh.setSectionResizeMode(COMMAND, QHeaderView.ResizeMode.Stretch)

        self.matrix = QTableView(self)
        # sized before the model comes: set on a header of 50,000 sections, the minimum
        # resizes each one, in time that grows with the square of their number
        self.matrix.horizontalHeader().setMinimumSectionSize(MATRIX_COLUMN_WIDTH)
        self.matrix.horizontalHeader().setDefaultSectionSize(MATRIX_COLUMN_WIDTH)
        self.matrix.setModel(self.matrix_model)
        self.matrix.setAccessibleName(self.tr("Consent: which server sees which root"))
        self.matrix.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.matrix.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.matrix.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.matrix.customContextMenuRequested.connect(self._matrix_menu)
        # fixed widths while the columns change, so that Qt does not measure thousands of them
        # before it is known how many there are
        self.matrix_model.modelAboutToBeReset.connect(
            lambda: self.matrix.horizontalHeader().setSectionResizeMode(
                QHeaderView.ResizeMode.Interactive
            )
        )
        self.matrix_model.modelReset.connect(self._size_matrix_columns)
        self._size_matrix_columns()
        matrix_hint = QLabel(
            self.tr(
                "Tick a cell to let a server see a root. Space or a click cycles: not granted, "
                "this session (until the running server stops), always. Right-click for a menu, "
                "which can also make a grant read-only. A lock marks a confined server."
            ),
            self,
        )
        matrix_hint.setWordWrap(True)
        # what a new user sees instead of two empty tables
        self.empty_hint = QLabel(
            self.tr(
                "No server has run behind roots-bridge yet. Start one with Connect a server…, "
                "or put roots-bridge in front of a server in your host's configuration (Help, "
                "Use with your host); it appears here the first time it runs."
            ),
            self,
        )
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setAccessibleName(self.tr("No servers yet"))
        matrix_label = QLabel(self.tr("C&onsent"), self)
        matrix_label.setBuddy(self.matrix)
        servers_label = QLabel(self.tr("S&ervers"), self)
        servers_label.setBuddy(self.servers)
        font = matrix_label.font()
        font.setBold(True)
        matrix_label.setFont(font)
        servers_label.setFont(font)

        self.approve_button = QPushButton(self.tr("A&pprove command"), self)
        self.approve_button.setToolTip(
            self.tr("Accept the server's changed command line and lift the suspension")
        )
        self.approve_button.clicked.connect(self.approve_selected)
        self.forget_button = QPushButton(self.tr("For&get server…"), self)
        self.forget_button.clicked.connect(self.forget_selected)
        self.connect_button = QPushButton(self.tr("Co&nnect a server…"), self)
        self.connect_button.clicked.connect(self.connect_requested)
        self.disconnect_button = QPushButton(self.tr("&Disconnect"), self)
        self.disconnect_button.clicked.connect(
            lambda: self.disconnect_requested.emit(self.selected_server() or "")
        )
        self.notify_button = QPushButton(self.tr("Send l&ist_changed"), self)
        self.notify_button.setToolTip(
            self.tr(
                "Have the running bridge tell the server its roots changed, though they did "
                "not: the Log shows whether the server asks for them again"
            )
        )
        self.notify_button.clicked.connect(self.notify_selected)
        # the same, for the Servers menu
        self.notify_action = QAction(self.tr("Send &list_changed"), self)
        self.notify_action.setToolTip(self.notify_button.toolTip())
        self.notify_action.triggered.connect(self.notify_selected)

        self.probe_button = QPushButton(self.tr("Pro&be…"), self)
        self.probe_button.setToolTip(
            self.tr(
                "Run the server over a scratch tree and find out what it really does with its "
                "roots: every path tool tried inside and outside its root"
            )
        )
        self.probe_button.clicked.connect(self.probe_selected)
        # the same, for the Servers menu
        self.probe_action = QAction(self.tr("&Probe…"), self)
        self.probe_action.setToolTip(self.probe_button.toolTip())
        self.probe_action.triggered.connect(self.probe_selected)

        top = QHBoxLayout()
        top.addWidget(policy_label)
        top.addWidget(self.policy)
        top.addStretch(1)
        buttons = QHBoxLayout()
        for b in (
            self.connect_button,
            self.disconnect_button,
            self.notify_button,
            self.probe_button,
            self.approve_button,
            self.forget_button,
        ):
            buttons.addWidget(b)
        buttons.addStretch(1)

        self.confine_box = ConfineBox(watcher, self)

        upper = QWidget(self)
        ul = QVBoxLayout(upper)
        ul.setContentsMargins(0, 0, 0, 0)
        ul.addWidget(servers_label)
        ul.addWidget(self.empty_hint)
        ul.addWidget(self.servers, 1)
        ul.addLayout(buttons)
        ul.addWidget(self.confine_box)
        lower = QWidget(self)
        ll = QVBoxLayout(lower)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(matrix_label)
        ll.addWidget(matrix_hint)
        ll.addWidget(self.matrix, 1)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(upper)
        split.addWidget(lower)
        split.setChildrenCollapsible(False)
        # the matrix has a row per server too, and the servers' rows are the taller ones
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)

        layout = QVBoxLayout(self)
        layout.addWidget(notice)
        layout.addLayout(top)
        layout.addWidget(split, 1)

        self.setTabOrder(self.policy, self.servers)
        self.setTabOrder(self.servers, self.connect_button)
        self.setTabOrder(self.connect_button, self.disconnect_button)
        self.setTabOrder(self.disconnect_button, self.notify_button)
        self.setTabOrder(self.notify_button, self.probe_button)
        self.setTabOrder(self.probe_button, self.approve_button)
        self.setTabOrder(self.approve_button, self.forget_button)
        self.setTabOrder(self.forget_button, self.confine_box.switch)
        self.setTabOrder(self.confine_box.switch, self.matrix)

        watcher.state_changed.connect(self._state_changed)
        self.servers_model.modelReset.connect(self._show_empty_hint)
        self._show_empty_hint()
        self.servers.selectionModel().selectionChanged.connect(self._update_buttons)
        self.servers.selectionModel().currentChanged.connect(self._update_buttons)
        self.servers_model.modelReset.connect(self._update_buttons)
        self.servers_model.dataChanged.connect(self._update_buttons)
        self._state_changed(watcher.state)

    def _size_matrix_columns(self) -> None:
        fit = self.matrix_model.columnCount() <= MATRIX_FIT_LIMIT
        self.matrix.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents if fit else QHeaderView.ResizeMode.Interactive
        )

    def _state_changed(self, state: State) -> None:
        i = self.policy.findData(state.policy)
        if i >= 0:
            self.policy.setCurrentIndex(i)
        self._update_buttons()

    def _show_empty_hint(self) -> None:
        self.empty_hint.setVisible(self.servers_model.rowCount() == 0)

    def selected_server(self) -> str | None:
        """The selected server, else the one in the current row (the keyboard focus)."""
        row = self._selected_row()
        return row.name if row else None

    def _selected_row(self) -> ServerRow | None:
        selection = self.servers.selectionModel()
        rows = selection.selectedRows()
        index = rows[0] if rows else selection.currentIndex()
        return self.servers_model.row_at(index.row()) if index.isValid() else None

    def _managed_bridges(self) -> list[BridgeMarker]:
        row = self._selected_row()
        return [m for m in row.markers if m.mode == "managed"] if row else []

    def _update_buttons(self, *_: object) -> None:
        name = self.selected_server()
        srv = self.watcher.state.servers.get(name) if name else None
        self.approve_button.setEnabled(bool(srv and srv.suspended))
        self.forget_button.setEnabled(srv is not None)
        running = bool(self._managed_bridges())
        self.notify_button.setEnabled(running)
        self.notify_action.setEnabled(running)
        probe = bool(srv and srv.command)
        self.probe_button.setEnabled(probe)
        self.probe_action.setEnabled(probe)
        row = self._selected_row()
        self.confine_box.show_server(
            name,
            stale_unrestartable=bool(
                row and any(m.stale and not m.restartable for m in row.markers)
            ),
        )

    def probe_selected(self) -> None:
        """Ask for the selected server to be probed."""
        name = self.selected_server()
        srv = self.watcher.state.servers.get(name) if name else None
        if name and srv is not None and srv.command:
            self.probe_requested.emit(name)

    def notify_selected(self) -> None:
        """Ask the selected server's running bridges for a list_changed."""
        name = self.selected_server()
        bridges = self._managed_bridges()
        asked = 0
        for m in bridges:
            try:
                live.ask_list_changed(self.watcher.layout, m.session, "app")
                asked += 1
            except (OSError, ValueError) as exc:
                self.watcher.edit_failed.emit(
                    self.tr("Could not ask the bridge of {server}: {reason}").format(
                        server=visible(name or ""), reason=exc
                    )
                )
        if name and asked:
            self.list_changed_requested.emit(name, asked)

    def _policy_chosen(self, index: int) -> None:
        policy = str(self.policy.itemData(index))
        if policy == self.watcher.state.policy:
            return
        if policy == "allow-all":
            answer = QMessageBox.warning(
                self,
                self.tr("Show every root to unknown servers?"),
                self.tr(
                    "Any server that starts behind the bridge will be told about every root, "
                    "without asking you. Continue?"
                ),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,
            )
            if answer != QMessageBox.StandardButton.Yes:
                self._state_changed(self.watcher.state)
                return
        self.watcher.edit(lambda s: s.set_policy(policy))

    def approve_selected(self) -> None:
        name = self.selected_server()
        srv = self.watcher.state.servers.get(name) if name else None
        if name and srv is not None and srv.seen_fingerprint:
            # the command on screen is the one approved, even if the server restarted since
            shown = srv.seen_fingerprint
            self.watcher.edit(lambda s: s.approve(name, shown))

    def forget_selected(self) -> None:
        name = self.selected_server()
        if not name or name not in self.watcher.state.servers:
            return
        answer = QMessageBox.question(
            self,
            self.tr("Forget server"),
            self.tr(
                "Forget {server} and its grants? The next time it starts it counts as a new server."
            ).format(server=visible(name)),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.watcher.edit(lambda s: s.remove_server(name))

    def _matrix_menu(self, pos: QPoint) -> None:
        index = self.matrix.indexAt(pos)
        if not index.isValid():
            index = self.matrix.currentIndex()
        if not index.isValid():
            return
        self._cell_menu(index).exec(self.matrix.viewport().mapToGlobal(pos))

    def _cell_menu(self, index: QModelIndex) -> QMenu:
        menu = QMenu(self)
        current = self.matrix_model.scope_at(index)
        for scope, text in (
            ("always", self.tr("&Always")),
            ("session", self.tr("This &session")),
            (None, self.tr("&Not granted")),
        ):
            action = menu.addAction(text)
            action.setCheckable(True)
            action.setChecked(current == scope)
            action.triggered.connect(lambda _=False, s=scope: self.matrix_model.set_scope(index, s))
        if current is not None:
            menu.addSeparator()
            read_only = menu.addAction(
                self.tr("&Read-only (holds only while the server runs confined)")
            )
            read_only.setCheckable(True)
            read_only.setChecked(self.matrix_model.read_only_at(index))
            read_only.triggered.connect(lambda on: self.matrix_model.set_read_only(index, bool(on)))
        return menu
