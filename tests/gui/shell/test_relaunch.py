"""The command that starts the app again, for each way the app can run."""

from __future__ import annotations

import subprocess

from roots_manager.gui.shell.relaunch import OPEN, app_bundle, detached, relaunch_command

APP = "/Applications/Roots Manager.app"
EXE = APP + "/Contents/MacOS/roots-manager"


def test_a_macos_app_restarts_through_launchservices() -> None:
    command = relaunch_command(
        ["--language", "ja"], executable=EXE, frozen=True, platform="darwin", environ={}
    )
    assert command == [OPEN, "-n", "-a", APP, "--args", "--language", "ja"]


def test_a_chosen_per_user_directory_is_handed_to_the_restarted_app() -> None:
    # LaunchServices starts the app with its own environment, not this process's
    command = relaunch_command(
        [],
        executable=EXE,
        frozen=True,
        platform="darwin",
        environ={"ROOTS_MANAGER_HOME": "/Users/me/rm home"},
    )
    assert command == [
        OPEN,
        "-n",
        "-a",
        APP,
        "--env",
        "ROOTS_MANAGER_HOME=/Users/me/rm home",
        "--args",
    ]


def test_other_bundles_and_installs_run_their_executable() -> None:
    # a macOS one-folder bundle (no .app), Windows and Linux bundles: the executable itself
    for platform, exe in (
        ("darwin", "/opt/roots-manager/roots-manager"),
        ("win32", "C:\\Program Files\\Roots Manager\\roots-manager.exe"),
        ("linux", "/opt/roots-manager/roots-manager"),
    ):
        assert relaunch_command(["-x"], executable=exe, frozen=True, platform=platform) == [
            exe,
            "-x",
        ]
    # from a package, on every platform (an .app-looking Python is not a frozen app)
    for platform in ("darwin", "win32", "linux"):
        assert relaunch_command([], executable=EXE, frozen=False, platform=platform) == [
            EXE,
            "-P",
            "-m",
            "roots_manager.cli",
        ]


def test_app_bundle_is_found_only_in_its_layout() -> None:
    assert app_bundle(EXE) == APP
    assert app_bundle("/Applications/Roots Manager.app/Contents/Resources/x") is None
    assert app_bundle("/opt/Contents/MacOS/x") is None  # not in a .app
    assert app_bundle("roots-manager") is None


def test_the_restarted_app_outlives_this_one() -> None:
    assert detached("linux") == detached("darwin") == {"start_new_session": True}
    # a process group of its own (no Ctrl+C from this console), and no console at all
    assert detached("win32") == {"creationflags": 0x200 | 0x8}
    # where subprocess has the Windows names, they are the same values
    for name, value in (("CREATE_NEW_PROCESS_GROUP", 0x200), ("DETACHED_PROCESS", 0x8)):
        assert getattr(subprocess, name, value) == value
