"""``{roots}`` on a server's command line: the granted folders as arguments, and the restart a
change of them needs."""

from __future__ import annotations

import os
from pathlib import Path

from roots_manager.bridge.protocol.restart import Seen, restart_reason
from roots_manager.core.consent.arguments import expand, folders_now, takes_roots
from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import fingerprint

CMD = ["npx", "-y", "@modelcontextprotocol/server-filesystem", "{roots}"]


def test_each_folder_is_one_argument_and_none_leaves_no_empty_one() -> None:
    assert takes_roots(CMD) and not takes_roots(CMD[:-1])
    assert expand(CMD, ["/a b", "/c"]) == [*CMD[:-1], "/a b", "/c"]
    assert expand(CMD, []) == CMD[:-1]
    assert expand(["x", "{roots}", "--flag", "{roots}"], ["/a"]) == ["x", "/a", "--flag", "/a"]


def test_the_folders_are_the_grants_of_the_command_as_written(
    layout: Layout, tmp_path: Path
) -> None:
    granted, other = tmp_path / "granted", tmp_path / "other"
    granted.mkdir()
    other.mkdir()
    with Store(layout).transaction() as s:
        s.grant("fs", [s.add_root(str(granted)).id])
        s.add_root(str(other))
    assert folders_now(layout, "fs", fingerprint(CMD)) == [str(granted)]
    assert folders_now(layout, "nobody", fingerprint(CMD)) == []


def reason(given: list[str] | None, now: list[str]) -> str | None:
    seen = Seen(
        running=None,
        told=[],
        current=[Path(p).as_uri() for p in now],
        given=given,
        given_now=now,
    )
    found = restart_reason(seen, None)
    return None if found is None else str(found)


def test_a_server_given_its_folders_is_restarted_for_any_change_of_them() -> None:
    assert reason(["/a", "/b"], ["/a", "/b"]) is None
    assert reason(["/a", "/b"], ["/a"]) == "revoked: /b"
    assert reason(["/a"], ["/a", "/b"]) == "its folders changed"
    assert reason(None, ["/a"]) is None, "a server without {roots} keeps its own rules"


def test_an_engines_roots_among_its_options_are_bind_mounts() -> None:
    from roots_manager.core.consent.arguments import Mount, engine_image, expand_engine

    run = ["docker", "run", "-i", "--rm", "-e", "TOKEN", "{roots}", "mcp/fs", "{roots}"]
    assert engine_image(run) == 7
    assert (
        engine_image(["podman", "--remote", "--url", "unix:///s", "container", "run", "img"]) == 6
    )
    assert engine_image(["docker", "ps"]) is None
    assert engine_image(["npx", "run", "x"]) is None
    mounts = [Mount("/real/p", "/home/u/p", False), Mount("/ref", "/ref", True)]
    held = [Mount("/real/p/.git/hooks", "/home/u/p/.git/hooks", True)]
    out, skipped = expand_engine(run, [*mounts, Mount("/a:b", "/a:b", False)], held)
    assert out == [
        "docker", "run", "-i", "--rm", "-e", "TOKEN",
        "-v", "/real/p:/home/u/p", "-v", "/ref:/ref:ro",
        "-v", "/real/p/.git/hooks:/home/u/p/.git/hooks:ro",
        "mcp/fs", "/home/u/p", "/ref",
    ]  # fmt: skip
    assert skipped == ["/a:b"]


def test_an_engines_socket_is_derived_for_its_client_only(tmp_path: Path) -> None:
    from roots_manager.core.confinement.derive import engine_sockets

    env = {"HOME": str(tmp_path), "XDG_RUNTIME_DIR": "/run/user/1000"}
    assert engine_sockets(["npx", "-y", "x"], env) == []
    docker = engine_sockets(["docker", "run", "-i", "img"], env)
    assert docker == [os.path.join(os.path.realpath("/var/run"), "docker.sock")]
    named = engine_sockets(["docker", "-H", f"unix://{tmp_path}/d.sock", "run", "img"], env)
    assert named == [f"{tmp_path}/d.sock"]
    over_tcp = {**env, "DOCKER_HOST": "tcp://10.0.0.1:2375"}
    assert engine_sockets(["docker", "run", "img"], over_tcp) == []
    # a word after the subcommand is the container's, never the client's option
    assert engine_sockets(["podman", "run", "img", "--url", "unix:///x"], env) != ["/x"]
