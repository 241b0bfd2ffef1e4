"""Every field of the store document is checked on read, and the error names the field."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from roots_manager.core.store.schema import MAX_COUNTER, SCHEMA_VERSION, SchemaError
from roots_manager.core.store.state import State
from roots_manager.support.refusal import ModelError

FP = "ab" * 32


@pytest.fixture
def doc(tmp_path: Path) -> dict[str, Any]:
    """A store document with one of everything, made by the operations that write them."""
    s = State()
    root = s.add_root(str(tmp_path))
    s.grant("fs", [root.id], "session", ["20250101T000000-abcd1234"])
    s.server_started("fs", ["npx", "fs"], "20250101T000000-abcd1234")
    s.server_started("new", ["new-server"], "20250101T000000-abcd1234")
    s.language = "zh_CN"
    s.revision = 7
    out = s.to_json()
    assert out["pending"] and out["servers"]["fs"]["fingerprint"]
    return out


def test_the_document_the_operations_write_reads_back(doc: dict[str, Any]) -> None:
    assert State.from_json(copy.deepcopy(doc)).to_json() == doc


def _set(doc: dict[str, Any], where: str, value: object) -> dict[str, Any]:
    """A copy of *doc* with the field at *where* ("roots.0.path") set to *value*."""
    out = copy.deepcopy(doc)
    *parents, last = where.split(".")
    node: Any = out
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    node[int(last) if isinstance(node, list) else last] = value
    return out


BAD = [
    # the cases that passed 'store check' before
    ("roots.0.path", "relative/folder", "roots[0].path is not an absolute path: 'relative/folder'"),
    ("roots.0.path", "/tmp/a\x00b", "roots[0].path holds a NUL character"),
    ("schema", True, "schema is true or false, not a whole number"),
    ("revision", 1e308, "revision is not a whole number: 1e+308"),
    # the others, field by field
    ("roots.0.path", "/tmp/a/../b", "roots[0].path is not in normal form (that is '/tmp/b')"),
    ("roots.0.path", "/tmp/a/", "roots[0].path is not in normal form"),
    ("roots.0.path", 7, "roots[0].path is a number, not a string"),
    ("roots.0.id", "", "roots[0].id is not an id"),
    ("roots.0.id", "a\nb", "roots[0].id is not an id (it holds control characters)"),
    ("roots.0.id", "x" * 129, "roots[0].id is not an id (1 to 128 characters)"),
    ("roots.0.name", None, "roots[0].name is null, not a string"),
    ("roots.0.added_at", "yesterday", "roots[0].added_at is not an ISO 8601 time"),
    ("roots.0.added_at", "2025-01-01T00:00:00", "roots[0].added_at is a time without its"),
    ("roots.0.added_at", 1735689600, "roots[0].added_at is a number, not a string"),
    ("schema", 0, "schema is 0; versions start at 1"),
    ("schema", "1", "schema is a string, not a whole number"),
    ("schema", 1.0, "schema is not a whole number: 1.0"),
    ("revision", -1, "revision is out of range"),
    ("revision", MAX_COUNTER + 1, "revision is out of range"),
    ("revision", False, "revision is true or false, not a whole number"),
    ("settings.policy", "allow", "settings.policy is not one of ask, deny, allow-all: 'allow'"),
    ("settings.language", "../../etc", "settings.language is not a language code"),
    ("settings.theme", "dark", "settings has an unknown field 'theme'"),
    ("settings", [], "settings is a list, not an object"),
    ("servers.fs.fingerprint", "abc", "servers['fs'].fingerprint is not a command fingerprint"),
    ("servers.fs.seen_fingerprint", FP.upper(), "servers['fs'].seen_fingerprint is not a"),
    ("servers.fs.command", [], "servers['fs'].command is a list, not a command line"),
    ("servers.fs.command", ["npx", 1], "servers['fs'].command[1] is a number, not a string"),
    ("servers.fs.first_seen", True, "servers['fs'].first_seen is true or false, not a string"),
    ("servers.fs.last_seen", "noon", "servers['fs'].last_seen is not an ISO 8601 time"),
    ("servers.fs", "npx fs", "servers['fs'] is a string, not an object"),
    ("grants.0.scope", "forever", "grants[0].scope is not one of always, session"),
    ("grants.0.sessions", ["ok", 5], "grants[0].sessions[1] is a number, not a string"),
    ("grants.0.granted_at", None, "grants[0].granted_at is null, not a string"),
    ("grants.0.root", {}, "grants[0].root is an object, not a string"),
    ("grants.0.server", 3, "grants[0].server is a number, not a string"),
    ("pending.0.reason", "why-not", "pending[0].reason is not one of new-server"),
    ("pending.0.fingerprint", None, "pending[0].fingerprint is not a command fingerprint"),
    ("pending.0.previous_command", "x", "pending[0].previous_command is 'x', not a command"),
    ("pending.0.requested_at", "", "pending[0].requested_at is not an ISO 8601 time"),
    ("pending.0.session", 12, "pending[0].session is a number, not a string"),
    ("pending.0.extra", 1, "pending[0] has an unknown field 'extra'"),
    ("pending", {}, "pending is an object, not a list"),
]


@pytest.mark.parametrize(
    ("where", "value", "words"), BAD, ids=[f"{w}={v!r}"[:60] for w, v, _ in BAD]
)
def test_a_bad_field_is_refused_and_named(
    doc: dict[str, Any], where: str, value: object, words: str
) -> None:
    with pytest.raises(SchemaError, match=re.escape(words)):
        State.from_json(_set(doc, where, value))


def test_a_missing_field_is_named(doc: dict[str, Any]) -> None:
    del doc["roots"][0]["added_at"]
    with pytest.raises(SchemaError, match=re.escape("roots[0] lacks its 'added_at'")):
        State.from_json(doc)


def test_two_roots_with_one_id_or_one_path_are_refused(doc: dict[str, Any]) -> None:
    twin = dict(doc["roots"][0])
    with pytest.raises(SchemaError, match=r"the root id .* appears twice"):
        State.from_json({**doc, "roots": [twin, twin]})
    with pytest.raises(SchemaError, match=r"the root path .* appears twice"):
        State.from_json({**doc, "roots": [twin, {**twin, "id": "other"}]})


def test_a_huge_or_deep_value_is_shown_short(doc: dict[str, Any]) -> None:
    deep: list[Any] = []
    for _ in range(900):  # deep enough that repr() would give up
        deep = [deep]
    with pytest.raises(SchemaError) as info:
        State.from_json(_set(doc, "roots.0.id", deep))
    assert str(info.value) == "roots[0].id is a list, not a string"
    with pytest.raises(SchemaError) as info:
        State.from_json(_set(doc, "roots.0.path", "x" * 10_000_000))
    assert len(str(info.value)) < 200


def test_confinement_fields_are_checked_and_older_stores_read_without_them() -> None:
    import pytest

    from roots_manager.core.store.schema import SchemaError
    from roots_manager.core.store.state import State

    old = {"schema": 2, "servers": {"fs": {}}, "grants": [{"server": "fs", "root": "r1"}]}
    state = State.from_json(old)
    assert state.servers["fs"].confine is False and state.grants[0].read_only is False
    bad = {"schema": 3, "servers": {"fs": {"confine": "yes"}}}
    with pytest.raises(SchemaError, match=r"servers\['fs'\]\.confine is a string"):
        State.from_json(bad)
    bad = {"schema": 3, "servers": {"fs": {"allow_read": ["relative"]}}}
    with pytest.raises(SchemaError, match="not an absolute path"):
        State.from_json(bad)
    doc = State.from_json({"schema": 3, "servers": {"fs": {"confine": True}}}).to_json()
    assert doc["schema"] == SCHEMA_VERSION and doc["servers"]["fs"]["confine"] is True
    assert doc["servers"]["fs"]["restart_on_revoke"] is None


def test_restart_on_revoke_defaults_to_confinement_and_is_checked() -> None:
    """Schema 4: a server's restart_on_revoke, unset (the default), true or false."""
    from roots_manager.core.store.schema import SchemaError
    from roots_manager.core.store.state import State

    state = State.from_json(
        {
            "schema": 4,
            "servers": {
                "plain": {},
                "confined": {"confine": True},
                "off": {"confine": True, "restart_on_revoke": False},
                "on": {"restart_on_revoke": True},
            },
        }
    )
    got = {n: s.restarts_on_revoke for n, s in state.servers.items()}
    assert got == {"plain": False, "confined": True, "off": False, "on": True}
    bad = {"schema": 4, "servers": {"fs": {"restart_on_revoke": "on"}}}
    with pytest.raises(SchemaError, match=r"servers\['fs'\]\.restart_on_revoke is a string"):
        State.from_json(bad)


