"""The servers panel: running servers, the consent matrix and the policy for unknown servers."""

from __future__ import annotations

import html
import itertools
from collections.abc import Callable, Sequence

from PySide6.QtCore import (
    QByteArray,
    QEvent,
    QModelIndex,
    QObject,
    QPoint,
    Qt,
    Signal,
    SignalInstance,
)
from PySide6.QtGui import QAction, QIcon, QKeyEvent
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStyle,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from roots_manager.actions import settings as setting_actions
from roots_manager.actions.servers import approve, forget
from roots_manager.core.confinement.confined import network_state
from roots_manager.core.directory.records import EventRecord
from roots_manager.core.hosts.known import HostSpec
from roots_manager.core.log.index import LogIndex
from roots_manager.core.log.timeline import Timeline
from roots_manager.core.runs import live
from roots_manager.core.runs.live import BridgeMarker
from roots_manager.core.servers.names import visible
from roots_manager.core.store.state import State
from roots_manager.gui.common.resources import action_icon
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.servers.confine_box import ConfineBox
from roots_manager.gui.servers.consent_cells import cell_menu, make_legend, make_matrix_view
from roots_manager.gui.servers.consent_matrix import ConsentMatrixModel
from roots_manager.gui.servers.policy_choice import confirm_allow_all, make_policy_box
from roots_manager.gui.servers.server_detail import ServerDetail
from roots_manager.gui.servers.server_list import ServerList
from roots_manager.gui.servers.servers_model import (
    ServerRow,
    ServersModel,
)
from roots_manager.gui.servers.servers_table import (
    fit_columns,
    make_servers_table,
    show_running_columns,
)
from roots_manager.gui.servers.serverview.actions import Action, actions_for
from roots_manager.gui.servers.serverview.facts import ServerFacts, server_facts
from roots_manager.gui.servers.serverview.worth import Worth, worth_of, worth_of_all


