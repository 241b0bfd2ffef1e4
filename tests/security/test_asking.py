"""Ask, don't refuse: a confined server's read outside its grants waits while the user answers.

A real confined server behind a real bridge, as root and as an ordinary user: while a
``tools/call`` runs, a read outside its grants waits; the user grants the folder with the CLI
meanwhile, and the very call reads it, the server not restarted. What the user did not grant,
a secret inside what they did, and anything once revoked, is refused as ever; outside a
request nothing waits.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

from tests.conftest import only_on_linux
from tests.polling import wait_for
from tests.security.confined import SECRET, Hostile, World, users

pytestmark = only_on_linux("confinement (Landlock) and its supervisor are Linux only")

RACE_SECONDS = 30.0
"""How long each of the two races against a read served by the supervisor runs."""


def _in_background(host: Hostile, path: str) -> tuple[threading.Thread, list[str]]:
    said: list[str] = []
    reading = threading.Thread(target=lambda: said.append(host.attack("read", path=path)))
    reading.start()
    return reading, said


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_folder_granted_while_the_call_waits_is_read_by_that_call(world: World) -> None:
    world.setup()
    world.cli("servers", "ask", "srv", "60")
    world.answering()
    notes = str(world.sibling / "notes.txt")
    host = Hostile(world)
    try:
        pid = host.pid()
        started = time.monotonic()
        reading, said = _in_background(host, notes)
        waiting = wait_for(
            lambda: [d for d in world.denials() if d.get("path") == notes and d.get("waits")],
            "the refusal that waits",
        )
        assert waiting[0]["waits"] == 60 and waiting[0]["requests"][0]["tool"] == "attack"
        assert not said  # the call waits
        world.cli("grant", "srv", str(world.sibling), "--read-only")
        reading.join(60)
        assert said == ["ok:sibling\n"], said
        assert time.monotonic() - started < 50  # answered by the grant, not the timeout
        # the rest of the folder is read at once, and listed; the server was never restarted
        assert host.attack("listdir", path=str(world.sibling)) == "ok:notes.txt"
        assert host.pid() == pid
        # a folder granted does not open another, nor writing
        assert host.attack("write", path=notes) == "EACCES"
    finally:
        host.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_what_was_not_granted_hidden_or_revoked_is_refused_and_nothing_waits_unasked(
    world: World,
) -> None:
    world.setup()
    world.cli("servers", "ask", "srv", "2")
    world.answering()
    notes = str(world.sibling / "notes.txt")
    host = Hostile(world)
    try:
        # no answer: refused once the time is up, and later reads there at once
        started = time.monotonic()
        assert host.attack("read", path=notes) == "EACCES"
        assert 1.5 < time.monotonic() - started < 30
        started = time.monotonic()
        assert host.attack("read", path=notes) == "EACCES"
        assert time.monotonic() - started < 1.5
        # the home granted while the call waits: its secrets stay hidden
        world.cli("roots", "add", str(world.home), "--allow-broad")
        world.cli("grant", "srv", str(world.home), "--read-only")
        assert host.attack("read", path=str(world.key)) in ("EACCES", "ENOENT")
        # granted, then revoked: read, then refused again
        world.cli("grant", "srv", str(world.sibling), "--read-only")
        assert wait_for(
            lambda: host.attack("read", path=notes) == "ok:sibling\n", "the grant served"
        )
        world.cli("revoke", "srv", str(world.sibling))
        assert wait_for(lambda: host.attack("read", path=notes) == "EACCES", "the revocation")
    finally:
        host.close()
    assert SECRET not in json.dumps(world.denials())


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_file_allowed_while_the_call_waits_is_read_and_nothing_beside_it(
    world: World,
) -> None:
    world.setup()
    world.cli("servers", "ask", "srv", "10")
    world.answering()
    notes = world.sibling / "notes.txt"
    other = world.sibling / "other.txt"
    other.write_text("beside it\n", encoding="utf-8")
    world.hand_over()
    host = Hostile(world)
    try:
        reading, said = _in_background(host, str(notes))
        wait_for(
            lambda: [d for d in world.denials() if d.get("path") == str(notes) and d.get("waits")],
            "the refusal that waits",
        )
        world.cli("servers", "confine", "srv", "--allow-read", str(notes))
        reading.join(60)
        assert said == ["ok:sibling\n"], said
        # the file alone: what lies beside it waits, unanswered, and is refused
        assert host.attack("read", path=str(other)) == "EACCES"
        assert host.attack("listdir", path=str(world.sibling)) == "EACCES"
    finally:
        host.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_read_served_by_the_supervisor_never_reaches_what_was_not_granted(
    world: World,
) -> None:
    """A folder granted while the server runs is served by its supervisor: a hostile server
    swaps the path's bytes in its memory for a secret's while the call waits, and a link on
    its path is swapped between the granted folder and the secret's (from outside), and it
    never reads anything but the granted file: raced for a minute, :data:`RACE_SECONDS` each."""
    import os

    world.setup()
    world.cli("servers", "ask", "srv", "2")
    notes = str(world.sibling / "notes.txt")
    link = world.base / "flip"
    os.symlink(world.sibling, link)
    (world.key.parent / "notes.txt").write_text(SECRET, encoding="utf-8")  # the same name
    host = Hostile(world)
    try:
        world.cli("grant", "srv", str(world.sibling), "--read-only")
        assert wait_for(
            lambda: host.attack("read", path=notes) == "ok:sibling\n", "the grant served"
        )
        said = host.attack(
            "race_read", path=notes, expect="sibling\n", secret=str(world.key), seconds=RACE_SECONDS
        )
        opened, leaked = (int(n) for n in said.split(":"))
        assert opened > 0 and leaked == 0, said
        stop = time.monotonic() + RACE_SECONDS

        def flip() -> None:
            while time.monotonic() < stop:
                for target in (world.key.parent, world.sibling):
                    os.symlink(target, str(link) + ".new")
                    os.replace(str(link) + ".new", link)

        flipper = threading.Thread(target=flip)
        flipper.start()
        try:
            said = host.attack(
                "race_read", path=str(link / "notes.txt"), expect="sibling\n", seconds=RACE_SECONDS
            )
        finally:
            flipper.join()
        opened, leaked = (int(n) for n in said.split(":"))
        assert opened > 0 and leaked == 0, said
    finally:
        host.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_questions_are_listed_and_answered_from_the_command_line(world: World) -> None:
    """``roots-manager questions`` lists the reads waiting; ``answer N deny`` refuses them at
    once (and their folder is not asked about again), ``answer N read-only`` lets the call
    read."""
    world.setup()
    world.cli("servers", "ask", "srv", "60")
    world.answering()
    other = world.base / "work" / "other"
    other.mkdir()
    (other / "plan.txt").write_text("the plan\n", encoding="utf-8")
    world.cli("roots", "add", str(other))
    notes = str(world.sibling / "notes.txt")
    host = Hostile(world)
    try:

        def questions() -> list[dict[str, Any]]:
            return list(json.loads(world.cli("questions", "--json").stdout)["questions"])

        started = time.monotonic()
        reading, said = _in_background(host, notes)
        asked = wait_for(questions, "the question")
        assert asked[0]["number"] == 1 and asked[0]["path"] == notes and asked[0]["left"] > 30
        assert world.cli_as_owner("answer", "1", "deny").returncode == 0
        reading.join(60)
        assert said == ["EACCES"] and time.monotonic() - started < 40
        started = time.monotonic()
        assert host.attack("read", path=notes) == "EACCES"  # not asked again
        assert time.monotonic() - started < 10
        wait_for(lambda: not questions(), "the question listed no more")
        reading, said = _in_background(host, str(other / "plan.txt"))
        wait_for(questions, "the second question")
        answered = world.cli("answer", "1", "read-only")
        assert answered.returncode == 0, answered.stderr
        reading.join(60)
        assert said == ["ok:the plan\n"], said
        with pytest.raises(AssertionError, match="no-question"):
            world.cli("answer", "1", "deny", "--json")  # nothing waits: exit 1, said why
    finally:
        host.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_signal_does_not_cut_a_call_the_supervisor_holds(world: World) -> None:
    """Once the supervisor has taken a call, a signal the server handles no longer interrupts
    it (seccomp's killable wait, Linux 5.19): a held read still ends as the user's answer says,
    where a filter installed without it (as on an older kernel) ends with EINTR. A shell's
    ``fork`` failed so ("Cannot fork") whenever its SIGCHLD came while a fork waited."""
    from roots_manager.sandbox.seccomp import TEST_INTERRUPTIBLE_ENV

    world.setup()
    world.cli("servers", "ask", "srv", "3")
    world.answering()
    notes = str(world.sibling / "notes.txt")
    outcomes = {}
    for label, extra in (("killable", {}), ("interruptible", {TEST_INTERRUPTIBLE_ENV: "1"})):
        world.env.update(extra)
        host = Hostile(world)
        try:
            outcomes[label] = host.attack("signalled_read", path=notes, after=0.5)
        finally:
            host.close()
    # held 3 s, refused when no answer came; without the killable wait, cut at the signal
    assert outcomes == {"killable": "EACCES", "interruptible": "EINTR"}, outcomes


@pytest.mark.parametrize("world", users(), indirect=True)
def test_an_answer_for_once_or_for_the_run_saves_nothing(world: World) -> None:
    """``answer N read-only --for once`` serves the read waiting, and the next read there is
    asked about again; ``--for run`` serves every later read there at once, until the server
    ends; neither is saved (the store grants nothing new). ``questions --follow --json`` prints
    each question as it is asked."""
    world.setup()
    world.cli("servers", "ask", "srv", "60")
    notes = str(world.sibling / "notes.txt")
    before = world.cli("servers", "show", "srv", "--json").stdout
    follower = world.answering()
    host = Hostile(world)
    try:
        assert follower.stdout is not None
        reading, said = _in_background(host, notes)
        asked = json.loads(follower.stdout.readline())  # as soon as it is asked
        assert asked["path"] == notes and asked["number"] == 1 and asked["waits"] == 60
        once = world.cli_as_owner("answer", "1", "read-only", "--for", "once", "--json")
        assert once.returncode == 0, once.stderr
        assert json.loads(once.stdout)["for"] == "once"
        reading.join(60)
        assert said == ["ok:sibling\n"], said
        # once: the next read there waits again, and a no refuses it
        reading, said = _in_background(host, notes)
        again = json.loads(follower.stdout.readline())
        assert again["path"] == notes, again
        assert world.cli_as_owner("answer", "1", "deny").returncode == 0
        reading.join(60)
        assert said == ["EACCES"], said
        # for the run, in another folder: served now and at once after, with no question
        other = world.base / "work" / "other"
        other.mkdir()
        (other / "plan.txt").write_text("the plan\n", encoding="utf-8")
        (other / "more.txt").write_text("more\n", encoding="utf-8")
        world.cli("roots", "add", str(other))
        reading, said = _in_background(host, str(other / "plan.txt"))
        assert json.loads(follower.stdout.readline())["path"] == str(other / "plan.txt")
        run = world.cli_as_owner("answer", "1", "read-only", "--for", "run")
        assert run.returncode == 0, run.stderr
        reading.join(60)
        assert said == ["ok:the plan\n"], said
        started = time.monotonic()
        assert host.attack("read", path=str(other / "more.txt")) == "ok:more\n"
        assert time.monotonic() - started < 30  # not held for an answer
        assert host.attack("write", path=str(other / "more.txt")) == "EACCES"  # reads only
    finally:
        host.close()
    assert world.cli("servers", "show", "srv", "--json").stdout == before  # nothing saved


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_confined_server_asks_by_default_only_while_someone_can_answer(world: World) -> None:
    """Asking is on by default (30 s), and a read waits only while someone can answer: with
    nobody (no app, no ``questions --follow``) it is refused at once and recorded as a plain
    refusal; with a follower it waits as a question; a secret is never asked about; ``servers
    ask NAME off`` refuses at once from the next start."""
    from roots_manager.sandbox.asking import NOT_ASKED_FOR

    world.setup()  # no servers ask: the default
    notes = str(world.sibling / "notes.txt")
    host = Hostile(world)
    try:
        started = time.monotonic()
        assert host.attack("read", path=notes) == "EACCES"
        assert time.monotonic() - started < 10  # not held for its 30 s: nobody to answer
        world.answering()
        # a folder whose read was no question is not asked about for a moment: a walk there
        # waits for the bridge once a second, not once a file
        time.sleep(NOT_ASKED_FOR)
        started = time.monotonic()
        assert host.attack("read", path=str(world.key)) == "EACCES"  # a secret: not asked
        assert time.monotonic() - started < 10
        reading, said = _in_background(host, notes)
        waiting = wait_for(
            lambda: [d for d in world.denials() if d.get("path") == notes and d.get("waits")],
            "the refusal that waits",
        )
        assert waiting[0]["waits"] == 30 and not said
        assert world.cli_as_owner("answer", "1", "deny").returncode == 0
        reading.join(60)
        assert said == ["EACCES"], said
    finally:
        host.close()
    told = [d for d in world.denials() if d.get("path") in (notes, str(world.key))]
    assert [d["path"] for d in told] == [notes, str(world.key), notes], told
    assert [bool(d.get("waits")) for d in told] == [False, False, True], told
    world.cli("servers", "ask", "srv", "off")
    other = world.base / "work" / "other"
    other.mkdir()
    (other / "plan.txt").write_text("the plan\n", encoding="utf-8")
    world.hand_over()
    host = Hostile(world)
    try:
        started = time.monotonic()
        assert host.attack("read", path=str(other / "plan.txt")) == "EACCES"
        assert time.monotonic() - started < 10
    finally:
        host.close()
    assert not [d for d in world.denials() if d.get("waits") and "other" in d["path"]]
