"""What a server sees: grants, policies, trust on first use, availability, deduplication."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from roots_manager.core.consent.effective import effective, unavailable_reason
from roots_manager.core.roots.root import Root
from roots_manager.core.roots.uri import path_to_uri
from roots_manager.core.store.grants import Decision, Scope
from roots_manager.core.store.state import State, fingerprint
from roots_manager.support.refusal import ModelError

CMD = ["npx", "-y", "@modelcontextprotocol/server-filesystem"]


@pytest.fixture
def folders(tmp_path: Path) -> list[Path]:
    out = []
    for name in ("alpha", "beta project", "web#staging"):
        d = tmp_path / name
        d.mkdir()
        out.append(d)
    return out


def uris_of(result: dict[str, list[dict[str, str]]]) -> list[str]:
    return [r["uri"] for r in result["roots"]]


def test_unknown_server_sees_nothing_under_ask_and_deny(folders: list[Path]) -> None:
    s = State()
    for f in folders:
        s.add_root(str(f))
    for policy in ("ask", "deny"):
        s.set_policy(policy)
        assert effective(s, "stranger") == {"roots": []}


def test_allow_all_gives_every_available_root(folders: list[Path]) -> None:
    s = State()
    for f in folders:
        s.add_root(str(f))
    s.set_policy("allow-all")
    assert uris_of(effective(s, "stranger")) == [path_to_uri(str(f)) for f in folders]


def test_grants_in_root_order_with_names(folders: list[Path]) -> None:
    s = State()
    roots = [s.add_root(str(f), name=f"n{i}") for i, f in enumerate(folders)]
    s.grant("fs", [roots[2].id, roots[0].id])
    assert effective(s, "fs") == {
        "roots": [
            {"uri": path_to_uri(str(folders[0])), "name": "n0"},
            {"uri": path_to_uri(str(folders[2])), "name": "n2"},
        ]
    }
    assert "%23" in effective(s, "fs")["roots"][1]["uri"]


def test_revoked_root_never_appears_again(folders: list[Path]) -> None:
    s = State()
    r = s.add_root(str(folders[0]))
    s.grant("fs", [r.id])
    assert uris_of(effective(s, "fs"))
    s.revoke("fs", [r.id])
    assert effective(s, "fs") == {"roots": []}


def test_missing_and_unreadable_folders_are_left_out(folders: list[Path], tmp_path: Path) -> None:
    s = State()
    roots = [s.add_root(str(f)) for f in folders]
    s.grant("fs", [r.id for r in roots])
    folders[0].rmdir()
    assert unavailable_reason(str(folders[0])) == "missing"
    folders[1].rmdir()
    folders[1].write_text("now a file")
    assert unavailable_reason(str(folders[1])) == "not a folder"
    assert uris_of(effective(s, "fs")) == [path_to_uri(str(folders[2]))]
    folders[0].mkdir()
    assert uris_of(effective(s, "fs"))[0] == path_to_uri(str(folders[0]))


def _reason_as_unprivileged(path: str) -> str | None:
    """unavailable_reason() as seen by a user without root's power to read everything."""
    if os.geteuid() != 0:
        return unavailable_reason(path)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        os.close(read)
        os.setgid(65534)
        os.setuid(65534)
        os.write(write, (unavailable_reason(path) or "").encode())
        os._exit(0)
    os.close(write)
    out = os.read(read, 100).decode()
    os.close(read)
    os.waitpid(pid, 0)
    return out or None


def test_unreadable_folder_is_left_out() -> None:
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="rm-unreadable-"))
    try:
        base.chmod(0o755)
        folder = base / "locked"
        folder.mkdir()
        assert _reason_as_unprivileged(str(folder)) is None
        folder.chmod(0)
        assert _reason_as_unprivileged(str(folder)) == "unreadable"
    finally:
        (base / "locked").chmod(0o755)
        shutil.rmtree(base)


def test_two_roots_on_the_same_real_folder_appear_once(folders: list[Path], tmp_path: Path) -> None:
    link = tmp_path / "link-to-alpha"
    link.symlink_to(folders[0])
    s = State()
    a = s.add_root(str(folders[0]))
    b = s.add_root(str(link))
    s.grant("fs", [b.id, a.id])
    assert uris_of(effective(s, "fs")) == [path_to_uri(str(folders[0]))]


