"""Which program ``roots-manager`` runs the desktop app in: itself, or the bundle's app."""

from __future__ import annotations

from pathlib import Path

from roots_manager.cli.gui import APP_EXECUTABLE, app_executable


def test_a_bundled_command_hands_over_to_the_app_beside_it(tmp_path: Path) -> None:
    (tmp_path / APP_EXECUTABLE).write_text("")
    command = str(tmp_path / "roots-manager")
    assert app_executable(command, frozen=True, platform="linux") == str(tmp_path / APP_EXECUTABLE)


def test_on_windows_the_app_is_the_exe_beside_the_command(tmp_path: Path) -> None:
    (tmp_path / (APP_EXECUTABLE + ".exe")).write_text("")
    command = str(tmp_path / "roots-manager.exe")
    found = app_executable(command, frozen=True, platform="win32")
    assert found == str(tmp_path / (APP_EXECUTABLE + ".exe"))
    # the app's own executable, in any case Windows spells it, runs the app itself
    itself = str(tmp_path / "Roots-Manager-App.EXE")
    assert app_executable(itself, frozen=True, platform="win32") is None


def test_the_app_runs_in_this_process_when_there_is_nothing_to_hand_over_to(
    tmp_path: Path,
) -> None:
    command = str(tmp_path / "roots-manager")
    # installed with pip: the package has the app
    (tmp_path / APP_EXECUTABLE).write_text("")
    assert app_executable(command, frozen=False, platform="linux") is None
    # the app's executable itself
    assert app_executable(str(tmp_path / APP_EXECUTABLE), frozen=True, platform="linux") is None
    # a bundle without the app beside the command (an older one-executable bundle)
    (tmp_path / APP_EXECUTABLE).unlink()
    assert app_executable(command, frozen=True, platform="linux") is None