def test_the_last_consent_decision_is_kept_and_checked() -> None:
    """Schema 5: a server's last consent decision and its time; older stores read without them."""
    from roots_manager.core.store.schema import SchemaError
    from roots_manager.core.store.state import State

    state = State.from_json({"schema": 4, "servers": {"fs": {}}})
    assert state.servers["fs"].decision is None and state.servers["fs"].decided_at is None
    state.server_started("new", ["/usr/bin/new"], "session-1")
    state.decide("new", "deny")
    doc = state.to_json()
    assert doc["schema"] == SCHEMA_VERSION
    assert doc["servers"]["new"]["decision"] == "deny" and doc["servers"]["new"]["decided_at"]
    assert State.from_json(doc).servers["new"].decision == "deny"
    bad = {"schema": 5, "servers": {"fs": {"decision": "maybe"}}}
    with pytest.raises(SchemaError, match=r"servers\['fs'\]\.decision"):
        State.from_json(bad)


def test_the_sockets_a_confined_server_may_connect_to_are_kept_and_checked() -> None:
    """Schema 6: a server's allowed Unix sockets; older stores read without them."""
    from roots_manager.core.confinement.confined import set_confinement
    from roots_manager.core.store.schema import SchemaError
    from roots_manager.core.store.state import State

    state = State.from_json({"schema": 5, "servers": {"fs": {"confine": True}}})
    assert state.servers["fs"].allow_socket == []
    set_confinement(state, "fs", allow_socket=["/run/user/1000/app.sock"])
    doc = state.to_json()
    assert doc["schema"] == SCHEMA_VERSION
    assert State.from_json(doc).servers["fs"].allow_socket == ["/run/user/1000/app.sock"]
    with pytest.raises(SchemaError, match=r"servers\['fs'\]\.allow_socket"):
        State.from_json({"schema": 6, "servers": {"fs": {"allow_socket": ["relative"]}}})


