"""A hostile confined server turns its own grants against the user, and gets nothing.

Each test grants the server a folder that holds what must never be rewritten: Roots Manager's
own store, the home's shell start files, autostart and systemd units, ``~/.local/bin``, the hosts'
configuration files, a project's ``.git/hooks`` and ``.git/config`` and editor settings; a
read-only grant nested in a writable one; and the descriptor the supervisor tells refusals on.
Everything else in the grant stays writable. Every attack here succeeded before the protected
places were held (:mod:`roots_manager.sandbox.mounts`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from roots_manager.core.directory.layout import Layout
from tests.conftest import only_on_linux
from tests.security.confined import SECRET, Hostile, World, users

pytestmark = only_on_linux("confinement is tested on Linux (Landlock and seccomp)")
REFUSED = ("EROFS", "EBUSY", "EACCES", "EPERM", "EXDEV")


def _home_world(world: World) -> Path:
    """Roots Manager's folder inside the fake home, as on a real machine; a project with a
    repository; the files that run later. Returns the project."""
    home = world.home
    world.rm_home = home / ".local" / "share" / "roots-manager"
    world.env["ROOTS_MANAGER_HOME"] = str(world.rm_home)
    for name in (".bashrc", ".profile", ".claude.json", ".gitconfig"):
        (home / name).write_text("# the user's\n", encoding="utf-8")
    for folder in (".config/Code/User", ".config/autostart", ".local/bin", ".cursor"):
        (home / folder).mkdir(parents=True, exist_ok=True)
    (home / ".config/Code/User/mcp.json").write_text('{"servers": {}}\n', encoding="utf-8")
    (home / ".cursor/mcp.json").write_text('{"mcpServers": {}}\n', encoding="utf-8")
    project = home / "proj"
    (project / ".git" / "hooks").mkdir(parents=True)
    (project / ".git" / "config").write_text("[core]\n", encoding="utf-8")
    (project / ".vscode").mkdir()
    (project / ".vscode" / "settings.json").write_text("{}\n", encoding="utf-8")
    (project / ".mcp.json").write_text('{"mcpServers": {}}\n', encoding="utf-8")
    (project / "main.py").write_text("print('hello')\n", encoding="utf-8")
    return project


def _confined(world: World) -> dict[str, object]:
    state = json.loads((world.rm_home / "store.json").read_text(encoding="utf-8"))
    return dict(state["servers"]["srv"])


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_home_grant_leaves_what_confines_and_what_runs_later_read_only(world: World) -> None:
    project = _home_world(world)
    home = world.home
    world.grant_confined(home, broad=True)
    store = world.rm_home / "store.json"
    host = Hostile(world)
    try:
        # the grant works: new files anywhere in it, the project's own files rewritten
        assert host.attack("create", path=str(home / "notes" / "new.txt")) == "ok"
        assert host.attack("replace", path=str(project / "main.py")) == "ok"
        assert host.attack("create", path=str(project / ".git" / "index.lock")) == "ok"
        # what confines it
        assert host.attack("write", path=str(store)) in REFUSED
        assert host.attack("replace", path=str(store)) in REFUSED
        assert host.attack("rename", path=str(world.rm_home), to=str(home / "x")) in REFUSED
        assert host.attack("create", path=str(world.rm_home / "store.json.new")) in REFUSED
        # what runs later
        for path in (
            home / ".bashrc",
            home / ".profile",
            home / ".gitconfig",
            home / ".claude.json",
            home / ".config/Code/User/mcp.json",
            home / ".cursor/mcp.json",
            project / ".git/config",
            project / ".vscode/settings.json",
            project / ".mcp.json",
        ):
            assert host.attack("write", path=str(path)) in REFUSED, path
            assert host.attack("replace", path=str(path)) in REFUSED, path
            assert host.attack("remove", path=str(path)) in REFUSED, path
        for path in (
            home / ".config/autostart/evil.desktop",
            home / ".config/systemd/user/evil.service",
            home / ".local/bin/ls",
            project / ".git/hooks/pre-commit",
        ):
            assert host.attack("create", path=str(path)) in REFUSED, path
        # nor moved away and rebuilt
        for folder in (home / ".config", home / ".local", project / ".git", project / ".vscode"):
            assert host.attack("rename", path=str(folder), to=str(folder) + ".old") in REFUSED
        # the secret in the granted home stays unread
        assert host.attack("read", path=str(world.key)) in REFUSED
    finally:
        host.close()
    assert "planted" not in store.read_text(encoding="utf-8")
    assert _confined(world)["confine"] is True
    assert (home / ".bashrc").read_text(encoding="utf-8") == "# the user's\n"
    assert not (home / ".config/autostart/evil.desktop").exists()
    assert not (project / ".git/hooks/pre-commit").exists()
    assert (project / ".git/config").read_text(encoding="utf-8") == "[core]\n"
    assert (home / "notes" / "new.txt").read_text(encoding="utf-8") == "planted"


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_repository_deep_in_a_grant_keeps_its_hooks_and_config(world: World) -> None:
    """``~/work`` granted, a repository four folders down (``clients/acme/api/app``): its hooks
    and config run at the user's next ``git`` there, and stay out of the server's reach."""
    _home_world(world)
    work = world.home / "work"
    app = work / "clients" / "acme" / "api" / "app"
    (app / ".git" / "hooks").mkdir(parents=True)
    (app / ".git" / "config").write_text("[core]\n", encoding="utf-8")
    (app / "main.py").write_text("print('app')\n", encoding="utf-8")
    world.grant_confined(work)
    shown = json.loads(world.cli("servers", "show", "srv", "--json").stdout)
    assert shown["repositories_searched_in_part"] == []
    host = Hostile(world)
    try:
        assert host.attack("replace", path=str(app / "main.py")) == "ok"
        assert host.attack("create", path=str(app / "new.py")) == "ok"
        assert host.attack("create", path=str(app / ".git" / "hooks" / "pre-commit")) in REFUSED
        assert host.attack("write", path=str(app / ".git" / "config")) in REFUSED
        assert host.attack("replace", path=str(app / ".git" / "config")) in REFUSED
        assert host.attack("create", path=str(app / ".envrc")) in REFUSED
        # nor the repository moved away and a look-alike built in its place
        away = str(work / "clients" / "moved")
        assert host.attack("rename", path=str(work / "clients" / "acme"), to=away) in REFUSED
    finally:
        host.close()
    assert not (app / ".git" / "hooks" / "pre-commit").exists()
    assert not (app / ".envrc").exists()
    assert (app / ".git" / "config").read_text(encoding="utf-8") == "[core]\n"
    assert (app / "new.py").read_text(encoding="utf-8") == "planted"


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_grant_of_roots_managers_own_folder_is_read_only(world: World) -> None:
    _home_world(world)
    share = world.home / ".local" / "share"
    world.cli("roots", "add", str(share))
    world.cli("grant", "--new", "srv", str(share))
    world.cli("servers", "confine", "srv", "on")
    host = Hostile(world)
    try:
        assert host.attack("create", path=str(share / "other-app" / "data")) == "ok"
        assert host.attack("write", path=str(world.rm_home / "store.json")) in REFUSED
        assert host.attack("replace", path=str(world.rm_home / "store.json")) in REFUSED
        # its own temporary folder, inside Roots Manager's, stays its own
        tmp = host.attack("read", path="/proc/self/environ")
        tmpdir = next(v.split("=", 1)[1] for v in tmp.split("\0") if v.startswith("TMPDIR="))
        assert host.attack("create", path=os.path.join(tmpdir, "scratch")) == "ok"
    finally:
        host.close()
    assert _confined(world)["confine"] is True


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_read_only_grant_inside_a_writable_one_is_not_written(world: World) -> None:
    secrets = world.granted / "secrets"
    secrets.mkdir()
    (secrets / "s.txt").write_text("kept\n", encoding="utf-8")
    world.setup()
    world.cli("roots", "add", str(secrets))
    world.cli("grant", "srv", str(secrets), "--read-only")
    host = Hostile(world)
    try:
        assert host.attack("read", path=str(secrets / "s.txt")) == "ok:kept\n"
        assert host.attack("write", path=str(secrets / "s.txt")) in REFUSED
        assert host.attack("replace", path=str(secrets / "s.txt")) in REFUSED
        assert host.attack("create", path=str(secrets / "new.txt")) in REFUSED
        assert host.attack("write", path=str(world.granted / "other.txt")) == "ok"
    finally:
        host.close()
    assert (secrets / "s.txt").read_text(encoding="utf-8") == "kept\n"


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_place_that_cannot_be_held_makes_its_grant_read_only(world: World) -> None:
    project = _home_world(world)
    world.grant_confined(project)
    world.env["ROOTS_MANAGER_TEST_NO_MOUNT_NAMESPACE"] = "1"
    host = Hostile(world)
    try:
        assert host.attack("read", path=str(project / "main.py")) == "ok:print('hello')\n"
        assert host.attack("write", path=str(project / ".git" / "config")) in REFUSED
        assert host.attack("write", path=str(project / "main.py")) in REFUSED
    finally:
        host.close()
    assert "cannot be kept read-only" in host.stderr()
    assert f"{project} is read-only for this run" in host.stderr()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_refusals_written_by_the_server_never_reach_the_denials(world: World) -> None:
    world.setup()
    forged = str(world.base / "forged" / "\x1b[2J\u202eevil")
    host = Hostile(world)
    try:
        written = host.attack("forge_refusals", path=forged)
        # a real refusal, to be sure the refusals are told at all
        assert host.attack("read", path=str(world.key)) == "EACCES"
    finally:
        host.close()
    assert written.startswith("ok:")
    from roots_manager.core.log.denial_reader import Reader

    found = Reader(Layout(world.rm_home), "srv", None).read()
    assert any(d.get("path") == str(world.key) for d in found), found
    assert not [d for d in found if "forged" in str(d)], (written, found)


FOLDERS = {".config/fish", ".config/environment.d", ".local/bin", ".config/autostart"}
FOLDERS |= {".config/systemd/user", ".config/git", ".ssh", ".gnupg", ".claude", ".codex"}
FOLDERS |= {".gemini", ".cursor", ".vscode", ".vscode-server", ".config/Code/User"}
FOLDERS |= {".config/Code - Insiders/User", ".config/VSCodium/User", ".config/Cursor/User"}


@pytest.mark.parametrize("world", users(), indirect=True)
def test_every_place_of_the_table_is_held_inside_a_home_grant(world: World) -> None:
    """Each row of the table, made in a granted home (the hosts' files where this machine's
    hosts keep them, every project name in a repository of the home): none is written,
    replaced or removed, no secret is read; one attack per place, all reported at once."""
    from roots_manager.core.confinement.protected import HIDDEN, HOME, PROJECT, TABLE
    from roots_manager.core.hosts.known import Platform, protected_places

    project = _home_world(world)
    home = world.home
    places = protected_places(Platform("linux", home, world.env))
    targets: list[tuple[Path, str]] = []  # each place, and how it is held
    for place in TABLE:
        if place.where == HOME:
            targets.append((home / place.path, place.access))
    targets += [(Path(p), "read-only") for p in places.user_files]
    names = [p.path for p in TABLE if p.where == PROJECT] + list(places.project_names)
    targets += [(project / n, "read-only") for n in dict.fromkeys(names)]
    for path, _ in targets:
        if path.exists():
            continue
        if path.is_relative_to(project):
            relative = str(path.relative_to(project))
            is_folder = relative not in (".envrc", ".git/config") and not relative.endswith(
                (".json", ".jsonc", ".yaml", ".toml")
            )
        else:
            is_folder = str(path.relative_to(home)) in FOLDERS
        if is_folder:
            path.mkdir(parents=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("the user's\n", encoding="utf-8")
    world.grant_confined(home, broad=True)
    host = Hostile(world)
    got_through = []
    try:
        for path, access in targets:
            if path.is_dir():
                outcome = host.attack("create", path=str(path / "planted"))
            elif access == HIDDEN:
                outcome = host.attack("read", path=str(path))
            else:
                outcome = host.attack("write", path=str(path))
                if outcome not in REFUSED:
                    got_through.append(f"{path}: written")
                outcome = host.attack("replace", path=str(path))
            if outcome not in REFUSED:
                got_through.append(f"{path}: {outcome[:40]}")
        store = world.rm_home / "store.json"
        if (outcome := host.attack("write", path=str(store))) not in REFUSED:
            got_through.append(f"{store}: {outcome}")
    finally:
        host.close()
    assert len(targets) > 40
    assert not got_through, "\n".join(got_through)


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_loosening_waits_for_the_hosts_next_start_and_a_tightening_does_not(
    world: World,
) -> None:
    """Confinement turned off, the network allowed, an extra folder to write: none restarts the
    running server behind the host's back, nor is carried by a restart that a revocation
    makes; a restart the user asks for applies them."""
    world.setup("--allow-write", str(world.sibling))
    world.cli("servers", "network", "srv", "blocked")
    extra = world.base / "work" / "extra"
    extra.mkdir()
    host = Hostile(world)
    try:
        first = host.pid()
        assert host.attack("read", path=str(world.key)) == "EACCES"
        world.cli("servers", "confine", "srv", "off")
        world.cli("servers", "network", "srv", "allowed")
        world.cli("servers", "confine", "srv", "on", "--allow-write", str(extra))
        world.cli("servers", "confine", "srv", "off")
        # a tightening restarts it at once: the read-only grant revoked
        world.cli("revoke", "srv", str(world.read_only))
        second = host.restarted(first)
        # ...under no looser rules than the host's start
        assert host.attack("read", path=str(world.key)) == "EACCES"
        assert host.attack("create", path=str(extra / "x")) == "EACCES"
        assert "tcp_bind=ok" not in host.attack("network", port=9)
        assert host.attack("read", path=str(world.read_only / "notes.txt")) == "EACCES"
        # the user asks for the restart: what the store says now holds
        asked = world.cli_as_owner("restart", "srv")
        assert asked.returncode == 0, asked.stderr
        host.restarted(second)
        assert host.attack("read", path=str(world.key)) == "ok:" + SECRET
    finally:
        host.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_the_users_exceptions_inside_a_grant_hold(world: World) -> None:
    """``grant --except`` keeps a place read-only, ``--hide`` unreadable, whatever the grant."""
    granted = world.granted
    (granted / ".env").write_text("TOKEN=secret\n", encoding="utf-8")
    (granted / "secrets").mkdir()
    (granted / "secrets" / "key.txt").write_text("key\n", encoding="utf-8")
    (granted / "config").mkdir()
    (granted / "config" / "app.toml").write_text("[app]\n", encoding="utf-8")
    world.setup()
    done = world.cli(
        "grant", "srv", str(granted), "--except", "config", "--hide", ".env",
        "--hide", str(granted / "secrets"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    shown = json.loads(world.cli("servers", "show", "srv", "--json").stdout)
    held = {p["path"]: p["access"] for p in shown["protected"] if p["access"] != "not made"}
    assert held == {
        str(granted / ".env"): "hidden",
        str(granted / "config"): "read-only",
        str(granted / "secrets"): "hidden",
    }
    host = Hostile(world)
    try:
        assert host.attack("read", path=str(granted / "config" / "app.toml")) == "ok:[app]\n"
        assert host.attack("write", path=str(granted / "config" / "app.toml")) in REFUSED
        assert host.attack("create", path=str(granted / "config" / "new.toml")) in REFUSED
        assert host.attack("read", path=str(granted / ".env")) in REFUSED
        assert host.attack("replace", path=str(granted / ".env")) in REFUSED
        assert host.attack("read", path=str(granted / "secrets" / "key.txt")) in REFUSED
        assert host.attack("rename", path=str(granted / "secrets"), to=str(granted / "s")) in (
            REFUSED
        )
        assert host.attack("write", path=str(granted / "notes.txt")) == "ok"
    finally:
        host.close()
    assert (granted / ".env").read_text(encoding="utf-8") == "TOKEN=secret\n"
    # taken away, the places are writable at the next start
    world.cli("grant", "srv", str(granted), "--clear-except")
    host = Hostile(world)
    try:
        assert host.attack("write", path=str(granted / "config" / "app.toml")) == "ok"
        assert host.attack("read", path=str(granted / ".env")) == "ok:TOKEN=secret\n"
    finally:
        host.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_server_cannot_fill_the_process_table(world: World) -> None:
    """A fork loop stops at the server's limit of processes; threads are not processes."""
    world.setup()
    world.cli("servers", "confine", "srv", "--max-processes", "40")
    host = Hostile(world)
    try:
        started, error = host.attack("fork_many", count=3000, threads=50).split(":")
        # the limit counts the tree: the server itself is one of its processes
        assert 38 <= int(started) <= 40 and error == "EAGAIN", (started, error)
    finally:
        host.close()
    assert "reached their limit (40)" in host.stderr()
    # the default leaves room for any real server
    world.cli("servers", "confine", "srv", "--max-processes", "0")
    host = Hostile(world)
    try:
        assert host.attack("fork_many", count=300) == "300:ok"
    finally:
        host.close()


