"""A confined server that keeps a folder of its own in the home (Desktop Commander's
``~/.claude-server-commander``, Serena's ``~/.serena``, arxiv-mcp-server's
``~/.arxiv-mcp-server``) gets it with nothing for the user to do, and what it writes there
reaches nobody else; another server granted the whole home cannot rewrite it.

The folder is derived from the package the command line runs (npm's through its ``bin``,
PyPI's through ``uvx``), made when missing and layered as a package cache is. Real bridges,
a hostile server, as root and as an ordinary user.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import only_on_linux
from tests.security.confined import Hostile, World, derived, run_by, users

pytestmark = only_on_linux("confinement is tested on Linux (Landlock and seccomp)")
REFUSED = ("EROFS", "EBUSY", "EACCES", "EPERM", "EXDEV")


SERVERS = {
    # what the corpus runs, as their READMEs say (bench/corpus/servers.toml)
    "arxiv": (("uvx", "arxiv-mcp-server"), ".arxiv-mcp-server", "papers/2401.00001.pdf"),
    "serena": (
        ("uvx", "--from", "serena-agent", "serena", "start-mcp-server"),
        ".serena",
        "memories/global/notes.md",
    ),
    "desktop-commander": (("desktop-commander",), ".claude-server-commander", "config.json"),
}


@pytest.mark.parametrize("server", SERVERS)
@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_server_gets_its_own_folder_made_and_layered(
    world: World, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (program, *words), name, inside = SERVERS[server]
    own = world.home / name
    world.setup()
    assert not own.exists()
    host = Hostile(world, run_by(world, program, *words))
    try:
        assert host.attack("create", path=str(own / inside)) == "ok"
        # the rest of the home is not its
        assert host.attack("create", path=str(world.home / "planted")) in REFUSED
        assert host.attack("read", path=str(world.key)) in REFUSED
    finally:
        host.close()
    # made by the bridge, and what the server wrote is in a layer of its own
    assert own.is_dir() and list(own.iterdir()) == []
    assert not (world.home / "planted").exists()
    shown = derived(world, monkeypatch)
    assert shown[str(own)]["access"] == "layered", shown
    # its next start finds what it wrote
    host = Hostile(world, run_by(world, program, *words))
    try:
        assert host.attack("read", path=str(own / inside)) == "ok:planted"
    finally:
        host.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_another_server_granted_the_home_cannot_rewrite_a_servers_folder(
    world: World,
) -> None:
    """Desktop Commander's configuration names the commands it refuses: a server the user
    granted the whole home reads it, and cannot change it."""
    own = world.home / ".claude-server-commander"
    own.mkdir()
    (own / "config.json").write_text('{"blockedCommands": ["rm"]}', encoding="utf-8")
    world.hand_over()
    world.grant_confined(world.home, broad=True)
    host = Hostile(world)
    try:
        assert host.attack("read", path=str(own / "config.json")).startswith("ok:")
        assert host.attack("overwrite", path=str(own / "config.json")) in REFUSED
        assert host.attack("create", path=str(own / "more.json")) in REFUSED
        assert host.attack("create", path=str(world.home / "mine.txt")) == "ok"
    finally:
        host.close()
    assert (own / "config.json").read_text(encoding="utf-8") == '{"blockedCommands": ["rm"]}'
    assert not Path(own / "more.json").exists()
