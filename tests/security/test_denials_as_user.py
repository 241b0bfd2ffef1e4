"""A confined server's refusals are denial events as root and as an ordinary user alike.

The observer needs no privilege: the same bridge, run by a user who holds no capability, tells
the refusal of the server's own key file, tied to the ``tools/call`` that named it.
"""

from __future__ import annotations

import pytest

from tests.conftest import only_on_linux
from tests.polling import wait_for
from tests.security.confined import Hostile, World, users

pytestmark = only_on_linux("confinement (Landlock) and its observer are Linux only")


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_refused_read_is_a_denial_event_for_root_and_for_a_user(world: World) -> None:
    world.setup()
    host = Hostile(world)
    try:
        assert host.attack("read", path=str(world.key)) == "EACCES"
        assert host.attack("read", path=str(world.sibling / "notes.txt")) == "EACCES"
    finally:
        host.close()
    key = str(world.key)
    found = wait_for(
        lambda: [d for d in world.denials() if d.get("path") == key], "the key's denial"
    )
    denial = found[0]
    assert denial["operation"] == "read" and denial["during"] == "request"
    [request] = denial["requests"]  # type: ignore[misc]
    assert request["method"] == "tools/call" and request["tool"] == "attack"
    assert request["argument"] == "path"
    assert any(d.get("path") == str(world.sibling / "notes.txt") for d in world.denials())


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_blocked_network_is_a_connect_denial_and_still_refused(world: World) -> None:
    world.setup()
    world.cli("servers", "network", "srv", "blocked")
    host = Hostile(world)
    try:
        said = dict(p.split("=", 1) for p in host.attack("network", port=9).split())
    finally:
        host.close()
    for way in ("tcp_connect", "tcp_bind", "udp_send", "raw", "packet"):
        assert said[way] in ("EACCES", "EPERM"), (way, said)
    assert said["netlink"] == "ok", said
    found = wait_for(
        lambda: [d for d in world.denials() if d.get("operation") == "connect"], "a connect denial"
    )
    first = found[0]
    assert first["path"] == "network: TCP over IPv4", first
    assert first["during"] == "request" and first["requests"][0]["tool"] == "attack"  # type: ignore[index]


@pytest.mark.parametrize("world", users(), indirect=True)
def test_names_made_for_the_server_and_refused_are_denial_events(world: World) -> None:
    """A new file in the read-only grant, a new folder beside the grants: the thread that makes
    the server's names meets the server's rules and is refused, and each refusal comes back to
    the supervisor to be told (the thread in C answers the calls it makes, but not those). Two
    folders: refusals in one folder within a second are folded into one event."""
    world.setup()
    file, folder = world.read_only / "new.txt", world.sibling / "new-folder"
    host = Hostile(world)
    try:
        assert host.attack("make", path=str(file), how="file") in ("EACCES", "EPERM")
        assert host.attack("make", path=str(folder), how="folder") in ("EACCES", "EPERM")
        assert host.attack("make", path=str(world.granted / "made"), how="folder") == "ok"
    finally:
        host.close()
    assert not file.exists() and not folder.exists()
    assert (world.granted / "made").is_dir()
    told = wait_for(
        lambda: (
            {d.get("path"): d.get("operation") for d in world.denials()}
            if {str(file), str(folder)} <= {d.get("path") for d in world.denials()}
            else None
        ),
        "the two refusals told",
    )
    assert told[str(file)] == told[str(folder)] == "create", told
