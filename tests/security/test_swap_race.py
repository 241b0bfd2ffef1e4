"""A folder swapped for a link to ``/`` while its confined server restarts, for a minute.

The hostile server is granted a folder and a folder inside it. Its accomplice, a second confined
server granted the outer folder only, swaps the inner one between the folder and a symbolic
link to ``/`` every few milliseconds, and goes on while the first one restarts. The test forces
a restart every round by granting and revoking a third folder (and the swap's own vanishing and
coming back restart it too). After every restart the new server tries to write into the home
folder, read a private key and list ``/``. Before rules were made from the very object checked,
a restarted server got out within 3 to 13 seconds.
"""

from __future__ import annotations

import time

from tests.conftest import only_on_linux
from tests.security.confined import Hostile, World

pytestmark = only_on_linux("confinement is tested on Linux (Landlock)")
RACE = 60.0


def test_a_folder_swapped_for_a_link_never_opens_the_disk(world: World) -> None:
    world.setup()
    child = world.granted / "child"
    child.mkdir()
    other = world.base / "work" / "other"
    other.mkdir()
    world.cli("roots", "add", str(child))
    world.cli("roots", "add", str(other))
    world.cli("grant", "srv", str(child))
    world.cli("grant", "--new", "mate", str(world.granted))
    world.cli("servers", "confine", "mate", "on")
    host = Hostile(world)
    mate = Hostile(world, name="mate")
    restarts = 0
    rounds = 0
    try:
        pid = host.pid()
        assert mate.attack("swap", folder=str(child), target="/") == "ok"
        end = time.monotonic() + RACE
        while time.monotonic() < end:
            rounds += 1
            world.cli("grant" if rounds % 2 else "revoke", "srv", str(other))
            new = host.restarted(pid)
            restarts += 1
            pid = new
            outcome = host.attack("escape", home=str(world.home))
            assert outcome == "write-home=EACCES;read-key=EACCES;list-root=EACCES", (
                rounds,
                outcome,
            )
    finally:
        host.close()
        mate.close()
    assert restarts >= 10, f"only {restarts} restarts in {RACE:.0f} s: the race was not run"
    assert not (world.home / "escaped").exists()
