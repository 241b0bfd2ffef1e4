"""Server names that look alike are refused by Unicode's confusables skeleton (UTS #39)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from roots_manager.core.servers import confusables
from roots_manager.core.servers.confusables import look_alike, skeleton
from roots_manager.core.store.state import State
from roots_manager.support.refusal import ModelError
from roots_manager.support.resources import root

CMD = ["fs-server", "--stdio"]


@pytest.mark.parametrize(
    ("spoof", "name"),
    [
        ("f\u0455", "fs"),  # Cyrillic dze
        ("g\u0456t", "git"),  # Cyrillic i
        ("\u0440\u043e\u0441ker", "pocker"),  # Cyrillic er, o, es
        ("\u0391\u0392C", "ABC"),  # Greek Alpha, Beta
        ("fs-\u04cf", "fs-l"),  # Cyrillic palochka
        ("fs-1", "fs-l"),  # one script: a digit one beside an ell
        ("rn-server", "m-server"),
        ("f\uff53", "fs"),  # fullwidth s
        ("\uff46\uff53", "fs"),  # fullwidth f and s: compatibility forms, folded first
        ("\ufb01le", "file"),  # the fi ligature
        ("fs\u0301", "f\u015b"),  # a combining accent, or the letter that holds it
    ],
)
def test_look_alikes_have_one_skeleton(spoof: str, name: str) -> None:
    assert skeleton(spoof) == skeleton(name)
    assert look_alike(spoof, ["other", name]) == name


@pytest.mark.parametrize(
    ("a", "b"), [("fs", "fs2"), ("fs", "FS"), ("git", "gist"), ("日本", "中文"), ("fs", "f s")]
)
def test_names_that_differ_to_the_eye_do_not(a: str, b: str) -> None:
    assert skeleton(a) != skeleton(b)
    assert look_alike(a, [b]) is None


def test_a_name_is_not_its_own_look_alike() -> None:
    assert look_alike("fs", ["fs"]) is None


def test_the_shipped_table_is_unicodes() -> None:
    text = (root() / confusables.TABLE).read_text(encoding="utf-8")
    assert "Unicode Security Mechanisms for UTS #39" in text
    version = confusables.unicode_version()
    assert tuple(int(p) for p in version.split(".")) >= (15, 1, 0), version
    data = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert len(data) > 6000
    for line in data:
        source, prototype, kind = (part.strip() for part in line.split(";"))
        assert kind == "MA" and int(source, 16) >= 0 and prototype, line
    # the prototype of the Cyrillic dze is the Latin s
    assert "0455 ;\t0073 ;\tMA" in data


def test_the_skeleton_decomposes_drops_ignorables_and_maps() -> None:
    # a soft hyphen is Default_Ignorable: it leaves no trace in the skeleton
    assert skeleton("f\u00ads") == skeleton("fs")
    assert skeleton("\u00e9") == unicodedata.normalize("NFD", "e\u0301")


# ---- where names enter the store --------------------------------------------------------


def test_a_grant_to_a_look_alike_of_a_known_server_is_refused_naming_it(tmp_path: Path) -> None:
    folder = tmp_path / "proj"
    folder.mkdir()
    s = State()
    r = s.add_root(str(folder))
    s.grant("fs", [r.id])
    before = s.to_json()
    with pytest.raises(ModelError, match="looks like the known server 'fs'") as refused:
        s.grant("f\u0455", [r.id])
    assert "'f\u0455'" in str(refused.value)
    assert s.to_json() == before
    s.grant("fs", [r.id], read_only=True)  # the known name itself is still granted to


def test_a_bridge_start_under_a_look_alike_is_refused() -> None:
    s = State()
    s.server_started("fs", CMD, "run-1")
    before = s.to_json()
    with pytest.raises(ModelError, match="known server 'fs'"):
        s.server_started("f\u0455", CMD, "run-2")
    assert s.to_json() == before


def test_look_alikes_already_in_a_store_are_kept_and_usable() -> None:
    # written before the rule (or by hand): read as they are, each still granted to by name
    s = State()
    s.server_started("fs", CMD, "run-1")
    doc = s.to_json()
    doc["servers"]["f\u0455"] = doc["servers"]["fs"]
    again = State.from_json(doc)
    assert set(again.servers) == {"fs", "f\u0455"}
    again.server_started("f\u0455", CMD, "run-2")
    again.grant("f\u0455", [])
