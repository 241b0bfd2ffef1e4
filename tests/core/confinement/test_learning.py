"""Learning a server's grants: the smallest grants for what it was refused, never /, the home
folder or a secret."""

from __future__ import annotations

import os
from typing import Any

import pytest

from roots_manager.core.confinement.learning import Kind, Proposal, propose

HOME = "/home/me"


def refused(path: str | None, operation: str = "read", **more: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"kind": "denial", "path": path, "operation": operation}
    if path is not None:
        rec["folder"] = os.path.dirname(path)
    rec.update(more)
    return rec


def every_folder(path: str) -> bool:
    return True


def learned(*recs: dict[str, Any], **options: Any) -> Proposal:
    options.setdefault("is_dir", every_folder)
    options.setdefault("exists", every_folder)
    return propose(recs, home=HOME, **options)


def grants(p: Proposal) -> list[tuple[str, str, bool]]:
    return [(g.path, g.kind.value, g.read_only) for g in p.grants]


def left(p: Proposal) -> dict[str, str]:
    return {x.path: x.reason for x in p.left_out}


@pytest.mark.parametrize(
    ("recs", "expected"),
    [
        # one file refused alone in its folder: that file, never the whole folder
        (
            [refused("/home/me/Documents/report.pdf")],
            [("/home/me/Documents/report.pdf", "file", True)],
        ),
        ([refused("/srv/a/out.txt", "write")], [("/srv/a/out.txt", "file", False)]),
        # the same file refused again is still one file
        ([refused("/srv/a/x"), refused("/srv/a/x")], [("/srv/a/x", "file", True)]),
        # two files of one folder ask for the folder, read only
        (
            [refused("/home/me/notes/todo.md"), refused("/home/me/notes/done.md")],
            [("/home/me/notes", "folder", True)],
        ),
        # a file and its folder's listing, the folder
        (
            [refused("/srv/a/x"), refused("/srv/a", "list")],
            [("/srv/a", "folder", True)],
        ),
        # a file refused among a count folded at the server's end: the folder
        ([refused("/srv/a/x", folded=3)], [("/srv/a", "folder", True)]),
        # a listing, that folder
        ([refused("/srv/data", "list")], [("/srv/data", "folder", True)]),
        # many files of one folder: the folder, once
        (
            [refused(f"/home/me/notes/{i}.md") for i in range(5)],
            [("/home/me/notes", "folder", True)],
        ),
        # a write, a made or a removed file anywhere in it: read and write
        (
            [refused("/home/me/notes/a.md"), refused("/home/me/notes/b.md", "write")],
            [("/home/me/notes", "folder", False)],
        ),
        ([refused("/home/me/out/new.txt", "create")], [("/home/me/out", "folder", False)]),
        ([refused("/home/me/out/old.txt", "remove")], [("/home/me/out", "folder", False)]),
        # running a program needs more than a read-only grant allows
        ([refused("/opt/tool/bin/run", "execute")], [("/opt/tool/bin", "folder", False)]),
        # a folder inside another one asked for is folded into it, its write with it
        (
            [refused("/srv/a/x"), refused("/srv/a/deep/er/y", "write"), refused("/srv/a/z")],
            [("/srv/a", "folder", False)],
        ),
        # two sibling folders stay two: their parent holds folders nothing asked for
        (
            [refused("/srv/a/x"), refused("/srv/a/w"), refused("/srv/b/y"), refused("/srv/b/z")],
            [("/srv/a", "folder", True), ("/srv/b", "folder", True)],
        ),
        # and a file alone in each, each file
        (
            [refused("/srv/a/x"), refused("/srv/b/y")],
            [("/srv/a/x", "file", True), ("/srv/b/y", "file", True)],
        ),
        # a file right in the home folder: that file alone, never the home folder
        ([refused("/home/me/.gitconfig")], [("/home/me/.gitconfig", "file", True)]),
        ([refused("/home/me/.bash_history", "write")], [("/home/me/.bash_history", "file", False)]),
        # a file of a folder that holds credentials (~/.config holds ~/.config/gh): the file
        ([refused("/home/me/.config/app.toml")], [("/home/me/.config/app.toml", "file", True)]),
        # a file at the top of the file system: the file, never /
        ([refused("/data.txt")], [("/data.txt", "file", True)]),
        # a count of refusals folded at the server's end names its folder only
        ([refused(None, folder="/srv/big", folded=500)], [("/srv/big", "folder", True)]),
    ],
)
def test_the_smallest_grants_for_what_was_refused(
    recs: list[dict[str, Any]], expected: list[tuple[str, str, bool]]
) -> None:
    assert grants(learned(*recs)) == expected