def test_a_file_system_mounted_inside_a_grant_is_said_by_show_the_bridge_and_the_log(
    world: World,
) -> None:
    """An administrator's bind mount inside a grant is granted with it: said, never hidden."""
    import shlex
    import subprocess
    import sys

    from roots_manager.core.log import events as ev
    from tests.bridge.wire import bridge_argv
    from tests.conftest import unavailable

    if os.geteuid() != 0:
        unavailable("CI runs the tests as root, to mount", "mounting a folder needs root")

    world.setup()
    inside = world.granted / "mnt"
    inside.mkdir()
    bridge = shlex.join(bridge_argv("srv", [sys.executable, "-c", "import sys; sys.stdin.read()"]))
    show = shlex.join(
        [sys.executable, "-m", "roots_manager.cli", "servers", "show", "srv", "--json"]
    )
    script = (
        f"mount --bind {shlex.quote(str(world.sibling))} {shlex.quote(str(inside))} && "
        f"{show} && {bridge} < /dev/null"
    )
    done = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", script],
        env=world.env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert [m["path"] for m in shown["mounted"]] == [str(inside)]
    assert f"{inside} is granted with the folder it is in" in done.stderr
    logged = [
        e["message"]
        for e in ev.iter_events(Layout(world.rm_home))
        if e["kind"] == ev.MESSAGE and "is granted with the folder" in e["message"]
    ]
    assert logged and str(inside) in logged[0]


