"""What a confined server never rewrites inside its grants: where the table's places lie, what
is pinned on the way to them, and what a restart behind the host's back may not loosen."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from roots_manager.core.confinement.confined import clamp
from roots_manager.core.confinement.protected import (
    HIDDEN,
    LINKED,
    NOT_MADE,
    PINNED,
    READ_ONLY,
    HostPlaces,
    mounts_inside,
    protections,
    repositories,
)

NO_HOSTS = HostPlaces((), ())


def _held(found: list[object], *, absent: bool = False) -> dict[str, str]:
    """The places held, by path; with *absent*, the names kept from being made too."""
    return {
        p.path: p.access  # type: ignore[attr-defined]
        for p in found
        if absent or p.access != NOT_MADE  # type: ignore[attr-defined]
    }


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    (home / ".config" / "Code" / "User").mkdir(parents=True)
    (home / ".ssh").mkdir()
    (home / ".bashrc").write_text("", encoding="utf-8")
    (home / ".config" / "Code" / "User" / "mcp.json").write_text("{}", encoding="utf-8")
    monkeypatch.setenv("ROOTS_MANAGER_HOME", str(tmp_path / "rm"))
    (tmp_path / "rm").mkdir()
    return home


def test_a_project_grant_holds_its_repository_metadata_and_settings(home: Path) -> None:
    project = home / "proj"
    (project / ".git" / "hooks").mkdir(parents=True)
    (project / ".git" / "config").write_text("", encoding="utf-8")
    (project / ".vscode").mkdir()
    (project / "src").mkdir()
    nested = project / "vendor" / "lib"
    (nested / ".git").mkdir(parents=True)  # two down a repository's own tree: not looked in
    (nested / ".git" / "config").write_text("", encoding="utf-8")
    repo = project / "other"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "config").write_text("", encoding="utf-8")
    module = project / ".git" / "modules" / "lib"
    (module / "hooks").mkdir(parents=True)
    (module / "config").write_text("", encoding="utf-8")
    worktree = project / ".git" / "worktrees" / "feature"
    worktree.mkdir(parents=True)
    (worktree / "commondir").write_text("../..\n", encoding="utf-8")
    env = {"HOME": str(home)}
    held = _held(protections([str(project)], env=env, hosts=NO_HOSTS))
    assert held == {
        str(project / ".git"): PINNED,
        str(project / ".vscode"): READ_ONLY,
        str(project / ".git" / "hooks"): READ_ONLY,
        str(project / ".git" / "config"): READ_ONLY,
        str(project / ".git" / "modules"): PINNED,  # a submodule's git folder, its hooks
        str(module): PINNED,
        str(module / "hooks"): READ_ONLY,
        str(module / "config"): READ_ONLY,
        # a worktree's pointer to the folder whose config applies there
        str(project / ".git" / "worktrees"): PINNED,
        str(worktree): PINNED,
        str(worktree / "commondir"): READ_ONLY,
        str(repo): PINNED,  # renamed away, a look-alike could be built in its place
        str(repo / ".git"): PINNED,
        str(repo / ".git" / "config"): READ_ONLY,
    }
    # a read-only grant holds nothing to protect: the kernel refuses its writes already
    assert protections([], [str(project)], env=env, hosts=NO_HOSTS) == []


def test_repositories_are_found_deep_but_not_in_a_repositorys_own_tree(tmp_path: Path) -> None:
    def repo(*parts: str) -> str:
        path = tmp_path.joinpath(*parts)
        (path / ".git").mkdir(parents=True)
        return str(path)

    found = [
        repo("src", "github.com", "org", "app"),  # four folders down
        repo(".oh-my-zsh"),  # a hidden folder is looked in
        repo("a", "b", "c", "d", "e", "f"),  # six down: the deepest looked in
    ]
    repo("src", "github.com", "org", "app", "vendored")  # in a repository's own tree
    repo(".cache", "pkg")  # below a hidden folder
    repo("app", "node_modules", "pkg")
    repo("a", "b", "c", "d", "e", "f", "g")  # seven down
    (tmp_path / "src" / "worktree").mkdir()
    (tmp_path / "src" / "worktree" / ".git").write_text("gitdir: /elsewhere\n", encoding="utf-8")
    os.symlink(tmp_path / "src", tmp_path / "link")  # links are not followed
    assert sorted(repositories(str(tmp_path))[0]) == sorted(
        [*found, str(tmp_path / "src" / "worktree")]
    )
    assert repositories(str(tmp_path))[1] is True


def test_a_bare_repository_is_found_and_its_hooks_and_config_held(home: Path) -> None:
    project = home / "work"
    bare = project / "repos" / "app.git"
    for name in ("hooks", "objects", "refs"):
        (bare / name).mkdir(parents=True)
    (bare / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (bare / "config").write_text("", encoding="utf-8")
    found: list[str] = []
    assert repositories(str(project), None, found) == ([], True)
    assert found == [str(bare)]
    held = _held(protections([str(project)], env={"HOME": str(home)}, hosts=NO_HOSTS))
    assert held[str(bare / "hooks")] == READ_ONLY and held[str(bare / "config")] == READ_ONLY


def test_folders_below_a_hidden_folder_of_the_home_make_the_search_partial(
    tmp_path: Path,
) -> None:
    """A plugin manager's clones (``~/.vim/bundle/*``) are below a hidden folder, not looked
    in: in the home they make the search partial; in a project (``.github/workflows``) not."""
    project = tmp_path / "proj"
    (project / ".github" / "workflows").mkdir(parents=True)
    assert repositories(str(project), str(tmp_path)) == ([], True)
    (tmp_path / ".vim" / "bundle" / "fugitive" / ".git").mkdir(parents=True)
    assert repositories(str(tmp_path), str(tmp_path))[1] is False
    assert repositories(str(tmp_path))[1] is True  # no home said: as before


def test_folders_too_deep_to_look_in_make_the_search_partial(tmp_path: Path) -> None:
    """A folder below the deepest looked in may hold a repository: the search says it did not
    look everywhere (the supervisor keeps those repositories), unless it lies in a repository's
    own tree or below a hidden folder, which are never looked in."""
    deep = tmp_path.joinpath("a", "b", "c", "d", "e", "f")
    (deep / ".git").mkdir(parents=True)
    (deep / "g").mkdir()  # in f's own tree
    (tmp_path / ".cache" / "x" / "y").mkdir(parents=True)
    assert repositories(str(tmp_path))[1] is True
    (tmp_path / "a" / "b" / "c" / "d" / "e" / "plain" / "sub").mkdir(parents=True)
    assert repositories(str(tmp_path)) == ([str(deep)], False)


def test_a_search_that_ran_out_of_folders_says_so_and_keeps_the_shallow_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import roots_manager.core.confinement.protected as protected

    for i in range(6):
        (tmp_path / f"d{i}" / "deep" / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "a-repo" / ".git").mkdir(parents=True)
    monkeypatch.setattr(protected, "FOLDERS_LOOKED", 8)  # the grant, then its 7 folders
    found, complete = repositories(str(tmp_path))
    assert (found, complete) == ([str(tmp_path / "a-repo")], False)


def test_a_home_grant_holds_the_home_places_pins_their_parents_and_hides_secrets(
    home: Path,
) -> None:
    env = {"HOME": str(home)}
    hosts = HostPlaces([str(home / ".config" / "Code" / "User" / "mcp.json")], [".mcp.json"])
    held = _held(protections([str(home)], env=env, hosts=hosts, create=True))
    assert held[str(home / ".bashrc")] == READ_ONLY
    assert held[str(home / ".ssh")] == HIDDEN
    assert held[str(home / ".config" / "Code" / "User" / "mcp.json")] == READ_ONLY
    for folder in (".config", ".config/Code", ".local"):
        assert held[str(home / folder)] == PINNED, folder
    assert held[str(home / ".config" / "Code" / "User")] == READ_ONLY  # the editor's, whole
    # the folders that run what is put in them are made first, empty, and held
    for folder in (".local/bin", ".config/autostart", ".config/systemd/user"):
        assert (home / folder).is_dir() and held[str(home / folder)] == READ_ONLY
    assert str(home / ".profile") not in held  # missing: nothing to rewrite, nothing made


def test_the_servers_own_folder_inside_a_protected_one_stays_writable(
    home: Path, tmp_path: Path
) -> None:
    rm = tmp_path / "rm"
    own = rm / "confined" / "srv"
    own.mkdir(parents=True)
    env = {"HOME": str(home)}
    held = _held(protections([str(tmp_path)], env=env, hosts=NO_HOSTS, own=[str(own)]))
    assert held[str(rm)] == READ_ONLY
    assert held[str(own)] == PINNED
    # a grant inside Roots Manager's folder is held itself
    inside = rm / "logs"
    inside.mkdir()
    assert _held(protections([str(inside)], env=env, hosts=NO_HOSTS)) == {str(inside): READ_ONLY}


def test_a_read_only_grant_inside_a_writable_one_is_held_and_a_linked_place_is_said(
    home: Path, tmp_path: Path
) -> None:
    project = tmp_path / "proj"
    (project / "secrets").mkdir(parents=True)
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "envrc").write_text("", encoding="utf-8")
    os.symlink(dotfiles / "envrc", project / ".envrc")
    env = {"HOME": str(home)}
    held = _held(protections([str(project)], [str(project / "secrets")], env=env, hosts=NO_HOSTS))
    # the link's name is kept, and what it leads to is not in a writable grant
    assert held == {str(project / "secrets"): READ_ONLY, str(project / ".envrc"): LINKED}


def test_a_worktrees_git_pointer_file_is_held(home: Path, tmp_path: Path) -> None:
    """``.git`` as a file names the git folder elsewhere: pointed at one inside the grant, the
    user's next git there would run that folder's hooks."""
    worktree = tmp_path / "wt"
    worktree.mkdir()
    (worktree / ".git").write_text("gitdir: /srv/repo/.git/worktrees/wt\n", encoding="utf-8")
    held = _held(protections([str(worktree)], env={"HOME": str(home)}, hosts=NO_HOSTS))
    assert held == {str(worktree / ".git"): READ_ONLY}


def test_the_mounts_inside_a_grant_are_found_in_the_mount_table() -> None:
    table = "\n".join(
        (
            "22 1 8:1 / / rw - ext4 /dev/sda1 rw",
            "36 22 8:2 /data /srv/proj/big\\040disk rw,noatime shared:1 - ext4 /dev/sdb1 rw",
            "37 22 0:5 / /srv/proj rw - tmpfs tmpfs rw",
            "38 22 0:6 / /srv/project2/x rw - tmpfs none rw",
            "garbage",
        )
    )
    assert mounts_inside(["/srv/proj"], table) == [("/srv/proj/big disk", "ext4", "/dev/sdb1")]


def test_a_restart_behind_the_hosts_back_never_loosens_the_hosts_start() -> None:
    started = (("/w",), ("/r",), ("/xr",), ("/xw",), ("/sock",), ("blocked",), ("hidden:/w/.env",))
    now = (("/w", "/w2"), (), ("/xr", "/xr2"), ("/xw2",), ("/sock", "/sock2"), (), ())
    assert clamp(now, started) == (
        ("/w", "/w2"),
        (),
        ("/xr",),
        (),
        ("/sock",),
        ("blocked",),
        ("hidden:/w/.env",),
    )
    assert clamp(now, None) == now  # started unconfined: nothing is looser
    assert clamp(None, started) is None


def test_the_manual_names_every_place_of_the_table() -> None:
    from roots_manager.core.confinement.protected import HOME, PROJECT, TABLE

    manual = (Path(__file__).parents[3] / "docs" / "confinement.md").read_text(encoding="utf-8")
    section = manual.split("## What a grant never gives", 1)[1].split("\n## ", 1)[0]
    missing = [p.path for p in TABLE if p.where in (HOME, PROJECT) and f"`{p.path}`" not in section]
    assert not missing, missing


def test_a_home_reached_through_a_link_is_held_where_it_really_is(
    home: Path, tmp_path: Path
) -> None:
    linked = tmp_path / "linked-home"
    linked.symlink_to(home)
    hosts = HostPlaces([str(linked / ".config" / "Code" / "User" / "mcp.json")], ())
    held = _held(protections([str(linked)], env={"HOME": str(linked)}, hosts=hosts))
    assert held[str(home / ".bashrc")] == READ_ONLY
    assert held[str(home / ".config" / "Code" / "User" / "mcp.json")] == READ_ONLY
    assert LINKED not in held.values()
