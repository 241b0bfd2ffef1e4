"""What stays read-only inside a grant is said where the grant is made and by ``servers show``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import only_on_linux, run_cli

pytestmark = only_on_linux("the places are held by Linux mounts")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    project = home / "proj"
    (project / ".git" / "hooks").mkdir(parents=True)
    (project / ".git" / "config").write_text("[core]\n", encoding="utf-8")
    (project / ".mcp.json").write_text("{}\n", encoding="utf-8")
    (home / ".ssh").mkdir()
    monkeypatch.setenv("HOME", str(home))
    return project


def test_a_grant_says_what_stays_read_only_in_it_and_show_lists_why(project: Path) -> None:
    granted = run_cli("grant", "--new", "srv", str(project)).stdout
    assert "these stay read-only for it" in granted
    for name in (".git/hooks", ".git/config", ".mcp.json"):
        assert f"  {project / name}\n" in granted
    read_only = run_cli("grant", "srv", str(project), "--read-only").stdout
    assert "read-only for it" not in read_only  # nothing to hold: it writes nothing there
    run_cli("grant", "srv", str(project))
    shown = json.loads(run_cli("servers", "show", "srv", "--json").stdout)
    held = {p["path"]: p["access"] for p in shown["protected"]}
    absent = {path for path, access in held.items() if access == "not made"}
    assert {k: v for k, v in held.items() if k not in absent} == {
        str(project / ".git"): "pinned",
        str(project / ".git" / "hooks"): "read-only",
        str(project / ".git" / "config"): "read-only",
        str(project / ".mcp.json"): "read-only",
    }
    # what is not there is kept from being made
    assert {str(project / n) for n in (".envrc", ".vscode", ".claude", ".idea")} <= absent
    places = [p for p in shown["protections"] if p["name"] == "places inside the grants"]
    assert len(places) == 1 and places[0]["enforced"] is True, places
    text = run_cli("servers", "show", "srv").stdout
    assert "read only inside its grants, whatever was granted:" in text
    assert f"    {project / '.git' / 'hooks'}: git runs it" in text
    assert "not there now, and never made by it" in text
    assert f"    {project / '.envrc'}: direnv runs it" in text


def test_a_broad_root_says_what_a_confined_server_could_do_with_it(project: Path) -> None:
    home = os.environ["HOME"]
    added = run_cli("roots", "add", home, "--allow-broad").stdout
    assert "could rewrite any file of yours but the places Roots Manager holds" in added
    assert "servers show NAME" in added
    run_cli("grant", "--new", "srv2", str(project), "--read-only")
    allowed = run_cli("servers", "confine", "srv2", "on", "--allow-write", home).stdout
    assert "these stay unreadable (secrets):" in allowed
    assert f"  {Path(home) / '.ssh'}\n" in allowed


def test_show_says_where_repositories_were_looked_for_in_part(project: Path) -> None:
    """A grant with more folders than are listed to find repositories is said, with what to
    do; the repositories found before the end stay held."""
    from roots_manager.core.confinement.protected import FOLDERS_LOOKED, REPOSITORY_DEPTH

    many = project.parent / "many"
    (many / "a-repo" / ".git" / "hooks").mkdir(parents=True)
    for i in range(FOLDERS_LOOKED):
        (many / f"f{i:05}").mkdir()
    run_cli("grant", "--new", "srv", str(many))
    shown = json.loads(run_cli("servers", "show", "srv", "--json").stdout)
    assert shown["repositories_searched_in_part"] == [str(many)]
    held = {p["path"]: p["access"] for p in shown["protected"]}
    assert held[str(many / "a-repo" / ".git" / "hooks")] == "read-only"
    text = run_cli("servers", "show", "srv").stdout
    assert (
        f"  repositories looked for in {many} only to {REPOSITORY_DEPTH} folders down and in its "
        f"first {FOLDERS_LOOKED:,} folders: the .git/hooks and .git/config of the others are "
        "kept by the supervisor"
    ) in text
    run_cli("grant", "--new", "srv", str(project))  # a project of a few folders: all looked in
    shown = json.loads(run_cli("servers", "show", "srv", "--json").stdout)
    assert shown["repositories_searched_in_part"] == [str(many)]
