"""The settings a confined server may write in a git folder, read as git itself reads them.

Every file the check accepts is also read by the real ``git config --list``: each setting git
finds in it must be one of the allowed ones, so that no spelling the check reads one way and git
another lets a command through.
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

from roots_manager.sandbox.gitfolder import SETTINGS, in_git_folder, refused_setting
from tests.conftest import required


@pytest.fixture
def git() -> str:
    """The real git, which reads the configs as the check must (CI installs it)."""
    return required("git", "git", "reading a config as git reads it")


CLONED = b"""[core]
\trepositoryformatversion = 0
\tfilemode = true
\tbare = false
\tlogallrefupdates = true
[remote "origin"]
\turl = https://github.com/modelcontextprotocol/servers.git
\tfetch = +refs/heads/*:refs/remotes/origin/*
[branch "main"]
\tremote = origin
\tmerge = refs/heads/main
[user]
\tname = Agent ; a comment
\temail = agent@example.com # another
"""

REFUSED = [
    b"[core]\n\tfsmonitor = touch /tmp/x\n",
    b"[core]\n\tfsMonitor = touch /tmp/x\n",
    b"[CORE]\n\tPAGER = less\n",
    b"[core]\n\thooksPath = /tmp\n",
    b"[core]\n\tsshCommand = ssh -oProxyCommand=x\n",
    b"[include]\n\tpath = ../x\n",
    b'[includeIf "gitdir:/"]\n\tpath = ../x\n',
    b"[alias]\n\tst = !touch /tmp/x\n",
    b"[credential]\n\thelper = !x\n",
    b'[diff "x"]\n\ttextconv = x\n',
    b'[filter "lfs"]\n\tclean = x\n',
    b'[submodule "m"]\n\tupdate = !x\n',
    b'[remote "origin"]\n\tvcs = evil\n',
    b'[remote "origin"]\n\tuploadpack = x\n',
    b'[url "ext::sh -c x"]\n\tinsteadOf = https://\n',
    b"[core] fsmonitor = x\n",  # a setting after the section, on its line
    b"[core.sub]\n\tbare = false\n",  # the old spelling of a subsection
    b'[core "sub"]\n\tbare = false\n',
    b"[user]\n\tname = a \\\n\tfsmonitor = x\n",  # a value continued on the next line
    b"\tname = before any section\n",
    b"[user]\n\tname = a\0\n",
    b"[user]\n\tname: a\n",
    b"[user\n",
]


def test_what_git_init_and_clone_write_is_allowed() -> None:
    assert refused_setting(CLONED) is None
    assert refused_setting(b"") is None
    assert refused_setting(b"# only a comment\n\n") is None
    assert refused_setting(b"[extensions]\n\tobjectFormat = sha256\n") is None


@pytest.mark.parametrize("data", REFUSED)
def test_settings_that_run_or_name_a_command_are_refused(data: bytes) -> None:
    assert refused_setting(data) is not None


def test_a_refusal_names_the_setting() -> None:
    why = refused_setting(b'[remote "o"]\n\tvcs = evil\n')
    assert why is not None and "remote.<name>.vcs" in why


def test_a_git_folder_is_any_folder_with_git_among_its_parts() -> None:
    assert in_git_folder("/home/u/proj/.git")
    assert in_git_folder("/home/u/proj/.git/modules/lib/hooks")
    assert not in_git_folder("/home/u/proj")
    assert not in_git_folder("/home/u/repos/backup.git")
    assert not in_git_folder("/home/u/.github")


def test_git_init_writes_a_config_that_is_allowed(git: str, tmp_path: Path) -> None:
    subprocess.run([git, "init", "-q", str(tmp_path)], check=True)
    assert refused_setting((tmp_path / ".git" / "config").read_bytes()) is None


def _git_keys(git: str, path: Path) -> list[str] | None:
    done = subprocess.run(
        [git, "config", "--file", str(path), "--no-includes", "--null", "--name-only", "--list"],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        return None  # git refuses the file: it runs nothing from it
    return [k.decode() for k in done.stdout.split(b"\0") if k]


def _allowed(key: str) -> bool:
    section, _, rest = key.partition(".")
    subsection, _, name = rest.rpartition(".")
    return name in SETTINGS.get(f"{section}.*" if subsection else section, frozenset())


PIECES = [
    b"[core]", b"[user]", b'[remote "o"]', b"[core] fsmonitor = x", b"[ core ]", b"[core.x]",
    b"\tfsmonitor = x", b"\tbare = false", b"\tname = a", b"\tname = a \\", b"\tname = a \\\\",
    b'\tname = "a', b'\tname = "a\\"', b"\turl = x ; fsmonitor = y", b"\tfsmonitor", b"# c",
    b"\t url = x # \\", b"[user]\tname = a", b'[remote "o\\"] fsmonitor = x"]', b"\t\r",
    b"name=a", b"\tpager = x", b"[include]", b"\tpath = x", b"\t-bad = x", b"\tname= \\\t",
]  # fmt: skip


def test_whatever_the_check_accepts_git_reads_as_allowed_settings(git: str, tmp_path: Path) -> None:
    """Random files of the pieces above: where the check accepts one, git finds only allowed
    settings in it (or refuses it whole)."""
    rng = random.Random(2577)
    path = tmp_path / "config"
    accepted = 0
    for _ in range(400):
        data = b"\n".join(rng.choice(PIECES) for _ in range(rng.randint(1, 6))) + b"\n"
        if refused_setting(data) is not None:
            continue
        accepted += 1
        path.write_bytes(data)
        keys = _git_keys(git, path)
        assert keys is None or all(_allowed(k) for k in keys), (data, keys)
    assert accepted >= 20  # the pieces make enough files the check accepts to compare
