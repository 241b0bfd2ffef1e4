"""A database named on a confined server's command line, in a folder it may not write.

``uvx mcp-server-sqlite --db-path ~/test.db``: the server may make and write that one file and
SQLite's companions beside it (``-journal``, ``-wal``, ``-shm``), which the supervisor makes in
the folder it checked (:mod:`roots_manager.sandbox.making`), and nothing else there: no other
name, by any call, no companion as a link or a folder, nothing through ``..``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import only_on_linux
from tests.security.confined import HOSTILE, Hostile, World, users

pytestmark = only_on_linux("confinement is tested on Linux (Landlock and seccomp)")
REFUSED = ("EACCES", "EPERM", "EROFS")
WAYS = ("file", "creat", "folder", "fifo", "symlink", "link", "rename", "through", "tmpfile")


def _server(world: World, db: Path) -> Hostile:
    world.setup()
    return Hostile(world, [sys.executable, str(HOSTILE), "--db-path", str(db)])


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_database_named_in_the_home_is_made_and_written_with_its_companions(
    world: World,
) -> None:
    """The file is made, written in both journal modes (its journal made and removed, its
    write-ahead log and index made), and read back; the home holds nothing else new."""
    db = world.home / "test.db"
    before = {p.name for p in world.home.iterdir()}
    host = _server(world, db)
    try:
        assert host.attack("sqlite", path=str(db), journal="delete") == "ok:1", host.stderr()
        assert host.attack("sqlite", path=str(db), journal="wal") == "ok:2"
        assert host.attack("sqlite", path=str(db), journal="delete") == "ok:3"
        # the home itself stays closed: no other name, nor a read outside the file
        assert host.attack("make", path=str(world.home / "other.db"), how="file") in REFUSED
        assert host.attack("read", path=str(world.key)) in REFUSED
    finally:
        host.close()
    made = {p.name for p in world.home.iterdir()} - before
    assert made == {"test.db"}, made  # the companions were removed as SQLite ends
    assert db.stat().st_size > 0
    shown = json.loads(world.cli("servers", "show", "srv", "--json").stdout)
    assert shown["own_files"] == [str(db)]
    # what it may do is no refusal: nothing of it is told, while the other name is
    told = [json.dumps(d) for d in world.denials()]
    assert not [d for d in told if "test.db" in d], told
    assert [d for d in told if "other.db" in d], told


@pytest.mark.parametrize("world", users(), indirect=True)
def test_no_other_name_is_made_beside_the_database_by_any_call(world: World) -> None:
    db = world.home / "test.db"
    host = _server(world, db)
    got_through = []
    try:
        assert host.attack("sqlite", path=str(db)) == "ok:1", host.stderr()
        for name in ("test.db.bashrc", "test.db-wal2", "test.d", ".bashrc", "x-journal"):
            for how in WAYS:
                outcome = host.attack("make", path=str(world.home / name), how=how)
                if outcome not in REFUSED:
                    got_through.append((name, how, outcome))
        # a companion is a regular file made new, never a link, a folder or a FIFO
        for how in ("folder", "fifo", "symlink", "link", "rename", "through", "tmpfile"):
            outcome = host.attack("make", path=str(world.home / "test.db-wal"), how=how)
            if outcome not in REFUSED:
                got_through.append(("test.db-wal", how, outcome))
        # the name in the folder above is another name
        outcome = host.attack("make", path=str(world.home / ".." / "test.db-shm"), how="file")
        if outcome not in REFUSED:
            got_through.append(("../test.db-shm", "file", outcome))
        # the database itself is not removed, renamed away or replaced
        for what, args in (
            ("remove", {"path": str(db)}),
            ("rename", {"path": str(db), "to": str(world.home / "moved.db")}),
        ):
            outcome = host.attack(what, **args)
            if outcome not in REFUSED:
                got_through.append((what, "", outcome))
    finally:
        host.close()
    assert not got_through, got_through
    left = sorted(p.name for p in world.home.iterdir() if p.name.startswith(("test", "x-")))
    assert left == ["test.db"], left
    assert not (world.home / ".bashrc").exists()
    assert not (world.base / "test.db-shm").exists()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_companion_that_is_a_link_is_not_written_through(world: World) -> None:
    """A ``test.db-journal`` that is a link (to a shell start file), made while the server
    runs, is refused, not followed: the file it leads to is not written, nor made."""
    db = world.home / "test.db"
    target = world.home / ".bashrc"
    target.write_text("# the user's\n", encoding="utf-8")
    host = _server(world, db)
    try:
        assert host.attack("sqlite", path=str(db)) == "ok:1", host.stderr()
        (world.home / "test.db-journal").symlink_to(target)
        (world.home / "test.db-wal").symlink_to(world.home / ".profile")
        for name in ("test.db-journal", "test.db-wal"):
            outcome = host.attack("write", path=str(world.home / name), text="planted")
            assert outcome in REFUSED, (name, outcome)
        assert host.attack("sqlite", path=str(db)) != "ok:2"  # its journal cannot be made
    finally:
        host.close()
    assert target.read_text(encoding="utf-8") == "# the user's\n"
    assert not (world.home / ".profile").exists()
