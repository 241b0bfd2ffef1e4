"""The refusals waiting: grouped by server, folder and operation, the newest actionable shown,
start-up ones ignored at once, a grant taking what it covers."""

from __future__ import annotations

from roots_manager.core.confinement.offers import Offer
from roots_manager.core.confinement.refusals import Refusals

HOME = "/home/me"


def refused(path: str, during: str = "request", server: str = "fs", op: str = "read") -> dict:  # type: ignore[type-arg]
    return {"kind": "denial", "server": server, "path": path, "operation": op, "during": during}


def test_refusals_of_one_folder_and_operation_are_one_group_newest_first() -> None:
    board = Refusals(HOME, own=())
    board.add([refused("/home/me/a/1"), refused("/home/me/b/1"), refused("/home/me/a/2")])
    board.add([refused("/home/me/a/3", op="write"), {"kind": "denial"}])
    groups = board.groups()
    assert [(g.folder, g.operation, g.count) for g in groups] == [
        ("/home/me/a", "write", 1),
        ("/home/me/a", "read", 2),
        ("/home/me/b", "read", 1),
    ]
    assert groups[1].newest["path"] == "/home/me/a/2"


def test_the_newest_that_can_be_acted_on_is_shown_and_start_up_goes_in_one_call() -> None:
    board = Refusals(HOME, own=())
    board.add([refused(f"/home/me/lib{i}/x", "start-up") for i in range(18)])
    board.add([refused("/home/me/api/main.py"), refused("/home/me/.ssh/id_ed25519")])
    shown = board.shown()
    assert shown is not None and shown.folder == "/home/me/api"
    assert shown.offers.offers == (Offer.FOLDER, Offer.READ_ONLY, Offer.FILE)
    assert board.ignore_start_up("fs") == 18
    assert [g.folder for g in board.groups()] == ["/home/me/.ssh", "/home/me/api"]
    assert board.ignore(("fs", "/home/me/.ssh", "read"))
    assert board.shown() is shown


def test_a_grant_takes_the_groups_it_covers_of_that_server_only() -> None:
    board = Refusals(HOME, own=())
    board.add(
        [
            refused("/home/me/p/a/x"),
            refused("/home/me/p/b/y"),
            refused("/home/me/p/c", server="git"),
        ]
    )
    assert board.granted("fs", "/home/me/p") == 2
    assert [g.server for g in board.groups()] == ["git"]
    assert board.servers() == ["git"]


def test_a_refusal_allowed_where_it_was_shown_takes_its_group_and_what_the_grant_covers() -> None:
    """Allowed from a Log row (the event, not the group): one file allowed of a group of two
    takes the group, since the user answered it; another folder's group stays."""
    board = Refusals(HOME, own=())
    board.add([refused("/home/me/a/1"), refused("/home/me/a/2"), refused("/home/me/b/1")])
    assert board.allowed(refused("/home/me/a/1"), "/home/me/a/1") == 1
    assert [g.folder for g in board.groups()] == ["/home/me/b"]
    assert board.allowed({"kind": "denial"}, "/home/me/b") == 0  # not a refusal to show
    assert board.allowed(refused("/home/me/c/1"), "/home/me/b") == 1  # not waiting; b covered
    assert len(board) == 0


def refused_domain(domain: str, server: str = "fs") -> dict:  # type: ignore[type-arg]
    return {
        "kind": "denial",
        "server": server,
        "path": f"network: {domain}:443",
        "folder": "",
        "operation": "connect",
        "domain": domain,
        "port": 443,
        "during": "request",
    }


def test_the_proxys_refusals_are_one_group_per_domain_and_its_grant_takes_it() -> None:
    board = Refusals(HOME, own=())
    board.add([refused_domain("a.example"), refused_domain("b.example")])
    board.add([refused_domain("a.example"), refused("/home/me/a/1")])
    assert [(g.folder, g.operation, g.count) for g in board.groups()] == [
        ("/home/me/a", "read", 1),
        ("a.example", "connect", 2),
        ("b.example", "connect", 1),
    ]
    domain = next(g for g in board.groups() if g.folder == "a.example")
    assert domain.offers.offers == (Offer.DOMAIN,) and domain.actionable
    assert board.allowed(domain.newest, "a.example") == 1
    assert [g.folder for g in board.groups()] == ["/home/me/a", "b.example"]
