"""A store that vanishes under a running bridge is no news: the grants last read hold until it
is back, nothing restarts the server, and the store is followed again once it returns."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from tests.bridge.wire import events, is_method, wait_for
from tests.conftest import run_cli
from tests.e2e.test_restart import both_granted, handshake, recorded, recording_bridge, restarted


@pytest.mark.usefixtures("advisory_new_servers")
@pytest.mark.parametrize("gone", ["deleted", "dangling link"])
def test_a_store_gone_for_a_moment_restarts_nothing_and_is_followed_once_back(
    tmp_path: Path, layout: Layout, gone: str
) -> None:
    # restarted on a revocation (as a confined server is): a store read as empty was one
    w = both_granted(tmp_path, "restart-on-revoke", "srv", "on")
    bridge, record, _ = recording_bridge(tmp_path)
    store = layout.store
    try:
        handshake(bridge, record)
        kept = store.read_bytes()
        store.unlink()
        if gone == "dangling link":
            store.symlink_to(tmp_path / "sync-drive" / "store.json")
        said = wait_for(
            lambda: [e for e in events(layout, ev.ERROR) if "the store is gone" in e["message"]],
            "the bridge to say the store is gone",
        )
        time.sleep(2)  # the store's watch, and a periodic check, have looked again meanwhile
        assert not events(layout, ev.SERVER_RESTARTING), events(layout, ev.SERVER_RESTARTING)
        assert len(said) == 1
        notices = [
            m for _, m in recorded(record) if is_method("notifications/roots/list_changed")(m)
        ]
        assert not notices  # the server was told nothing changed: nothing did
        if gone == "dangling link":
            store.unlink()
        store.write_bytes(kept)
        # followed again: a revocation now restarts the confined server, as ever
        run_cli("revoke", "srv", str(w["taken"]))
        assert restarted(layout, 1)[0]["reason"].startswith("revoked")
    finally:
        bridge.kill()