def test_schema_7_keeps_a_blocked_network_and_reads_older_stores_as_allowed() -> None:
    """Schema 7: a confined server's blocked network; an older version refuses the field
    rather than start the server with its network open."""
    from roots_manager.core.confinement.confined import set_network
    from roots_manager.core.servers.server import Network
    from roots_manager.core.store.schema import SchemaError
    from roots_manager.core.store.state import State

    state = State.from_json({"schema": 6, "servers": {"fs": {"confine": True}}})
    assert state.servers["fs"].network is Network.ALLOWED
    set_network(state, "fs", True)
    doc = state.to_json()
    assert doc["schema"] == SCHEMA_VERSION
    assert doc["servers"]["fs"]["network"] == "blocked"  # schema 14: the mode, one field
    assert State.from_json(doc).servers["fs"].network is Network.BLOCKED
    assert (
        State.from_json({"schema": 7, "servers": {"fs": {"block_network": True}}})
        .servers["fs"]
        .network
        is Network.BLOCKED
    )
    with pytest.raises(SchemaError, match=r"servers\['fs'\]\.block_network"):
        State.from_json({"schema": 7, "servers": {"fs": {"block_network": "yes"}}})


def test_schema_8_leaves_a_new_servers_confinement_to_its_first_start() -> None:
    """Schema 8: a server's confinement may be undecided (its first start decides, confined
    by default where the machine can); a server known in an older store keeps its setting, off
    when it had none, and the ``confine_new`` setting says what undecided means."""
    from roots_manager.core.confinement.confined import starts_confined
    from roots_manager.core.store.schema import SchemaError
    from roots_manager.core.store.state import State

    # known before this schema: decided, whether it says so or not (schema 2 had no confine)
    old = State.from_json({"schema": 2, "servers": {"fs": {}, "git": {"confine": True}}})
    assert old.servers["fs"].confine is False
    assert old.servers["git"].confine is True
    assert old.confine_new is True  # servers first seen from now on start confined
    assert starts_confined(old, old.servers["fs"], True) is False
    # first seen now: undecided, written as null, read back as undecided
    request = old.server_started("new", ["node", "server.js"], "run1")
    assert request is not None and old.servers["new"].confine is None
    doc = old.to_json()
    assert doc["schema"] == SCHEMA_VERSION == 14
    assert doc["servers"]["new"]["confine"] is None
    assert doc["servers"]["fs"]["confine"] is False
    again = State.from_json(doc)
    assert again.servers["new"].confine is None and again.servers["fs"].confine is False
    assert starts_confined(again, again.servers["new"], True) is True
    assert starts_confined(again, again.servers["new"], False) is False  # the machine cannot
    # its start records what the default made of it, once: a later start does not change it
    again.server_started("new", ["node", "server.js"], "run2", confined=True)
    assert again.servers["new"].confine is True
    again.server_started("new", ["node", "server.js"], "run3", confined=False)
    assert again.servers["new"].confine is True
    # the setting off: undecided means unconfined, wherever
    again.confine_new = False
    assert State.from_json(again.to_json()).confine_new is False
    assert (
        starts_confined(
            again, State.from_json({"schema": 8, "servers": {"x": {}}}).servers["x"], True
        )
        is False
    )
    with pytest.raises(SchemaError, match=r"settings\.confine_new"):
        State.from_json({"schema": 8, "settings": {"confine_new": "yes"}, "servers": {}})


