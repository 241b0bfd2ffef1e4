"""The XDG folders on Linux: the logs in ``$XDG_STATE_HOME``, the app's settings in
``$XDG_CONFIG_HOME``, the store where it was; what an earlier version kept in the data folder
is moved once, by whichever program of this version starts first, and the move is said."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from roots_manager.core.directory.layout import HOME_ENV, Layout
from roots_manager.core.log import events as ev
from roots_manager.core.store.file import Store
from roots_manager.support import relocation
from tests.conftest import only_on_linux, run_cli, tree

pytestmark = only_on_linux("the XDG base directories are Linux's")


class Home:
    """A fake home folder with the XDG variables unset, so the defaults under it apply."""

    def __init__(self, top: Path) -> None:
        self.top = top
        self.old = top / ".local" / "share" / "roots-manager"
        self.state = top / ".local" / "state" / "roots-manager"
        self.config = top / ".config" / "roots-manager"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    monkeypatch.delenv(HOME_ENV, raising=False)
    for name in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return Home(tmp_path / "home")


def old_version(home: Home) -> Layout:
    """What an earlier version left: everything in the data folder, with real event files."""
    layout = Layout(home.old).ensure()  # a home given whole keeps everything inside it
    writer = ev.EventWriter(layout, "20261201T100000-aaaa")
    for i in range(3):
        writer.write(ev.event(ev.MESSAGE, "fs", "20261201T100000-aaaa", id=i, method="ping"))
    writer.close()
    (home.old / "app.log").write_text("the app's log\n")
    (home.old / "app.log.1").write_text("the app's older log\n")
    (home.old / "restart.log").write_text("restarted\n")
    (home.old / "gui.ini").write_text("[window]\ntab=2\n")
    project = home.top / "project"
    project.mkdir()
    with Store(layout).transaction() as state:
        state.add_root(str(project), None)
    return layout


def test_the_old_files_move_once_and_the_store_stays(home: Home) -> None:
    old = old_version(home)
    logs = {p.name: p.read_bytes() for p in ev.log_files(old)}
    done = run_cli("log", "--json")
    assert [json.loads(line)["id"] for line in done.stdout.splitlines()] == [0, 1, 2]
    for name in ("logs", "app.log", "app.log.1", "restart.log"):
        assert f"moved {home.old / name} to {home.state / name}" in done.stderr
        assert not (home.old / name).exists()
    assert f"moved {home.old / 'gui.ini'} to {home.config / 'gui.ini'}" in done.stderr
    assert {p.name: p.read_bytes() for p in (home.state / "logs").iterdir()} == logs
    assert (home.state / "app.log.1").read_text() == "the app's older log\n"
    assert (home.config / "gui.ini").read_text() == "[window]\ntab=2\n"
    for folder in (home.state, home.state / "logs", home.config):
        assert folder.stat().st_mode & 0o777 == 0o700
    # the store stays in the data folder
    assert (home.old / "store.json").is_file()
    roots = json.loads(run_cli("roots", "list", "--json").stdout)
    assert [r["path"] for r in roots] == [str(home.top / "project")]

    before = tree(home.top)
    again = run_cli("log", "--json")
    assert again.stderr == "" and len(again.stdout.splitlines()) == 3
    assert tree(home.top) == before


def test_the_bridge_logs_where_the_command_line_and_the_app_read(home: Home) -> None:
    # no ROOTS_MANAGER_HOME, as a host starts it: the bridge decides the folder on its own
    bridge = [sys.executable, "-m", "roots_manager.bridge", "--server", "demo", "--"]
    proc = subprocess.run(
        [*bridge, sys.executable, "-c", "pass"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert list((home.state / "logs").glob("*.jsonl")), proc.stderr
    assert not (home.old / "logs").exists()
    events = [json.loads(line) for line in run_cli("log", "--json").stdout.splitlines()]
    assert events and {e["server"] for e in events} == {"demo"}
    layout = Layout.default()  # what the desktop app opens
    assert layout.logs == home.state / "logs"
    assert layout.app_log == home.state / "app.log"
    assert layout.settings == home.config / "gui.ini"


def test_the_app_keeps_its_settings_in_the_config_folder(home: Home) -> None:
    from roots_manager.gui.shell.app import app_settings

    old_version(home)
    settings = app_settings(Layout.default().ensure())
    assert settings.value("window/tab") == "2"  # the old settings, moved and read
    settings.setValue("window/tab", 3)
    settings.sync()
    assert "tab=3" in (home.config / "gui.ini").read_text()
    assert not (home.old / "gui.ini").exists()


def test_a_home_of_ones_own_keeps_everything_inside(
    home: Home, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = tmp_path / "own"
    monkeypatch.setenv(HOME_ENV, str(own))
    layout = Layout.default()
    assert (layout.logs, layout.app_log, layout.settings) == (
        own / "logs",
        own / "app.log",
        own / "gui.ini",
    )
    # the platform's home given by name is the platform's home: hosts are told no
    # ROOTS_MANAGER_HOME for it, so their bridges and this app must put the logs in one place
    monkeypatch.setenv(HOME_ENV, str(home.old))
    assert Layout.default().logs == home.state / "logs"


def test_a_file_in_both_places_is_left_and_said(home: Home) -> None:
    old_version(home)
    home.config.mkdir(parents=True)
    (home.config / "gui.ini").write_text("[window]\ntab=5\n")
    done = run_cli("roots", "list")
    assert f"{home.old / 'gui.ini'} could not be moved" in done.stderr
    assert "exists already" in done.stderr and "left where it was" in done.stderr
    assert (home.old / "gui.ini").read_text() == "[window]\ntab=2\n"
    assert (home.config / "gui.ini").read_text() == "[window]\ntab=5\n"
    assert not (home.old / "logs").exists()  # the rest moved all the same


@pytest.fixture
def other_file_system(tmp_path: Path) -> Iterator[Path]:
    """A folder on another file system than *tmp_path* (``/dev/shm``, a tmpfs of its own)."""
    folder = Path(tempfile.mkdtemp(prefix="rm-xdg-", dir="/dev/shm"))
    assert folder.stat().st_dev != tmp_path.stat().st_dev
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_move_across_file_systems_copies_then_renames(
    home: Home, other_file_system: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(other_file_system))
    old = old_version(home)
    logs = {p.name: p.read_bytes() for p in ev.log_files(old)}
    state = other_file_system / "roots-manager"
    done = run_cli("log", "--json")
    assert f"moved {home.old / 'logs'} to {state / 'logs'}" in done.stderr
    assert len(done.stdout.splitlines()) == 3
    assert {p.name: p.read_bytes() for p in (state / "logs").iterdir()} == logs
    assert not (home.old / "logs").exists() and not (home.old / "app.log").exists()
    assert sorted(p.name for p in state.iterdir()) == [
        "app.log",
        "app.log.1",
        "logs",
        "restart.log",
    ]


def test_a_move_that_fails_leaves_the_old_files_and_says_so(
    home: Home, other_file_system: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(other_file_system))
    old = old_version(home)
    before = tree(old.logs)
    # a socket cannot be copied to another file system: the copy fails half-way through
    sock = socket.socket(socket.AF_UNIX)
    try:
        # bound by a relative name: the full path passes the 107 bytes a socket's address holds
        # once pytest's temporary folder is a little deeper (pytest-1000, xdist's popen-gw0)
        with monkeypatch.context() as here:
            here.chdir(old.logs)
            sock.bind("zz.sock")
        done = run_cli("roots", "list")
    finally:
        sock.close()
    state = other_file_system / "roots-manager"
    assert f"{home.old / 'logs'} could not be moved to {state / 'logs'}" in done.stderr
    assert "it is left where it was" in done.stderr
    after = tree(old.logs)
    assert "zz.sock" in after and {k: v for k, v in after.items() if k != "zz.sock"} == before
    assert not [p for p in state.iterdir() if ".moving-" in p.name]  # the copy was removed
    assert not list((state / "logs").iterdir())
    assert (state / "app.log").read_text() == "the app's log\n"  # the others moved


def test_moving_into_a_folder_that_exists_goes_name_by_name(tmp_path: Path) -> None:
    source, target = tmp_path / "old", tmp_path / "new"
    (source / "sub").mkdir(parents=True)
    (source / "a").write_text("a")
    (source / "sub" / "b").write_text("b")
    (target / "sub").mkdir(parents=True)
    (target / "sub" / "b").write_text("new b")
    said: list[str] = []
    [done] = relocation.move_all([(source, target)], said.append)
    assert not done.moved and "exists already" in done.problem
    assert (target / "a").read_text() == "a" and (target / "sub" / "b").read_text() == "new b"
    assert (source / "sub" / "b").read_text() == "b" and not (source / "a").exists()
    assert relocation.move_all([(tmp_path / "nothing", target)], said.append) == []
    assert len(said) == 1


def test_a_relative_xdg_variable_is_ignored(home: Home, monkeypatch: pytest.MonkeyPatch) -> None:
    # the specification says so: it would be another folder in each working directory
    monkeypatch.setenv("XDG_STATE_HOME", "state")
    monkeypatch.setenv("XDG_DATA_HOME", "data")
    layout = Layout.default()
    assert (layout.home, layout.logs) == (home.old, home.state / "logs")
