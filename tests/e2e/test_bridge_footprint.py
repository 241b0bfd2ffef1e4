"""What a bridge process carries: none of OpenSSL, and a version known without package metadata."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import roots_manager
from roots_manager.core.store import Store
from tests.bridge.wire import Bridged, grant_folder, is_method
from tests.conftest import only_on_linux


@only_on_linux("a process's mapped libraries are read from /proc")
def test_a_running_bridge_loads_no_openssl_and_still_watches(store: Store, tmp_path: Path) -> None:
    uri = grant_folder(store, tmp_path, "pup", "work")
    pair = Bridged()
    try:
        pair.handshake()
        assert pair.ask(1) == [uri]
        # the store watcher (watchfiles, anyio) and the consent logic have all run by now
        maps = Path(f"/proc/{pair.bridge.proc.pid}/maps").read_text()
        loaded = {line.split()[-1] for line in maps.splitlines() if "/" in line}
        assert not [p for p in loaded if "libssl" in p or "libcrypto" in p], sorted(loaded)
        # and the store watcher still works: a revocation arrives as list_changed
        with store.transaction() as s:
            s.revoke("pup", [s.roots[0].id])
        pair.server.expect(is_method("notifications/roots/list_changed"), "the revocation")
        assert pair.ask(2) == []
    finally:
        pair.close()


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