def test_trust_on_first_use_then_changed_command_suspends(folders: list[Path]) -> None:
    s = State()
    r = s.add_root(str(folders[0]))
    s.grant("fs", [r.id])  # granted before the server ever ran
    assert s.server_started("fs", CMD, "sess-1") is None  # bound to this command
    assert s.servers["fs"].fingerprint == fingerprint(CMD)
    assert uris_of(effective(s, "fs", fingerprint=fingerprint(CMD)))

    other = ["/tmp/evil-server"]
    req = s.server_started("fs", other, "sess-2")
    assert req is not None and req.reason == "command-changed" and req.previous_command == CMD
    assert effective(s, "fs", fingerprint=fingerprint(other)) == {"roots": []}
    assert effective(s, "fs") == {"roots": []}  # the last command seen is the changed one
    s.grant("fs", [r.id])  # a grant does not approve a changed command
    assert effective(s, "fs") == {"roots": []}
    s.approve("fs")
    assert uris_of(effective(s, "fs"))
    assert not s.pending


def test_approve_with_the_fingerprint_seen_refuses_a_command_changed_since(
    folders: list[Path],
) -> None:
    s = State()
    r = s.add_root(str(folders[0]))
    s.server_started("fs", CMD, "sess-1")
    s.grant("fs", [r.id])
    shown = ["/tmp/changed-server"]
    s.server_started("fs", shown, "sess-2")
    looked_at = fingerprint(shown)
    s.server_started("fs", ["/tmp/evil-server"], "sess-3")  # changed again before the click
    with pytest.raises(ModelError, match="another command line than the one expected") as exc:
        s.approve("fs", looked_at)
    assert "/tmp/evil-server" in str(exc.value)  # what it runs now, to look at
    now = fingerprint(["/tmp/evil-server"])
    # only the whole fingerprint: a prefix could be matched by a command made to match it
    for partial in (now[:12], now[:63], now + "0", "", "z" * 64):
        with pytest.raises(ModelError, match="is not a command fingerprint"):
            s.approve("fs", partial)
    assert s.servers["fs"].suspended and effective(s, "fs") == {"roots": []}
    s.approve("fs", now.upper())
    assert not s.servers["fs"].suspended and uris_of(effective(s, "fs"))


def test_unknown_server_gets_a_pending_request_and_grant_settles_it(folders: list[Path]) -> None:
    s = State()
    r = s.add_root(str(folders[0]))
    req = s.server_started("new", CMD, "sess-1")
    assert req is not None and req.reason == "new-server"
    assert s.server_started("new", CMD, "sess-2") is req  # the same request, not a second one
    assert len(s.pending) == 1
    assert effective(s, "new") == {"roots": []}
    s.decide(req.id, "always", [r.id])
    assert not s.pending
    assert uris_of(effective(s, "new", fingerprint=fingerprint(CMD)))


def test_deny_approves_the_command_but_grants_nothing(folders: list[Path]) -> None:
    s = State()
    s.add_root(str(folders[0]))
    req = s.server_started("new", CMD, "sess-1")
    assert req is not None
    s.decide("new", "deny")
    assert not s.pending and s.servers["new"].fingerprint == fingerprint(CMD)
    assert s.server_started("new", CMD, "sess-2") is None  # not asked again
    assert effective(s, "new") == {"roots": []}


def test_deny_policy_records_no_request() -> None:
    s = State()
    s.set_policy("deny")
    assert s.server_started("quiet", CMD, "sess") is None
    assert not s.pending


def test_while_running_grants_last_for_their_bridge_run(folders: list[Path]) -> None:
    s = State()
    r = s.add_root(str(folders[0]))
    req = s.server_started("fs", CMD, "sess-1")
    assert req is not None
    s.decide(req.id, Decision.WHILE_RUNNING, [r.id])
    assert uris_of(effective(s, "fs", run="sess-1"))
    assert effective(s, "fs", run="sess-other") == {"roots": []}
    assert uris_of(effective(s, "fs", live_runs={"sess-1"}))
    assert effective(s, "fs", live_runs=set()) == {"roots": []}
    s.run_ended("fs", "sess-1")
    assert effective(s, "fs") == {"roots": []}
    assert not s.grants


def test_unbound_while_running_grant_binds_to_the_next_bridge(folders: list[Path]) -> None:
    s = State()
    r = s.add_root(str(folders[0]))
    s.grant("fs", [r.id], Scope.WHILE_RUNNING)
    assert s.grants[0].runs == []
    s.server_started("fs", CMD, "sess-9")
    assert s.grants[0].runs == ["sess-9"]
    s.prune_runs(live=set())  # that bridge died without saying so
    assert not s.grants


def test_always_grant_replaces_a_while_running_grant(folders: list[Path]) -> None:
    s = State()
    r = s.add_root(str(folders[0]))
    s.grant("fs", [r.id], "session", ["sess-1"])
    s.grant("fs", [r.id], "always")
    assert [(g.scope, g.runs) for g in s.grants] == [("always", [])]
    s.run_ended("fs", "sess-1")
    assert s.grants


