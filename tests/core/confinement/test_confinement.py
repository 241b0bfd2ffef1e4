"""What a confined server may touch, computed from paths alone (no kernel involved)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from roots_manager.core.confinement.confined import granted_folders, rules_for, set_confinement
from roots_manager.core.confinement.derive import (
    _etc_secret,
    command_needs,
    env_program,
    listed_beneath,
    open_beneath,
)
from roots_manager.core.confinement.protected import HostPlaces
from roots_manager.core.confinement.rules import Rules
from roots_manager.core.store.state import State


def test_rules_survive_the_wrappers_command_line() -> None:
    rules = Rules(
        read_write=("/w 1",),
        read_only=("/r#",),
        runtime=("/usr", "/opt"),
        listing=("/etc",),
        devices=("/dev/null",),
        tmpdir="/t",
    )
    back, command = Rules.from_args([*rules.to_args(), "--", "node", "--", "x"])
    assert back == rules
    assert command == ["node", "--", "x"]
    with pytest.raises(ValueError, match="after --"):
        Rules.from_args(["--runtime", "/usr"])
    with pytest.raises(ValueError, match="unknown option"):
        Rules.from_args(["--everything", "/", "--", "sh"])


def test_a_tree_is_opened_entry_by_entry_around_its_secrets(tmp_path: Path) -> None:
    for name in (
        "hostname",
        "shadow",
        "shadow-",
        "gshadow",
        "ssh/ssh_config",
        "ssh/ssh_host_rsa_key",
        "ssh/ssh_host_rsa_key.pub",
        "ssl/certs/ca.pem",
        "ssl/private/key.pem",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x", encoding="utf-8")
    secrets = ("shadow*", "gshadow*", "ssh/ssh_host_*key", "ssl/private")
    opened = {os.path.relpath(p, tmp_path) for p in open_beneath(str(tmp_path), secrets)}
    assert opened == {"hostname", "ssh/ssh_config", "ssh/ssh_host_rsa_key.pub", "ssl/certs"}
    listed = {os.path.relpath(p, tmp_path) for p in listed_beneath(str(tmp_path), secrets)}
    assert listed == {".", "ssh", "ssl"}


@pytest.mark.parametrize(
    ("path", "secret"),
    [
        ("/etc/shadow", True),
        ("/etc/shadow-", True),
        ("/etc/gshadow", True),
        ("/etc/ssh/ssh_host_ed25519_key", True),
        ("/etc/ssl/private", True),
        ("/etc/ssl/private/site.pem", True),  # inside a secret folder
        ("/etc/NetworkManager/system-connections/home.nmconnection", True),
        ("/etc", False),
        ("/etc/passwd", False),
        ("/etc/ssh/ssh_host_ed25519_key.pub", False),
        ("/etc/ssh/sshd_config", False),
        ("/etc/ssl/certs/ca.pem", False),
        ("/etc/NetworkManager/conf.d", False),
        ("/etcetera/shadow", False),
        ("/usr/share/shadow", False),
    ],
)
def test_a_path_reached_through_a_link_is_refused_if_a_secret_of_etc(
    path: str, secret: bool
) -> None:
    # what a runtime path resolves to is judged again: a link may lead into /etc's secrets
    assert (_etc_secret(path) is not None) is secret


def test_a_script_opens_its_package_and_its_interpreter_through_env(tmp_path: Path) -> None:
    node_home = tmp_path / "node-v22"
    (node_home / "bin").mkdir(parents=True)
    node = node_home / "bin" / "node"
    node.write_text("#!/bin/sh\n", encoding="utf-8")
    node.chmod(0o755)
    package = tmp_path / "proj" / "node_modules" / "@scope" / "server" / "dist"
    package.mkdir(parents=True)
    script = package / "index.js"
    script.write_text("#!/usr/bin/env -S node --flag\n", encoding="utf-8")
    script.chmod(0o755)
    config = tmp_path / "config.json"
    config.write_text("{}", encoding="utf-8")
    env = {"PATH": str(node_home / "bin"), "HOME": str(tmp_path / "home")}
    needs = command_needs(["node", str(script), str(config), "/", "--flag"], env, str(tmp_path))
    assert str(node) in needs.runtime and str(node_home) in needs.runtime
    assert str(tmp_path / "proj" / "node_modules") in needs.runtime
    # a file named on the line is read on its own, never executed, and its folder is not open
    assert str(config) in needs.files and str(config) not in needs.runtime
    assert str(tmp_path) not in needs.runtime and "/" not in needs.runtime
    # the script run directly: its shebang leads to node through env
    direct = command_needs([str(script)], env, str(tmp_path))
    assert str(node) in direct.runtime


def test_an_executable_in_bin_of_the_root_or_the_home_opens_only_that_bin(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for folder in (home / "bin", home / ".local" / "bin"):
        folder.mkdir(parents=True)
        (folder / "tool").write_text("", encoding="utf-8")
        (folder / "tool").chmod(0o755)
    env = {"PATH": f"{home / 'bin'}", "HOME": str(home)}
    assert command_needs(["tool"], env, "/").runtime == [
        str(home / "bin" / "tool"),
        str(home / "bin"),
    ]
    local = command_needs([str(home / ".local" / "bin" / "tool")], env, "/").runtime
    assert local == [str(home / ".local" / "bin" / "tool"), str(home / ".local" / "bin")]
    shell = command_needs(["/bin/sh", "-c", "true"], {"PATH": "/bin", "HOME": str(home)}, "/")
    assert "/" not in shell.runtime


def test_a_python_outside_a_venv_reads_the_users_site_packages(tmp_path: Path) -> None:
    """``python3 server.py`` with its packages from ``pip install --user``: the user site is
    read-only for it, or the only message is "No module named 'mcp'"."""
    home = tmp_path / "home"
    python = tmp_path / "usr" / "bin" / "python3.11"
    python.parent.mkdir(parents=True)
    python.write_text("", encoding="utf-8")
    python.chmod(0o755)
    site = home / ".local" / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    env = {"PATH": str(python.parent), "HOME": str(home)}
    needs = command_needs(["python3.11", "server.py"], env, str(tmp_path))
    assert str(site) in needs.runtime and str(site) not in needs.writable
    assert str(home) not in needs.runtime and str(home / ".local") not in needs.runtime
    # turned off, or another base
    assert (
        str(site)
        not in command_needs(["python3.11"], {**env, "PYTHONNOUSERSITE": "1"}, "/").runtime
    )
    other = tmp_path / "base" / "lib" / "python3.11" / "site-packages"
    other.mkdir(parents=True)
    based = command_needs(["python3.11"], {**env, "PYTHONUSERBASE": str(tmp_path / "base")}, "/")
    assert str(other) in based.runtime and str(site) not in based.runtime
    # a venv's python reads its own packages, not the user's
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    os.symlink(python, venv / "bin" / "python3.11")
    assert str(site) not in command_needs([str(venv / "bin" / "python3.11")], env, "/").runtime


def test_npx_and_uvx_get_their_caches_writable(tmp_path: Path) -> None:
    env = {"PATH": "/nowhere", "HOME": str(tmp_path)}
    assert command_needs(["npx", "-y", "pkg"], env, "/").writable == [str(tmp_path / ".npm")]
    uv = command_needs(["uvx", "pkg"], {**env, "UV_CACHE_DIR": "/c"}, "/").writable
    assert uv == ["/c", str(tmp_path / ".local" / "share" / "uv")]
    assert command_needs(["node", "x.js"], env, "/").writable == []


def test_npm_exec_from_a_prefix_opens_its_node_modules_and_project_files_only(
    tmp_path: Path,
) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    (project / "node_modules" / ".bin").mkdir(parents=True)
    for name in ("package.json", "package-lock.json", "notes.txt"):
        (project / name).write_text("{}", encoding="utf-8")
    env = {"PATH": "/nowhere", "HOME": str(home)}
    modules, files = (
        str(project / "node_modules"),
        [
            str(project / "package.json"),
            str(project / "package-lock.json"),
        ],
    )
    for command in (
        ["npm", "exec", "--prefix", str(project), "--", "tool"],
        ["npm", "--prefix", str(project), "exec", "tool"],  # the option before the command
        ["npm", "-C", "project", "x", "tool"],  # its short form, relative to the folder run in
        ["npx", f"--prefix={project}", "tool"],
    ):
        needs = command_needs(command, env, str(tmp_path))
        assert modules in needs.runtime and needs.files == files, command
        assert str(project) not in needs.runtime and needs.writable == [str(home / ".npm")]
    # words that merely look like it, or a prefix given to another npm command, open nothing
    for command in (
        ["npm", "install", "--prefix", str(project)],
        ["node", "x.js", "--prefix", str(project)],
        ["npm", "exec", "--", "tool", "--prefix", str(project)],
    ):
        needs = command_needs(command, env, str(tmp_path))
        assert modules not in needs.runtime and needs.files == [], command
    # a prefix the server may write is not read to find what it runs
    needs = command_needs(
        ["npx", "--prefix", str(project), "tool"], env, "/", writable=[str(project)]
    )
    assert modules not in needs.runtime and needs.files == []
    assert (str(project), "the server may write it: it is not read to find what it runs") in (
        needs.refused
    )


def test_grants_become_read_write_or_read_only_rules(tmp_path: Path) -> None:
    state = State()
    folders = []
    for name in ("rw", "ro", "other", "gone"):
        (tmp_path / name).mkdir()
        folders.append(state.add_root(str(tmp_path / name)))
    state.grant("s", [folders[0].id, folders[3].id])
    state.grant("s", [folders[1].id], read_only=True)
    state.grant("t", [folders[2].id])
    (tmp_path / "gone").rmdir()
    assert granted_folders(state, "s") == ([str(tmp_path / "rw")], [str(tmp_path / "ro")])
    data, cache, tmp = (tmp_path / n for n in ("data", "cache", "tmp"))
    for folder in (data, cache, tmp):
        folder.mkdir()
    extra = {"allow_read": [str(data), "/srv/missing"], "allow_write": [str(cache)]}
    set_confinement(state, "s", True, **extra)
    derived = rules_for(
        state,
        "s",
        ["sh"],
        fingerprint=None,
        env={"PATH": "/usr/bin", "HOME": str(tmp_path / "home")},  # no git settings there
        cwd="/",
        tmpdir=str(tmp),
        hosts=HostPlaces((), ()),
    )
    rules = derived.rules
    assert rules.read_write[-3:] == (str(tmp_path / "rw"), str(cache), str(tmp))
    assert rules.read_only == (str(tmp_path / "ro"), str(data))
    assert rules.tmpdir == str(tmp)
    # each granted folder travels with the identity it had when it was checked
    assert len(rules.expect) == 5 and all(
        e.endswith(p)
        for e, p in zip(rules.expect, (*rules.read_write[-3:], *rules.read_only), strict=True)
    )
    assert [p for p, _ in derived.refused] == ["/srv/missing"]
    assert not {str(tmp_path / "other"), "/tmp", "/root", "/home"} & set(
        rules.runtime + rules.read_write + rules.read_only
    )
    # granting again without read-only makes the grant writable
    state.grant("s", [folders[1].id], read_only=False)
    assert str(tmp_path / "ro") in granted_folders(state, "s")[0]


def test_extra_paths_are_kept_once_and_forgotten() -> None:
    state = State()
    srv = set_confinement(state, "new", True, allow_read=["/a", "/a/"], allow_write=["/b"])
    assert (srv.confine, srv.allow_read, srv.allow_write) == (True, ["/a"], ["/b"])
    srv = set_confinement(state, "new", forget=["/a", "/b"])
    assert (srv.confine, srv.allow_read, srv.allow_write) == (True, [], [])


@pytest.mark.parametrize(
    ("words", "program"),
    [
        (["node"], "node"),
        (["-S", "node", "--flag"], "node"),
        (["-S", "-u", "/root/x", "/usr/bin/python3"], "/usr/bin/python3"),
        (["-S", "-C", "/home/me", "python3", "-I"], "python3"),
        (["-i", "PATH=/x:/y", "A=1", "deno", "run"], "deno"),
        (["--split-string=-u HOME python3"], "python3"),
        (["-u", "X", "--", "-weird"], "-weird"),
        (["-i", "-u", "X"], None),
    ],
)
def test_env_in_a_shebang_is_read_for_its_program_never_for_paths(
    words: list[str], program: str | None
) -> None:
    assert env_program(words) == program


def test_no_derived_rule_opens_the_home_or_a_folder_holding_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    script = home / "server.py"
    script.write_text("", encoding="utf-8")
    data = home / "test.db"
    data.write_text("", encoding="utf-8")
    env = {"PATH": "/usr/bin", "HOME": str(home)}
    needs = command_needs(["python3", str(script), "--db-path", str(data)], env, "/")
    # the database on its own, written (with its companions), never the home
    assert str(script) in needs.files and needs.databases == [str(data)]
    opened = set(needs.runtime) | set(needs.files) | set(needs.writable) | set(needs.databases)
    assert not opened & {str(home), str(tmp_path), "/"}
    assert (str(home), "it is the home folder") in needs.refused


def test_a_granted_folder_swapped_for_a_link_to_root_leaves_the_interpreter_to_the_server(
    tmp_path: Path,
) -> None:
    """A grant swapped for a link to ``/`` is refused when the rules are made (it is opened
    without following links), so nothing is writable through it: the server's interpreter and
    libraries are not taken for folders the server may write, and it can still start."""
    granted = tmp_path / "granted"
    granted.symlink_to("/")
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path / "home")}
    needs = command_needs([sys.executable, "-c", "pass"], env, str(tmp_path), [str(granted)])
    interpreter = os.path.realpath(sys.executable)
    assert not [path for path, _ in needs.refused if path == interpreter], needs.refused
    assert any(
        interpreter == p or interpreter.startswith(p.rstrip("/") + "/")
        for p in (*needs.runtime, *needs.files)
    ), needs