@pytest.mark.parametrize(
    ("rec", "reason"),
    [
        (refused("/", "list"), "the whole file system"),
        (refused("/home/me", "list"), "the home folder, or a folder holding it"),
        (refused("/home", "list"), "the home folder, or a folder holding it"),
        (refused("/home/me/.ssh/id_x"), "credentials (~/.ssh)"),
        (refused("/home/me/.ssh", "list"), "credentials (~/.ssh)"),
        (refused("/home/me/.gnupg/pubring.kbx"), "credentials (~/.gnupg)"),
        (refused("/home/me/.aws/credentials"), "credentials (~/.aws)"),
        (
            refused("/home/me/.local/share/keyrings/login.keyring"),
            "credentials (~/.local/share/keyrings)",
        ),
        (refused("/home/me/.config/gh/hosts.yml"), "credentials (~/.config/gh)"),
        (refused("/home/other/notes.txt"), "another user's home"),
        (refused("/home/me/new.txt", "create"), "the home folder, or a folder holding it"),
        # read as a file, not listed: a rule on the path would still be one on the whole folder
        (refused("/"), "the whole file system"),
        (refused("/home"), "the home folder, or a folder holding it"),
        (refused("/home/me"), "the home folder, or a folder holding it"),
        (refused("/home/me/.ssh/x", folded=40), "credentials (~/.ssh)"),
        (refused(None, "read", folder="/home/me/.ssh", folded=9), "credentials (~/.ssh)"),
        (refused("network: stream over IPv4", "connect"), "a connection, not a path"),
    ],
)
def test_never_the_root_the_home_folder_or_a_secret(rec: dict[str, Any], reason: str) -> None:
    got = learned(rec)
    assert got.grants == ()
    assert list(left(got).values()) == [reason]


def test_a_system_file_others_may_not_read_is_left_out() -> None:
    def stat(path: str) -> os.stat_result:
        return os.stat_result((0o100600, 0, 0, 1, 0, 0, 0, 0, 0, 0))

    got = learned(refused("/etc/shadow"), stat=stat)
    assert got.grants == () and left(got) == {"/etc/shadow": "a system file others may not read"}


def test_a_secret_among_ordinary_refusals_leaves_them_proposed() -> None:
    got = learned(
        refused("/work/a/x.txt"),
        refused("/home/me/.ssh/id_x"),
        refused("/home/me", "list"),
        refused("/", "list"),
        refused("/work/b", "list"),
    )
    assert grants(got) == [("/work/b", "folder", True), ("/work/a/x.txt", "file", True)]
    assert set(left(got)) == {"/home/me/.ssh/id_x", "/home/me", "/"}
    assert got.refusals == 5
    for g in got.grants:
        assert g.path not in ("/", HOME) and not g.path.startswith(HOME + "/.ssh")


def test_what_the_server_may_do_now_is_not_proposed_again() -> None:
    recs = (
        refused("/srv/a/x"),
        refused("/srv/b/y", "write"),
        refused("/srv/b/z"),
        refused("/home/me/.gitconfig"),
    )
    got = learned(*recs, granted={"/srv/a": True, "/srv/b": True, "/home/me/.gitconfig": True})
    # a read-only grant allows the read, not the write: that one is still proposed
    assert grants(got) == [("/srv/b", "folder", False)]
    assert set(left(got)) == {"/srv/a/x", "/home/me/.gitconfig"}
    assert learned(*recs, granted={"/srv": False, "/home/me/.gitconfig": False}).grants == ()


def test_a_folder_no_longer_there_is_left_out() -> None:
    got = learned(
        refused("/srv/gone", "list"), refused("/srv/here", "list"), is_dir=lambda p: "here" in p
    )
    assert grants(got) == [("/srv/here", "folder", True)]
    assert left(got) == {"/srv/gone": "no longer a folder"}


def test_a_file_alone_gone_since_asks_for_its_folder() -> None:
    got = learned(refused("/srv/a/x"), exists=lambda p: False)
    assert grants(got) == [("/srv/a", "folder", True)]


