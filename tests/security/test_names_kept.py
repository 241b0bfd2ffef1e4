"""A protected place that is not there, or that is a link, is never made by a confined server.

No mount can hold a name that does not exist (a project's ``.envrc`` or ``.vscode``, a home's
``.ssh`` where there is none) or a symbolic link (``~/.bashrc`` kept in a dotfiles folder), so
the supervisor makes every new name of the server's itself and refuses the kept ones
(:mod:`roots_manager.sandbox.making`). Each attack below made the name before: by ``open``,
``creat``, ``mkdir``, ``mkfifo``, ``symlink``, ``link``, ``rename``, ``RENAME_EXCHANGE``, a dangling
link that leads to it, an unnamed file linked in, and a path changed while the call waits.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import only_on_linux
from tests.security.confined import Hostile, World, users

pytestmark = only_on_linux("confinement is tested on Linux (Landlock and seccomp)")
REFUSED = ("EACCES", "EPERM", "EROFS")
WAYS = ("file", "creat", "folder", "fifo", "symlink", "link", "rename", "exchange", "through")
WAYS += ("tmpfile",)


def _project(world: World) -> Path:
    """A repository with none of its settings made yet, granted writable to ``srv``."""
    project = world.home / "proj"
    (project / ".git" / "hooks").mkdir(parents=True)
    (project / ".git" / "config").write_text("[core]\n", encoding="utf-8")
    (project / "main.py").write_text("print('hello')\n", encoding="utf-8")
    world.grant_confined(project)
    return project


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_projects_missing_settings_are_never_made(world: World) -> None:
    project = _project(world)
    names = (".envrc", ".vscode", ".mcp.json", ".claude", ".cursor", ".idea", ".gemini")
    host = Hostile(world)
    got_through = []
    try:
        for name in names:
            for how in WAYS:
                outcome = host.attack("make", path=str(project / name), how=how)
                if outcome not in REFUSED:
                    got_through.append((name, how, outcome))
        # whatever else the grant holds is made as ever, the same ways (an exchange needs
        # both names there: ENOENT for a new one, kept or not)
        for how in (w for w in WAYS if w != "exchange"):
            assert host.attack("make", path=str(project / f"ok-{how}"), how=how) == "ok", how
    finally:
        host.close()
    assert not got_through, got_through
    for name in names:
        assert not (project / name).exists() and not (project / name).is_symlink(), name
    assert (project / "ok-rename").read_text(encoding="utf-8") == "planted"


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_path_changed_while_the_call_waits_makes_nothing_kept(world: World) -> None:
    """Two threads: one opens ``xxxxxx`` with O_CREAT again and again, the other turns the
    path into ``.envrc`` and back. A check of the path, then the call let through, loses
    this race within the second; here the call is made on what was checked."""
    project = _project(world)
    host = Hostile(world)
    try:
        outcome = host.attack("race_make", folder=str(project), name=".envrc", seconds=3.0)
    finally:
        host.close()
    said = dict(part.split("=") for part in outcome.split())
    assert int(said["opened"]) > 100 and int(said["flipped"]) > 1000, outcome  # it raced
    assert said["made"] == "False", outcome
    assert not (project / ".envrc").exists()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_home_grant_never_makes_its_missing_start_files_secrets_or_settings(
    world: World,
) -> None:
    home = world.home
    shutil.rmtree(home / ".ssh")  # a home with no keys yet: an authorized_keys made lets in
    world.grant_confined(home, broad=True)
    host = Hostile(world)
    got_through = []
    try:
        for name in (".bash_profile", ".zshrc", ".ssh", ".netrc", ".gitconfig", ".claude"):
            for how in ("file", "folder", "rename", "symlink"):
                outcome = host.attack("make", path=str(home / name), how=how)
                if outcome not in REFUSED:
                    got_through.append((name, how, outcome))
        # the first missing folder on the way is kept: nothing is made under it either
        outcome = host.attack("create", path=str(home / ".config" / "git" / "config"))
        if outcome not in REFUSED:
            got_through.append((".config/git/config", "create", outcome))
        assert host.attack("create", path=str(home / "notes" / "n.txt")) == "ok"
    finally:
        host.close()
    assert not got_through, got_through
    assert not (home / ".ssh").exists() and not (home / ".bash_profile").exists()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_start_file_kept_as_a_link_is_neither_replaced_nor_written_through(
    world: World,
) -> None:
    """``~/.bashrc`` a link into the user's dotfiles, both in the granted home: no mount covers
    the link, so its name is kept and the file it leads to is held."""
    home = world.home
    dotfiles = home / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "bashrc").write_text("# the user's\n", encoding="utf-8")
    (home / ".bashrc").symlink_to(dotfiles / "bashrc")
    world.grant_confined(home, broad=True)
    host = Hostile(world)
    try:
        assert host.attack("write", path=str(home / ".bashrc")) in REFUSED
        assert host.attack("write", path=str(dotfiles / "bashrc")) in REFUSED
        for how in ("rename", "exchange"):
            assert host.attack("make", path=str(home / ".bashrc"), how=how) in REFUSED, how
        # removed (the link only: the user's file stays), it is not made again
        assert host.attack("remove", path=str(home / ".bashrc")) == "ok"
        for how in ("file", "symlink", "rename"):
            assert host.attack("make", path=str(home / ".bashrc"), how=how) in REFUSED, how
        assert host.attack("create", path=str(dotfiles / "other")) == "ok"
    finally:
        host.close()
    assert (dotfiles / "bashrc").read_text(encoding="utf-8") == "# the user's\n"
    assert not (home / ".bashrc").exists()


def _made_folder(world: World, maker: str) -> Path:
    """An empty folder in the project, whose names the server's supervisor makes by the thread
    in C (as where it is built), or in Python."""
    if maker == "Python":
        from roots_manager.sandbox.making import PURE_ENV

        world.env[PURE_ENV] = "1"
    _project(world)
    folder = world.home / "proj" / "made"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("maker", ["C", "Python"])
@pytest.mark.parametrize("world", users(), indirect=True)
def test_names_made_for_the_server_are_made_as_it_asked(world: World, maker: str) -> None:
    """The modes under the server's own umask, O_CLOEXEC or not, the descriptor the open
    returned, links, renames, O_EXCL, a dangling link's target, a FIFO's reader waiting for its
    writer (while the supervisor goes on making other names): as the kernel makes them. By the
    thread in C, which answers the opens it makes itself (EEXIST there too; the link and the
    FIFO come back to be answered again), and by the thread in Python."""
    folder = _made_folder(world, maker)
    host = Hostile(world)
    try:
        outcome = host.attack("made_well", folder=str(folder))
    finally:
        host.close()
    assert outcome == (
        "ok:read=written cloexec=True inherit=True file=640 folder=750 symlink=f links=2 "
        "renamed=True excl=EEXIST through=through fifo=through the fifo"
    ), outcome


@pytest.mark.parametrize("maker", ["C", "Python"])
@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_name_made_into_a_full_descriptor_table_fails_and_the_server_goes_on(
    world: World, maker: str
) -> None:
    """The supervisor made the file, but its descriptor cannot be put into the server's full
    table: the open fails with ``EMFILE`` as the kernel's would, never waits for ever."""
    folder = _made_folder(world, maker)
    host = Hostile(world)
    try:
        assert host.attack("full_table", folder=str(folder)) == "EMFILE then made"
    finally:
        host.close()
    assert (folder / "freed").exists()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_shell_redirect_to_its_own_descriptors_still_writes(world: World) -> None:
    """``echo ... > /dev/stderr`` opens with ``O_CREAT`` a name that is one of the server's own
    descriptors (a pipe, which no name makes): while its names are made for it, that open is
    the very pipe again, as the kernel would give it, not ``ENOENT``."""
    _project(world)
    host = Hostile(world)
    try:
        for path in ("/dev/stderr", "/proc/self/fd/2", "/dev/fd/2", "/proc/thread-self/fd/2"):
            assert host.attack("write", path=path, text=f"said through {path}\n") == "ok", path
    finally:
        host.close()
    for path in ("/dev/stderr", "/proc/self/fd/2", "/dev/fd/2", "/proc/thread-self/fd/2"):
        assert f"said through {path}" in host.stderr(), host.stderr()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_refused_name_is_told_as_a_protected_place(world: World) -> None:
    project = _project(world)
    host = Hostile(world)
    try:
        assert host.attack("make", path=str(project / ".envrc"), how="file") in REFUSED
    finally:
        host.close()
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.log.denial_reader import Reader

    found = Reader(Layout(world.rm_home), "srv", None).read()
    told = [d for d in found if d.get("path") == str(project / ".envrc")]
    assert told and told[0].get("protected") is True, json.dumps(found)[:2000]
    shown = world.cli("denials", "--server", "srv").stdout
    assert "a protected place" in shown, shown