class ServersPanel(QWidget):
    """Known servers with their live state, and the server x root consent matrix."""

    connect_requested = Signal()
    disconnect_requested = Signal(str)
    """Disconnect the selected server, named by the argument (one the app connected)."""
    list_changed_requested = Signal(str, int)
    """The running bridges of a server (name, how many) were asked for a list_changed."""
    probe_requested = Signal(str)
    """Probe the server named by the argument (what it really does with its roots)."""
    restart_requested = Signal(str, int)
    """The running bridges of a server (name, how many) were asked to restart it."""

    def __init__(self, watcher: StoreWatcher, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self.app_connected: frozenset[str] = frozenset()
        self.refusals: dict[str, int] = {}
        """Each server's refusals since the user last looked at it (selected it here)."""
        """The servers this app connected as their host (the ones Disconnect can end)."""
        self.servers_model = ServersModel(watcher, self)
        self.matrix_model = ConsentMatrixModel(watcher, self)

        # what roots are worth for the servers in view: its words follow their confinement
        self.notice = notice = QLabel(self)
        notice.setWordWrap(True)
        notice.setFrameShape(QFrame.Shape.StyledPanel)
        notice.setMargin(6)

        self.policy = make_policy_box(self)
        self.policy.activated.connect(self._policy_chosen)
        policy_label = QLabel(self.tr("When an &unknown server starts:"), self)
        policy_label.setBuddy(self.policy)
        self.confine_new = QCheckBox(self.tr("Start new servers conf&ined"), self)
        self.confine_new.setToolTip(
            self.tr(
                "A server first seen from now on runs confined to its grants: the kernel refuses "
                "it every other file of yours, and each refusal shows here with Allow folder. "
                "Servers already known keep their own setting."
            )
            if self.watcher.by_default
            else self.tr("This machine cannot confine a server: new servers start unconfined.")
        )
        self.confine_new.toggled.connect(self._confine_new_chosen)

        self.servers = make_servers_table(self, self.servers_model)
        self._columns_fitted = False

        self.matrix = make_matrix_view(self, self.matrix_model)
        self.matrix.customContextMenuRequested.connect(self._matrix_menu)
        self.matrix.installEventFilter(self)  # Space cycles the current cell as a click does
        matrix_hint = QLabel(
            self.tr(
                "A click on a cell, or Space, changes what a server sees: not granted, then "
                "while running (until the server stops), then always. Right-click for a "
                "menu, which can also make a grant read-only. A lock marks a confined server."
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
        self.connect_button.setIcon(
            action_icon("network-connect", QStyle.StandardPixmap.SP_MediaPlay)
        )
        self.disconnect_button, self.disconnect_action = self._button_and_action(
            self.tr("&Disconnect…"),
            self.tr("&Disconnect…"),
            self.tr("End the selected server, which this app connected as its host"),
            self.disconnect_selected,
            action_icon("process-stop", QStyle.StandardPixmap.SP_BrowserStop),
        )
        self.disconnect_action.setShortcut("Ctrl+Shift+K")
        self.notify_button, self.notify_action = self._button_and_action(
            self.tr("Send l&ist_changed"),
            self.tr("Send &list_changed"),
            self.tr(
                "Have the running bridge tell the server its roots changed, though they did "
                "not: the Log shows whether the server asks for them again"
            ),
            self.notify_selected,
            action_icon("view-refresh", QStyle.StandardPixmap.SP_BrowserReload),
        )
        self.approve_button.setIcon(
            action_icon("dialog-ok-apply", QStyle.StandardPixmap.SP_DialogApplyButton)
        )
        self.forget_button.setIcon(action_icon("edit-delete", QStyle.StandardPixmap.SP_TrashIcon))
        self.restart_button, self.restart_action = self._button_and_action(
            # no mnemonic on the button: every letter of the word is taken on this tab
            self.tr("Restart"),
            self.tr("Re&start"),
            self.tr(
                "Stop the server and start it again behind its host's back, whatever host "
                "started it: the host stays connected (its handshake is replayed to the new "
                "server), and the server starts afresh with what it is granted now"
            ),
            self.restart_selected,
            # not the circling arrows of Send list_changed beside it
            action_icon("system-reboot", QStyle.StandardPixmap.SP_MediaSkipBackward),
        )
        self.probe_button, self.probe_action = self._button_and_action(
            self.tr("Pro&be…"),
            self.tr("&Probe…"),
            self.tr(
                "Run the server over a scratch tree and find out what it really does with its "
                "roots: every path tool tried inside and outside its root"
            ),
            self.probe_selected,
        )

        top = QHBoxLayout()
        top.addWidget(policy_label)
        top.addWidget(self.policy)
        top.addWidget(self.confine_new)
        top.addStretch(1)
        top.addWidget(self.connect_button)

        self.confine_box = ConfineBox(watcher, self)

        # the master list and the selected server's detail
        self.server_list = ServerList(self)
        self.server_list.server_selected.connect(self._listed_server_selected)
        self.hosts: dict[str, HostSpec] = {}
        self.detail = ServerDetail(watcher, self)
        self.detail.restart_now.connect(self.restart_selected)
        self.detail_title = QLabel(self)
        title_font = self.detail_title.font()
        title_font.setBold(True)
        title_font.setPointSizeF(title_font.pointSizeF() * 1.2)
        self.detail_title.setFont(title_font)
        # its actions in one row, each shown only while it applies to the server
        actions = QHBoxLayout()
        for b in (
            self.probe_button,
            self.restart_button,
            self.notify_button,
            self.approve_button,
            self.disconnect_button,
            self.forget_button,
        ):
            actions.addWidget(b)
        actions.addStretch(1)
        self.protection_label = QLabel(self.tr("Protection"), self)
        self.protection_label.setFont(font)
        # its folders, its protection, its activity: one column, which scrolls when the
        # window (a 1366x768 screen, a 1.5 scale) is too small for all of it
        self.detail.protection.addWidget(self.protection_label)
        self.detail.protection.addWidget(self.confine_box)
        self.confine_box.add_setting(self.detail.network)
        detail_pane = QWidget(self)
        dl = QVBoxLayout(detail_pane)
        dl.setContentsMargins(0, 0, 0, 0)
        dl.addWidget(self.detail_title)
        dl.addLayout(actions)
        dl.addWidget(self.detail, 1)
        self.detail_scroll = QScrollArea(self)
        self.detail_scroll.setWidgetResizable(True)
        self.detail_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.detail_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.detail_scroll.setWidget(detail_pane)
        detail_scroll = self.detail_scroll
        master = QWidget(self)
        ml = QVBoxLayout(master)
        ml.setContentsMargins(0, 0, 0, 0)
        ml.addWidget(self.empty_hint)
        ml.addWidget(self.server_list, 1)
        by_server = QSplitter(Qt.Orientation.Horizontal, self)
        by_server.setObjectName("serverDetailSplitter")
        by_server.addWidget(master)
        by_server.addWidget(detail_scroll)
        by_server.setChildrenCollapsible(False)
        by_server.setStretchFactor(0, 1)
        by_server.setStretchFactor(1, 1)

        # every server and folder at once: the table of servers and the consent matrix
        upper = QWidget(self)
        ul = QVBoxLayout(upper)
        ul.setContentsMargins(0, 0, 0, 0)
        ul.addWidget(servers_label)
        ul.addWidget(self.servers, 1)
        lower = QWidget(self)
        ll = QVBoxLayout(lower)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addWidget(matrix_label)
        ll.addWidget(matrix_hint)
        ll.addWidget(self.matrix, 1)
        self.legend = make_legend(self)
        ll.addWidget(self.legend)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.setObjectName("serversSplitter")
        split.addWidget(upper)
        split.addWidget(lower)
        split.setChildrenCollapsible(False)
        # the matrix has a row per server too, and the servers' rows are the taller ones
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)

        self.views = QTabWidget(self)
        self.views.setDocumentMode(True)
        self.views.addTab(by_server, self.tr("By server"))
        self.views.addTab(split, self.tr("All grants"))
        self.views.currentChanged.connect(self._update_notice)

        layout = QVBoxLayout(self)
        layout.addWidget(notice)
        layout.addLayout(top)
        layout.addWidget(self.views, 1)

        self.setTabOrder(self.policy, self.confine_new)
        self.setTabOrder(self.confine_new, self.connect_button)
        self.setTabOrder(self.connect_button, self.server_list)
        self.setTabOrder(self.server_list, self.probe_button)
        self.setTabOrder(self.probe_button, self.restart_button)
        self.setTabOrder(self.restart_button, self.notify_button)
        self.setTabOrder(self.notify_button, self.approve_button)
        self.setTabOrder(self.approve_button, self.disconnect_button)
        self.setTabOrder(self.disconnect_button, self.forget_button)
        # the detail's controls in the order they are shown, top to bottom
        chain = [
            self.forget_button,
            self.detail.folders,
            self.detail.add_button,
            self.confine_box.switch,
            self.confine_box.learning_button,
            *self.detail.network.focus_chain,
            self.confine_box.restart_switch,
            self.confine_box.stale_button,
            self.confine_box.extra,
            self.confine_box.add_read,
            self.confine_box.add_write,
            self.confine_box.remove_extra,
            self.detail.recent,
        ]
        for before, after in itertools.pairwise(chain):
            self.setTabOrder(before, after)
        self.setTabOrder(self.servers, self.matrix)
        # the control Tab (or a click) gives the focus to is scrolled into sight
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._focus_changed)

        watcher.state_changed.connect(self._state_changed)
        # a server come or gone resets the table, which loses its selection: the server
        # selected before is selected again (or none, in the list too, if it is gone), so
        # that the list never stays highlighted beside "No server selected"
        self._kept_selection: str | None = None
        self.servers_model.modelAboutToBeReset.connect(self._keep_selection)
        self.servers_model.modelReset.connect(self._select_kept)
        self.servers_model.modelReset.connect(self._show_empty_hint)
        self.servers_model.modelReset.connect(self._show_running_columns)
        self.servers_model.dataChanged.connect(self._show_running_columns)
        self.servers_model.modelReset.connect(self._fit_columns_once)
        self.servers_model.rowsInserted.connect(self._fit_columns_once)
        self._show_empty_hint()
        self._show_running_columns()
        self._fit_columns_once()
        self.servers.selectionModel().selectionChanged.connect(self._update_buttons)
        self.servers.selectionModel().currentChanged.connect(self._update_buttons)
        self.servers_model.modelReset.connect(self._update_buttons)
        self.servers_model.dataChanged.connect(self._update_buttons)
        self.servers.selectionModel().currentChanged.connect(self._table_server_selected)
        self.servers.selectionModel().selectionChanged.connect(self._table_server_selected)
        watcher.markers_changed.connect(self._fill_list)
        self._state_changed(watcher.state)

    def _focus_changed(self, _old: QWidget | None, now: QWidget | None) -> None:
        pane = self.detail_scroll.widget()
        if now is None or pane is None or not pane.isAncestorOf(now):
            return
        # the whole control, not only its current item (what ensureWidgetVisible shows of a
        # list); one taller than the pane from its top
        room = self.detail_scroll.viewport().height() - 16
        half = max(min(now.height(), room), 1) // 2
        at = now.mapTo(pane, QPoint(0, 0))
        self.detail_scroll.ensureVisible(at.x(), at.y() + half, 8, half + 8)

    def set_lane(self, lane: QWidget) -> None:
        """Put the selected server's lane of the timeline in the Tab order, before its events."""
        self.setTabOrder(self.confine_box.remove_extra, lane)
        self.setTabOrder(lane, self.detail.recent)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.matrix and event.type() == QEvent.Type.KeyPress:
            key: QKeyEvent = event  # type: ignore[assignment]
            if key.key() == Qt.Key.Key_Space and not key.modifiers():
                self.matrix_model.cycle(self.matrix.currentIndex())
                return True
        return super().eventFilter(watched, event)

    def _state_changed(self, state: State) -> None:
        i = self.policy.findData(state.policy)
        if i >= 0:
            self.policy.setCurrentIndex(i)
        self.confine_new.blockSignals(True)
        self.confine_new.setChecked(state.confine_new and self.watcher.by_default)
        self.confine_new.blockSignals(False)
        self.confine_new.setEnabled(self.watcher.by_default)
        self._fill_list()
        self._update_buttons()

    def _facts(self) -> dict[str, ServerFacts]:
        return server_facts(
            self.watcher.state,
            self.watcher.markers,
            self.app_connected,
            refusals=self.refusals,
            by_default=self.watcher.by_default,
        )

    def _fill_list(self, *_: object) -> None:
        self.server_list.fill(self._facts(), self.hosts, self.app_connected)
        self._update_notice()

    def _update_notice(self, *_: object) -> None:
        """Say what roots are worth for the server shown by itself (By server), else for
        every server listed: held by the kernel where they run confined, advice elsewhere."""
        facts = self._facts()
        name = self.selected_server() if self.views.currentIndex() == 0 else None
        one = facts.get(name) if name is not None else None
        if one is not None:
            worth = worth_of(one)
        else:
            worth = worth_of_all(
                facts.values(), self.watcher.state.confine_new and self.watcher.by_default
            )
        shown = visible(name) if one is not None and name is not None else None
        srv = self.watcher.state.servers.get(name) if shown is not None and name else None
        network = network_state(srv) if srv is not None else "allowed"
        text, accessible = self.worth_text(worth, shown, network)
        self.notice.setText(text)
        self.notice.setAccessibleName(accessible)

    def worth_text(
        self, worth: Worth, server: str | None, network: str = "allowed"
    ) -> tuple[str, str]:
        """The notice on what roots are worth (*server*: the one server it is about, else
        every one listed; *network*: its network, as :func:`network_state` says), and its
        short name for a screen reader."""
        if worth is Worth.HELD and server is not None and network == "domains":
            return self.tr(
                "<b>{server} runs confined: the kernel holds it to the folders you grant.</b> "
                "Roots tell it where to look, and every other file of yours is refused; each "
                "refusal shows in the Log, where it can be allowed. Its network reaches only "
                "its domains, through Roots Manager's proxy."
            ).format(server=html.escape(server)), self.tr(
                "Notice: the kernel holds this server to its grants"
            )
        if worth is Worth.HELD and server is not None and network == "blocked":
            return self.tr(
                "<b>{server} runs confined: the kernel holds it to the folders you grant.</b> "
                "Roots tell it where to look, and every other file of yours is refused; each "
                "refusal shows in the Log, where it can be allowed. Its network is blocked."
            ).format(server=html.escape(server)), self.tr(
                "Notice: the kernel holds this server to its grants"
            )
        if worth is Worth.HELD and server is not None:
            return self.tr(
                "<b>{server} runs confined: the kernel holds it to the folders you grant.</b> "
                "Roots tell it where to look, and every other file of yours is refused; each "
                "refusal shows in the Log, where it can be allowed. Its network is not "
                "restricted unless you block it."
            ).format(server=html.escape(server)), self.tr(
                "Notice: the kernel holds this server to its grants"
            )
        if worth is Worth.HELD:
            return self.tr(
                "<b>These servers run confined: the kernel holds each to the folders you "
                "grant.</b> Roots tell a server where to look, and every other file of yours is "
                "refused; each refusal shows in the Log, where it can be allowed."
            ), self.tr("Notice: the kernel holds these servers to their grants")
        if worth is Worth.HELD_FROM_RESTART and server is not None:
            return self.tr(
                "<b>{server} runs unconfined until it restarts: until then roots are not an "
                "access control for it.</b> It can still open any file its process is allowed "
                "to; from its next start the kernel holds it to the folders you grant."
            ).format(server=html.escape(server)), self.tr(
                "Notice: this server is held to its grants only from its next start"
            )
        if worth is Worth.MIXED:
            return self.tr(
                "<b>Roots tell a server where to look; only a confined server (marked with a "
                "lock) is held to them by the kernel.</b> A server that is not confined can "
                "still open any file its process is allowed to. Check what it really does in "
                "the Log."
            ), self.tr("Notice: only confined servers are held to their grants")
        if server is not None:
            return self.tr(
                "<b>{server} does not run confined: roots tell it where to look; they are not "
                "an access control.</b> It can still open any file its process is allowed to. "
                "Check what it really does in the Log."
            ).format(server=html.escape(server)), self.tr(
                "Notice: roots are not an access control for this server"
            )
        return self.tr(
            "<b>Roots tell a server where to look; they are not an access control.</b> "
            "A server can still open any file its process is allowed to. Check what it "
            "really does in the Log."
        ), self.tr("Notice: roots are not an access control")

    def set_hosts(self, hosts: dict[str, HostSpec]) -> None:
        """The host whose file wraps each server (the list groups the servers by it)."""
        self.hosts = hosts
        self._fill_list()

    def set_log_index(self, index: LogIndex, timeline: Timeline | None = None) -> None:
        """The Log's index, which the detail reads the selected server's last events from,
        and the Log's timeline, which it paints the server's own lane of."""
        self.detail.set_log_index(index, timeline)
        if self.detail.lane is not None:
            self.set_lane(self.detail.lane)

    def _button_and_action(
        self,
        label: str,
        menu_label: str,
        tip: str,
        slot: Callable[[], None],
        icon: QIcon | None = None,
    ) -> tuple[QPushButton, QAction]:
        """A button of the detail's toolbar and its twin for the Servers menu: one tooltip, one
        slot, one icon."""
        button = QPushButton(label, self)
        action = QAction(menu_label, self)
        for widget in (button, action):
            widget.setToolTip(tip)
            if icon is not None:
                widget.setIcon(icon)
        button.clicked.connect(slot)
        action.triggered.connect(slot)
        return button, action

    def note_denials(self, denials: list[EventRecord]) -> None:
        """Refusals that just happened (denial events): each server's count on its badge grows,
        but the one the user is looking at (selected, on screen), whose details show them."""
        looking = self.selected_server() if self.isVisible() else None
        for rec in denials:
            name = rec.get("server")
            if not isinstance(name, str) or name == looking:
                continue
            folded = rec.get("folded")
            n = (1 if rec.get("path") else 0) + (folded if isinstance(folded, int) else 0)
            self.refusals[name] = self.refusals.get(name, 0) + max(n, 1)
        self._fill_list()

    def select_server(self, name: str | None) -> None:
        """Make *name* the selected server, in the list and in the table."""
        self.server_list.select_server(name)
        self._listed_server_selected(name)

    def _listed_server_selected(self, name: object) -> None:
        if isinstance(name, str) and self.refusals.pop(name, 0):
            self._fill_list()  # looked at: its refusals are seen
        # the table's selection is the panel's: its handlers act on the server selected there
        row = next(
            (
                i
                for i in range(self.servers_model.rowCount())
                if getattr(self.servers_model.row_at(i), "name", None) == name
            ),
            None,
        )
        if row is None:
            self.servers.clearSelection()
            self.servers.setCurrentIndex(QModelIndex())
        elif self.selected_server() != name:
            self.servers.selectRow(row)
        self._update_buttons()

    def _keep_selection(self) -> None:
        self._kept_selection = self.selected_server()

    def _select_kept(self) -> None:
        name, self._kept_selection = self._kept_selection, None
        if name is not None:
            self.select_server(name)

    def _table_server_selected(self, *_: object) -> None:
        self.server_list.select_server(self.selected_server())

    def _fit_columns_once(self, *_: object) -> None:
        # once: after that, the widths are the user's
        if self._columns_fitted or self.servers_model.rowCount() == 0:
            return
        self._columns_fitted = True
        fit_columns(self.servers)

    def column_state(self) -> QByteArray:
        """The servers table's column widths and order, to be saved with the window."""
        return self.servers.horizontalHeader().saveState()

    def restore_columns(self, state: object) -> bool:
        """Put back column widths saved by :meth:`column_state`; False if *state* is not one."""
        if not isinstance(state, QByteArray) or state.isEmpty():
            return False
        if not self.servers.horizontalHeader().restoreState(state):
            return False
        self._columns_fitted = True
        return True

    def _show_running_columns(self, *_: object) -> None:
        show_running_columns(self.servers, self.servers_model)

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
        facts = self._facts().get(name) if name is not None else None
        # which actions apply is the core's rule (the server view's), not decided here
        applies = set(actions_for(facts))
        self.approve_button.setEnabled(Action.APPROVE in applies)
        self.forget_button.setEnabled(Action.FORGET in applies)
        notify = Action.LIST_CHANGED in applies
        self.notify_button.setEnabled(notify)
        self.notify_action.setEnabled(notify)
        mine = Action.DISCONNECT in applies
        self.disconnect_button.setEnabled(mine)
        self.disconnect_action.setEnabled(mine)
        probe = Action.PROBE in applies
        self.probe_button.setEnabled(probe)
        self.probe_action.setEnabled(probe)
        restart = Action.RESTART in applies
        self.restart_button.setEnabled(restart)
        self.restart_action.setEnabled(restart)
        # never a wall of disabled buttons: what does not apply to the server is not shown
        for button, action in (
            (self.probe_button, Action.PROBE),
            (self.restart_button, Action.RESTART),
            (self.notify_button, Action.LIST_CHANGED),
            (self.approve_button, Action.APPROVE),
            (self.disconnect_button, Action.DISCONNECT),
            (self.forget_button, Action.FORGET),
        ):
            button.setVisible(action in applies)
        self.detail_title.setText(visible(name) if name else self.tr("No server selected"))
        self._update_notice()
        self.protection_label.setVisible(name is not None)
        if self.detail.server != name:
            self.detail.show_server(name)
        row = self._selected_row()
        self.confine_box.show_server(
            name,
            stale_unrestartable=bool(
                row and any(m.stale and not m.restartable for m in row.markers)
            ),
        )

    def set_app_connected(self, names: frozenset[str]) -> None:
        """The servers this app connected now (Disconnect is offered for these only)."""
        self.app_connected = names
        self._fill_list()
        self._update_buttons()

    def disconnect_selected(self) -> None:
        """Ask for the selected server to be disconnected, if this app connected it."""
        name = self.selected_server()
        if name is not None and name in self.app_connected:
            self.disconnect_requested.emit(name)

    def probe_selected(self) -> None:
        """Ask for the selected server to be probed."""
        name = self.selected_server()
        srv = self.watcher.state.servers.get(name) if name else None
        if name and srv is not None and srv.command:
            self.probe_requested.emit(name)

    def notify_selected(self) -> None:
        """Ask the selected server's running bridges for a list_changed."""
        self._ask_bridges(
            self._managed_bridges(), live.ask_list_changed, self.list_changed_requested
        )

    def restart_selected(self) -> None:
        """Ask the selected server's bridges that can restart it to do so (a request file
        each: a bridge started by any host, known to the app or not, takes it)."""
        row = self._selected_row()
        able = [m for m in (row.markers if row else []) if m.restartable]
        self._ask_bridges(able, live.ask_restart, self.restart_requested)

    def _ask_bridges(
        self, bridges: Sequence[BridgeMarker], ask: Callable[..., object], told: SignalInstance
    ) -> None:
        """Leave each of *bridges* a request (*ask*: a list_changed or a restart); *told* gets
        the selected server and how many were asked, and each failure is said."""
        name = self.selected_server()
        asked = 0
        for m in bridges:
            try:
                ask(self.watcher.layout, m.run, "app")
                asked += 1
            except (OSError, ValueError) as exc:
                self.watcher.edit_failed.emit(
                    self.tr("Could not ask the bridge of {server}: {reason}").format(
                        server=visible(name or ""), reason=exc
                    )
                )
        if name and asked:
            told.emit(name, asked)

    def _confine_new_chosen(self, on: bool) -> None:
        if on != self.watcher.state.confine_new:
            self.watcher.act(lambda store: setting_actions.set_policy(store, confine_new=on))

    def _policy_chosen(self, index: int) -> None:
        policy = str(self.policy.itemData(index))
        if policy == self.watcher.state.policy:
            return
        if policy == "allow-all" and not confirm_allow_all(self):
            self._state_changed(self.watcher.state)
            return
        self.watcher.act(lambda store: setting_actions.set_policy(store, policy))

    def approve_selected(self) -> None:
        name = self.selected_server()
        srv = self.watcher.state.servers.get(name) if name else None
        if name and srv is not None and srv.seen_fingerprint:
            # the command on screen is the one approved, even if the server restarted since
            shown = srv.seen_fingerprint
            self.watcher.act(lambda store: approve(store, name, shown))

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
            self.watcher.act(lambda store: forget(store, name))

    def _matrix_menu(self, pos: QPoint) -> None:
        index = self.matrix.indexAt(pos)
        if not index.isValid():
            index = self.matrix.currentIndex()
        if not index.isValid():
            return
        self._cell_menu(index).exec(self.matrix.viewport().mapToGlobal(pos))

    def _cell_menu(self, index: QModelIndex) -> QMenu:
        return cell_menu(self, self.matrix_model, index)
