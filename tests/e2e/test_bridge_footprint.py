"""A bridge's watchers stay up, and its version is known without package metadata."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import roots_manager
from roots_manager.core import events as ev
from roots_manager.core.store import Store
from tests.bridge.wire import Bridged, events, grant_folder, is_method


def test_a_bridges_watchers_keep_running_after_a_change(store: Store, tmp_path: Path) -> None:
    uri = grant_folder(store, tmp_path, "pup", "work")
    pair = Bridged()
    try:
        pair.handshake()
        assert pair.ask(1) == [uri]
        with store.transaction() as s:
            s.revoke("pup", [s.roots[0].id])
        pair.server.expect(is_method("notifications/roots/list_changed"), "the revocation")
        assert pair.ask(2) == []
    finally:
        pair.close()
    # a watcher that failed (the store's, the folders' or the periodic check) says so in the
    # log; the notice above could still have come from the periodic check a second later
    failed = [e["message"] for e in events(store.layout, ev.ERROR)]
    assert not [m for m in failed if "failed" in m], failed


def test_the_version_is_the_packages_own() -> None:
    # one place for the version: the build reads it from the package, the bridge needs no
    # package metadata to say it
    assert roots_manager.__version__ == importlib.metadata.version("roots-manager")
    shown = subprocess.run(
        [sys.executable, "-m", "roots_manager.bridge", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout.strip() == f"roots-bridge {roots_manager.__version__}"
