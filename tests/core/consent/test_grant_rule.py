"""The grant decision every front end makes: a server ends with exactly the scope it was given."""

from __future__ import annotations

from pathlib import Path

import pytest

from roots_manager.core.consent.grant import set_scope
from roots_manager.core.store.grants import Scope
from roots_manager.core.store.state import State

A, W, NONE = Scope.ALWAYS, Scope.WHILE_RUNNING, None


def state_with(tmp_path: Path) -> tuple[State, str]:
    s = State()
    d = tmp_path / "notes"
    d.mkdir()
    return s, s.add_root(str(d)).id


def grant_of(s: State, root: str) -> tuple[Scope, list[str], bool] | None:
    [g] = [g for g in s.grants_of("fs") if g.root == root] or [None]
    return None if g is None else (g.scope, g.runs, g.read_only)


@pytest.mark.parametrize(
    ("before", "scope", "runs", "read_only", "after", "changed"),
    [
        # nothing granted yet
        (None, A, (), None, (A, [], False), 1),
        (None, W, ("r1",), None, (W, ["r1"], False), 1),
        (None, NONE, (), None, None, 0),
        (None, A, (), True, (A, [], True), 1),
        # "always" asked "while running" becomes while-running, for the live runs
        ((A, [], False), W, ("r1",), None, (W, ["r1"], False), 1),
        ((A, [], True), W, ("r1",), None, (W, ["r1"], True), 1),
        # while-running asked "always" becomes always, its read-only flag kept
        ((W, ["r1"], True), A, (), None, (A, [], True), 1),
        # while-running again lasts for the new runs too
        ((W, ["r1"], False), W, ("r2",), None, (W, ["r1", "r2"], False), 1),
        ((W, ["r1"], False), W, ("r1",), None, (W, ["r1"], False), 0),
        # the same scope: unchanged unless the flag is named
        ((A, [], False), A, (), None, (A, [], False), 0),
        ((A, [], False), A, (), True, (A, [], True), 1),
        ((W, ["r1"], True), W, (), False, (W, ["r1"], False), 1),
        # revoked
        ((W, ["r1"], True), NONE, (), None, None, 1),
        ((A, [], False), NONE, (), None, None, 1),
    ],
)
def test_a_server_ends_with_exactly_the_scope_it_was_given(
    tmp_path: Path,
    before: tuple[Scope, list[str], bool] | None,
    scope: Scope | None,
    runs: tuple[str, ...],
    read_only: bool | None,
    after: tuple[Scope, list[str], bool] | None,
    changed: int,
) -> None:
    s, root = state_with(tmp_path)
    if before is not None:
        s.grant("fs", [root], before[0], before[1], read_only=before[2])
    assert set_scope(s, "fs", [root], scope, runs, read_only=read_only) == changed
    assert grant_of(s, root) == after
    assert len(s.grants_of("fs")) == (after is not None)


def test_a_grant_settles_a_new_servers_request(tmp_path: Path) -> None:
    s, root = state_with(tmp_path)
    assert s.server_started("fs", ["npx", "fs"], "r1") is not None
    assert set_scope(s, "fs", [root], W, ["r1"]) == 1
    assert not s.pending
    assert s.servers["fs"].fingerprint == s.servers["fs"].seen_fingerprint