def test_broad_roots_need_allow_broad(tmp_path: Path) -> None:
    s = State()
    with pytest.raises(ModelError, match="root of the file system"):
        s.add_root("/")
    with pytest.raises(ModelError, match="home folder"):
        s.add_root(os.path.expanduser("~"))
    assert s.add_root("/", allow_broad=True).path == "/"


def test_root_lookup_by_name_path_and_uri(folders: list[Path]) -> None:
    s = State()
    r = s.add_root(str(folders[2]), name="web")
    assert s.find_root("web") is r
    assert s.find_root(str(folders[2])) is r
    assert s.find_root(path_to_uri(str(folders[2]))) is r
    with pytest.raises(ModelError, match="no root matches"):
        s.find_root("nothing")
    with pytest.raises(ModelError, match="already a root"):
        s.add_root(str(folders[2]) + "/")
    with pytest.raises(ModelError, match="looks the same"):
        s.add_root(str(folders[0]), name="web")
    # a store written before two roots could not share a name may hold two: ask for a path
    s.roots.append(
        Root(id="0" * 12, path=str(folders[0]), real=str(folders[0]), name="web", added_at="")
    )
    with pytest.raises(ModelError, match="several roots"):
        s.find_root("web")


def test_remove_root_names_the_servers_that_lose_it(folders: list[Path]) -> None:
    s = State()
    r = s.add_root(str(folders[0]))
    s.grant("b-server", [r.id])
    s.grant("a-server", [r.id])
    removed, losing = s.remove_root(r.path)
    assert removed is r and losing == ["a-server", "b-server"]
    assert not s.grants


def test_state_round_trips_through_json(folders: list[Path]) -> None:
    s = State()
    r = s.add_root(str(folders[1]), name="ベータ")
    s.grant("fs", [r.id], "session", ["x"])
    s.server_started("other", CMD, "sess")
    s.set_policy("deny")
    again = State.from_json(s.to_json())
    assert again.to_json() == s.to_json()


# ---- input a demanding user throws at it --------------------------------------------------------


def test_add_root_takes_a_file_uri(tmp_path: Path) -> None:
    folder = tmp_path / "web#staging"
    folder.mkdir()
    s = State()
    r = s.add_root(path_to_uri(str(folder)))
    assert r.path == str(folder) and r.name == "web#staging"
    other = tmp_path / "b c"
    other.mkdir()
    assert s.add_root("file://localhost" + path_to_uri(str(other))[7:] + "/").path == str(other)
    with pytest.raises(ModelError, match="already a root"):
        s.add_root("FILE://" + r.uri[len("file://") :])
    with pytest.raises(ModelError, match="only file://"):
        s.add_root("https://example.com/code")
    with pytest.raises(ModelError, match="fragment"):
        s.add_root("file://" + str(folder))  # '#' written by hand, not encoded
    assert [x.path for x in s.roots] == [str(folder), str(other)]


@pytest.mark.skipif(os.name != "posix", reason="a leading // is a UNC share on Windows")
def test_a_four_slash_uri_or_a_double_slash_path_is_the_same_root(tmp_path: Path) -> None:
    folder = tmp_path / "x"
    folder.mkdir()
    s = State()
    r = s.add_root("file:///" + path_to_uri(str(folder))[len("file://") :])
    assert r.path == str(folder) and r.uri == path_to_uri(str(folder))
    for spelling in ("/" + str(folder), "file://localhost/" + str(folder)):
        with pytest.raises(ModelError, match="already a root"):
            s.add_root(spelling)
        assert s.find_root(spelling) is r
    assert [x.path for x in s.roots] == [str(folder)]


