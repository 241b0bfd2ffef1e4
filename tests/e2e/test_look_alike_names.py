"""A server name that looks like a known one (``fѕ``, a Cyrillic ``ѕ``, beside ``fs``).

The command line refuses to grant to it, naming the server it looks like. A bridge started under
it still relays (the host's server must work), but the name is not recorded: nobody is asked to
consent to it, it has no grants, and it is never answered the known server's folders.
"""

from __future__ import annotations

from pathlib import Path

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from roots_manager.core.store.file import Store
from tests.bridge.wire import Bridged, events, grant_folder, is_id, wait_for
from tests.conftest import run_cli

SPOOF = "f\u0455"


def test_the_cli_refuses_a_grant_to_a_look_alike(store: Store, tmp_path: Path) -> None:
    grant_folder(store, tmp_path, "fs", "proj")
    before = store.path.read_bytes()
    proc = run_cli("grant", "--new", SPOOF, str(tmp_path / "proj"), check=False)
    assert proc.returncode == 1, proc.stdout
    assert "looks like the known server 'fs'" in proc.stderr
    assert store.path.read_bytes() == before


def test_a_bridge_under_a_look_alike_relays_and_sees_nothing(
    store: Store, layout: Layout, tmp_path: Path
) -> None:
    uri = grant_folder(store, tmp_path, "fs", "proj")
    before = store.read()
    p = Bridged(SPOOF)
    try:
        p.handshake()
        assert p.ask(1) == []
        # the relay goes on: a request from the host reaches the server and is answered
        p.bridge.send({"jsonrpc": "2.0", "id": 7, "method": "tools/list"})
        p.server.expect(
            lambda m: isinstance(m, dict) and m.get("method") == "tools/list",
            "the host's request at the server",
        )
        p.server.send({"jsonrpc": "2.0", "id": 7, "result": {"tools": []}})
        assert p.bridge.expect(is_id(7), "the answer at the host")["result"] == {"tools": []}
        wait_for(
            lambda: any(
                "looks like the known server 'fs'" in e.get("message", "")
                for e in events(layout, ev.ERROR)
            ),
            "an error event naming the server it looks like",
        )
        assert "looks like the known server 'fs'" in p.bridge.stderr
    finally:
        p.close()
    after = store.read()
    assert SPOOF not in after.servers and not after.pending
    assert after.grants == before.grants
    assert [r.uri for r in after.roots] == [uri]