@pytest.mark.parametrize("world", users(), indirect=True)
def test_the_bridges_own_environment_inside_a_grant_is_read_only(world: World) -> None:
    """A venv inside a granted project that runs the bridge: a module or a ``.pth`` planted in
    it would run, unconfined, at the bridge's next start."""
    import subprocess
    import sys

    from tests.security.confined import user_python

    world.setup()
    env_dir = world.granted / "env"
    base = user_python() if world.who == "user" else sys.executable
    subprocess.run([base, "-m", "venv", "--without-pip", str(env_dir)], check=True, timeout=120)
    python = str(env_dir / "bin" / "python")
    [site] = list(env_dir.glob("lib/python3.*/site-packages"))
    host = Hostile(world, bridge_python=python)
    try:
        assert host.attack("create", path=str(site / "planted.pth")) in REFUSED
        assert host.attack("create", path=str(env_dir / "bin" / "roots-bridge")) in REFUSED
        assert host.attack("write", path=str(env_dir / "pyvenv.cfg")) in REFUSED
        assert host.attack("create", path=str(world.granted / "work.txt")) == "ok"
    finally:
        host.close()
    assert not (site / "planted.pth").exists()


def _caches(home: Path) -> dict[str, Path]:
    """The user's npx and uvx caches, warm, each with a program another ``npx`` or ``uvx``
    runs later."""
    npx = home / ".npm" / "_npx" / "5f2b" / "node_modules" / "tool" / "index.js"
    uvx = home / ".cache" / "uv" / "archive-v0" / "k3" / "bin" / "tool"
    for program in (npx, uvx):
        program.parent.mkdir(parents=True)
        program.write_text("# the user's\n", encoding="utf-8")
    return {"npx": npx, "uvx": uvx}