def test_dot_segments_in_paths_and_uris_are_folded(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    s = State()
    r = s.add_root(str(tmp_path / "a" / ".." / "b" / "."))
    assert r.path == str(tmp_path / "b")
    assert s.find_root(path_to_uri(str(tmp_path / "a")) + "/../b") is r


@pytest.fixture
def fake_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "users" / "me"
    (home / "code").mkdir(parents=True)
    (tmp_path / "users" / "other").mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


def test_a_link_to_the_home_folder_is_as_broad_as_the_home_folder(
    fake_home: Path, tmp_path: Path
) -> None:
    link = tmp_path / "innocent-looking"
    link.symlink_to(fake_home)
    s = State()
    with pytest.raises(ModelError, match="home folder"):
        s.add_root(str(link))
    with pytest.raises(ModelError, match="home folder"):
        s.add_root("~/code/..")
    assert not s.roots
    assert s.add_root(str(link), allow_broad=True).path == str(link)


def test_a_folder_holding_the_home_folder_is_broad(fake_home: Path, tmp_path: Path) -> None:
    s = State()
    with pytest.raises(ModelError, match="holds your home folder"):
        s.add_root(str(tmp_path / "users"))
    assert s.add_root(str(tmp_path / "users" / "other")).name == "other"
    assert s.add_root(str(fake_home / "code")).name == "code"


@pytest.mark.parametrize("bad", ["web\x1b[31m", "a\x07b", "x\x7f", "x\x9b1m", "evil\u202egnp"])
def test_names_with_control_or_direction_characters_are_refused(bad: str, tmp_path: Path) -> None:
    s = State()
    r = s.add_root(str(tmp_path))
    (tmp_path / "other").mkdir()
    with pytest.raises(ModelError, match="control or text-direction"):
        s.rename_root(r.path, bad)
    with pytest.raises(ModelError, match="control or text-direction"):
        s.add_root(str(tmp_path / "other"), name=bad)
    with pytest.raises(ModelError, match="not a usable server name"):
        s.grant(bad, [r.id])
    assert r.name == tmp_path.name and len(s.roots) == 1 and not s.grants and not s.servers


def test_a_name_taken_from_an_odd_folder_name_is_made_safe(tmp_path: Path) -> None:
    folder = tmp_path / "red\x1b[31m\tname"
    folder.mkdir()
    r = State().add_root(str(folder))
    assert r.path == str(folder)
    assert r.name == "red\ufffd[31m name"


@pytest.mark.parametrize(
    ("doc_part", "words"),
    [
        (
            {"roots": [{"id": 1, "path": "/x", "name": "x", "added_at": ""}]},
            "roots[0].id is a number",
        ),
        (
            {"roots": [{"id": "a", "path": ["/x"], "name": "x", "added_at": ""}]},
            "roots[0].path is a list",
        ),
        ({"roots": {"id": "a"}}, "roots is an object, not a list"),
        (
            {"grants": [{"server": "fs", "root": "a", "scope": "forever"}]},
            "grants[0].scope is not one of",
        ),
        (
            {"grants": [{"server": "fs", "root": "a", "sessions": "s1"}]},
            "grants[0].sessions is a string",
        ),
        ({"servers": {"fs": {"command": "npx fs"}}}, "servers['fs'].command is 'npx fs'"),
        ({"servers": []}, "servers is a list, not an object"),
        ({"settings": {"language": 7}}, "settings.language is a number"),
    ],
)
def test_stored_values_of_the_wrong_type_are_refused_on_read(
    doc_part: dict[str, object], words: str
) -> None:
    from roots_manager.core.store.schema import SchemaError

    doc = {**State().to_json(), **doc_part}
    with pytest.raises(SchemaError, match=re.escape(words)):
        State.from_json(doc)


def test_a_granted_folder_swapped_for_a_link_elsewhere_is_withheld(tmp_path: Path) -> None:
    from roots_manager.core.consent.effective import root_unavailable

    folder = tmp_path / "project"
    folder.mkdir()
    s = State()
    root = s.add_root(str(folder))
    s.grant("srv", [root.id])
    assert [r["uri"] for r in effective(s, "srv")["roots"]] == [root.uri]
    # the folder is replaced by a link to the file system's root: checked at every answer
    folder.rmdir()
    folder.symlink_to("/")
    assert root_unavailable(root) == "moved"
    assert effective(s, "srv") == {"roots": []}
    # a link to an ordinary folder elsewhere is withheld as well: it is not what was granted
    folder.unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder.symlink_to(elsewhere)
    assert root_unavailable(root) == "moved"
    assert effective(s, "srv") == {"roots": []}
    # put back as it was, it is given again
    folder.unlink()
    folder.mkdir()
    assert root_unavailable(root) is None
    assert [r["uri"] for r in effective(s, "srv")["roots"]] == [root.uri]


def test_a_root_from_an_older_store_that_became_too_broad_is_withheld(tmp_path: Path) -> None:
    from roots_manager.core.consent.effective import root_unavailable

    folder = tmp_path / "project"
    folder.mkdir()
    s = State()
    root = s.add_root(str(folder))
    s.grant("srv", [root.id])
    root.real = None  # as read from a store written before real paths were recorded
    assert root_unavailable(root) is None
    folder.rmdir()
    folder.symlink_to(os.path.expanduser("~"))
    assert root_unavailable(root) == "too broad"
    assert effective(s, "srv") == {"roots": []}


def test_a_broad_root_the_user_allowed_stays_given(tmp_path: Path) -> None:
    from roots_manager.core.consent.effective import root_unavailable

    s = State()
    root = s.add_root(os.path.expanduser("~"), allow_broad=True)
    s.grant("srv", [root.id])
    assert root_unavailable(root) is None
    assert len(effective(s, "srv")["roots"]) == 1
