"""The folder a confined server was started in, when its rules refuse to list it, reads empty.

A host starts its servers where it is (the home, ``/``), and some runtimes list that folder at
their start and stop if they cannot (bun: "error loading current directory"). The supervisor
answers that read with Roots Manager's empty folder instead: the server goes on, and sees none
of the names. A real confined server behind a real bridge, as root and as an ordinary user,
tries every way out through the descriptor it was given; a start folder it was granted is
listed as it is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import only_on_linux
from tests.security.confined import SECRET, Hostile, World, users

pytestmark = only_on_linux("confinement (Landlock) and its supervisor are Linux only")


def _outcomes(said: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in said.split(" "))


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_start_folder_the_server_may_not_list_reads_empty_and_opens_nothing(
    world: World,
) -> None:
    world.setup()
    (world.home / "notes.txt").write_text("private\n", encoding="utf-8")
    host = Hostile(world, cwd=world.home)
    try:
        said = _outcomes(host.attack("start_folder", name="notes.txt"))
        # the listing goes on, with none of the home's names (.ssh, notes.txt)
        assert said["list"] == "ok:", said
        # nothing is reached through the stand-in: not its parent, not the real folder's
        # file by its name, nothing made in it, from outside or from inside
        assert said["parent"] == "EACCES", said
        assert said["beside"] in ("ENOENT", "EACCES"), said
        assert said["make"] in ("EACCES", "EPERM"), said
        assert said["mkdir"] in ("EACCES", "EPERM"), said
        assert said["inside"] in ("EACCES", "EPERM"), said
        assert said["inside-parent"] == "EACCES", said
        # a name taken from the start folder still reaches the real one, under the rules
        assert said["relative"] == "EACCES", said
        assert host.attack("read", path=str(world.key)) == "EACCES"
        # the home named in full is the same folder: empty too; another refused folder is not
        assert host.attack("listdir", path=str(world.home)) == "ok:"
        assert host.attack("listdir", path=str(world.home / ".ssh")) == "EACCES"
        assert host.attack("listdir", path=str(world.sibling)) == "EACCES"
    finally:
        host.close()
    stand_in = world.rm_home / "confined" / "empty"
    assert stand_in.is_dir() and not list(stand_in.iterdir())
    assert not (world.home / "planted").exists()
    # said once in the host's log, where a user looks
    said_empty = f"the folder it started in ({world.home}) reads empty to it"
    assert host.stderr().count(said_empty) == 1, host.stderr()
    assert SECRET not in host.stderr()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_server_that_asks_nothing_reads_its_start_folder_empty_too(world: World) -> None:
    world.setup()
    world.cli("servers", "ask", "srv", "off")  # no question: the bridge gives no answers pipe
    host = Hostile(world, cwd=world.home)
    try:
        said = _outcomes(host.attack("start_folder"))
        assert said["list"] == "ok:" and said["parent"] == "EACCES", said
        assert host.attack("read", path=str(world.sibling / "notes.txt")) == "EACCES"
    finally:
        host.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_server_started_in_the_root_lists_it_empty_and_reads_what_it_may(world: World) -> None:
    world.setup()
    host = Hostile(world, cwd=Path("/"))
    try:
        said = _outcomes(host.attack("start_folder", name="etc/hostname"))
        assert said["list"] == "ok:", said
        # a system file named from the start folder is read as the rules allow
        assert said["relative"].startswith("b'"), said
        assert said["parent"] == "EACCES", said  # the stand-in's, Roots Manager's folder
        assert said["beside"] in ("ENOENT", "EACCES"), said
    finally:
        host.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_start_folder_the_server_may_list_is_listed_as_it_is(world: World) -> None:
    world.setup()
    (world.granted / "notes.txt").write_text("granted\n", encoding="utf-8")
    host = Hostile(world, cwd=world.granted)
    try:
        said = _outcomes(host.attack("start_folder", name="notes.txt"))
        assert said["list"] == "ok:notes.txt", said
        assert said["beside"] == "b'granted\\n'", said
        assert said["make"].isdigit(), said  # a descriptor: the grant is writable
    finally:
        host.close()
    assert (world.granted / "planted").exists()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_stand_in_that_is_not_empty_stands_in_for_nothing(world: World) -> None:
    world.setup()
    stand_in = world.rm_home / "confined" / "empty"
    stand_in.mkdir(parents=True)
    (stand_in / "left").write_text("not empty\n", encoding="utf-8")
    world.hand_over()
    host = Hostile(world, cwd=world.home)
    try:
        said = host.attack("start_folder")
        assert said == "open=EACCES", said  # refused, as without the stand-in
    finally:
        host.close()
