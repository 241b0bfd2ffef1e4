"""The application shell: start-up, single instance, language, tray, consent queue, shutdown."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QMessageBox

from roots_manager import APP_ID
from roots_manager.actions.questions import (
    ConsentAnswer,
    ConsentQuestion,
    ConsentQueue,
    RootChoice,
)
from roots_manager.core.consent.effective import root_unavailable
from roots_manager.core.directory.layout import Layout, ensure_private_dir
from roots_manager.core.runs import live
from roots_manager.core.servers.command import DEMO_SERVER_NAME, demo_command
from roots_manager.core.servers.names import visible
from roots_manager.core.store.file import Store, StoreError
from roots_manager.core.store.state import State
from roots_manager.gui.common.resources import app_icon, install_translators
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.consent.consent_prompt import DialogPrompt
from roots_manager.gui.options import parse_app_options
from roots_manager.gui.shell.app_log import install_excepthook, private_file, setup_logging
from roots_manager.gui.shell.appearance import follow_system_color_scheme
from roots_manager.gui.shell.dock import DockReopen
from roots_manager.gui.shell.instance import InstanceServer, ask_running_instance
from roots_manager.gui.shell.main_window import MainWindow
from roots_manager.gui.shell.recovery import RecoveryDialog
from roots_manager.gui.shell.relaunch import relaunch
from roots_manager.gui.shell.tray import Tray

log = logging.getLogger("roots_manager.gui")


def app_settings(layout: Layout) -> QSettings:
    """The app's own settings (window geometry, recent folders), where the layout keeps them
    (``$XDG_CONFIG_HOME/roots-manager`` on Linux, else the per-user directory).

    The file is made private first: QSettings saves through QSaveFile, which keeps the mode of
    the file it replaces.
    """
    path = layout.settings
    ensure_private_dir(path.parent)
    private_file(path)
    return QSettings(str(path), QSettings.Format.IniFormat)


class AppController(QObject):
    """Wires the window, the tray, the consent queue and the watcher for one state directory."""

    window_shown = Signal()
    quit_requested = Signal()

    def __init__(
        self,
        layout: Layout,
        *,
        demo: bool = False,
        hidden: bool = False,
        language: str | None = None,
        instance: InstanceServer | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.layout = layout.ensure()
        self.exit_code = 0
        """What the app exits with: 1 when its window could not be opened."""
        self.store = Store(self.layout)
        self.demo = demo
        self.hidden = hidden
        self.language = language
        """The language the app was started in (None: the system's)."""
        self.settings = app_settings(self.layout)
        self.icon = app_icon()
        self.window: MainWindow | None = None
        self.tray: Tray | None = None
        self.watcher: StoreWatcher | None = None
        self.queue: ConsentQueue | None = None
        self.prompt: DialogPrompt | None = None
        self.recovery: RecoveryDialog | None = None
        self.dock: DockReopen | None = None
        self.instance = instance or InstanceServer(self.layout)
        self.instance.setParent(self)
        self._started = False
        self._stopped = False
        self.restart_pending = False
        """The app is to start again once it has shut down (see :func:`relaunch`)."""
        self._recovery_note: str | None = None

    # ---- start ------------------------------------------------------------------------------

    def start(self) -> None:
        """Open the store (or the recovery dialog when it cannot be read), then the window."""
        self.instance.listen()
        try:
            self.store.read()
        except StoreError as exc:
            log.warning("store unreadable at start: %s", exc)
            self.recovery = RecoveryDialog(self.store, str(exc))
            self.recovery.setWindowIcon(self.icon)
            self.recovery.recovered.connect(self._recovered)
            self.recovery.accepted.connect(self._open)
            self.recovery.rejected.connect(self.quit_requested)
            self.recovery.show()
            return
        self._open()

    def _open(self) -> None:
        if self._started:
            return
        self._started = True
        try:
            self._open_window()
        except Exception:
            # a window that cannot be made is an app that cannot run: say so and end, rather
            # than stay in the tray's place with nothing on the screen
            log.exception("the main window could not be opened")
            print(
                f"roots-manager: the main window could not be opened (details in "
                f"{self.layout.app_log})",
                file=sys.stderr,
                flush=True,
            )
            self.exit_code = 1
            self.quit_requested.emit()

    def _open_window(self) -> None:
        self.watcher = StoreWatcher(self.store, self)
        self.window = MainWindow(self.watcher, self.settings, self.icon)
        self.window.running_language = self.language
        self.tray = Tray(self.icon, self)
        self.window.tray_available = Tray.available()
        self.prompt = DialogPrompt(
            self.window,
            layout=self.layout,
            add_roots=self._add_roots,
            clear_of=self.window.welcome,
            confined=self.watcher.runs_confined,
            network=self.watcher.network_of,
        )
        self.queue = ConsentQueue(
            self.store, self.prompt, on_error=self.window.show_error, on_decided=self._decided
        )

        self.instance.raise_requested.connect(self.show_window)
        self.window.quit_requested.connect(self.quit_requested)
        self.window.restart_requested.connect(self._restart)
        self.window.review_requested.connect(self.review)
        self.window.recover_requested.connect(self.recover_running)
        self.window.hidden_to_tray.connect(self._hidden_to_tray)
        self.tray.show_requested.connect(self.show_window)
        window = self.window
        self.dock = DockReopen(lambda: not window.isVisible(), self)
        self.dock.reopen_requested.connect(self.show_window)
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):
            self.dock.follow(app)
        self.tray.review_requested.connect(self.review)
        self.tray.quit_requested.connect(self.quit_requested)
        self.prompt.attention_needed.connect(self._attention)
        self.watcher.state_changed.connect(self._state_changed)

        live.write_app_marker(self.layout)
        self.watcher.start()
        if self.window.tray_available:
            self.tray.show()
        if not (self.hidden and self.window.tray_available):
            self.window.show()
            self.window_shown.emit()
        self._state_changed(self.watcher.state)
        if self.window.isVisible():
            # a request read before the window was shown waits in the prompt
            self.prompt.show_waiting()
        if self.window.log_panel is not None:
            self.window.log_panel.start()
        if self._recovery_note is not None:
            self.window.statusBar().showMessage(self._recovery_note, 30000)
        if self.demo:
            QTimer.singleShot(0, self._connect_demo)

    def _add_roots(self, paths: list[str]) -> list[RootChoice]:
        """Add folders as roots from the consent prompt, as the Roots tab adds them."""
        assert self.window is not None and self.watcher is not None
        ids = self.window.roots_panel.add_paths(paths)
        roots = {r.id: r for r in self.watcher.state.roots}
        return [
            RootChoice(r.id, r.name, r.path, root_unavailable(r))
            for r in (roots.get(i) for i in ids)
            if r is not None
        ]

    def _recovered(self, how: str) -> None:
        """Say where the damaged store went, once the window can show it."""
        self._recovery_note = QCoreApplication.translate(
            "MainWindow", "The store was recovered: {how}"
        ).format(how=how)
        if self.window is not None:
            self.window.statusBar().showMessage(self._recovery_note, 30000)

    def _connect_demo(self) -> None:
        assert self.window is not None
        self.window.connect_command(DEMO_SERVER_NAME, list(demo_command()))

    # ---- following the store ------------------------------------------------------------------

    def _state_changed(self, state: State) -> None:
        if self.tray is not None:
            self.tray.set_pending(len(state.pending))
        if self.queue is not None:
            self.queue.refresh(state)

    def _attention(self, question: ConsentQuestion) -> None:
        if self.tray is not None and self.window is not None and self.window.tray_available:
            self.tray.notify_request(question.server)

    def _decided(self, server: str, answer: ConsentAnswer) -> None:
        if self.window is not None:
            self.window.statusBar().showMessage(
                QCoreApplication.translate("MainWindow", "Decision for {server} saved").format(
                    server=visible(server)
                ),
                5000,
            )

    def review(self) -> None:
        """Show the window and ask about every pending request, put-off ones included."""
        self.show_window()
        if self.prompt is not None:
            self.prompt.show_waiting()
        if self.queue is not None:
            self.queue.review()

    def show_window(self) -> None:
        """Bring the window to the front (a second start, the tray)."""
        if self.window is None:
            if self.recovery is not None:
                self.recovery.raise_()
                self.recovery.activateWindow()
            return
        self.window.bring_to_front()
        if self.prompt is not None:
            self.prompt.show_waiting()

    def recover_running(self) -> None:
        """Offer recovery for a store that became unreadable while the app runs."""
        if self.watcher is None or self.watcher.error is None or self.window is None:
            return
        dialog = RecoveryDialog(self.store, self.watcher.error, self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.recovered.connect(self._recovered)
        dialog.accepted.connect(self.watcher.reload)
        dialog.open()

    def _hidden_to_tray(self, first: bool) -> None:
        if first and self.tray is not None and self.window is not None:
            self.tray.notify(
                QCoreApplication.translate("MainWindow", "Roots Manager keeps running"),
                QCoreApplication.translate(
                    "MainWindow",
                    "It stays in the tray to ask you about new servers. Choose Quit from the "
                    "tray icon's menu to end it. Your servers keep working either way.",
                ),
            )

    # ---- stop ------------------------------------------------------------------------------

    def _restart(self) -> None:
        self.restart_pending = True
        self.quit_requested.emit()

    def shutdown(self) -> None:
        """Stop watching, end connections, remove the app marker; safe to call twice."""
        if self._stopped:
            return
        self._stopped = True
        if self.window is not None:
            self.window.save_view_state()
            try:  # while the store is still watched: it writes the confinement back
                self.window.servers_panel.detail.end_learning()
            except Exception:
                log.exception("ending a server's learning failed")
            if self.window.log_panel is not None:
                try:
                    self.window.log_panel.stop()
                except Exception:
                    log.exception("stopping the log view failed")
            if self.window.connections is not None:
                try:
                    self.window.connections.shutdown()
                except Exception:
                    log.exception("ending the connections failed")
        if self.watcher is not None:
            self.watcher.stop()
        if self.tray is not None:
            self.tray.hide()
        self.instance.close()
        if self._started:
            live.remove_app_marker(self.layout)
        self.settings.sync()


STARTING_TIMEOUT_MS = 10_000
"""How long a start waits for an app that holds the lock but is still starting to answer."""


def parse_options(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """The app's own options; the rest is left for Qt (``-platform``, ``-style`` ...).

    The CLI has refused unknown options already (:func:`parse_app_options`).
    """
    parsed = parse_app_options(argv)
    return parsed.options, parsed.qt_args


def main(argv: list[str], *, on_shown: Callable[[], None] | None = None) -> int:
    """Run the desktop app; returns the exit code.

    *on_shown* is called once the window is first shown (the start-up benchmark uses it).
    """
    options, qt_args = parse_options(argv)
    layout = Layout.default().ensure()
    QGuiApplication.setDesktopFileName(APP_ID)
    QApplication.setApplicationName("Roots Manager")
    QApplication.setOrganizationName("roots-manager")
    existing = QApplication.instance()
    app = (
        existing
        if isinstance(existing, QApplication)
        else QApplication(["roots-manager", *qt_args])
    )

    if ask_running_instance(layout):
        print("roots-manager: already running; its window was raised", file=sys.stderr)
        return 0
    instance = InstanceServer(layout)
    if not instance.listen():
        # another app holds the lock but did not answer yet: it is still starting
        if ask_running_instance(layout, STARTING_TIMEOUT_MS):
            print("roots-manager: already running; its window was raised", file=sys.stderr)
            return 0
        print(
            f"roots-manager: another Roots Manager holds {instance.lock.fileName()} "
            "and does not answer; not starting a second one",
            file=sys.stderr,
        )
        return 1

    setup_logging(layout)
    try:
        language = Store(layout).read().language
    except StoreError:
        language = None
    translators = install_translators(app, language)
    follow_system_color_scheme(app)
    app.setWindowIcon(app_icon())
    app.setQuitOnLastWindowClosed(False)

    import qasync

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    install_excepthook(loop)
    quitting = asyncio.Event()
    controller = AppController(
        layout, demo=options.demo, hidden=options.hidden, language=language, instance=instance
    )

    def ended_from_outside() -> None:
        # a logout or a signal while running: the login is ending, so no restart into it
        # (once the app is quitting on its own, the loop's end emits aboutToQuit as well)
        if not quitting.is_set():
            controller.restart_pending = False
            quitting.set()

    # quitting ends run_until_complete; app.quit() from outside (a logout) as well
    controller.quit_requested.connect(quitting.set)
    app.aboutToQuit.connect(ended_from_outside)
    if on_shown is not None:
        controller.window_shown.connect(on_shown)
    exit_code = 0
    if sys.platform != "win32":
        # a logout or `kill` ends the app as Quit does: connections closed, marker removed
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            loop.add_signal_handler(sig, ended_from_outside)
    try:
        with loop:
            loop.call_soon(controller.start)
            loop.run_until_complete(quitting.wait())
    except RuntimeError as exc:  # the Qt loop ended before the future (app.quit from outside)
        log.info("event loop ended: %s", exc)
    finally:
        controller.shutdown()
    exit_code = controller.exit_code
    if controller.restart_pending:
        # after shutdown: the single-instance socket is closed, so the new app does not just
        # raise this one; it starts as this one did, but shown
        try:
            relaunch(layout, [a for a in argv if a != "--hidden"])
        except OSError as exc:
            log.error("the app could not be started again: %s", exc)
            QMessageBox.critical(
                None,
                QCoreApplication.translate("AppController", "Roots Manager"),
                QCoreApplication.translate(
                    "AppController", "Roots Manager could not start again: {reason}"
                ).format(reason=exc),
            )
            exit_code = 1
    del translators
    return exit_code
