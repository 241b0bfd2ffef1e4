"""``{roots}`` on a server's command line: the granted folders as arguments, and the restart a
change of them needs."""

from __future__ import annotations

from pathlib import Path

from roots_manager.bridge.protocol.restart import Seen, restart_reason
from roots_manager.core.consent.arguments import expand, folders_now, takes_roots
from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import fingerprint

CMD = ["npx", "-y", "@modelcontextprotocol/server-filesystem", "{roots}"]


def test_each_folder_is_one_argument_and_none_leaves_no_empty_one() -> None:
    assert takes_roots(CMD) and not takes_roots(CMD[:-1])
    assert expand(CMD, ["/a b", "/c"]) == [*CMD[:-1], "/a b", "/c"]
    assert expand(CMD, []) == CMD[:-1]
    assert expand(["x", "{roots}", "--flag", "{roots}"], ["/a"]) == ["x", "/a", "--flag", "/a"]


def test_the_folders_are_the_grants_of_the_command_as_written(
    layout: Layout, tmp_path: Path
) -> None:
    granted, other = tmp_path / "granted", tmp_path / "other"
    granted.mkdir()
    other.mkdir()
    with Store(layout).transaction() as s:
        s.grant("fs", [s.add_root(str(granted)).id])
        s.add_root(str(other))
    assert folders_now(layout, "fs", fingerprint(CMD)) == [str(granted)]
    assert folders_now(layout, "nobody", fingerprint(CMD)) == []


def reason(given: list[str] | None, now: list[str]) -> str | None:
    seen = Seen(
        running=None,
        told=[],
        current=[Path(p).as_uri() for p in now],
        given=given,
        given_now=now,
    )
    found = restart_reason(seen, None)
    return None if found is None else str(found)


def test_a_server_given_its_folders_is_restarted_for_any_change_of_them() -> None:
    assert reason(["/a", "/b"], ["/a", "/b"]) is None
    assert reason(["/a", "/b"], ["/a"]) == "revoked: /b"
    assert reason(["/a"], ["/a", "/b"]) == "its folders changed"
    assert reason(None, ["/a"]) is None, "a server without {roots} keeps its own rules"
