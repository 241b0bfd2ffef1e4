"""The main window: workspace roots, servers and consent, the live log."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QCoreApplication, QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QIcon,
    QKeySequence,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QMainWindow,
    QMessageBox,
    QStyle,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from roots_manager.core.directory.layout import home_shortened
from roots_manager.core.hosts.found import FoundHost
from roots_manager.core.log.denials import shown
from roots_manager.core.servers.names import visible
from roots_manager.core.store.state import State
from roots_manager.gui.common import window_state
from roots_manager.gui.common.banner import Banner
from roots_manager.gui.common.folder_drops import dropped_folders
from roots_manager.gui.common.resources import action_icon, shown_language
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.connect.connect import ConnectionManager
from roots_manager.gui.connect.connect_dialog import ConnectDialog
from roots_manager.gui.hosts.first_run import ProtectFound
from roots_manager.gui.hosts.hosts_view import HostsPanel
from roots_manager.gui.log.log_view import LogPanel
from roots_manager.gui.roots.detect import DetectDialog
from roots_manager.gui.roots.roots_view import RootsPanel
from roots_manager.gui.servers.denial_notice import DenialNotice
from roots_manager.gui.servers.refusals_dialog import RefusalsDialog
from roots_manager.gui.servers.servers_view import ServersPanel
from roots_manager.gui.servers.serverview.groups import hosts_of_servers
from roots_manager.gui.shell import help_boxes
from roots_manager.gui.shell.settings_dialog import KEEP_IN_TRAY_KEY, SettingsDialog
from roots_manager.gui.shell.welcome import WelcomeBanner

if TYPE_CHECKING:
    from roots_manager.core.hosts.operations import FileResult

log = logging.getLogger(__name__)

TOLD_ABOUT_TRAY_KEY = "toldAboutTray"
GEOMETRY_KEY = "geometry"
SERVER_COLUMNS_KEY = "serverColumns"


def _action(
    parent: QWidget,
    text: str,
    slot: Any,
    shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
    icon: tuple[str, QStyle.StandardPixmap] | None = None,
) -> QAction:
    action = QAction(text, parent)
    if icon is not None:
        action.setIcon(action_icon(*icon))
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    action.triggered.connect(slot)
    return action


def make_menus(window: MainWindow) -> None:
    """Fill the menu bar of *window*: File, Servers, View and Help."""
    bar = window.menuBar()
    file = bar.addMenu(QCoreApplication.translate("MainWindow", "&File"))
    file.addAction(
        _action(
            window,
            QCoreApplication.translate("MainWindow", "&Add folder…"),
            window.roots_panel.add_folder,
            QKeySequence.StandardKey.Open,
            ("folder-new", QStyle.StandardPixmap.SP_FileDialogNewFolder),
        )
    )
    file.addAction(
        _action(
            window,
            QCoreApplication.translate("MainWindow", "&Detect projects…"),
            window.detect_projects,
            "Ctrl+D",
            ("edit-find", QStyle.StandardPixmap.SP_FileDialogContentsView),
        )
    )
    recent = file.addMenu(QCoreApplication.translate("MainWindow", "&Recent folders"))
    recent.aboutToShow.connect(lambda: window.roots_panel.fill_recent(recent))
    file.addSeparator()
    settings_action = _action(
        window,
        QCoreApplication.translate("MainWindow", "&Settings…"),
        window.open_settings,
        icon=("preferences-system", QStyle.StandardPixmap.SP_FileDialogDetailedView),
    )
    # the platform's own key where it has one (Cmd+, on macOS), and Ctrl+, everywhere
    settings_action.setShortcuts(
        [
            *QKeySequence.keyBindings(QKeySequence.StandardKey.Preferences),
            QKeySequence("Ctrl+,"),
        ]
    )
    file.addAction(settings_action)
    file.addSeparator()
    file.addAction(
        _action(
            window,
            QCoreApplication.translate("MainWindow", "&Close window"),
            window.close,
            QKeySequence.StandardKey.Close,
        )
    )
    file.addAction(
        _action(
            window,
            QCoreApplication.translate("MainWindow", "&Quit"),
            window.quit_requested,
            QKeySequence.StandardKey.Quit,
            ("application-exit", QStyle.StandardPixmap.SP_DialogCloseButton),
        )
    )

    servers = bar.addMenu(QCoreApplication.translate("MainWindow", "&Servers"))
    servers.addAction(
        _action(
            window,
            QCoreApplication.translate("MainWindow", "&Connect a server…"),
            window.connect_server,
            "Ctrl+K",
            ("network-connect", QStyle.StandardPixmap.SP_MediaPlay),
        )
    )
    servers.addAction(window.disconnect_action)
    servers.addAction(window.servers_panel.notify_action)
    servers.addAction(window.servers_panel.restart_action)
    servers.addAction(window.servers_panel.probe_action)
    servers.addSeparator()
    servers.addAction(
        _action(
            window,
            QCoreApplication.translate("MainWindow", "&Review pending requests…"),
            window.review_requested,
            "Ctrl+R",
        )
    )

    view = bar.addMenu(QCoreApplication.translate("MainWindow", "&View"))
    for i, key in enumerate(("Ctrl+1", "Ctrl+2", "Ctrl+3", "Ctrl+4")):
        view.addAction(
            _action(
                window,
                window.tabs.tabText(i).replace("&", ""),
                lambda _=False, i=i: window.tabs.setCurrentIndex(i),
                key,
            )
        )

    help_menu = bar.addMenu(QCoreApplication.translate("MainWindow", "&Help"))
    help_menu.addAction(
        _action(
            window,
            QCoreApplication.translate("MainWindow", "&What roots are"),
            window.explain_roots,
        )
    )
    help_menu.addAction(
        _action(
            window,
            QCoreApplication.translate("MainWindow", "Use with your &host…"),
            window.explain_hosts,
        )
    )
    help_menu.addAction(
        _action(
            window, QCoreApplication.translate("MainWindow", "&About Roots Manager"), window.about
        )
    )


def read_hosts(platform: Any, folders: list[str]) -> list[Any]:
    """What the host files on this machine (and in the *folders*, the roots) say: each file's
    report (:class:`~roots_manager.core.hosts.operations.FileReport`)."""
    from roots_manager.core.hosts import operations as hostchanges

    return hostchanges.report(platform, folders)


class HostScan(QObject):
    """Reads the hosts' files off the GUI thread: a heavy user's ``~/.claude.json`` holds
    100 MiB of history, and reading it must not hold the window still; :attr:`read` brings the
    reports back to the GUI thread (the servers grouped by host, the first run's offer)."""

    read = Signal(object)
    """The host files' reports (a list of ``FileReport``; empty when they could not be read)."""

    def start(self, platform: Any, folders: list[str]) -> None:
        threading.Thread(target=self._scan, args=(platform, folders), daemon=True).start()

    def _scan(self, platform: Any, folders: list[str]) -> None:
        try:
            reports = read_hosts(platform, folders)
        except Exception:  # a host file no one can read is no reason to leave the app broken
            log.exception("reading the hosts' files failed")
            reports = []
        with contextlib.suppress(RuntimeError):  # the window is gone meanwhile
            self.read.emit(reports)


class MainWindow(QMainWindow):
    """The app's one window."""

    quit_requested = Signal()
    restart_requested = Signal()
    """The user chose to restart the app (to apply a new language)."""
    review_requested = Signal()
    recover_requested = Signal()
    hidden_to_tray = Signal(bool)
    """The window was closed into the tray; True the first time (the user should be told)."""

    def __init__(
        self,
        watcher: StoreWatcher,
        settings: QSettings,
        icon: QIcon | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self.settings = settings
        self.tray_available = False
        self.connections: ConnectionManager | None = None
        self.log_panel: LogPanel | None = None
        self.first_run: ProtectFound | None = None
        """The walk through protecting the hosts found, while it is open."""
        self.running_language: str | None = watcher.state.language
        """The language the window was built in (None: the system's); set by the app."""
        self.setWindowTitle(self.tr("Roots Manager"))
        if icon is not None:
            self.setWindowIcon(icon)
        self.setAcceptDrops(True)

        self.roots_panel = RootsPanel(watcher, settings, self)
        self.roots_panel.detect_requested.connect(self.detect_projects)
        self.servers_panel = ServersPanel(watcher, self)
        self.servers_panel.detail.confirm_broad = self.roots_panel.confirm_broad
        self.servers_panel.connect_requested.connect(self.connect_server)
        self.servers_panel.disconnect_requested.connect(self.disconnect_server)
        self.servers_panel.probe_requested.connect(self.probe_server)
        self.servers_panel.list_changed_requested.connect(self._list_changed_requested)
        self.servers_panel.restart_requested.connect(self._restart_requested)

        self.tabs = QTabWidget(self)
        self.tabs.setAccessibleName(self.tr("Sections"))
        self.tabs.addTab(self.roots_panel, self.tr("&Roots"))
        self.tabs.addTab(self.servers_panel, self.tr("Servers and consen&t"))
        self.denial_notice = DenialNotice(watcher, self)  # the log panel tells it refusals
        self.denial_notice.list_requested.connect(self.show_refusals)
        self.denial_notice.allowed.connect(self._allowed)
        self.denial_notice.answered.connect(self._answered)
        self.refusals_dialog: RefusalsDialog | None = None
        self.log_tab_index = self.tabs.addTab(self._make_log_panel(), self.tr("&Log"))
        self.hosts_panel = HostsPanel(watcher, self)
        self.hosts_panel.change_failed.connect(self.show_error)
        self.hosts_panel.reports_read.connect(
            lambda reports: self.servers_panel.set_hosts(hosts_of_servers(reports))
        )
        self.hosts_panel.hosts_changed.connect(self._hosts_changed)
        # no letter of "Hosts" is free for a mnemonic: View > Hosts (Ctrl+4) reaches it
        self.tabs.addTab(self.hosts_panel, self.tr("Hosts"))

        self.pending_banner = Banner(self.tr("Revie&w…"), self)
        self.pending_banner.button.clicked.connect(self.review_requested)
        # in the tab bar's corner, its room kept while hidden: coming and going, it moves
        # nothing under the pointer
        self.pending_banner.label.setWordWrap(False)
        self.pending_banner.setFrameShape(QFrame.Shape.NoFrame)
        self.pending_banner.row.setContentsMargins(6, 0, 2, 0)
        font = self.pending_banner.label.font()
        font.setBold(True)
        self.pending_banner.label.setFont(font)
        keep = self.pending_banner.sizePolicy()
        keep.setRetainSizeWhenHidden(True)
        self.pending_banner.setSizePolicy(keep)
        self.tabs.setCornerWidget(self.pending_banner, Qt.Corner.TopRightCorner)
        self.store_banner = Banner(self.tr("Re&cover…"), self)
        self.store_banner.button.clicked.connect(self.recover_requested)

        self.welcome = WelcomeBanner(settings, self)
        self.welcome.protect_requested.connect(self.protect_found)
        self.host_scan = HostScan(self)
        self.host_scan.read.connect(self._hosts_read)
        # the servers grouped by the host that starts them, and a first run that starts from
        # what the user has: the hosts' files read once the window is up
        QTimer.singleShot(0, self._look_for_hosts)

        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.addWidget(self.welcome)
        layout.addWidget(self.store_banner)
        layout.addWidget(self.denial_notice)
        layout.addWidget(self.tabs, 1)
        self.setCentralWidget(central)

        self.disconnect_action = self.servers_panel.disconnect_action
        make_menus(self)
        # made now, not by the first message: appearing, it would shrink the tabs under the pointer
        self.statusBar().setSizeGripEnabled(True)
        # while the per-user directory cannot be watched, a lasting word says so (the store is
        # read every 2 s meanwhile, and the watch tried again)
        self.watch_status = QLabel(self)
        self.watch_status.setVisible(False)
        self.statusBar().addPermanentWidget(self.watch_status)
        watcher.following.connect(self._following)
        watcher.state_changed.connect(self._state_changed)
        watcher.edit_failed.connect(self.show_error)
        watcher.store_failed.connect(self._store_failed)
        watcher.store_recovered.connect(lambda: self.store_banner.setVisible(False))
        self.roots_panel.roots_added.connect(
            lambda ids: self.statusBar().showMessage(
                self.tr("Added %n root(s)", "", len(ids)), 5000
            )
        )
        self._state_changed(watcher.state)
        self._sync_disconnect()
        geometry = settings.value(GEOMETRY_KEY)
        if not isinstance(geometry, QByteArray) or not self.restoreGeometry(geometry):
            self.resize(1100, 700)
        window_state.clamp_to_screen(self)
        self.servers_panel.restore_columns(settings.value(SERVER_COLUMNS_KEY))
        window_state.restore(settings, self, self.tabs, shown_language(self.running_language))

    # ---- building -----------------------------------------------------------------------

    def _make_log_panel(self) -> LogPanel:
        self.log_panel = LogPanel(self.watcher.layout, self)
        # the selected server's lane is painted from the Log's timeline, not a second one
        self.servers_panel.set_log_index(self.log_panel.index_, self.log_panel.timeline.timeline)
        self.log_panel.feed.indexed.connect(lambda *_: self.servers_panel.detail.show_recent())
        self.servers_panel.detail.mark_clicked.connect(self._show_log_row)
        # a server's last roots/list, told by the logs once its bridge has ended
        self.log_panel.roots_asked_seen.connect(self.servers_panel.servers_model.note_last_asked)
        self.log_panel.denied.connect(self.denial_notice.add)
        self.log_panel.denied.connect(self.servers_panel.note_denials)
        # a refusal is allowed from its Log row and from its server's Recent activity as from
        # the notice: one grant, made by the notice, which takes away what it covers
        self.log_panel.allow_requested.connect(self.denial_notice.allow_refusal)
        self.servers_panel.detail.allow_requested.connect(self.denial_notice.allow_refusal)
        return self.log_panel

    def show_refusals(self) -> RefusalsDialog:
        """Open (or raise) the list of every refusal waiting."""
        if self.refusals_dialog is None:
            self.refusals_dialog = RefusalsDialog(self.denial_notice, self)
        self.refusals_dialog.show()
        self.refusals_dialog.raise_()
        self.refusals_dialog.activateWindow()
        return self.refusals_dialog

    def _allowed(self, server: str, target: str) -> None:
        """A refusal was allowed: say so, wherever it was allowed from."""
        if not os.path.isabs(target):  # a domain (Allow domain), never a path
            self.statusBar().showMessage(
                self.tr(
                    "{server} may reach {domain} through Roots Manager's proxy, from its next "
                    "start."
                ).format(domain=shown(target), server=visible(server)),
                8000,
            )
            return
        self.statusBar().showMessage(
            self.tr("Granted {path} to {server}.").format(
                path=shown(home_shortened(target, os.path.expanduser("~"))), server=visible(server)
            ),
            8000,
        )

    def _answered(self, server: str, target: str, duration: str) -> None:
        """A question was allowed for a while, nothing saved: say so, and for how long."""
        path = shown(home_shortened(target, os.path.expanduser("~")))
        text = (
            self.tr("Allowed {path} to {server} this once.")
            if duration == "once"
            else self.tr("Allowed {path} to {server} until it ends.")
        )
        self.statusBar().showMessage(text.format(path=path, server=visible(server)), 8000)

    def _show_log_row(self, row: int) -> None:
        """A mark of a server's lane was clicked: its event, selected in the Log."""
        if self.log_panel is not None:
            self.log_panel.select_index_row(row)  # or, hidden by the filter, its JSON and why
            self.tabs.setCurrentIndex(self.log_tab_index)

    # ---- state --------------------------------------------------------------------------

    def _state_changed(self, state: State) -> None:
        n = len(state.pending)
        if n:
            names = ", ".join(visible(s) for s in sorted({p.server for p in state.pending}))
            self.pending_banner.label.setText(self.tr("%n server(s) wait for your decision", "", n))
            self.pending_banner.setToolTip(names)
        self.pending_banner.setVisible(n > 0)

    def _following(self, trouble: str) -> None:
        self.watch_status.setText(trouble)
        self.watch_status.setToolTip(trouble)
        self.watch_status.setVisible(bool(trouble))

    def _store_failed(self, message: str) -> None:
        self.store_banner.label.setText(
            self.tr("The store cannot be read; changes are not possible until it is recovered.")
        )
        self.store_banner.setToolTip(message)
        self.store_banner.setVisible(True)

    def _found_hosts(self) -> list[FoundHost]:
        """The hosts on this machine (and in the roots) with servers not yet protected."""
        from roots_manager.core.hosts.found import unprotected

        folders = [r.path for r in self.watcher.state.roots]
        return unprotected(read_hosts(self.hosts_panel.platform(), folders))

    def _hosts_changed(self, written: list[FileResult]) -> None:
        """Name every file one change or one Undo wrote (Gemini CLI's user and project files,
        say), not only the last."""
        if len(written) == 1:
            message = self.tr("Changed {path}").format(path=written[0].file.path)
        else:
            message = self.tr("Changed {count} files: {paths}").format(
                count=len(written), paths=self.tr(", ").join(str(r.file.path) for r in written)
            )
        self.statusBar().showMessage(message, 8000)

    def _hosts_read(self, reports: list[Any]) -> None:
        from roots_manager.core.hosts.found import unprotected

        self.servers_panel.set_hosts(hosts_of_servers(reports))
        if not WelcomeBanner.was_dismissed(self.welcome.settings):
            self.welcome.show_found(unprotected(reports))

    def _look_for_hosts(self) -> None:
        folders = [r.path for r in self.watcher.state.roots]
        self.host_scan.start(self.hosts_panel.platform(), folders)

    def protect_found(self) -> None:
        """Walk the user through protecting the servers of the hosts found."""
        found = self._found_hosts()
        if not found:
            self.welcome.show_found([])
            return
        self.first_run = ProtectFound(self.watcher, found, self)

        def finished(_result: int) -> None:
            wizard, self.first_run = self.first_run, None
            if wizard is not None and wizard.results:
                self.welcome.dismiss()  # done: the welcome has said what it had to
                self.hosts_panel.made_elsewhere(wizard.results)
            elif wizard is not None:
                self._look_for_hosts()

        self.first_run.finished.connect(finished)
        self.first_run.open()

    def show_error(self, message: str) -> None:
        """Tell the user an operation was refused, without blocking the window."""
        self.statusBar().showMessage(message, 10000)
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            self.tr("Roots Manager"),
            message,
            QMessageBox.StandardButton.Ok,
            self,
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # ---- actions --------------------------------------------------------------------------

    def detect_projects(self) -> DetectDialog:
        """Open the Detect projects dialog; the ticked projects become roots."""
        existing = {r.path for r in self.watcher.state.roots}
        dialog = DetectDialog(existing, parent=self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self.roots_panel.add_paths(dialog.checked_paths()))
        dialog.open()
        return dialog

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.watcher, self.settings, self, running=self.running_language)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        # once the dialog is gone: a nested message box inside its signal would let Qt delete
        # the dialog (it deletes itself on close) while the signal is still being delivered
        dialog.language_changed.connect(lambda: QTimer.singleShot(0, self.offer_restart))
        dialog.open()

    def offer_restart(self) -> None:
        """Offer to restart now, so that a new language applies (the window is built in it)."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Restart Roots Manager?"),
            self.tr("The new language applies when Roots Manager starts again."),
            QMessageBox.StandardButton.NoButton,
            self,
        )
        connected = sorted(self.connections.connections()) if self.connections else []
        if connected:
            box.setInformativeText(
                self.tr("The servers connected from the app will be disconnected: {names}.").format(
                    names=", ".join(connected)
                )
            )
        restart = box.addButton(self.tr("&Restart now"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(self.tr("&Later"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(restart)
        box.exec()
        if box.clickedButton() is restart:
            self.restart_requested.emit()

    def _connection_manager(self) -> ConnectionManager:
        if self.connections is None:
            self.connections = ConnectionManager(self.watcher.layout, self)
            self.connections.connected.connect(self._server_connected)
            self.connections.disconnected.connect(self._server_disconnected)
            self.connections.failed.connect(self._server_failed)
            self.connections.connections_changed.connect(self._sync_disconnect)
        return self.connections

    def _sync_disconnect(self, *_: object) -> None:
        # Disconnect is offered only for a selected server this app connected
        names = self.connections.connections() if self.connections is not None else []
        self.servers_panel.set_app_connected(frozenset(names))

    def _list_changed_requested(self, name: str, bridges: int) -> None:
        if bridges == 1:
            text = self.tr(
                "Asked {server}'s bridge for a list_changed; the Log shows whether it went out "
                "and whether the server asks again"
            )
        else:
            text = self.tr(
                "Asked the {count} bridges of {server} for a list_changed; the Log shows whether "
                "it went out and whether the server asks again"
            )
        self.statusBar().showMessage(text.format(server=visible(name), count=bridges), 8000)

    def _restart_requested(self, name: str, bridges: int) -> None:
        text = self.tr(
            "Asked %n bridge(s) of {server} to restart it; the Log shows the restart", "", bridges
        )
        self.statusBar().showMessage(text.format(server=visible(name)), 8000)

    def _server_connected(self, name: str) -> None:
        self.statusBar().showMessage(self.tr("Connected {server}").format(server=name), 5000)

    def _server_disconnected(self, name: str, code: int) -> None:
        self.statusBar().showMessage(
            self.tr("{server} ended (exit code {code})").format(server=name, code=code), 8000
        )

    def _server_failed(self, name: str, message: str) -> None:
        self.show_error(
            self.tr("Could not connect {server}: {message}").format(server=name, message=message)
        )

    def probe_server(self, name: str) -> None:
        """Open the Probe… dialog on server *name*, with the command line it last ran."""
        from roots_manager.gui.probe.probe_dialog import ProbeDialog

        srv = self.watcher.state.servers.get(name)
        dialog = ProbeDialog(
            self.watcher.layout, name, list(srv.command or []) if srv else [], self
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()

    def connect_server(self) -> None:
        """Ask for a command line and run it through the bridge with this app as the host."""
        dialog = ConnectDialog(self.watcher.layout, self)
        if not dialog.exec():
            return
        self.connect_command(str(dialog.server_name()), list(dialog.command()))

    def connect_command(self, name: str, command: list[str]) -> None:
        """Connect server *name* started by *command*."""
        self._connection_manager().connect_server(name, command)
        self.statusBar().showMessage(self.tr("Connecting {server}…").format(server=name), 5000)

    def disconnect_server(self, name: str) -> None:
        """End the connection to *name*, a server this app connected, once the user confirms."""
        if self.connections is None or name not in self.connections.connections():
            self.statusBar().showMessage(
                self.tr("{server} was not connected from this app").format(server=visible(name)),
                5000,
            )
            return
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Disconnect {server}?").format(server=visible(name)),
            self.tr("Disconnect {server}? Its bridge and the server stop.").format(
                server=visible(name)
            ),
            QMessageBox.StandardButton.NoButton,
            self,
        )
        end = box.addButton(self.tr("&Disconnect"), QMessageBox.ButtonRole.DestructiveRole)
        keep = box.addButton(self.tr("&Keep running"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(keep)
        box.exec()
        if box.clickedButton() is not end:
            return
        self.connections.disconnect_server(name)
        self.statusBar().showMessage(self.tr("Disconnected {server}").format(server=name), 5000)

    def explain_roots(self) -> None:
        """Say what roots are, and what they are not."""
        help_boxes.explain_roots(self)

    def explain_hosts(self) -> None:
        """Show how to put the bridge in front of a server in a host's configuration."""
        help_boxes.explain_hosts(self)

    def about(self) -> None:
        help_boxes.about(self)

    # ---- window behaviour -----------------------------------------------------------------

    def bring_to_front(self) -> None:
        """Show the window and put it in front (a second start or the tray asks for this)."""
        if self.isMinimized():
            self.showNormal()
        self.show()
        self.raise_()
        self.activateWindow()

    def keep_in_tray(self) -> bool:
        return self.tray_available and bool(self.settings.value(KEEP_IN_TRAY_KEY, True, type=bool))

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # again once shown: only then are the window manager's frame margins known
        window_state.clamp_to_screen(self)
        QTimer.singleShot(0, lambda: window_state.clamp_to_screen(self))

    def save_view_state(self) -> None:
        """Save the window's geometry, the servers table's columns, the current tab and the
        splitters' panes in the settings."""
        self.settings.setValue(GEOMETRY_KEY, self.saveGeometry())
        self.settings.setValue(SERVER_COLUMNS_KEY, self.servers_panel.column_state())
        window_state.save(self.settings, self, self.tabs, shown_language(self.running_language))

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_view_state()
        if self.keep_in_tray():
            event.ignore()
            self.hide()
            first = not bool(self.settings.value(TOLD_ABOUT_TRAY_KEY, False, type=bool))
            if first:
                self.settings.setValue(TOLD_ABOUT_TRAY_KEY, True)
            self.hidden_to_tray.emit(first)
            return
        event.accept()
        self.quit_requested.emit()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls() and dropped_folders(event.mimeData().urls()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: Any) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        folders = dropped_folders(event.mimeData().urls())
        if not folders:
            event.ignore()
            return
        event.acceptProposedAction()
        self.tabs.setCurrentWidget(self.roots_panel)
        self.roots_panel.add_paths(folders)
