"""The CLI end to end, through real processes, with awkward folder names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roots_manager import __version__
from roots_manager.core.uri import path_to_uri
from tests.conftest import run_cli

NAMES = [
    "my project",
    "web#staging",
    "100% done",
    "日本語のプロジェクト",
    "中文项目",
    "mixed ÿ #%? x",
]


@pytest.fixture
def folders(tmp_path: Path) -> list[Path]:
    out = []
    for n in NAMES:
        d = tmp_path / "ws" / n
        d.mkdir(parents=True)
        out.append(d)
    return out


def roots_json() -> list[dict[str, object]]:
    return json.loads(run_cli("roots", "list", "--json").stdout)


def effective_uris(server: str) -> list[str]:
    return [r["uri"] for r in json.loads(run_cli("effective", server, "--json").stdout)["roots"]]


def test_full_flow_with_awkward_names(folders: list[Path]) -> None:
    for f in folders:
        out = run_cli("roots", "add", str(f)).stdout
        assert path_to_uri(str(f)) in out
    listed = roots_json()
    assert [r["path"] for r in listed] == [str(f) for f in folders]
    assert [r["name"] for r in listed] == NAMES
    assert all(r["available"] for r in listed)
    assert listed[1]["uri"].endswith("/web%23staging")
    assert listed[2]["uri"].endswith("/100%25%20done")

    # a root can be named by path, by URI or by name
    run_cli("grant", "fs", str(folders[0]), path_to_uri(str(folders[1])), "日本語のプロジェクト")
    assert effective_uris("fs") == [
        path_to_uri(str(f)) for f in (folders[0], folders[1], folders[3])
    ]
    human = run_cli("effective", "fs").stdout
    assert "web#staging\t" + path_to_uri(str(folders[1])) in human

    run_cli("roots", "rename", "中文项目", "后端 服务")
    assert roots_json()[4]["name"] == "后端 服务"
    run_cli("grant", "fs", "后端 服务", "--session")
    granted = {r["name"]: r["granted_to"] for r in roots_json()}
    assert granted["后端 服务"] == [{"server": "fs", "scope": "session"}]

    run_cli("revoke", "fs", "web#staging")
    assert path_to_uri(str(folders[1])) not in effective_uris("fs")

    out = run_cli("roots", "remove", str(folders[0])).stdout
    assert "servers that lost access: fs" in out
    assert path_to_uri(str(folders[0])) not in effective_uris("fs")
    assert len(roots_json()) == len(NAMES) - 1

    servers = json.loads(run_cli("servers", "list", "--json").stdout)
    assert [s["name"] for s in servers] == ["fs"]
    assert servers[0]["pending"] == [] and servers[0]["running"] == []


def test_roots_list_shows_vanished_folders_as_unavailable(folders: list[Path]) -> None:
    run_cli("roots", "add", str(folders[3]))
    run_cli("grant", "fs", str(folders[3]))
    folders[3].rmdir()
    listed = roots_json()
    assert listed[0]["available"] is False and listed[0]["unavailable_reason"] == "missing"
    assert "no (missing)" in run_cli("roots", "list").stdout
    assert effective_uris("fs") == []
    folders[3].mkdir()
    assert effective_uris("fs") == [path_to_uri(str(folders[3]))]


def test_refusals_are_clear_and_change_nothing(folders: list[Path], tmp_path: Path) -> None:
    run_cli("roots", "add", str(folders[0]))
    before = run_cli("roots", "list", "--json").stdout

    cases = [
        (["roots", "add", "/"], "root of the file system"),
        (["roots", "add", str(Path.home())], "home folder"),
        (["roots", "add", str(tmp_path / "nope")], "does not exist"),
        (["roots", "add", str(folders[0])], "already a root"),
        (["grant", "fs", "no-such-root"], "no root matches"),
        (["revoke", "fs", "http://example.com/x"], "only file://"),
        (["roots", "rename", str(folders[0]), "   "], "cannot be empty"),
        (["servers", "approve", "ghost"], "no server named"),
    ]
    for args, words in cases:
        proc = run_cli(*args, check=False)
        assert proc.returncode == 1, (args, proc.stdout, proc.stderr)
        assert words in proc.stderr, (args, proc.stderr)
    assert run_cli("roots", "list", "--json").stdout == before
    assert "--allow-broad" in run_cli("roots", "add", "/", check=False).stderr
    run_cli("roots", "add", "/", "--allow-broad")


def test_policy_and_version_and_help() -> None:
    assert run_cli("policy").stdout.strip() == "ask"
    run_cli("policy", "allow-all")
    assert run_cli("policy").stdout.strip() == "allow-all"
    bad = run_cli("policy", "maybe", check=False)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
    assert run_cli("--version").stdout.strip() == f"roots-manager {__version__}"
    helptext = run_cli("--help").stdout
    for word in (
        "roots",
        "grant",
        "revoke",
        "servers",
        "effective",
        "policy",
        "store",
        "log",
        "bridge",
    ):
        assert word in helptext


def test_allow_all_policy_gives_an_unknown_server_every_root(folders: list[Path]) -> None:
    for f in folders[:2]:
        run_cli("roots", "add", str(f))
    assert effective_uris("stranger") == []
    run_cli("policy", "allow-all")
    assert effective_uris("stranger") == [path_to_uri(str(f)) for f in folders[:2]]


def test_store_check_on_a_fresh_home() -> None:
    out = run_cli("store", "check").stdout
    assert "no store yet" in out
    run_cli("policy", "deny")
    assert "is good: revision 1" in run_cli("store", "check").stdout
