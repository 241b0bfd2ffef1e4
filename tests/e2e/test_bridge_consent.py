"""Consent for servers the store does not know, and list_changed after store changes."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from roots_manager.core.runs import live
from roots_manager.core.store.file import Store
from roots_manager.core.store.grants import Decision
from tests.bridge.wire import (
    Bridged,
    events,
    is_id,
    is_method,
    wait_for,
)


@pytest.fixture
def folder(tmp_path: Path, store: Store) -> Iterator[tuple[str, str]]:
    path = tmp_path / "granted later"
    path.mkdir()
    with store.transaction() as s:
        root = s.add_root(str(path))
    yield root.id, root.uri


def test_unknown_server_waits_for_the_decision_while_the_app_runs(
    layout: Layout, store: Store, folder: tuple[str, str]
) -> None:
    live.write_app_marker(layout, pid=os.getpid())
    p = Bridged("newcomer")
    try:
        wait_for(lambda: events(layout, ev.CONSENT_WAIT), "the consent-wait event")
        pending = store.read().pending
        assert [x.server for x in pending] == ["newcomer"] and pending[0].reason == "new-server"
        p.server.send({"jsonrpc": "2.0", "id": 1, "method": "roots/list"})
        wait_for(lambda: events(layout, ev.ROOTS_ASKED), "the roots/list to be seen")
        # other traffic flows while the answer is held
        p.bridge.send({"jsonrpc": "2.0", "id": 50, "method": "ping"})
        p.server.expect(lambda m: isinstance(m, dict) and m.get("method") == "ping", "ping")
        assert not events(layout, ev.ROOTS_ANSWERED), "answered before the user decided"
        with store.transaction() as s:
            s.decide("newcomer", "always", [folder[0]])
        answer = p.server.expect(is_id(1), "the held answer")
        assert [r["uri"] for r in answer["result"]["roots"]] == [folder[1]]
        decided = events(layout, ev.CONSENT_DECIDED)
        assert decided[0]["outcome"] == "decided" and decided[0]["held"] == 1
    finally:
        p.close()
        live.remove_app_marker(layout)


def test_a_denial_is_logged_as_one_and_answered_with_no_folder(
    layout: Layout, store: Store, folder: tuple[str, str]
) -> None:
    """Issue 38: a Deny was logged as "the decision arrived"."""
    live.write_app_marker(layout, pid=os.getpid())
    p = Bridged("newcomer")
    try:
        wait_for(lambda: events(layout, ev.CONSENT_WAIT), "the consent-wait event")
        p.server.send({"jsonrpc": "2.0", "id": 1, "method": "roots/list"})
        wait_for(lambda: events(layout, ev.ROOTS_ASKED), "the roots/list to be seen")
        with store.transaction() as s:
            s.decide("newcomer", Decision.DENY)
        answer = p.server.expect(is_id(1), "the held answer")
        assert answer["result"]["roots"] == []
        [decided] = events(layout, ev.CONSENT_DECIDED)
        assert decided["outcome"] == "denied" and decided["held"] == 1
        assert ev.summarize(decided) == "denied: answered with no folder"
    finally:
        p.close()
        live.remove_app_marker(layout)


def test_consent_wait_times_out_with_nothing_granted(
    layout: Layout, store: Store, folder: tuple[str, str]
) -> None:
    live.write_app_marker(layout, pid=os.getpid())
    p = Bridged("slow", "--consent-timeout", "0.5")
    try:
        assert p.ask(1) == []
        assert events(layout, ev.CONSENT_DECIDED)[0]["outcome"] == "timeout"
    finally:
        p.close()
        live.remove_app_marker(layout)


def _when(event: dict[str, object]) -> float:
    return datetime.fromisoformat(str(event["ts"]).replace("Z", "+00:00")).timestamp()


def test_consent_timeout_counts_from_the_first_held_roots_list(
    layout: Layout, store: Store, folder: tuple[str, str]
) -> None:
    live.write_app_marker(layout, pid=os.getpid())
    p = Bridged("late asker", "--consent-timeout", "1")
    try:
        wait_for(lambda: events(layout, ev.CONSENT_WAIT), "the consent-wait event")
        # a server that asks late still gets the whole wait: longer than the timeout here,
        # a timer counted from the bridge's start would already be over
        time.sleep(2.0)
        assert not events(layout, ev.CONSENT_DECIDED), "the wait ended before anything was held"
        assert p.ask(1) == []
        asked = events(layout, ev.ROOTS_ASKED)[0]
        decided = events(layout, ev.CONSENT_DECIDED)[0]
        assert asked["held"] is True
        assert decided["outcome"] == "timeout" and decided["held"] == 1
        # the timer cannot fire early: the answer waited the whole timeout after the question
        assert _when(decided) - _when(asked) >= 0.9
    finally:
        p.close()
        live.remove_app_marker(layout)


def test_without_the_app_answers_at_once_and_a_later_grant_sends_list_changed(
    layout: Layout, store: Store, folder: tuple[str, str]
) -> None:
    p = Bridged("solo")
    try:
        p.handshake()
        assert p.ask(1) == []
        assert not events(layout, ev.CONSENT_WAIT)
        assert store.read().pending[0].server == "solo"
        with store.transaction() as s:
            s.decide("solo", "always", [folder[0]])
        p.server.expect(is_method("notifications/roots/list_changed"), "list_changed")
        assert p.ask(2) == [folder[1]]
        assert len(events(layout, ev.LIST_CHANGED_SENT)) == 1
    finally:
        p.close()


def test_list_changed_policy(layout: Layout, store: Store, tmp_path: Path) -> None:
    paths = []
    with store.transaction() as s:
        ids = []
        for n in range(4):
            path = tmp_path / f"f{n}"
            path.mkdir()
            paths.append(path)
            ids.append(s.add_root(str(path)).id)
        s.grant("pol", [ids[0]])
    p = Bridged("pol")
    try:
        # before the handshake no notice goes out, whatever changes
        assert len(p.ask("early")) == 1
        with store.transaction() as s:
            s.grant("pol", [ids[1]])
        p.handshake()
        p.server.expect(
            is_method("notifications/roots/list_changed"), "the notice after initialized"
        )
        # a burst of saves while the server has not fetched: no second notice
        for i in (2, 3):
            with store.transaction() as s:
                s.grant("pol", [ids[i]])
        with store.transaction() as s:
            s.rename_root(str(paths[0]), "renamed")
        wait_for(lambda: store.read().revision >= 5, "the saves")
        assert p.ask(1) == [Path(x).as_uri() for x in paths]
        assert len(events(layout, ev.LIST_CHANGED_SENT)) == 1
        # a save that changes nothing for this server: no notice
        with store.transaction() as s:
            s.set_policy("deny")
        # a folder vanishing is a change, and so is its coming back
        shutil.rmtree(paths[3])
        p.server.expect(
            is_method("notifications/roots/list_changed"), "the notice for a vanished folder"
        )
        assert len(p.ask(2)) == 3
        paths[3].mkdir()
        p.server.expect(is_method("notifications/roots/list_changed"), "the notice for its return")
        assert len(p.ask(3)) == 4
        assert len(events(layout, ev.LIST_CHANGED_SENT)) == 3
        assert [e["kind"] for e in events(layout) if e["kind"] == ev.LIST_CHANGED_SENT]
        marker = live.bridge_markers(layout)[0]
        wait_for(lambda: not live.bridge_markers(layout)[0].stale, "the marker to say fetched")
        assert marker.last_list_changed_at is not None
    finally:
        p.close()