# ---- many objects: a field checked a column at a time -------------------------------------

MANY = 600


def _many(doc: dict[str, Any]) -> dict[str, Any]:
    """*doc* with MANY roots and as many grants, each like its first (ids and paths unique)."""
    out = copy.deepcopy(doc)
    root, grant = out["roots"][0], out["grants"][0]
    out["roots"] = [
        {**root, "id": f"{i:012x}", "path": f"{root['path']}/p{i}", "real": f"{root['real']}/p{i}"}
        for i in range(MANY)
    ]
    out["grants"] = [{**grant, "root": f"{i:012x}"} for i in range(MANY)]
    return out


# the bad values of BAD in a root or a grant, and what only a column could let through unseen
AMONG_MANY = [
    (where.replace(".0.", ".417."), value, words.replace("[0]", "[417]"))
    for where, value, words in BAD
    if where.startswith(("roots.0.", "grants.0."))
] + [
    ("roots.417.path", "//tmp/a/", "roots[417].path is not in normal form"),
    ("roots.417.path", "///tmp/a", "roots[417].path is not in normal form"),
    ("roots.417.path", "/tmp/./a", "roots[417].path is not in normal form"),
    ("roots.417.path", "/tmp/a/.", "roots[417].path is not in normal form"),
    ("roots.417.path", "/tmp/a/..", "roots[417].path is not in normal form"),
    ("roots.417.path", "/", None),
    ("roots.417.path", "//tmp/a", None),  # two slashes lead a normal path (POSIX)
    ("roots.417.path", "/tmp/日本/..", "roots[417].path is not in normal form"),
    ("roots.417.path", "/tmp/a\udcff", None),
    ("roots.417.real", "/tmp/.a/..b/...", None),
    ("roots.417.real", "", "roots[417].real is not an absolute path"),
    ("roots.417.added_at", "2025-02-29T00:00:00Z", "roots[417].added_at is not an ISO 8601"),
    ("roots.417.added_at", "2024-02-29T00:00:00.123Z", None),
    ("roots.417.added_at", "2025-01-31T23:59:59+02:00", None),
    ("roots.417.added_at", "2025-01-01T24:00:00Z", "roots[417].added_at is not an ISO 8601"),
    ("roots.417.added_at", "2025-01-01T00:00:00.123Z\n", "roots[417].added_at is not an ISO"),
    ("roots.417.id", "x" * 128, None),
    ("roots.417.id", "a\x7fb", "roots[417].id is not an id (it holds control characters)"),
    ("roots.417.id", True, "roots[417].id is true or false, not a string"),
    ("roots.417.name", "\n", None),
    ("grants.417.scope", ["always"], "grants[417].scope is not one of always, session"),
    ("grants.417.scope", "session", None),
    ("grants.417.read_only", 1, "grants[417].read_only is a number, not true or false"),
    ("grants.417.sessions", "abc", "grants[417].sessions is a string, not a list"),
    ("grants.417.sessions", [""], "grants[417].sessions[0] is not an id"),
    ("grants.417.granted_at", "", None),
    ("grants.417.granted_at", "soon", "grants[417].granted_at is not an ISO 8601 time"),
]


