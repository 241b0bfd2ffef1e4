"""The hosts' use cases (roots_manager.actions.hosts) on real host files in a fake home folder
and the real store: what both front ends used to decide each on its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roots_manager.actions import hosts as host_actions
from roots_manager.core.hosts import operations as hostchanges
from roots_manager.core.hosts.known import ConfigFile, Platform, host
from roots_manager.core.store.file import Store
from tests.core.hosts.hosts_samples import SAMPLES

BRIDGE = "/opt/roots manager/bin/roots-bridge"


def placed(tmp_path: Path, *host_ids: str) -> list[ConfigFile]:
    """The user file of each host of *host_ids*, its sample written in a fake home."""
    home = tmp_path / "home"
    platform = Platform("linux", home, {"XDG_CONFIG_HOME": str(home / "xdg")})
    files = []
    for host_id in host_ids:
        spec = host(host_id)
        assert spec is not None
        path = spec.user_files(platform)[0]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(SAMPLES[host_id], encoding="utf-8")
        files += hostchanges.host_files(host_id, platform, [])
    assert [f.host.id for f in files] == list(host_ids)
    return files


class Finder:
    """A bridge finder that says how often it was asked."""

    def __init__(self, found: str | None) -> None:
        self.found = found
        self.asked = 0

    def __call__(self) -> str | None:
        self.asked += 1
        return self.found


def test_a_wrapped_entry_names_this_per_user_directory_and_unwrap_gives_the_bytes_back(
    tmp_path: Path, store: Store
) -> None:
    [file] = placed(tmp_path, "claude-desktop")
    dry = host_actions.wrap(store, [file], ["fs"], bridge=BRIDGE, dry_run=True)
    assert [r.written for r in dry] == [False] and "roots-bridge" in dry[0].diff
    assert file.path.read_text(encoding="utf-8") == SAMPLES["claude-desktop"]

    [done] = host_actions.wrap(store, [file], ["fs"], bridge=BRIDGE)
    assert done.written and [o.status for o in done.outcomes] == ["wrapped"]
    entry = json.loads(file.path.read_text(encoding="utf-8"))["mcpServers"]["fs"]
    # the tests' home is not the platform's: the bridge must be told which one the app uses
    assert host_actions.home(store) == str(store.layout.home)
    assert entry["command"] == BRIDGE
    assert entry["env"] == {"ROOTS_MANAGER_HOME": str(store.layout.home)}
    assert "fs" in store.read().servers

    [back] = host_actions.unwrap(store, [file], ["fs"])
    assert back.written and file.path.read_text(encoding="utf-8") == SAMPLES["claude-desktop"]


def test_the_servers_chosen_in_several_files_are_one_step_for_undo(
    tmp_path: Path, store: Store
) -> None:
    desktop, cursor = placed(tmp_path, "claude-desktop", "cursor")
    results = host_actions.wrap_each(store, {desktop: ["fs"], cursor: ["fs"]}, bridge=BRIDGE)
    assert [r.written for r in results] == [True, True]
    last = hostchanges.last_change(store.layout)
    assert last is not None and [f.file for f in last.files] == [
        str(desktop.path),
        str(cursor.path),
    ]

    finder = Finder(None)
    undone = host_actions.undo(store, finder)
    # taking back a wrap unwraps: it works with no bridge installed, which is not looked for
    assert undone is not None and undone.done and finder.asked == 0
    assert undone.restored == [desktop.path, cursor.path]
    assert desktop.path.read_text(encoding="utf-8") == SAMPLES["claude-desktop"]
    assert cursor.path.read_text(encoding="utf-8") == SAMPLES["cursor"]
    assert host_actions.undo(store, finder) is None and finder.asked == 0


def test_undoing_an_unwrap_wraps_again_and_needs_the_bridge(tmp_path: Path, store: Store) -> None:
    [file] = placed(tmp_path, "cursor")
    host_actions.wrap(store, [file], None, bridge=BRIDGE)
    wrapped = file.path.read_bytes()
    host_actions.unwrap(store, [file], None)
    unwrapped = file.path.read_bytes()

    missing = Finder(None)
    with pytest.raises(host_actions.NoBridge):
        host_actions.undo(store, missing)
    assert missing.asked == 1 and file.path.read_bytes() == unwrapped
    last = hostchanges.last_change(store.layout)
    assert last is not None and last.action == hostchanges.UNWRAP  # still there to undo

    found = Finder(BRIDGE)
    undone = host_actions.undo(store, found)
    assert undone is not None and undone.done and found.asked == 1
    assert file.path.read_bytes() == wrapped
