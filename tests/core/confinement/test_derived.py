"""What derivation gives a confined server besides its grants: the git settings, the caches."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from roots_manager.core.confinement.derive import (
    PROJECT_ENVIRONMENT,
    command_needs,
    derived_folders,
    package_caches,
)


def _programs(tmp_path: Path, *names: str) -> Path:
    """A folder for ``PATH`` holding a program of each name (an empty script): derivation
    decides from the program a command runs, found there."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in names:
        (bin_dir / name).write_text("#!/bin/sh\n", encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    return bin_dir


def test_the_git_settings_there_are_read_only_files_and_a_secret_keeps_one_out(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    (home / ".config" / "git").mkdir(parents=True)
    (home / ".gitconfig").write_text("[user]\n\tname = Someone\n", encoding="utf-8")
    (home / ".config" / "git" / "ignore").write_text("*.o\n", encoding="utf-8")
    (home / ".config" / "git" / "config").write_text(
        '[url "https://ghp_0123@github.com/"]\n\tinsteadOf = https://github.com/\n',
        encoding="utf-8",
    )
    (home / ".git-credentials").write_text("https://u:p@host\n", encoding="utf-8")
    needs = command_needs(["sh"], {"HOME": str(home), "PATH": "/usr/bin"}, "/")
    assert str(home / ".gitconfig") in needs.files
    assert str(home / ".config" / "git" / "ignore") in needs.files
    assert str(home / ".config" / "git" / "config") not in needs.files
    assert str(home / ".git-credentials") not in needs.files
    assert (str(home / ".config" / "git" / "config")) in dict(needs.refused)
    # where XDG_CONFIG_HOME puts git's folder
    elsewhere = tmp_path / "xdg"
    (elsewhere / "git").mkdir(parents=True)
    (elsewhere / "git" / "attributes").write_text("*.png binary\n", encoding="utf-8")
    env = {"HOME": str(home), "PATH": "/usr/bin", "XDG_CONFIG_HOME": str(elsewhere)}
    assert str(elsewhere / "git" / "attributes") in command_needs(["sh"], env, "/").files


def test_deno_bun_and_pipx_run_fill_caches_of_their_own_layered(tmp_path: Path) -> None:
    """``deno``, ``bun`` (``bunx``, a link to it) and ``pipx run`` fill their caches as ``npx``
    does ``~/.npm``: writable for them, through a layer of the server's own (the variables name
    the folders). Without its cache bunx installed each start again into a shared temporary
    folder ("no usable private cache directory"): 3.2 s a warm start, 0.8 s with it."""
    from roots_manager.core.confinement.derive import package_caches, registry_domains

    bin_dir = _programs(tmp_path, "deno", "pipx", "bun")
    (bin_dir / "bunx").symlink_to("bun")  # as bun's installer makes it
    env = {"HOME": str(tmp_path), "PATH": str(bin_dir)}
    assert package_caches(["deno", "run", "server.ts"], env) == {
        "DENO_DIR": str(tmp_path / ".cache" / "deno")
    }
    bun_cache = {"BUN_INSTALL_CACHE_DIR": str(tmp_path / ".bun" / "install" / "cache")}
    for command in (["bunx", "@modelcontextprotocol/server-memory"], ["bun", "x", "pkg"]):
        assert package_caches(command, env) == bun_cache, command
        assert list(registry_domains(command, env)) == ["registry.npmjs.org"], command
    moved = {**env, "BUN_INSTALL": str(tmp_path / "bun-home")}
    assert package_caches(["bunx", "x"], moved) == {
        "BUN_INSTALL_CACHE_DIR": str(tmp_path / "bun-home" / "install" / "cache")
    }
    assert package_caches(["pipx", "run", "mcp-server-time"], env) == {
        "PIPX_HOME": str(tmp_path / ".local" / "share" / "pipx"),
        "PIPX_LOG_DIR": str(tmp_path / ".local" / "state" / "pipx" / "log"),
        "PIPX_VENV_CACHEDIR": str(tmp_path / ".cache" / "pipx"),
    }
    assert package_caches(["pipx", "install", "x"], env) == {}


@pytest.mark.parametrize(
    ("command", "package"),
    [
        (["uvx", "arxiv-mcp-server"], "arxiv-mcp-server"),
        (["uvx", "--python", "3.12", "arxiv-mcp-server@latest"], "arxiv-mcp-server"),
        (["uvx", "--from", "serena-agent", "serena", "start-mcp-server"], "serena-agent"),
        (["uvx", "--from=Serena_Agent[all]==1.0", "serena"], "serena-agent"),
        (["uvx", "--from", "git+https://github.com/oraios/serena", "serena"], "serena"),
        (["uvx", "--from", "git+https://github.com/oraios/serena.git@v1#egg=x", "x"], "serena"),
        (["uvx", "serena @ git+https://example.org/s.git", "serena"], "serena"),
        (["uv", "tool", "run", "arxiv-mcp-server"], "arxiv-mcp-server"),
        (["uv", "x", "arxiv-mcp-server"], "arxiv-mcp-server"),
        (["pipx", "run", "--spec", "arxiv-mcp-server>=0.2", "arxiv"], "arxiv-mcp-server"),
        (["uv", "run", "server.py"], ""),
        (["pipx", "install", "arxiv-mcp-server"], ""),
        (["python3", "-m", "arxiv_mcp_server"], ""),
    ],
)
def test_the_pypi_package_a_runner_runs_is_named_as_pypi_names_it(
    command: list[str], package: str
) -> None:
    from roots_manager.core.confinement.derive import _python_package

    assert _python_package(command, command[0]) == package


def test_a_server_that_keeps_a_folder_in_the_home_gets_it_layered_and_others_do_not(
    tmp_path: Path,
) -> None:
    """Known servers' own folders (:data:`~roots_manager.core.confinement.protected.
    SERVER_STATE`) are theirs alone: each package gets its own, and a server of any other
    package none, whatever its command's words say."""
    from roots_manager.core.confinement.derive import derived_folders, package_caches

    bin_dir = _programs(tmp_path, "uvx", "desktop-commander", "other-server")
    env = {"HOME": str(tmp_path), "PATH": str(bin_dir)}
    serena = package_caches(["uvx", "--from", "serena-agent", "serena"], env)
    assert serena["serena state"] == str(tmp_path / ".serena")
    assert "arxiv-mcp-server papers" not in serena
    commander = package_caches(["desktop-commander"], env)
    assert commander == {"desktop-commander state": str(tmp_path / ".claude-server-commander")}
    assert package_caches(["other-server", "--serena", "serena-agent"], env) == {}
    shown = {p: (a, w) for p, a, w in derived_folders(["uvx", "arxiv-mcp-server"], env)}
    access, why = shown[str(tmp_path / ".arxiv-mcp-server")]
    assert access == "layered"
    assert why == (
        "arxiv-mcp-server writes there: the papers it downloads (not there yet: made at its start)"
    )


def test_uv_run_in_a_project_reads_the_project_files_its_environment_and_script(
    tmp_path: Path,
) -> None:
    """``uv run --directory DIR server.py``: the program and its project sit behind an
    option; the project's own files and the script with its folder are read, its ``.venv``
    layered."""
    bin_dir = _programs(tmp_path, "uv")
    project = tmp_path / "src" / "weather"
    (project / ".venv" / "bin").mkdir(parents=True)
    for name in ("pyproject.toml", "uv.lock", "server.py", "notes.txt"):
        (project / name).write_text("x\n", encoding="utf-8")
    env = {"HOME": str(tmp_path / "home"), "PATH": str(bin_dir)}
    for command in (
        ["uv", "run", "--directory", str(project), "server.py"],
        ["uv", "--project", str(project), "run", "python", str(project / "server.py")],
        ["uv", "run", f"--directory={project}", "server.py"],
    ):
        needs = command_needs(command, env, str(tmp_path))
        assert {str(project / n) for n in ("pyproject.toml", "uv.lock")} <= set(needs.files)
        assert str(project / "server.py") in needs.files, command
        # its environment is layered (test_a_uv_projects_environment_is_layered_where_it_is)
        assert str(project / ".venv") in needs.writable, command
        # the script's own folder is read, as for `python server.py` (its package)
        assert str(project) in needs.runtime
    # a project the server may write is not read to find what it runs
    needs = command_needs(
        ["uv", "run", "--directory", str(project), "server.py"], env, "/", [str(tmp_path)]
    )
    assert str(project / ".venv") not in needs.runtime


def test_a_uv_projects_environment_is_layered_where_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The environment ``uv run --directory DIR`` runs in (``DIR/.venv``, or where
    ``UV_PROJECT_ENVIRONMENT`` puts it, relative to the project) is layered, by that variable,
    and listed with why; none is made where there is none, and a plain ``uv run`` outside any
    project gets none."""
    monkeypatch.chdir(tmp_path)
    bin_dir = _programs(tmp_path, "uv")
    project = tmp_path / "src" / "weather"
    (project / ".venv").mkdir(parents=True)
    env = {"HOME": str(tmp_path / "home"), "PATH": str(bin_dir)}
    command = ["uv", "run", "--directory", str(project), "server.py"]
    caches = package_caches(command, env)
    assert caches[PROJECT_ENVIRONMENT] == str(project / ".venv"), caches
    assert str(project / ".venv") in command_needs(command, env, str(tmp_path)).writable
    shown = {p: (a, w) for p, a, w in derived_folders(command, env)}
    assert shown[str(project / ".venv")][0] == "layered"
    assert "bytecode" in shown[str(project / ".venv")][1]
    (project / "env2").mkdir()
    moved = package_caches(command, {**env, PROJECT_ENVIRONMENT: "env2"})
    assert moved[PROJECT_ENVIRONMENT] == str(project / "env2")
    assert PROJECT_ENVIRONMENT not in package_caches(["uv", "run", "server.py"], env)
    (project / ".venv").rmdir()
    assert PROJECT_ENVIRONMENT not in package_caches(command, env)
    assert not (project / ".venv").exists()


def test_uv_finds_its_project_as_uv_does_before_run_or_from_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Python quickstart's Claude Desktop launch puts ``--directory DIR`` before ``run``
    (``uv --directory DIR run weather.py``): uv's caches are still layered (uv cannot even
    take its cache's lock without them) and the project is found. A host that starts the
    server in its project's folder (``uv run server.py``) gets the project uv finds there or
    above, as uv does; ``--no-project`` none, and ``uv tool run`` is not a ``uv run``."""
    bin_dir = _programs(tmp_path, "uv")
    project = tmp_path / "src" / "weather"
    (project / ".venv").mkdir(parents=True)
    (project / "tools").mkdir()
    for name in ("pyproject.toml", "uv.lock", "weather.py"):
        (project / name).write_text("x\n", encoding="utf-8")
    env = {"HOME": str(tmp_path / "home"), "PATH": str(bin_dir)}
    monkeypatch.chdir(tmp_path)
    for command in (
        ["uv", "--directory", str(project), "run", "weather.py"],
        ["uv", "--cache-dir", str(tmp_path / "c"), "--project", str(project), "run", "x"],
    ):
        caches = package_caches(command, env)
        assert "UV_CACHE_DIR" in caches, command
        assert caches[PROJECT_ENVIRONMENT] == str(project / ".venv"), command
    needs = command_needs(["uv", "--directory", str(project), "run", "weather.py"], env, "/")
    assert str(project / "pyproject.toml") in needs.files
    assert str(project / "weather.py") in needs.files
    for cwd in (project, project / "tools"):
        monkeypatch.chdir(cwd)
        caches = package_caches(["uv", "run", "weather.py"], env)
        assert caches[PROJECT_ENVIRONMENT] == str(project / ".venv"), cwd
        needs = command_needs(["uv", "run", "weather.py"], env, str(cwd))
        assert str(project / "uv.lock") in needs.files, cwd
        assert str(project / ".venv") in needs.writable, cwd
        for other in (["uv", "run", "--no-project", "weather.py"], ["uv", "tool", "run", "x"]):
            assert PROJECT_ENVIRONMENT not in package_caches(other, env), other
    # found in a folder the server may write: nothing read for it, and nothing said either
    monkeypatch.chdir(project)
    needs = command_needs(["uv", "run", "weather.py"], env, str(project), [str(project.parent)])
    assert str(project / "uv.lock") not in needs.files
    assert needs.refused == []


def test_a_shell_that_changes_folder_and_sources_a_file_runs_what_it_names(
    tmp_path: Path,
) -> None:
    """``sh -c 'cd DIR && . ./.env && exec node index.js'``, as READMEs write it: the program
    and its script are found from DIR, the sourced file is read on its own; a string with
    more than plain words (an expansion, a pipe) is not read."""
    project = tmp_path / "src" / "tool"
    project.mkdir(parents=True)
    for name in ("index.js", ".env", "package.json"):
        (project / name).write_text("x\n", encoding="utf-8")
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    for text in (
        f"cd {project} && . ./.env && exec sh index.js",
        f"cd '{project}'; sh index.js",
        f"export A=1 && cd {project} && source .env && sh ./index.js",
    ):
        needs = command_needs(["bash", "-c", text], env, "/")
        assert str(project / "index.js") in needs.files, text
        assert str(project) in needs.runtime, text  # the script's own folder
        if ".env" in text:
            assert str(project / ".env") in needs.files, text
    for text in ("cd $HOME/src/tool && sh index.js", f"cd {project} && cat x | sh index.js"):
        needs = command_needs(["sh", "-c", text], env, "/")
        assert str(project / "index.js") not in needs.files, text


@pytest.mark.parametrize(
    ("target", "server_writes", "given", "why"),
    [
        # npm link, workspaces, pnpm: the modules live in a folder beside the script's
        ("src/shared/node_modules", "", True, None),
        # a link the server could have made itself leads nowhere new
        ("src/shared/node_modules", "src/tool", False, "the server may write the link"),
        # a target the server may write is read through its grant, not derived
        ("src/shared/node_modules", "src/shared", False, None),
        ("home", "", False, "it is the home folder"),
        ("home/.ssh", "", False, "it is or holds a secret"),
        ("/", "", False, "it is the file system's root"),
        ("src/missing", "", False, None),
    ],
)
def test_a_scripts_node_modules_that_is_a_link_opens_its_target_and_no_more(
    tmp_path: Path, target: str, server_writes: str, given: bool, why: str | None
) -> None:
    """``npx tsx FILE.ts`` where FILE's folder's ``node_modules`` is a link out of it: the
    target is read and run as the folder's own ``node_modules`` would be, never its parent,
    never the home, a secret or the root, nor a link in a folder the server may write."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    tool = tmp_path / "src" / "tool"
    tool.mkdir(parents=True)
    (tool / "server.ts").write_text("import { z } from 'zod'\n", encoding="utf-8")
    shared = tmp_path / "src" / "shared" / "node_modules" / "zod"
    shared.mkdir(parents=True)
    lead = Path(target) if target.startswith("/") else tmp_path / target
    (tool / "node_modules").symlink_to(lead)
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    writable = [str(tmp_path / server_writes)] if server_writes else []
    needs = command_needs(["node", str(tool / "server.ts")], env, "/", writable)
    assert str(tool) in needs.runtime
    assert (str(lead) in needs.runtime) is given, needs.runtime
    assert str(lead.parent) not in needs.runtime or lead.parent == tool.parent
    assert str(tmp_path / "src") not in needs.runtime
    refused = dict(needs.refused)
    if why is None:
        assert str(lead) not in refused, refused
    else:
        assert why in refused.get(str(lead), ""), refused


def test_a_scripts_own_node_modules_is_read_with_its_folder_and_nothing_beside(
    tmp_path: Path,
) -> None:
    """The unlinked case, which the linked one matches: the script's folder, its
    ``node_modules`` within it, and nothing of the folder above."""
    tool = tmp_path / "src" / "tool"
    (tool / "node_modules" / "zod").mkdir(parents=True)
    (tool / "server.ts").write_text("x\n", encoding="utf-8")
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    needs = command_needs(["node", str(tool / "server.ts")], env, "/")
    assert str(tool) in needs.runtime
    assert not [p for p in needs.runtime if p.startswith(str(tmp_path)) and p != str(tool)]


@pytest.mark.parametrize(
    ("argv", "given", "refused"),
    [
        (["--db-path", "~/test.db"], "test.db", False),
        (["--db-path=~/test.db"], "test.db", False),
        (["--database", "~/notes"], "notes", False),
        (["--db", "~/state.bin"], "state.bin", False),
        (["--store", "~/memory.sqlite3"], "memory.sqlite3", False),
        (["~/cache.sqlite"], "cache.sqlite", False),
        (["--db-path", "~/missing/test.db"], None, False),  # no such folder
        (["--name", "~/notes"], None, False),  # neither named nor ending so
        (["--db-path", "~"], None, True),  # the home itself
        (["--db-path", "~/.ssh/keys.db"], None, True),  # a secret's folder
        (["--db-path", "~/linked.db"], None, True),  # a link
        (["--db-path", "~/walled.db"], None, True),  # a companion that is a link
        (["--db-path", "~/granted/test.db"], None, False),  # its grant gives it already
    ],
)
def test_a_database_named_on_the_command_line_is_written_on_its_own(
    tmp_path: Path, argv: list[str], given: str | None, refused: bool
) -> None:
    """``--db-path ~/test.db`` and its kin: the file, named by the option or its ending, is
    derived as written (with its SQLite companions, by the supervisor), never its folder;
    not a file the server's grant gives, the home, a secret, or one reached through a link."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / "granted").mkdir()
    (home / "linked.db").symlink_to(tmp_path / "elsewhere.db")
    (home / "walled.db-wal").symlink_to(home / ".profile")
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    words = [str(home) + w[1:] if w.startswith("~") else w for w in argv]
    words = [w.replace("=~", "=" + str(home)) for w in words]
    needs = command_needs(["sh", *words], env, str(home), [str(home / "granted")])
    assert needs.databases == ([str(home / given)] if given else [])
    # behind a shell's plain string, the same
    behind = ["sh", "-c", " ".join(["exec", "sh", *words])]
    if "=" not in " ".join(words):
        shell = command_needs(behind, env, str(home), [str(home / "granted")])
        assert shell.databases == needs.databases
    assert str(home) not in needs.runtime and str(home) not in needs.writable
    assert (words[-1] in dict(needs.refused)) is refused, needs.refused


def test_a_database_in_a_protected_place_or_a_read_only_grant_is_refused(
    tmp_path: Path,
) -> None:
    """What derivation names is checked against the table of places a server never writes
    (a project's ``.git``, a shell start file's name, Roots Manager's own folders) and the
    read-only grants, where the hosts' files are known."""
    from roots_manager.core.confinement.confined import _own_files
    from roots_manager.core.confinement.protected import HostPlaces, state_folders

    home = tmp_path / "home"
    (home / "proj" / ".git").mkdir(parents=True)
    (home / "ref").mkdir()
    env = {"HOME": str(home)}
    hosts = HostPlaces([str(home / ".claude.json")], [".zed"])
    state = state_folders(env)[0]
    wanted = [
        str(home / "test.db"),
        str(home / "proj" / ".git" / "index.db"),
        str(home / ".bashrc"),
        str(home / ".claude.json"),
        str(home / "ref" / "x.db"),
        str(home / "proj" / ".zed" / "x.db"),
        os.path.join(state, "store.db"),
    ]
    refused: list[tuple[str, str]] = []
    kept = _own_files(wanted, [str(home / "ref")], env, hosts, refused)
    assert kept == [str(home / "test.db")]
    assert [p for p, _ in refused] == wanted[1:]