@pytest.mark.parametrize(
    ("where", "value", "words"),
    AMONG_MANY,
    ids=[f"{w}={v!r}"[:60] for w, v, _ in AMONG_MANY],
)
def test_a_bad_field_among_many_is_refused_and_named_as_among_one(
    doc: dict[str, Any], where: str, value: object, words: str | None
) -> None:
    """Many objects are checked a column at a time: what the check of each value refuses is
    refused there too, naming the first bad one; what it accepts is accepted."""
    many = _set(_many(doc), where, value)
    if words is None:
        State.from_json(many)
        return
    with pytest.raises(SchemaError, match=re.escape(words)):
        State.from_json(many)


def test_the_first_bad_object_is_named_when_many_are() -> None:
    roots = [
        {"id": f"{i}", "path": f"/p{i}", "name": "n", "added_at": "2025-01-01T00:00:00Z"}
        for i in range(MANY)
    ]
    roots[300]["path"] = "/p300/"
    roots[200]["added_at"] = "2025-13-01T00:00:00Z"
    roots[100]["name"] = 1
    with pytest.raises(SchemaError, match=re.escape("roots[100].name is a number")):
        State.from_json({"schema": SCHEMA_VERSION, "servers": {}, "roots": roots})


def test_many_objects_read_as_each_alone(doc: dict[str, Any]) -> None:
    many = _many(doc)
    state = State.from_json(copy.deepcopy(many))
    assert state.to_json() == many
    assert [r.id for r in state.roots] == [f"{i:012x}" for i in range(MANY)]
    assert {type(g.scope).__name__ for g in state.grants} == {"Scope"}
    # objects written by hand, their fields in another order or some left out, read the same
    shuffled = copy.deepcopy(many)
    shuffled["roots"] = [dict(reversed(r.items())) for r in shuffled["roots"]]
    shuffled["grants"] = [{k: v for k, v in g.items() if k != "read_only"} for g in many["grants"]]
    again = State.from_json(shuffled)
    assert again.roots == state.roots
    assert [g.read_only for g in again.grants] == [False] * MANY
    assert [g.runs for g in again.grants] == [g.runs for g in state.grants]


