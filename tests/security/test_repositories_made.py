"""A hostile confined server makes a repository in its grant for the user's git to run later.

Granted ``~/work`` (writable), the server runs ``git init`` in a folder of the user's and sets
``core.fsmonitor`` (run by every ``git status``, which shell prompts and editors run in each
folder the user opens), or plants a hook, a ``commondir`` or a bare repository, directly or by
every other way of writing a name. Its own git goes on working: init, add, commit, and the
settings git itself writes. Every attack here succeeded before git folders were held to
:mod:`roots_manager.sandbox.gitfolder`'s rules; what proves it is the user's own ``git``, run
unconfined afterwards, running nothing.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import only_on_linux, required
from tests.security.confined import Hostile, World, users

pytestmark = only_on_linux("confinement is tested on Linux (Landlock and seccomp)")
REFUSED = ("EROFS", "EBUSY", "EACCES", "EPERM")
AS_GIT = ["-c", "user.name=Agent", "-c", "user.email=agent@example.com"]


def _evil(marker: Path) -> str:
    return f"[core]\n\tfsmonitor = touch {marker}\n\tpager = touch {marker}\n"


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_repository_the_server_makes_runs_nothing_at_the_users_next_git(world: World) -> None:
    git_exe = required("git", "git", "a repository made by a confined server")
    world.setup()
    src = world.granted / "proj" / "src"
    src.mkdir(parents=True)
    (src / "main.py").write_text("print('hi')\n", encoding="utf-8")
    marker = world.base / "PWNED"
    git = src / ".git"
    world.hand_over()
    host = Hostile(world)
    try:
        # the server's own git works: a repository made, a commit, the settings git writes
        assert host.attack("run", argv=[git_exe, "init", "-q"], cwd=str(src)) == "ok:"
        assert host.attack("run", argv=[git_exe, "add", "main.py"], cwd=str(src)) == "ok:"
        done = host.attack("run", argv=[git_exe, *AS_GIT, "commit", "-qm", "one"], cwd=str(src))
        assert done == "ok:", done
        name = [git_exe, "config", "user.name", "Agent"]
        assert host.attack("run", argv=name, cwd=str(src)) == "ok:"
        remote = [git_exe, "remote", "add", "origin", "https://example.com/r.git"]
        assert host.attack("run", argv=remote, cwd=str(src)) == "ok:"
        # git's own ways to a setting that runs a command, or names settings elsewhere
        for key, value in (
            ("core.fsmonitor", f"touch {marker}"),
            ("core.pager", f"touch {marker}"),
            ("core.hooksPath", str(world.granted)),
            ("include.path", str(world.granted / "settings")),
            ("alias.st", f"!touch {marker}"),
            ("credential.helper", f"!touch {marker}"),
        ):
            said = host.attack("run", argv=[git_exe, "config", key, value], cwd=str(src))
            assert said.startswith("exit "), (key, said)
        # every other way to a config that names a command
        config = git / "config"
        assert host.attack("overwrite", path=str(config), text=_evil(marker)) in REFUSED
        assert host.attack("write", path=str(config), text=_evil(marker)) in REFUSED
        assert host.attack("replace", path=str(config), text=_evil(marker)) in REFUSED
        assert host.attack("second_name", path=str(config), to=str(src / "x")) in REFUSED
        # its mode, its owner, an ACL that lets the server write it
        assert host.attack("chmod", path=str(config), mode=0o666) in REFUSED
        assert host.attack("chown", path=str(config), uid=-1, gid=-1) in REFUSED
        assert host.attack("setxattr", path=str(config)) in REFUSED
        for how in ("file", "link", "symlink", "exchange"):
            assert host.attack("make", path=str(git / "config.worktree"), how=how) in REFUSED
        # a checked file, written through a descriptor kept after the rename
        kept = host.attack(
            "keep_writing",
            path=str(git / "settings.tmp"),
            to=str(config),
            text="[user]\n\tname = Agent\n",
            then=_evil(marker),
        )
        assert kept == "ok", kept
        # hooks, a worktree's commondir, a bare repository, a folder moved in or out
        for how in ("file", "folder", "symlink", "link", "rename", "exchange"):
            made = host.attack("make", path=str(git / "hooks" / "pre-commit"), how=how)
            assert made in REFUSED, how
        assert host.attack("create", path=str(git / "hooks" / "pre-push.sample")) == "ok"
        # hooks made under another name, and the folder renamed to be the hooks
        assert host.attack("rename", path=str(git / "hooks"), to=str(git / "old")) == "ok"
        assert host.attack("create", path=str(git / "old" / "pre-commit")) == "ok"
        assert host.attack("rename", path=str(git / "old"), to=str(git / "hooks")) in REFUSED
        assert host.attack("make", path=str(git / "hooks"), how="symlink") in REFUSED
        assert host.attack("make", path=str(git / "hooks"), how="folder") == "ok"
        commondir = git / "worktrees" / "w" / "commondir"
        assert host.attack("create", path=str(commondir)) in REFUSED
        assert host.attack("create", path=str(src / "HEAD"), text="ref: x\n") in REFUSED
        planted = world.granted / "planted"
        assert host.attack("create", path=str(planted / "config"), text=_evil(marker)) == "ok"
        nested = world.granted / "proj" / ".git"
        assert host.attack("rename", path=str(planted), to=str(nested)) in REFUSED
        assert host.attack("rename", path=str(git), to=str(src / "bare")) in REFUSED
    finally:
        host.close()
    text = (git / "config").read_text(encoding="utf-8")
    assert "fsmonitor" not in text and "pager" not in text and "Agent" in text, text
    assert list((git / "hooks").iterdir()) == []  # what was made under "old" stays there
    assert not (world.granted / "proj" / ".git").exists()
    # the user's own git, unconfined, in the repository the server made: nothing runs
    env = {**os.environ, "HOME": str(world.home), "GIT_PAGER": "", "PAGER": ""}
    env.pop("GIT_DIR", None)
    for command in (["status"], ["log", "-1"], ["diff"]):
        subprocess.run(
            [git_exe, "-c", f"safe.directory={src}", *command],
            cwd=src,
            env=env,
            capture_output=True,
            check=True,
            timeout=60,
        )
    assert not marker.exists()
