"""A root that is a file system of its own (a USB stick, a network share), unmounted under it.

What is left at its path is the empty folder the file system was mounted on, on the parent's
file system: not what the user granted, and a confined server's writes there would fill the
parent's disk. The real CLI is run over a real tmpfs mounted and unmounted; mounting needs
root, so this runs as root (CI does) and skips, saying so, elsewhere.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roots_manager.core.roots.uri import path_to_uri
from tests.cli.test_cli_disk_errors import _not_root, tmpfs
from tests.conftest import only_on_linux, run_cli

pytestmark = [
    only_on_linux("tmpfs mounts are Linux's"),
    pytest.mark.skipif(
        _not_root(), reason="mounting a tmpfs needs root (CI runs as root, so these run there)"
    ),
]


def _listed(path: Path) -> dict[str, object]:
    [root] = [r for r in json.loads(run_cli("roots", "list", "--json").stdout)]
    assert root["path"] == str(path)
    return root  # type: ignore[no-any-return]


def _served(server: str) -> list[str]:
    doc = json.loads(run_cli("effective", server, "--json").stdout)
    return [r["uri"] for r in doc["roots"]]


def test_a_root_whose_file_system_is_unmounted_is_withheld_and_said(tmp_path: Path) -> None:
    stick = tmp_path / "stick"
    uri = path_to_uri(str(stick))
    with tmpfs(stick, "1m"):
        (stick / "notes.txt").write_text("granted")
        run_cli("roots", "add", str(stick))
        run_cli("grant", "--new", "fs", str(stick))
        assert _listed(stick)["available"] is True
        assert _served("fs") == [uri]
    # unmounted: the folder is there, empty, on the parent's file system
    assert stick.is_dir() and not any(stick.iterdir())
    root = _listed(stick)
    assert (root["available"], root["unavailable_reason"]) == (False, "not mounted")
    assert "no (not mounted)" in run_cli("roots", "list").stdout
    assert _served("fs") == []
    said = run_cli("effective", "fs").stderr
    assert f"withheld: stick\t{stick} was a file system of its own, which is not mounted" in said
    # mounted again: given again
    with tmpfs(stick, "1m"):
        assert _listed(stick)["available"] is True
        assert _served("fs") == [uri]


def test_a_folder_that_was_no_mount_point_is_not_taken_for_one(tmp_path: Path) -> None:
    # a root inside a file system, and one that became a mount point since: neither withheld
    plain = tmp_path / "plain"
    plain.mkdir()
    run_cli("roots", "add", str(plain))
    with tmpfs(plain, "1m"):
        assert _listed(plain)["available"] is True
    assert _listed(plain)["available"] is True
