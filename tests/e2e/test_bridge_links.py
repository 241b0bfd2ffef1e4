"""A granted folder swapped for a link: the running bridge withholds it, the CLI says why."""

from __future__ import annotations

import json
from pathlib import Path

from roots_manager.core.store.file import Store
from tests.bridge.wire import Bridged, grant_folder, is_id
from tests.conftest import run_cli


def test_a_folder_swapped_for_a_link_to_the_root_is_withheld_at_the_next_answer(
    store: Store, tmp_path: Path
) -> None:
    uri = grant_folder(store, tmp_path, "pup", "work")
    folder = tmp_path / "work"
    pair = Bridged()
    try:
        pair.handshake()
        pair.server.send({"jsonrpc": "2.0", "id": 1, "method": "roots/list"})
        first = pair.server.expect(is_id(1), "the first answer")
        assert [r["uri"] for r in first["result"]["roots"]] == [uri]
        folder.rmdir()
        folder.symlink_to("/")
        pair.server.send({"jsonrpc": "2.0", "id": 2, "method": "roots/list"})
        second = pair.server.expect(is_id(2), "the answer after the swap")
        assert second["result"] == {"roots": []}
    finally:
        pair.close()
    listed = json.loads(run_cli("roots", "list", "--json").stdout)
    assert listed[0]["available"] is False and listed[0]["unavailable_reason"] == "moved"
    shown = run_cli("effective", "pup")
    assert "withheld: work" in shown.stderr and "now leads to /" in shown.stderr
