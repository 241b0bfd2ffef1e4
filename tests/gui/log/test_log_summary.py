"""The log's summary column speaks the user's language, and the text filter finds what it shows."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events
from roots_manager.core.log.index import LogIndex
from roots_manager.gui.common.resources import install_translators
from roots_manager.gui.log import log_texts
from roots_manager.gui.log.log_model import SUMMARY, LogModel
from tests.catalogue import LANGUAGES, catalogued


@pytest.mark.parametrize("catalogue", LANGUAGES)
def test_every_summary_template_is_in_the_catalogues(catalogue: str) -> None:
    missing = set(events.SUMMARY_TEMPLATES) - catalogued("LogSummary", catalogue)
    assert not missing, f"not in the {catalogue} catalogue (scripts/update-translations): {missing}"


def test_every_template_is_reachable_and_formats() -> None:
    samples = [
        events.event(events.RUN_START, "fs", "s", command=["x"], pid=1),
        events.event(events.RUN_END, "fs", "s", exit_code=0),
        events.event(events.RUN_END, "fs", "s", exit_code=1, reason="host closed stdin"),
        events.event(events.HANDSHAKE, "fs", "s", protocol="2025-03-26"),
        events.event(events.HANDSHAKE, "fs", "s", protocol="2025-03-26", injected={"roots": {}}),
        events.event(events.HANDSHAKE, "fs", "s", first_call_held=True, ms=52, roots_answered=True),
        events.event(events.HANDSHAKE, "fs", "s", first_call_held=True, ms=1000),
        events.event(events.HANDSHAKE, "fs", "s", method="notifications/initialized", held=True),
        events.event(events.HANDSHAKE, "fs", "s", id=0, capabilities={}),
        events.event(events.ROOTS_ASKED, "fs", "s"),
        events.event(events.ROOTS_ASKED, "fs", "s", batch=True),
        events.event(events.ROOTS_ASKED, "fs", "s", held=True),
        events.event(events.ROOTS_RELAYED, "fs", "s"),
        events.event(events.ROOTS_ANSWERED, "fs", "s", uris=[]),
        events.event(events.MRTR_RESOLVED, "fs", "s", uris=["file:///a"]),
        events.event(events.LIST_CHANGED_SENT, "fs", "s", uris=[]),
        events.event(events.LIST_CHANGED_SENT, "fs", "s", uris=["file:///a"]),
        events.event(events.ROOTS_ANSWERED, "fs", "s", uris=["file:///a", "file:///b"]),
        events.event(events.LIST_CHANGED_SENT, "fs", "s", uris=["file:///a", "file:///b"]),
        events.event(events.LIST_CHANGED_RELAYED, "fs", "s"),
        *(
            events.event(events.LIST_CHANGED_ASKED, "fs", "s", outcome=outcome)
            for outcome in ("sent", "not-fetched", "handshake", "no-notice", "observe")
        ),
        events.event(events.CONSENT_WAIT, "fs", "s", timeout=30.0),
        events.event(events.CONSENT_DECIDED, "fs", "s", outcome="decided"),
        events.event(events.CONSENT_DECIDED, "fs", "s", outcome="denied"),
        events.event(events.CONSENT_DECIDED, "fs", "s", outcome="timeout"),
        events.event(events.NON_JSON, "fs", "s", bytes=3, reason="UTF-8"),
        events.event(events.MESSAGE, "fs", "s", id=4),
        events.event(events.SERVER_RESTARTING, "fs", "s", reason="revoked: /a"),
        events.event(events.SERVER_RESTARTED, "fs", "s", old_pid=1, new_pid=2, held_ms=5),
        events.event(events.RESTART_FAILED, "fs", "s", message="it crashed"),
        *(
            events.event(events.RESTART_ASKED, "fs", "s", outcome=outcome)
            for outcome in ("restarting", "under-way", "not-restartable")
        ),
        events.event(events.SERVER_RESTARTING, "fs", "s", reason="asked by app", request="r1"),
        events.event(
            events.SERVER_RESTARTED, "fs", "s", old_pid=1, new_pid=2, held_ms=5, request="r1"
        ),
        events.event(events.ERROR, "fs", "s", message="boom"),
    ]
    assert events.summarize(samples[-2]) == (
        "restarted on request: pid 1 is now pid 2; the host waited 5 ms"
    )
    assert events.summarize(samples[-8]) == (
        "restarted for a consent change: pid 1 is now pid 2; the host waited 5 ms"
    )
    used = {events.summary_parts(rec)[0] for rec in samples}
    assert used == set(events.SUMMARY_TEMPLATES)
    # the host's early initialized, held, has no protocol: it is not "protocol ?"
    held = next(rec for rec in samples if rec.get("held") and rec["kind"] == events.HANDSHAKE)
    assert events.summarize(held) == (
        "the host's initialized is held until the server has answered initialize"
    )
    [wait] = [rec for rec in samples if rec["kind"] == events.CONSENT_WAIT]
    assert events.summarize(wait) == "waiting up to 30 s for your decision in the desktop app"


@pytest.fixture
def japanese(qapp: QApplication) -> Iterator[None]:
    translators = install_translators(qapp, "ja")
    assert translators, "the Japanese catalogue must load"
    yield
    for t in translators:
        qapp.removeTranslator(t)


def test_summaries_are_translated_and_found_by_the_filter(layout: Layout, japanese: None) -> None:
    w = events.EventWriter(layout, "s1")
    w.write(events.event(events.ROOTS_ASKED, "fs", "s1", dir=events.SERVER_TO_HOST, id=1))
    w.write(events.event(events.ROOTS_ANSWERED, "fs", "s1", id=1, uris=["file:///w/a"]))
    w.write(events.event(events.LIST_CHANGED_SENT, "fs", "s1", uris=[]))
    w.close()
    ix = LogIndex(layout)
    ix.scan()
    model = LogModel(ix)
    model.refresh()
    shown = [model.data(model.index(r, SUMMARY)) for r in range(model.rowCount())]
    assert shown == [
        "サーバーがルートを尋ねました",
        "1 件のルート: /w/a",
        "ルートが変わりました。現在はルートなし",
    ]
    model.set_filter(text="尋ねました")  # only in the translated summary, not in the JSON
    assert [model.record_at(r)["kind"] for r in range(model.rowCount())] == [events.ROOTS_ASKED]  # type: ignore[index]
    model.set_filter(text="asked for its roots")  # the English wording is not what is shown
    assert model.rowCount() == 0


def test_the_bridge_mode_is_named_in_the_users_language(japanese: None) -> None:
    start = events.event(events.RUN_START, "fs", "s", command=["srv"], pid=7, mode="observe")
    assert log_texts.translated_summary(start) == "srv を起動しました（PID 7、観察のみ）"
    assert events.summarize(start) == "started srv (pid 7, observe)"  # the CLI's words


@pytest.mark.parametrize("language", ["ja", "zh_CN"])
def test_a_refusal_its_kind_and_direction_are_in_the_users_language(
    layout: Layout, qapp: QApplication, language: str
) -> None:
    """Issue 38: refusal summaries, the Kind column and the Direction column were English in the
    Japanese and Chinese interface."""
    from roots_manager.core.log import denials
    from roots_manager.gui.log.log_model import DIRECTION, KIND

    w = events.EventWriter(layout, "s1")
    w.write(events.event(events.ROOTS_ASKED, "fs", "s1", dir=events.SERVER_TO_HOST, id=1))
    refusal = events.event(
        events.DENIAL,
        "fs",
        "s1",
        path="/w/notes/todo.md",
        folder="/w/notes",
        operation="read",
        during="request",
        requests=[{"method": "tools/call", "tool": "read_note", "id": 3}],
        folded=2,
    )
    w.write(refusal)
    w.write(events.event(events.DENIAL, "fs", "s1", folder="/w/x", operation="list", folded=4,
                         during="start-up"))  # fmt: skip
    w.close()
    english = [denials.summary(refusal)]
    assert english == [
        "read /w/notes/todo.md (+2 more in its folder) refused while tools/call read_note (id 3)"
    ]  # the CLI's and the bridge's words, unchanged
    ways = (events.HOST_TO_SERVER, events.SERVER_TO_HOST, events.BRIDGE_TO_SERVER,
            events.BRIDGE_TO_HOST)  # fmt: skip
    english_kinds = {kind: log_texts.kind_name(kind) for kind in events.KINDS}
    english_ways = {way: log_texts.direction_name(way) for way in ways}
    translators = install_translators(qapp, language)
    try:
        ix = LogIndex(layout)
        ix.scan()
        model = LogModel(ix)
        model.refresh()
        rows = range(model.rowCount())
        summaries = [model.data(model.index(r, SUMMARY)) for r in rows]
        kinds = [model.data(model.index(r, KIND)) for r in rows]
        direction = model.data(model.index(0, DIRECTION))
        # every kind and direction has words of its own, none left as its id or in English
        for kind in events.KINDS:
            assert log_texts.kind_name(kind) not in (kind, english_kinds[kind]), kind
        for way in ways:
            assert log_texts.direction_name(way) not in (way, english_ways[way]), way
    finally:
        for t in translators:
            qapp.removeTranslator(t)
    english_words = ("read", "refused", "while", "more in its folder", "start-up", "list")
    for text in summaries[1:]:
        words = text.replace("tools/call read_note (id 3)", "")  # the request is as it was sent
        assert not any(word in words for word in english_words), text
    assert "/w/notes/todo.md" in summaries[1] and "tools/call read_note (id 3)" in summaries[1]
    assert "/w/x/" in summaries[2]
    assert kinds[1] == kinds[2] != events.DENIAL
    assert kinds[0] != events.ROOTS_ASKED and direction != events.SERVER_TO_HOST
    assert "→" in direction