def test_a_grants_places_inside_its_root_are_relative_and_stay_inside() -> None:
    """Schema 9: ``read_only_inside`` and ``hidden_inside``, relative paths in normal form;
    a store of schema 8 is read with none."""
    grant = {"server": "fs", "root": "r1", "scope": "always", "sessions": [], "granted_at": ""}
    roots = [{"id": "r1", "path": "/srv/p", "name": "p", "added_at": "2026-01-01T00:00:00Z"}]
    doc = {"schema": 9, "servers": {"fs": {}}, "roots": roots}
    kept = State.from_json(
        {**doc, "grants": [{**grant, "read_only_inside": ["a/b"], "hidden_inside": [".env"]}]}
    )
    assert kept.grants[0].read_only_inside == ["a/b"] and kept.grants[0].hidden_inside == [".env"]
    assert State.from_json(kept.to_json()).grants[0].hidden_inside == [".env"]
    old = State.from_json({**doc, "schema": 8, "grants": [grant]})
    assert old.grants[0].read_only_inside == [] and old.grants[0].hidden_inside == []
    for bad in ("/etc", "../up", "a/../../b", ".", "a//b", "", "a\x00b"):
        with pytest.raises(SchemaError, match=r"hidden_inside"):
            State.from_json({**doc, "grants": [{**grant, "hidden_inside": [bad]}]})
    with pytest.raises(ModelError, match="not a path inside its root"):
        kept.set_inside("fs", ["r1"], hidden=["../secret"])


def test_a_roots_mount_point_is_kept_and_older_stores_know_of_none() -> None:
    """Schema 10: ``mount_point``, true or false; a root of schema 9 is read as none."""
    root = {
        "id": "r1",
        "path": "/media/me/stick",
        "real": "/media/me/stick",
        "name": "stick",
        "added_at": "2026-01-01T00:00:00Z",
    }
    assert (
        State.from_json({"schema": 9, "servers": {}, "roots": [root]}).roots[0].mount_point is False
    )
    kept = State.from_json({"schema": 10, "servers": {}, "roots": [{**root, "mount_point": True}]})
    assert kept.roots[0].mount_point is True
    assert State.from_json(kept.to_json()).roots[0].mount_point is True
    with pytest.raises(SchemaError, match=r"roots\[0\]\.mount_point"):
        State.from_json({"schema": 10, "servers": {}, "roots": [{**root, "mount_point": "yes"}]})


def test_schema_13_keeps_the_domains_a_servers_network_is_limited_to() -> None:
    """Schema 13: a confined server's network may be limited to domains; each is kept in normal
    form, and one that names no domain (or is not in normal form) is refused with its field
    named, rather than read as a server with the whole network open."""
    from roots_manager.core.servers.server import Network
    from roots_manager.core.store.schema import SchemaError
    from roots_manager.core.store.state import State

    doc = {"schema": 13, "servers": {"gh": {"network_domains": ["api.github.com", "*.npmjs.org"]}}}
    state = State.from_json(doc)
    assert state.servers["gh"].network_domains == ["api.github.com", "*.npmjs.org"]
    assert state.servers["gh"].network is Network.DOMAINS
    assert State.from_json(state.to_json()).servers["gh"].network_domains == [
        "api.github.com",
        "*.npmjs.org",
    ]
    # none (null or absent): not limited to domains (schema 14 keeps no list as an empty one)
    for none in ({}, {"network_domains": None}):
        fs = State.from_json({"schema": 13, "servers": {"fs": none}}).servers["fs"]
        assert (fs.network, fs.network_domains) == (Network.ALLOWED, [])
    for bad in ("*", "*.com", "API.github.com", "evil.example:443", "a..b", 7):
        with pytest.raises(SchemaError, match=r"servers\['gh'\]\.network_domains\[0\]"):
            State.from_json({"schema": 13, "servers": {"gh": {"network_domains": [bad]}}})


