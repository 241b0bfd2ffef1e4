"""Settings: a new language is saved and offers a restart, which starts the app again."""

from __future__ import annotations

import subprocess

from pytestqt.qtbot import QtBot

from roots_manager import __version__
from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.file import Store
from roots_manager.core.store.log_limits import LogRetention
from roots_manager.gui.shell.app import AppController
from roots_manager.gui.shell.relaunch import relaunch_command
from roots_manager.gui.shell.settings_dialog import SettingsDialog
from tests.gui.shell_support import answer_message_box, button_named
from tests.logruns import names, past_run, remaining


def settings_of(controller: AppController) -> SettingsDialog:
    window = controller.window
    assert window is not None
    window.open_settings()
    # the one just opened (closed ones wait for the event loop to delete them)
    (dialog,) = [d for d in window.findChildren(SettingsDialog) if d.isVisible()]
    return dialog


def test_a_new_language_is_saved_and_a_restart_offered(
    controller: AppController, store: Store, qtbot: QtBot
) -> None:
    # the same language: nothing to restart for
    dialog = settings_of(controller)
    with qtbot.assertNotEmitted(dialog.language_changed):
        dialog.accept()
    assert not controller.restart_pending

    dialog = settings_of(controller)
    dialog.language.setCurrentIndex(dialog.language.findData("ja"))
    seen: list[str] = []
    answer_message_box(button_named("Later"), seen)
    with qtbot.waitSignal(dialog.language_changed, timeout=10_000):
        dialog.accept()
    assert store.read().language == "ja"
    qtbot.waitUntil(lambda: bool(seen), timeout=10_000)
    assert "starts again" in seen[0]
    assert not controller.restart_pending

    # back to the language the app runs in: saved, and nothing to restart for
    dialog = settings_of(controller)
    dialog.language.setCurrentIndex(0)  # the system's, as the app was started
    with qtbot.assertNotEmitted(dialog.language_changed):
        dialog.accept()
    assert store.read().language is None

    dialog = settings_of(controller)
    dialog.language.setCurrentIndex(dialog.language.findData("zh_CN"))
    answer_message_box(button_named("Restart now"))
    with qtbot.waitSignal(controller.quit_requested, timeout=10_000):
        dialog.accept()
    assert store.read().language == "zh_CN"
    assert controller.restart_pending


def test_the_restart_command_starts_this_program() -> None:
    done = subprocess.run(
        [*relaunch_command(), "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert __version__ in done.stdout


def test_the_log_limits_are_saved_and_applied_at_once(
    controller: AppController, store: Store, layout: Layout
) -> None:
    dialog = settings_of(controller)
    assert (dialog.log_size.value(), dialog.log_age.value()) == (256, 30)
    assert dialog.log_age.specialValueText() == "no limit"  # shown for 0
    old = past_run(layout, "20260101T000000-run00001", 1, days_ago=20)
    new = past_run(layout, "20260105T000000-run00002", 1, days_ago=2)
    dialog.log_age.setValue(7)
    dialog.log_size.setValue(0)
    dialog.accept()
    assert store.read().log_retention == LogRetention(max_mib=0, max_days=7)
    assert remaining(layout) == names(new) and not names(old) & remaining(layout)
