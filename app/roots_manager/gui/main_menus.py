"""The main window's menu bar: what each menu holds, its shortcuts and icons."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QStyle, QWidget

from roots_manager.gui.resources import action_icon

if TYPE_CHECKING:
    from roots_manager.gui.main_window import MainWindow


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
