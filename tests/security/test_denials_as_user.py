"""A confined server's refusals are denial events as root and as an ordinary user alike.

The observer needs no privilege: the same bridge, run by a user who holds no capability, tells
the refusal of the server's own key file, tied to the ``tools/call`` that named it.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import only_on_linux
from tests.polling import wait_for
from tests.security.confined import Hostile, World, users

pytestmark = only_on_linux("confinement (Landlock) and its observer are Linux only")


def _denials(world: World) -> list[dict[str, object]]:
    found = []
    for path in sorted((world.rm_home / "logs").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            if rec.get("kind") == "denial":
                found.append(rec)
    return found


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
        lambda: [d for d in _denials(world) if d.get("path") == key], "the key's denial"
    )
    denial = found[0]
    assert denial["operation"] == "read" and denial["during"] == "request"
    [request] = denial["requests"]  # type: ignore[misc]
    assert request["method"] == "tools/call" and request["tool"] == "attack"
    assert request["argument"] == "path"
    assert any(d.get("path") == str(world.sibling / "notes.txt") for d in _denials(world))
