"""``roots-manager desktop install|uninstall``, run as a real process under temporary XDG
folders: what it writes validates with the freedesktop tools, starts this installation (GLib's
own launcher runs it), and the uninstall leaves the folders exactly as they were."""

from __future__ import annotations

import configparser
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from roots_manager import APP_ID, __version__
from roots_manager.actions import desktop
from roots_manager.support import resources
from tests.conftest import only_on_linux, run_cli, tree
from tests.test_resources import tool, validate

pytestmark = only_on_linux("desktop entries in XDG folders are a Linux desktop's")


@pytest.fixture
def xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> desktop.Folders:
    folders = desktop.Folders(tmp_path / "xdg" / "data", tmp_path / "xdg" / "config")
    monkeypatch.setenv("XDG_DATA_HOME", str(folders.data))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folders.config))
    return folders


def entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(path.read_text(encoding="utf-8"))
    return parser["Desktop Entry"]


def cli_json(*args: str, check: bool = True) -> dict:  # type: ignore[type-arg]
    proc = run_cli(*args, "--json", check=check)
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def test_install_writes_valid_files_that_start_this_installation(
    xdg: desktop.Folders, tmp_path: Path
) -> None:
    before = tree(tmp_path / "xdg")
    done = cli_json("desktop", "install", "--autostart")
    assert done["action"] == "install"
    assert sorted(done["written"]) == sorted(str(p) for p in xdg.targets())
    assert {c["tool"]: c["status"] for c in done["caches"]} == {
        "update-desktop-database": "refreshed",
        "gtk-update-icon-cache": "refreshed",
    }
    assert (xdg.applications / "mimeinfo.cache").is_file()
    assert (xdg.hicolor / "icon-theme.cache").is_file()

    for path in (xdg.entry, xdg.autostart):
        proc = validate([tool("desktop-file-validate", "desktop-file-utils"), str(path)])
        assert "error" not in (proc.stdout + proc.stderr).lower()
    validate([tool("appstreamcli", "appstream"), "validate", "--no-net", str(xdg.metainfo)])
    assert xdg.metainfo.read_bytes() == resources.metainfo().read_bytes()
    for size, png in resources.icon_pngs().items():
        assert xdg.icon(size).read_bytes() == png.read_bytes(), f"{size}px icon"
    assert xdg.icon(None).read_bytes() == resources.icon_svg().read_bytes()

    # the Exec line starts this installation: the roots-manager of this venv, by its path
    launcher = entry(xdg.entry)
    argv = shlex.split(launcher["Exec"])
    assert argv == done["exec"] == [str(Path(sys.executable).parent / "roots-manager")]
    assert launcher["TryExec"] == argv[0]
    assert launcher["Icon"] == APP_ID
    version = subprocess.run([*argv, "--version"], capture_output=True, text=True, timeout=60)
    assert version.stdout.strip() == f"roots-manager {__version__}"
    # the autostart entry starts it hidden in the tray, without a busy cursor
    autostart = entry(xdg.autostart)
    assert shlex.split(autostart["Exec"]) == [*argv, "--hidden"]
    assert autostart["StartupNotify"] == "false"

    gone = cli_json("desktop", "uninstall")
    assert sorted(gone["removed"]) == sorted(done["written"])
    assert tree(tmp_path / "xdg") == before
    again = cli_json("desktop", "uninstall")
    assert again["removed"] == [] and tree(tmp_path / "xdg") == before
    text = run_cli("desktop", "uninstall").stdout
    assert "nothing to remove" in text


def test_uninstall_leaves_what_others_put_there_and_their_caches(
    xdg: desktop.Folders, tmp_path: Path
) -> None:
    other = xdg.applications / "org.example.Other.desktop"
    other.parent.mkdir(parents=True)
    other.write_text(
        "[Desktop Entry]\nType=Application\nName=Other\nExec=true\nMimeType=text/x-other;\n"
    )
    icon = xdg.hicolor / "16x16" / "apps" / "org.example.Other.png"
    icon.parent.mkdir(parents=True)
    icon.write_bytes(resources.icon_png(16).read_bytes())
    (xdg.config / "autostart").mkdir(parents=True)
    (xdg.config / "autostart" / "org.example.Other.desktop").write_text(other.read_text())
    subprocess.run(["update-desktop-database", "-q", str(xdg.applications)], check=True)
    subprocess.run(["gtk-update-icon-cache", "-q", "-t", "-f", str(xdg.hicolor)], check=True)
    before = tree(tmp_path / "xdg")

    time.sleep(1.1)  # a cache written in the same second as before would hide a stale one
    cli_json("desktop", "install", "--autostart")
    assert tree(tmp_path / "xdg") != before
    gone = cli_json("desktop", "uninstall")
    # the caches are rebuilt over what is left, which is what they were built over before
    assert {c["status"] for c in gone["caches"]} == {"refreshed"}
    assert tree(tmp_path / "xdg") == before


