"""Why a running server is restarted behind the host's back, decided by table.

Each row is what a run has seen (its server's confinement now and at start, what it was told,
the store's settings) and the restart that follows, or none. The policy is pure: a row needs no
store, no process and no clock."""

from __future__ import annotations

import pytest

from roots_manager.bridge.protocol.restart import Key, Restart, Seen, Why, restart_reason

A, B = "file:///a", "file:///b"


def key(
    write: tuple[str, ...] = ("/a",), read: tuple[str, ...] = (), *rest: tuple[str, ...]
) -> Key:
    """A confinement key: the folders written, those read, then the rest of what it holds."""
    more = list(rest) + [()] * (5 - len(rest))
    return (write, read, *more)


CONFINED = key(("/a", "/b"))
LIMITED = key(("/a", "/b"), (), (), (), (), ("domain:a.example", "domains"))
"""Confined, its network limited to one domain (the key's network part sorted)."""
ROWS: list[tuple[str, Seen, Key | None, Restart | None]] = [
    # not confined, nothing told, nothing wanted: never looked at
    ("an unconfined server told nothing", Seen(running=None, told=[], current=[A]), None, None),
    (
        "told /a and /b, /b revoked, not confined: the default does not restart",
        Seen(running=None, told=[A, B], current=[A]),
        None,
        None,
    ),
    (
        "told /a and /b, /b revoked, restart on revoke set",
        Seen(running=None, told=[A, B], current=[A], setting=True),
        None,
        Restart(Why.REVOKED, B),
    ),
    (
        "confined, /b revoked: the key lost it",
        Seen(running=CONFINED, told=[], current=[A], decided=True),
        key(("/a",)),
        Restart(Why.REVOKED, "/b"),
    ),
    (
        "confined, a folder added: its grants changed",
        Seen(running=key(("/a",)), told=[], current=[A, B], decided=True),
        CONFINED,
        Restart(Why.GRANTS_CHANGED),
    ),
    (
        "confined and asking, a folder added to read: its supervisor serves it, no restart",
        Seen(running=key(("/a",)), told=[], current=[A, B], decided=True, asks=True),
        key(("/a",), ("/b",)),
        None,
    ),
    (
        "confined and asking, a folder added to write: the kernel's rules must allow writing",
        Seen(running=key(("/a",)), told=[], current=[A, B], decided=True, asks=True),
        CONFINED,
        Restart(Why.GRANTS_CHANGED),
    ),
    (
        "asking, a folder to write granted while a question waits: its answer is served first",
        Seen(
            running=key(("/a",)), told=[], current=[A, B], decided=True, asks=True, questions=True
        ),
        CONFINED,
        None,
    ),
    (
        "asking, a folder read made writable: the kernel's rules must allow writing",
        Seen(running=key(("/a",), ("/b",)), told=[], current=[A, B], decided=True, asks=True),
        CONFINED,
        Restart(Why.GRANTS_CHANGED),
    ),
    (
        "asking, its network blocked: a tightening restarts it at once",
        Seen(running=CONFINED, told=[], current=[A, B], decided=True, asks=True, questions=True),
        key(("/a", "/b"), (), (), (), (), ("blocked",)),
        Restart(Why.GRANTS_CHANGED),
    ),
    (
        "asking, limited to domains, one added: its proxy is told, no restart",
        Seen(running=LIMITED, told=[], current=[A, B], decided=True, asks=True),
        key(("/a", "/b"), (), (), (), (), ("domain:a.example", "domain:b.example", "domains")),
        None,
    ),
    (
        "limited to domains, one added, not asking: the next start has it",
        Seen(running=LIMITED, told=[], current=[A, B], decided=True),
        key(("/a", "/b"), (), (), (), (), ("domain:a.example", "domain:b.example", "domains")),
        Restart(Why.GRANTS_CHANGED),
    ),
    (
        "asking, limited to domains, one taken away: a tightening restarts it at once",
        Seen(running=LIMITED, told=[], current=[A, B], decided=True, asks=True),
        key(("/a", "/b"), (), (), (), (), ("domains",)),
        Restart(Why.GRANTS_CHANGED),
    ),
    (
        "asking, its whole network limited to domains: a tightening restarts it at once",
        Seen(running=CONFINED, told=[], current=[A, B], decided=True, asks=True),
        LIMITED,
        Restart(Why.GRANTS_CHANGED),
    ),
    (
        "asking, limited to domains, then given the whole network: the kernel's rules change",
        Seen(running=LIMITED, told=[], current=[A, B], decided=True, asks=True),
        CONFINED,
        Restart(Why.GRANTS_CHANGED),
    ),
    (
        "asking, a place kept read-only inside a grant: a tightening restarts it at once",
        Seen(running=CONFINED, told=[], current=[A, B], decided=True, asks=True),
        key(("/a", "/b"), (), (), (), (), (), ("read-only:/a/.git",)),
        Restart(Why.GRANTS_CHANGED),
    ),
    (
        "confined and asking, a folder revoked: restarted as ever",
        Seen(running=CONFINED, told=[], current=[A], decided=True, asks=True),
        key(("/a",)),
        Restart(Why.REVOKED, "/b"),
    ),
    (
        "confined, restart on revoke off: a change waits for the next start",
        Seen(running=CONFINED, told=[A, B], current=[A], decided=True, setting=False),
        key(("/a",)),
        None,
    ),
    (
        "confinement turned on for a server started free",
        Seen(running=None, told=[], current=[A], decided=True),
        CONFINED,
        Restart(Why.CONFINEMENT_ON),
    ),
    (
        "confinement turned off, no host start holding it",
        Seen(running=CONFINED, told=[], current=[A], decided=False),
        None,
        Restart(Why.CONFINEMENT_OFF),
    ),
    (
        "--confine: restarts though the store says nothing",
        Seen(running=CONFINED, told=[], current=[A], forced=True),
        key(("/a",)),
        Restart(Why.REVOKED, "/b"),
    ),
    (
        "confined, unchanged, but told a root since revoked",
        Seen(running=CONFINED, told=[A, B], current=[A], decided=True),
        CONFINED,
        Restart(Why.REVOKED, B),
    ),
    (
        "confined and unchanged, told nothing revoked",
        Seen(running=CONFINED, told=[A], current=[A, B], decided=True),
        CONFINED,
        None,
    ),
    (
        "started confined by the host (the ceiling), the store's setting undecided",
        Seen(running=CONFINED, told=[], current=[A], ceiling=True),
        key(("/a",)),
        Restart(Why.REVOKED, "/b"),
    ),
    (
        "{roots} folders changed, none taken",
        Seen(running=None, told=[], current=[A, B], given=["/a"], given_now=["/a", "/b"]),
        None,
        Restart(Why.FOLDERS_CHANGED),
    ),
    (
        "{roots} folders: two taken, named in order",
        Seen(running=None, told=[], current=[], given=["/c", "/a"], given_now=[]),
        None,
        Restart(Why.REVOKED, "/a, /c"),
    ),
    (
        "{roots} folders unchanged: the rest decides",
        Seen(running=None, told=[], current=[A], given=["/a"], given_now=["/a"]),
        None,
        None,
    ),
]


@pytest.mark.parametrize(
    ("seen", "now", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS]
)
def test_the_restart_policy(seen: Seen, now: Key | None, expected: Restart | None) -> None:
    assert restart_reason(seen, now) == expected


def test_the_key_is_worked_out_only_where_it_is_looked_at() -> None:
    assert not Seen(running=None, told=[A], current=[]).needs_key
    assert Seen(running=None, told=[], current=[], setting=True).needs_key
    assert Seen(running=CONFINED, told=[], current=[]).needs_key
    assert Seen(running=None, told=[], current=[], ceiling=True).needs_key
    # not looked at: a key of anything gives the same answer
    quiet = Seen(running=None, told=[A, B], current=[A])
    assert restart_reason(quiet, CONFINED) is None


@pytest.mark.parametrize(
    ("restart", "logged"),
    [
        (Restart(Why.REVOKED, "/a, /b"), "revoked: /a, /b"),
        (Restart(Why.ASKED, "the app"), "asked by the app"),
        (Restart(Why.GRANTS_CHANGED), "its grants changed"),
        (Restart(Why.CONFINEMENT_OFF), "confinement was turned off"),
    ],
)
def test_the_log_words_each_restart_as_before(restart: Restart, logged: str) -> None:
    assert str(restart) == logged