def _launcher(world: World, name: str) -> list[str]:
    """A launcher called *name* (``npx``) that runs the hostile server, as the real one runs a
    package: the program that runs is what decides its caches."""
    from tests.security.confined import HOSTILE, user_python

    launcher = world.base / "bin" / name
    launcher.parent.mkdir(exist_ok=True)
    launcher.write_text(f'#!/bin/sh\nexec {user_python()} "$@"\n', encoding="utf-8")
    launcher.chmod(0o755)
    return [str(launcher), str(HOSTILE)]


@pytest.mark.parametrize("world", users(), indirect=True)
@pytest.mark.parametrize("launcher", ["npx", "uvx"])
def test_a_shared_package_cache_takes_no_plant_for_the_next_start(
    world: World, launcher: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server's ``npx`` fills ``~/.npm`` (its ``uvx``, the uv cache): it may write there
    all it likes, and every write stays in a layer of its own. What the user's next ``npx``
    (unconfined) or another server's runs is untouched."""
    _home_world(world)
    program = _caches(world.home)[launcher]
    world.setup()
    host = Hostile(world, _launcher(world, launcher))
    try:
        # the cache is the server's to use: read as it is, written, added to
        assert host.attack("read", path=str(program)) == "ok:# the user's\n"
        assert host.attack("replace", path=str(program)) == "ok"
        assert host.attack("read", path=str(program)) == "ok:planted"
        assert host.attack("create", path=str(program.parent / "more.js")) == "ok"
        assert host.attack("remove", path=str(program)) == "ok"
        assert host.attack("create", path=str(program)) == "ok"
    finally:
        host.close()
    assert program.read_text(encoding="utf-8") == "# the user's\n"
    assert not (program.parent / "more.js").exists()
    assert sorted(p.name for p in program.parent.iterdir()) == [program.name]
    monkeypatch.setenv("HOME", str(world.home))  # where the bridge found the caches
    shown = json.loads(world.cli("servers", "show", "srv", "--json").stdout)
    layered = [p["path"] for p in shown["protected"] if p["access"] == "layered"]
    cache = {"npx": world.home / ".npm", "uvx": world.home / ".cache" / "uv"}[launcher]
    assert str(cache.resolve()) in layered, shown["protected"]
    # its next start finds its own writes again: the layer is its warm cache
    host = Hostile(world, _launcher(world, launcher))
    try:
        assert host.attack("read", path=str(program)) == "ok:planted"
    finally:
        host.close()
    assert program.read_text(encoding="utf-8") == "# the user's\n"


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_home_grant_leaves_the_package_caches_read_only(world: World) -> None:
    """A server that runs no package manager, granted the home: the caches others' ``npx``
    and ``uvx`` run from stay read-only for it."""
    _home_world(world)
    caches = _caches(world.home)
    world.grant_confined(world.home, broad=True)
    host = Hostile(world)
    try:
        for program in caches.values():
            assert host.attack("replace", path=str(program)) in REFUSED, program
            assert host.attack("create", path=str(program.parent / "more")) in REFUSED, program
        away = str(world.home / "c")
        assert host.attack("rename", path=str(world.home / ".cache"), to=away) in REFUSED
        assert host.attack("create", path=str(world.home / ".cache" / "pip" / "x")) in REFUSED
    finally:
        host.close()
    for program in caches.values():
        assert program.read_text(encoding="utf-8") == "# the user's\n"
    assert (world.home / ".cache" / "uv").is_dir()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_repository_past_the_search_keeps_its_hooks_and_config(world: World) -> None:
    """``~/work`` granted, a repository seven folders down, deeper than the search looks: the
    supervisor keeps its ``.git/hooks`` and ``.git/config`` (and the ``.git`` holding them)
    by their names, every write, new name and removal of the server's made by it. What git
    itself writes there, and a repository the server makes, stay the server's to use."""
    _home_world(world)
    work = world.home / "work"
    app = work / "a" / "b" / "c" / "d" / "e" / "f" / "app"
    git = app / ".git"
    (git / "hooks").mkdir(parents=True)
    (git / "hooks" / "post-merge").write_text("#!/bin/sh\n", encoding="utf-8")
    (git / "config").write_text("[core]\n", encoding="utf-8")
    module = git / "modules" / "lib"
    (module / "hooks").mkdir(parents=True)
    (module / "config").write_text("[core]\n", encoding="utf-8")
    (app / "main.py").write_text("print('app')\n", encoding="utf-8")
    world.grant_confined(work)
    shown = json.loads(world.cli("servers", "show", "srv", "--json").stdout)
    assert shown["repositories_searched_in_part"] == [str(work.resolve())]
    host = Hostile(world)
    try:
        # the grant works, git's own writes too
        assert host.attack("overwrite", path=str(app / "main.py")) == "ok"
        assert host.attack("create", path=str(git / "index.lock")) == "ok"
        assert host.attack("rename", path=str(git / "index.lock"), to=str(git / "index")) == "ok"
        assert host.attack("remove", path=str(git / "index")) == "ok"
        # what runs at the user's next git there
        for path in (git / "config", git / "hooks" / "post-merge", module / "config"):
            assert host.attack("overwrite", path=str(path)) in REFUSED, path
            assert host.attack("write", path=str(path)) in REFUSED, path
            assert host.attack("replace", path=str(path)) in REFUSED, path
            assert host.attack("remove", path=str(path)) in REFUSED, path
            assert host.attack("second_name", path=str(path), to=str(app / "x")) in REFUSED
        assert host.attack("create", path=str(git / "hooks" / "pre-commit")) in REFUSED
        assert host.attack("create", path=str(module / "hooks" / "pre-commit")) in REFUSED
        assert host.attack("create", path=str(module / "info" / "exclude")) == "ok"
        for how in ("rename", "link", "symlink", "exchange"):
            made = host.attack("make", path=str(git / "hooks" / "pre-push"), how=how)
            assert made in (*REFUSED, "ENOENT"), how
        # nor the place moved away, and another made in its stead
        for folder in (git, git / "hooks"):
            assert host.attack("rename", path=str(folder), to=str(folder) + ".old") in REFUSED
        # a repository of the server's own is its own to use, not to run commands from
        mine = work / "mine" / ".git"
        assert host.attack("create", path=str(mine / "index.lock")) == "ok"
        assert host.attack("create", path=str(mine / "hooks" / "pre-commit")) in REFUSED
        assert host.attack("create", path=str(mine / "config")) in REFUSED
    finally:
        host.close()
    assert (git / "config").read_text(encoding="utf-8") == "[core]\n"
    assert (git / "hooks" / "post-merge").read_text(encoding="utf-8") == "#!/bin/sh\n"
    assert sorted(p.name for p in (git / "hooks").iterdir()) == ["post-merge"]
    assert (app / "main.py").read_text(encoding="utf-8") == "planted"


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_plugin_managers_repositories_in_a_home_grant_keep_their_hooks_and_config(
    world: World,
) -> None:
    """The home granted: a plugin manager's clones below a hidden folder of the home, which the
    search does not look in, run their hooks and config at the manager's next ``git pull``.
    The home counts as searched in part, and the supervisor keeps them by their names."""
    _home_world(world)
    plugin = world.home / ".local" / "share" / "nvim" / "lazy" / "telescope.nvim"
    git = plugin / ".git"
    (git / "hooks").mkdir(parents=True)
    (git / "config").write_text("[core]\n", encoding="utf-8")
    (plugin / "init.lua").write_text("-- plugin\n", encoding="utf-8")
    world.grant_confined(world.home, broad=True)
    host = Hostile(world)
    try:
        assert host.attack("overwrite", path=str(plugin / "init.lua")) == "ok"
        config = git / "config"
        assert host.attack("overwrite", path=str(config)) in REFUSED
        assert host.attack("write", path=str(config)) in REFUSED
        assert host.attack("replace", path=str(config)) in REFUSED
        assert host.attack("create", path=str(git / "hooks" / "post-merge")) in REFUSED
    finally:
        host.close()
    assert (git / "config").read_text(encoding="utf-8") == "[core]\n"
    assert list((git / "hooks").iterdir()) == []


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_held_file_with_a_second_name_makes_its_grant_read_only(world: World) -> None:
    """A hard link the user made to a repository's config, in the same grant: a mount holds
    one name, the other wrote the config. Such a place cannot be held; its grant is read-only
    for the run, and the bridge says why."""
    project = _home_world(world)
    os.link(project / ".git" / "config", project / "config-backup")
    world.grant_confined(project)
    host = Hostile(world)
    try:
        assert host.attack("read", path=str(project / "main.py")) == "ok:print('hello')\n"
        assert host.attack("write", path=str(project / "config-backup")) in REFUSED
        assert host.attack("write", path=str(project / "main.py")) in REFUSED
    finally:
        host.close()
    assert (project / ".git" / "config").read_text(encoding="utf-8") == "[core]\n"
    assert "another name (a hard link)" in host.stderr()
    assert f"{project} is read-only for this run" in host.stderr()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_repository_past_the_search_is_not_emptied_by_its_name(world: World) -> None:
    """``truncate`` by a path, in a grant searched in part: a repository's config there is
    never emptied (the user's remotes, branches); other files are cut as asked."""
    _home_world(world)
    work = world.home / "work"
    app = work / "a" / "b" / "c" / "d" / "e" / "f" / "app"
    (app / ".git").mkdir(parents=True)
    (app / ".git" / "config").write_text("[core]\n", encoding="utf-8")
    (app / "data.txt").write_text("0123456789", encoding="utf-8")
    world.grant_confined(work)
    host = Hostile(world)
    try:
        assert host.attack("truncate", path=str(app / ".git" / "config")) in REFUSED
        assert host.attack("truncate", path=str(app / "data.txt"), length=4) == "ok"
        assert host.attack("truncate", path=str(app), length=0) == "EISDIR"
    finally:
        host.close()
    assert (app / ".git" / "config").read_text(encoding="utf-8") == "[core]\n"
    assert (app / "data.txt").read_text(encoding="utf-8") == "0123"


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_bare_repository_in_a_grant_keeps_its_hooks_and_config(world: World) -> None:
    """``~/work/repos/app.git``, a bare repository the user pushes to: git runs its hooks at
    each push and reads its config, so the server may write neither."""
    _home_world(world)
    work = world.home / "work"
    bare = work / "repos" / "app.git"
    for name in ("hooks", "objects", "refs"):
        (bare / name).mkdir(parents=True)
    (bare / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (bare / "config").write_text("[core]\n\tbare = true\n", encoding="utf-8")
    (bare / "description").write_text("app\n", encoding="utf-8")
    world.grant_confined(work)
    host = Hostile(world)
    try:
        assert host.attack("overwrite", path=str(bare / "description")) == "ok"
        config = bare / "config"
        assert host.attack("overwrite", path=str(config)) in REFUSED
        assert host.attack("write", path=str(config)) in REFUSED
        assert host.attack("replace", path=str(config)) in REFUSED
        assert host.attack("create", path=str(bare / "hooks" / "post-receive")) in REFUSED
    finally:
        host.close()
    assert (bare / "config").read_text(encoding="utf-8") == "[core]\n\tbare = true\n"
    assert list((bare / "hooks").iterdir()) == []
