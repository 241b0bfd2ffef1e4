"""``hosts wrap --roots-args``: a server whose arguments are folders gets ``{roots}`` in their
place and those folders as roots granted to it; unwrap and Undo give the file back byte for byte.

Real host file formats (the samples of :mod:`tests.core.hosts.hosts_samples`, with folders added after
the package argument the way users write them), real folders, a real store.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from roots_manager.core.consent.arguments import (
    folder_arguments,
    folders_now,
    with_roots_argument,
)
from roots_manager.core.consent.effective import effective
from roots_manager.core.directory.layout import Layout
from roots_manager.core.hosts import operations as hostchanges
from roots_manager.core.hosts.operations import UNWRAP, WRAP
from roots_manager.core.roots.uri import uri_to_path
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import fingerprint
from tests.core.hosts.hosts_samples import SAMPLES
from tests.core.hosts.test_hosts import BRIDGE, FS_ARGV, change, place, platform

PKG = "@modelcontextprotocol/server-filesystem"


def with_folders(host_id: str, folders: list[str]) -> str:
    """The sample of *host_id* with *folders* after the package argument, written as a user of
    that format would."""
    text = SAMPLES[host_id]
    if host_id == "claude-desktop":  # a JSON list over several lines
        items = "".join(f',\n        "{f}"' for f in folders)
        return text.replace(f'"{PKG}"', f'"{PKG}"{items}', 1)
    if host_id == "goose":  # a YAML block list
        items = "".join(f"\n    - {f}" for f in folders)
        return text.replace(f"- '{PKG}'", f"- '{PKG}'{items}", 1)
    # one-line JSON, TOML and opencode's command list
    return text.replace(f'"{PKG}"', f'"{PKG}", ' + ", ".join(f'"{f}"' for f in folders), 1)


HOSTS = ("claude-desktop", "cursor", "codex", "goose", "opencode")


@pytest.fixture
def folders(tmp_path: Path) -> list[str]:
    made = [tmp_path / "work" / "notes", tmp_path / "work" / "app"]
    for f in made:
        f.mkdir(parents=True)
    return [str(f) for f in made]


def granted(layout: Layout, server: str) -> list[str]:
    state = Store(layout).read()
    return [uri_to_path(r["uri"]) for r in effective(state, server)["roots"]]


@pytest.mark.parametrize("host_id", HOSTS)
def test_folders_become_roots_and_undo_gives_back_the_same_bytes(
    tmp_path: Path, layout: Layout, folders: list[str], host_id: str
) -> None:
    p = platform("linux", tmp_path / "home")
    path = place(p, host_id, with_folders(host_id, folders))
    original = path.read_bytes()
    [found] = [r for r in hostchanges.report(p, []) if r.file.host.id == host_id]
    assert next(s for s in found.servers if s.name == "fs").argv == [*FS_ARGV, *folders]

    [result] = change(layout, p, host_id, WRAP, roots_args=True)
    assert result.error is None and result.written
    [after] = [r for r in hostchanges.report(p, []) if r.file.host.id == host_id]
    fs = next(s for s in after.servers if s.name == "fs")
    run = [*FS_ARGV, "{roots}"]
    assert fs.wrapped is not None and fs.wrapped.original == run
    assert "{roots}" in {o.name: o.detail for o in result.outcomes}["fs"]
    # the user loses nothing: the folders it had are its grants, the ones {roots} gives it
    assert sorted(granted(layout, "fs")) == sorted(folders)
    assert sorted(folders_now(layout, "fs", fingerprint(run))) == sorted(folders)
    # the command the bridge will see is the one approved: its first start asks nothing
    assert Store(layout).read().servers["fs"].fingerprint == fingerprint(run)

    undone = hostchanges.undo_last(layout, bridge=BRIDGE, home=None)
    assert undone is not None and undone.done
    assert path.read_bytes() == original


@pytest.mark.parametrize("host_id", ("cursor", "codex", "goose", "opencode"))
def test_unwrap_after_a_hand_edit_puts_the_folders_back(
    tmp_path: Path, layout: Layout, folders: list[str], host_id: str
) -> None:
    """The entry changed since the wrap (its exact text cannot come back): the folders are put
    back in place of ``{roots}``, never left as a literal ``{roots}`` the server cannot use."""
    p = platform("linux", tmp_path / "home")
    path = place(p, host_id, with_folders(host_id, folders))
    change(layout, p, host_id, WRAP, roots_args=True)
    # a hand edit elsewhere in the entry: the server's own command is kept as it is
    path.write_text(path.read_text().replace("-y", "--yes", 1))
    [back] = change(layout, p, host_id, UNWRAP)
    assert back.error is None and back.written
    [now] = [r for r in hostchanges.report(p, []) if r.file.host.id == host_id]
    fs = next(s for s in now.servers if s.name == "fs")
    assert fs.wrapped is None and fs.argv == ["npx", "--yes", PKG, *folders]


def test_dry_run_shows_roots_and_changes_nothing(
    tmp_path: Path, layout: Layout, folders: list[str]
) -> None:
    p = platform("linux", tmp_path / "home")
    path = place(p, "cursor", with_folders("cursor", folders))
    before = path.read_bytes()
    [result] = change(layout, p, "cursor", WRAP, roots_args=True, dry_run=True)
    assert '"{roots}"' in result.diff and not result.written
    assert path.read_bytes() == before
    assert Store(layout).read().roots == []


def test_without_roots_args_one_line_says_it_could(
    tmp_path: Path, layout: Layout, folders: list[str]
) -> None:
    p = platform("linux", tmp_path / "home")
    place(p, "cursor", with_folders("cursor", folders))
    [result] = change(layout, p, "cursor", WRAP)
    [note] = result.notes
    assert "'fs'" in note and "--roots-args" in note and folders[0] in note
    [after] = [r for r in hostchanges.report(p, []) if r.file.host.id == "cursor"]
    fs = next(s for s in after.servers if s.name == "fs")
    assert fs.wrapped is not None and fs.wrapped.original == [*FS_ARGV, *folders]
    assert Store(layout).read().roots == []


def test_a_folder_too_broad_to_be_a_root_stays_an_argument(tmp_path: Path, layout: Layout) -> None:
    p = platform("linux", tmp_path / "home")
    home = os.path.expanduser("~")
    place(p, "cursor", with_folders("cursor", [home]))
    [result] = change(layout, p, "cursor", WRAP, roots_args=True)
    detail = {o.name: o.detail for o in result.outcomes}["fs"]
    assert "stay its arguments" in detail
    [after] = [r for r in hostchanges.report(p, []) if r.file.host.id == "cursor"]
    fs = next(s for s in after.servers if s.name == "fs")
    assert fs.wrapped is not None and fs.wrapped.original == [*FS_ARGV, home]
    assert Store(layout).read().roots == []


def test_which_arguments_are_folders(tmp_path: Path) -> None:
    d = str(tmp_path)
    assert folder_arguments(["npx", "-y", PKG, d, "/no/such/folder"]) == [3]
    # the package or script itself is never one, even when it is a folder
    assert folder_arguments(["node", d, d]) == [2]
    # an option's value names one folder, not a list
    assert folder_arguments(["uvx", "srv", "--root", d, f"--cache={d}"]) == []
    # what a host fills in, relative paths, and a command that has {roots} already
    assert folder_arguments(["npx", PKG, "${workspaceFolder}", "."]) == []
    assert folder_arguments(["npx", PKG, "{roots}", d]) == []
    assert with_roots_argument(["s", "a", "-v", "b"], [1, 3]) == ["s", "{roots}", "-v"]