def test_a_file_no_longer_there_is_left_out() -> None:
    got = learned(
        refused("/home/me/.gone"), refused("/home/me/.here"), exists=lambda p: "here" in p
    )
    assert grants(got) == [("/home/me/.here", "file", True)]
    assert left(got) == {"/home/me/.gone": "no longer there"}


def test_ten_thousand_folders_inside_one_asked_for_are_folded_into_it() -> None:
    recs = [refused(f"/srv/tree/d{i}/e{j}/f") for i in range(100) for j in range(100)]
    got = learned(refused("/srv/tree/top"), *recs)
    assert grants(got) == [("/srv/tree", "folder", True)]
    assert got.grants[0].refusals == 10001


def test_counts_operations_and_examples_are_kept() -> None:
    got = learned(
        refused("/srv/a/1"),
        refused("/srv/a/2", folded=10),
        refused("/srv/a/3", "list"),
        refused("/srv/a/4"),
        refused("/srv/a/5"),
    )
    [g] = got.grants
    assert g.kind is Kind.FOLDER and g.refusals == 15 and got.refusals == 15
    assert g.operations == ("list", "read") and len(g.examples) == 3
    doc = got.as_json()
    assert doc["grants"][0]["path"] == "/srv/a" and doc["grants"][0]["read_only"] is True


def test_malformed_events_are_skipped_or_left_out_never_granted() -> None:
    got = learned(
        {"kind": "denial"},
        {"kind": "denial", "operation": "read", "path": 7},
        {"kind": "denial", "operation": "read", "path": "relative/x"},
        {"kind": "denial", "operation": None, "path": "/srv/a/x"},
    )
    assert got.grants == ()
    assert left(got) == {"relative/x": "not a path"}


def test_a_servers_own_state_folder_is_proposed_to_be_made_never_as_a_root() -> None:
    """Issue 37: ``~/.serena`` made at start was left out ("the home folder, or a folder
    holding it"); it is proposed to be made, alone, as a writable path of the confinement.
    A secret or a kept place made so is still left out, and a file made in the home too."""
    p = learned(
        refused("/home/me/.serena", "create", call="mkdir"),
        refused("/home/me/.cache/chrome-devtools-mcp", "create", call="mkdirat"),
        refused("/home/me/.ssh", "create", call="mkdir"),
        refused("/home/me/.config", "create", call="mkdir"),
        refused("/home/me/test.db", "create", call="openat"),
    )
    assert grants(p) == [
        ("/home/me/.cache/chrome-devtools-mcp", "create", False),
        ("/home/me/.serena", "create", False),
    ]
    assert set(left(p)) == {"/home/me/.ssh", "/home/me/.config", "/home/me/test.db"}
    # made and allowed already: nothing to propose
    again = learned(refused("/home/me/.serena", "create", call="mkdir"),
                    granted={"/home/me/.serena": False})  # fmt: skip
    assert grants(again) == []


def refused_domain(domain: str, port: int = 443) -> dict[str, Any]:
    """The proxy's refusal of *domain*, as the bridge logs it."""
    return refused(f"network: {domain}:{port}", "connect", domain=domain, port=port)


def test_a_domain_refused_is_proposed_as_a_domain_never_as_a_path() -> None:
    got = learned(
        refused_domain("API.example.com"),
        refused_domain("api.example.com", 80),
        refused_domain("registry.npmjs.org"),
        refused("/srv/data/a.csv"),
    )
    assert grants(got) == [
        ("/srv/data/a.csv", "file", True),
        ("api.example.com", "domain", False),
        ("registry.npmjs.org", "domain", False),
    ]
    api = next(g for g in got.grants if g.path == "api.example.com")
    assert api.refusals == 2 and api.operations == ("connect",)
    assert not any(g.path.startswith("network") for g in got.grants)
    assert got.left_out == ()


def test_a_domain_the_server_may_reach_now_is_left_out() -> None:
    recs = (refused_domain("registry.npmjs.org"), refused_domain("api.example.com"))
    got = learned(*recs, domains=["*.npmjs.org"])
    assert grants(got) == [("api.example.com", "domain", False)]
    assert left(got) == {"registry.npmjs.org": "the server may do this now"}
    # the whole network (its limit taken away since): nothing to propose
    assert learned(*recs, domains=None).grants == ()


def test_a_connection_the_proxy_did_not_name_or_no_domain_is_left_out() -> None:
    got = learned(refused_domain("exa mple.com"), refused("network: stream over IPv4", "connect"))
    assert got.grants == ()
    assert set(left(got).values()) == {"a connection, not a path"}
