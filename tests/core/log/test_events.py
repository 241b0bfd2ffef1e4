"""Event records: what a bridge writes of each message, and how it reads in the log."""

from __future__ import annotations

from pathlib import Path

from roots_manager.core.log import events as ev
from roots_manager.core.store.file import Store
from tests.bridge.wire import Bridged, events


def _uris(n: int) -> list[str]:
    return [f"file:///srv/project-{i:05d}" for i in range(n)]


def test_an_event_lists_the_first_uris_of_a_long_list_and_counts_them_all() -> None:
    rec = ev.event(ev.LIST_CHANGED_SENT, "fs", "r", uris=_uris(2500), previous=_uris(1001))
    assert rec["uris"] == _uris(ev.MAX_LOGGED_URIS) and rec["uris_count"] == 2500
    assert rec["previous"] == _uris(ev.MAX_LOGGED_URIS) and rec["previous_count"] == 1001
    whole = ev.event(ev.ROOTS_ANSWERED, "fs", "r", uris=_uris(ev.MAX_LOGGED_URIS))
    assert whole["uris"] == _uris(ev.MAX_LOGGED_URIS) and "uris_count" not in whole


def test_a_cut_list_reads_as_its_whole_count_and_says_it_goes_on() -> None:
    template, values = ev.summary_parts(ev.event(ev.ROOTS_ANSWERED, "fs", "r", uris=_uris(2500)))
    assert template == "{count} roots: {paths}" and values["count"] == 2500
    assert values["paths"].startswith("/srv/project-00000, /srv/project-00001, ")
    assert values["paths"].endswith("/srv/project-00999, …")
    template, values = ev.summary_parts(ev.event(ev.ROOTS_ANSWERED, "fs", "r", uris=_uris(3)))
    assert values == {
        "count": 3,
        "paths": "/srv/project-00000, /srv/project-00001, /srv/project-00002",
    }


def test_a_bridge_answers_every_root_and_logs_the_first_ones(store: Store, tmp_path: Path) -> None:
    n = ev.MAX_LOGGED_URIS + 200
    with store.transaction() as s:
        ids = []
        for i in range(n):
            folder = tmp_path / f"project-{i:05d}"
            folder.mkdir()
            ids.append(s.add_root(str(folder)).id)
        s.grant("pup", ids)
    pair = Bridged()
    try:
        pair.handshake()
        answered = pair.ask(1)
    finally:
        pair.close()
    assert len(answered) == n  # the server is told of every folder; only the log is cut
    [logged] = events(store.layout, ev.ROOTS_ANSWERED)
    assert logged["uris"] == answered[: ev.MAX_LOGGED_URIS] and logged["uris_count"] == n