def test_schema_14_keeps_a_servers_domains_apart_from_its_networks_mode() -> None:
    """Schema 14: a server's network is one field (allowed, blocked or limited to domains) and
    its domains another, kept while the network is allowed or blocked, so that limiting it again
    brings them back; a store of 13 is read as the mode its two fields meant (blocked wins, as
    it was enforced), and each schema refuses the other's fields rather than guess."""
    from roots_manager.core.confinement.confined import network_key, set_domains, set_network
    from roots_manager.core.servers.server import Network
    from roots_manager.core.store.schema import SchemaError
    from roots_manager.core.store.state import State

    old = State.from_json(
        {
            "schema": 13,
            "servers": {
                "open": {"block_network": False, "network_domains": None},
                "off": {"block_network": True, "network_domains": None},
                "gh": {"block_network": False, "network_domains": ["api.github.com"]},
                "empty": {"network_domains": []},
                # not written by 13 (blocking dropped the list), but readable: blocked, kept
                "both": {"block_network": True, "network_domains": ["a.example"]},
            },
        }
    )
    modes = {n: (s.network, s.network_domains) for n, s in old.servers.items()}
    assert modes == {
        "open": (Network.ALLOWED, []),
        "off": (Network.BLOCKED, []),
        "gh": (Network.DOMAINS, ["api.github.com"]),
        "empty": (Network.DOMAINS, []),
        "both": (Network.BLOCKED, ["a.example"]),
    }
    # enforced as schema 13 had it
    assert [network_key(old.servers[n]) for n in modes] == [
        [],
        ["blocked"],
        ["domains", "domain:api.github.com"],
        ["domains"],
        ["blocked"],
    ]

    # allowed, then blocked: the list kept in the file; domains again: back as it was
    set_network(old, "gh", False)
    doc = old.to_json()
    assert doc["schema"] == SCHEMA_VERSION == 14
    assert doc["servers"]["gh"]["network"] == "allowed"
    assert doc["servers"]["gh"]["network_domains"] == ["api.github.com"]
    assert "block_network" not in doc["servers"]["gh"]
    again = State.from_json(doc)  # the same version reads what it wrote
    assert again.servers["gh"].network is Network.ALLOWED
    assert network_key(again.servers["gh"]) == []  # kept, not in force
    set_network(again, "gh", True)
    again = State.from_json(again.to_json())
    assert (again.servers["gh"].network, again.servers["gh"].network_domains) == (
        Network.BLOCKED,
        ["api.github.com"],
    )
    set_domains(again, "gh")
    again = State.from_json(again.to_json())
    assert network_key(again.servers["gh"]) == ["domains", "domain:api.github.com"]
    assert {n: s.network for n, s in State.from_json(old.to_json()).servers.items()} == {
        n: mode for n, (mode, _) in modes.items() if n != "gh"
    } | {"gh": Network.ALLOWED}

    # each schema's fields only, each checked
    with pytest.raises(SchemaError, match=r"servers\['fs'\] has an unknown field 'block_network'"):
        State.from_json({"schema": 14, "servers": {"fs": {"block_network": True}}})
    with pytest.raises(SchemaError, match=r"servers\['fs'\] has an unknown field 'network'"):
        State.from_json({"schema": 13, "servers": {"fs": {"network": "blocked"}}})
    for bad in ("off", "Blocked", None, True):
        with pytest.raises(SchemaError, match=r"servers\['fs'\]\.network is not one of"):
            State.from_json({"schema": 14, "servers": {"fs": {"network": bad}}})
    with pytest.raises(SchemaError, match=r"servers\['fs'\]\.network_domains is"):
        State.from_json({"schema": 14, "servers": {"fs": {"network_domains": None}}})
    with pytest.raises(SchemaError, match=r"servers\['fs'\]\.network_domains\[0\]"):
        State.from_json({"schema": 14, "servers": {"fs": {"network_domains": ["*.com"]}}})
