"""Server names that print like another are refused; stored ones are shown with escapes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roots_manager.core.servers.names import NameFlaw, check_server_name, find_by_visible, visible
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import State, server_name_error
from roots_manager.support.refusal import ModelError

# each prints exactly like "fs" (or like "fs" with an ordinary space) in a terminal or a table
LOOK_ALIKES = [
    "fs\u200b",  # zero-width space
    "fs\u00ad",  # soft hyphen
    "fs\u2060",  # word joiner
    "fs\ufeff",  # zero-width no-break space (byte order mark)
    "f\u200ds",  # zero-width joiner
    "fs\ufe0f",  # variation selector 16
    "fs\U000e0101",  # variation selector 17
    "fs\U000e0020",  # tag space
    "fs\u034f",  # combining grapheme joiner (category Mn, but ignorable)
    "fs\u3164",  # Hangul filler (category Lo, but ignorable)
    "fs\u2800",  # Braille pattern blank
    "my\u00a0server",  # no-break space
    "my\u3000server",  # ideographic space
    "fs\u180e",  # Mongolian vowel separator
]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_invisible_characters_are_refused_and_named(name: str) -> None:
    check = check_server_name(name)
    assert check is not None and check.flaw is NameFlaw.INVISIBLE
    odd = [c for c in name if c not in "fsmyerv"]
    assert check.chars == tuple(f"U+{ord(c):04X}" for c in odd)
    error = server_name_error(name)
    assert error is not None and "cannot be seen" in str(error)
    assert f"U+{ord(odd[0]):04X}" in str(error)


@pytest.mark.parametrize("name", ["fs ", " fs", "  fs  "])
def test_a_space_at_either_end_is_refused(name: str) -> None:
    check = check_server_name(name)
    assert check is not None and check.flaw is NameFlaw.EDGE_SPACE
    assert "begins or ends with a space" in str(server_name_error(name))


@pytest.mark.parametrize(
    ("name", "flaw"),
    [("", NameFlaw.EMPTY), ("   ", NameFlaw.EMPTY), ("a\x07b", NameFlaw.CONTROL),
     ("evil\u202etxt", NameFlaw.CONTROL), ("a\u2028b", NameFlaw.CONTROL),
     ("bad\udcffbyte", NameFlaw.CONTROL)],
)  # fmt: skip
def test_empty_and_control_names_keep_their_own_reason(name: str, flaw: NameFlaw) -> None:
    check = check_server_name(name)
    assert check is not None and check.flaw is flaw


@pytest.mark.parametrize(
    "name", ["fs", "my server", "日本語サーバー", "中文服务器", "café", "e\u0301", "a-b_c.d", "🙂"]
)
def test_ordinary_names_pass_and_show_as_they_are(name: str) -> None:
    assert check_server_name(name) is None
    assert visible(name) == name


def test_every_entry_point_of_the_state_refuses_a_look_alike(tmp_path: Path) -> None:
    state = State()
    folder = tmp_path / "proj"
    folder.mkdir()
    root = state.add_root(str(folder))
    for name in ("fs\u200b", "fs "):
        with pytest.raises(ModelError, match="would look like another name"):
            state.grant(name, [root.id])
        with pytest.raises(ModelError, match="would look like another name"):
            state.server_started(name, ["server"], "s1")
    assert state.servers == {} and state.grants == []


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("fs\u200b", "fs\\u200b"),
        ("fs\u00ad", "fs\\xad"),
        ("fs ", "fs\\x20"),
        (" fs", "\\x20fs"),
        ("my\u00a0server", "my\\xa0server"),
        ("fs\U000e0101", "fs\\U000e0101"),
        ("a\tb", "a\\tb"),
        ("a\x1b[2J", "a\\x1b[2J"),
        ("evil\u202etxt", "evil\\u202etxt"),
        ("bad\udcffbyte", "bad\\udcffbyte"),
        ("back\\slash", "back\\\\slash"),
    ],
)
def test_visible_writes_what_cannot_be_seen_as_escapes(name: str, shown: str) -> None:
    assert visible(name) == shown
    assert shown.isprintable()


def test_no_two_names_show_alike() -> None:
    # a name that really holds a backslash escape, next to the odd name it spells
    names = ["fs", "fs\u200b", "fs\\u200b", "fs\\\\u200b", "fs ", "fs\\x20", "fs\x85", "fs\udc85"]
    shown = [visible(n) for n in names]
    assert len(set(shown)) == len(names), shown


def test_what_is_seen_can_be_typed_to_name_the_stored_server() -> None:
    stored = ["fs", "fs\u200b", "fs "]
    assert find_by_visible("fs\\u200b", stored) == "fs\u200b"
    assert find_by_visible("fs\\x20", stored) == "fs "
    assert find_by_visible("fs", stored) == "fs"
    assert find_by_visible("fs\u200b", stored) == "fs\u200b"  # the exact name, typed somehow
    assert find_by_visible("other", stored) is None


def test_a_stored_look_alike_does_not_stop_the_store_being_read(store: Store) -> None:
    # written before the rule existed, or by hand
    doc = {
        "schema": 1,
        "revision": 3,
        "settings": {"policy": "ask", "language": None},
        "roots": [],
        "servers": {name: {} for name in ("fs", "fs\u200b", "fs\u00ad", "fs ")},
        "grants": [],
        "pending": [],
    }
    store.path.write_text(json.dumps(doc), encoding="utf-8")
    state = store.read()
    assert sorted(state.servers) == sorted(doc["servers"])
    with store.transaction() as editable:  # and it is kept, untouched, through a save
        editable.set_policy("deny")
    assert sorted(store.read().servers) == sorted(doc["servers"])


# ---- roots: two rows no one can tell apart -----------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("proj", "proj"),  # the same name, another folder
        ("proj", "pr\u043ej"),  # a Cyrillic o
        ("fs", "f\u0455"),  # a Cyrillic dze
        ("xy", "x\u200by"),  # a zero-width space
        ("caf\u00e9", "cafe\u0301"),  # composed, and not
        ("fs", "\uff46\uff53"),  # fullwidth
    ],
)
def test_two_roots_never_share_a_name_nor_one_that_looks_the_same(
    tmp_path: Path, first: str, second: str
) -> None:
    state = State()
    (tmp_path / "a" / first).mkdir(parents=True)
    (tmp_path / "b" / second).mkdir(parents=True)
    kept = state.add_root(str(tmp_path / "a" / first))
    # a name the user gives is refused, naming the root that has it
    with pytest.raises(ModelError, match="looks the same") as refused:
        state.add_root(str(tmp_path / "b" / second), name=second)
    assert str(kept.path) in str(refused.value)
    assert len(state.roots) == 1
    # a name made from the folder's own gets its parent folder's name beside it
    made = state.add_root(str(tmp_path / "b" / second))
    assert made.name == f"{second} (b)"
    # and a rename onto a name that looks like another root's is refused too
    with pytest.raises(ModelError, match="looks the same"):
        state.rename_root(str(tmp_path / "b" / second), first)
    assert [r.name for r in state.roots] == [first, f"{second} (b)"]


def test_a_root_renamed_to_its_own_name_or_an_unlike_one_is_renamed(tmp_path: Path) -> None:
    state = State()
    (tmp_path / "proj").mkdir()
    state.add_root(str(tmp_path / "proj"))
    assert state.rename_root("proj", "proj").name == "proj"
    assert state.rename_root("proj", "project").name == "project"