def test_installs_in_a_row_are_undone_by_one_uninstall(
    xdg: desktop.Folders, tmp_path: Path
) -> None:
    cli_json("desktop", "install")
    second = cli_json("desktop", "install", "--autostart")
    # the second install created only the autostart folder; the first one's are remembered
    assert second["folders_created"] == [str(xdg.config), str(xdg.config / "autostart")]
    cli_json("desktop", "uninstall")
    assert tree(tmp_path / "xdg") == {}


def test_the_uninstall_follows_the_record_when_the_folders_have_moved(
    xdg: desktop.Folders, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cli_json("desktop", "install")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "elsewhere"))
    gone = cli_json("desktop", "uninstall")
    assert str(xdg.entry) in gone["removed"]
    assert tree(tmp_path / "xdg") == {}


def test_missing_cache_tools_are_said_and_the_files_are_written(
    xdg: desktop.Folders, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "no-tools"))
    done = cli_json("desktop", "install")
    assert {c["status"] for c in done["caches"]} == {"missing"}
    assert xdg.entry.is_file() and not (xdg.applications / "mimeinfo.cache").exists()
    text = run_cli("desktop", "install").stdout
    assert "gtk-update-icon-cache" in text and "not installed" in text
    cli_json("desktop", "uninstall")
    assert tree(tmp_path / "xdg") == {}


def test_a_folder_that_cannot_be_written_is_named_and_nothing_is_left(
    xdg: desktop.Folders, tmp_path: Path
) -> None:
    xdg.data.parent.mkdir(parents=True)
    xdg.data.write_text("not a folder")
    proc = run_cli("desktop", "install", "--autostart", "--json", check=False)
    assert proc.returncode == 1
    error = json.loads(proc.stdout)["error"]
    assert error["code"] == "io" and str(xdg.data) in error["message"]
    plain = run_cli("desktop", "install", check=False)
    assert plain.returncode == 1 and str(xdg.data) in plain.stderr and plain.stdout == ""
    assert not xdg.config.exists()
    xdg.data.unlink()
    cli_json("desktop", "uninstall")
    assert tree(tmp_path / "xdg") == {}


NAMES = ["sp ace", "dol$lar", 'qu"ote', "back\\slash", "tick`x", "semi;colon", "sq'uote"]


@pytest.mark.parametrize("name", NAMES)
def test_gio_starts_an_installation_under_any_path(tmp_path: Path, name: str) -> None:
    """GLib's launcher (what GNOME starts apps with) parses the Exec line as written."""
    folder = tmp_path / name
    folder.mkdir()
    out = tmp_path / "argv.txt"
    program = folder / "roots-manager"
    program.write_text(f'#!/bin/sh\nprintf "%s\\n" "$0" "$@" > {shlex.quote(str(out))}\n')
    program.chmod(0o755)
    argv = desktop.launcher(str(folder / "python"), frozen=False)
    assert argv == [str(program)]
    template = resources.desktop_entry().read_text(encoding="utf-8")
    path = tmp_path / f"{APP_ID}.desktop"
    path.write_text(desktop.entry_text(template, argv, autostart=True), encoding="utf-8")
    validate([tool("desktop-file-validate", "desktop-file-utils"), str(path)])
    validate([tool("gio", "libglib2.0-bin"), "launch", str(path)])
    deadline = time.monotonic() + 30
    while not (out.exists() and out.read_text().endswith("\n")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert out.read_text().splitlines() == [str(program), "--hidden"]


def test_a_percent_in_the_program_path_is_refused(tmp_path: Path) -> None:
    with pytest.raises(desktop.DesktopError, match="'%'"):
        desktop.exec_value([str(tmp_path / "50%" / "roots-manager")])
    assert desktop.exec_value(["/opt/rm/roots-manager", "--x=50%"]) == (
        "/opt/rm/roots-manager --x=50%%"
    )


def test_a_bundle_starts_its_own_roots_manager(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    app = bundle / "roots-manager-app"
    app.write_bytes(b"")
    app.chmod(0o755)
    assert desktop.launcher(str(app), frozen=True) == [str(app)]
    cli = bundle / "roots-manager"
    cli.write_bytes(b"")
    cli.chmod(0o755)
    assert desktop.launcher(str(app), frozen=True) == [str(cli)]
