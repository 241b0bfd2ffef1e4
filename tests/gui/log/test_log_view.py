"""The live log panel: detail pane, export, clear, pause and follow, keyboard and names."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events, export
from roots_manager.core.log.timeline import PROBES, Lane, MarkKind
from roots_manager.gui.log.log_view import LogPanel
from roots_manager.gui.log.timeline_view import (
    COLORS,
    FOCUS_RING,
    LABEL_WIDTH,
    LEGEND_HEIGHT,
)

WAIT_MS = 20_000


def _write(w: events.EventWriter, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        server = ("fs", "git")[i % 2]
        kind = events.ROOTS_ASKED if i % 4 == 0 else events.MESSAGE
        w.write(
            events.event(kind, server, w.run, dir=events.SERVER_TO_HOST, id=i, method="roots/list")
        )


def _panel(layout: Layout, qtbot: QtBot, n: int) -> tuple[LogPanel, events.EventWriter]:
    w = events.EventWriter(layout, "s1")
    _write(w, n)
    panel = LogPanel(layout)
    qtbot.addWidget(panel)
    panel.resize(1000, 600)
    panel.show()
    panel.start()
    qtbot.waitUntil(lambda: panel.model.rowCount() == n, timeout=WAIT_MS)
    return panel, w


def test_detail_pane_shows_the_selected_events_json(layout: Layout, qtbot: QtBot) -> None:
    panel, w = _panel(layout, qtbot, 30)
    try:
        panel.table.selectRow(7)
        shown = json.loads(panel.detail.toPlainText())
        assert shown == events.read_events(w.path)[0][7]
        assert "\n  " in panel.detail.toPlainText()  # pretty-printed
        panel.table.setFocus()
        qtbot.keyClick(panel.table, Qt.Key.Key_Down)
        assert json.loads(panel.detail.toPlainText())["id"] == 8
    finally:
        panel.stop()


def test_export_round_trips_the_visible_rows(layout: Layout, qtbot: QtBot, tmp_path: Path) -> None:
    panel, w = _panel(layout, qtbot, 200)
    try:
        panel.server_box.setCurrentIndex(panel.server_box.findData("git"))
        panel.kind_box.setCurrentIndex(panel.kind_box.findData(events.MESSAGE))
        panel.text_edit.setText('"id": 1')
        qtbot.waitUntil(lambda: not panel._filter_timer.isActive(), timeout=WAIT_MS)
        visible = [panel.model.record_at(r) for r in range(panel.model.rowCount())]
        assert visible and all(
            r is not None
            and r["server"] == "git"
            and r["kind"] == events.MESSAGE
            and str(r["id"]).startswith("1")
            for r in visible
        )
        jl = tmp_path / "out.jsonl"
        assert panel.export_visible(jl) == len(visible)
        assert [json.loads(x) for x in jl.read_text("utf-8").splitlines()] == visible
        # the exported lines are the bridge's bytes, unchanged
        on_disk = set(w.path.read_bytes().splitlines())
        assert all(line in on_disk for line in jl.read_bytes().splitlines())
        cv = tmp_path / "out.csv"
        assert panel.export_visible(cv) == len(visible)
        assert export.read_csv(cv) == visible
        with open(cv, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        assert [r["summary"] for r in rows] == [
            panel.model.data(panel.model.index(i, 5)) for i in range(len(visible))
        ]
    finally:
        panel.stop()


def test_clear_view_then_new_events_only(layout: Layout, qtbot: QtBot) -> None:
    panel, w = _panel(layout, qtbot, 40)
    try:
        qtbot.mouseClick(panel.clear_button, Qt.MouseButton.LeftButton)
        assert panel.model.rowCount() == 0
        assert panel.detail.toPlainText() == ""
        _write(w, 3, start=40)
        qtbot.waitUntil(lambda: panel.model.rowCount() == 3, timeout=WAIT_MS)
        assert [panel.model.record_at(r)["id"] for r in range(3)] == [40, 41, 42]  # type: ignore[index]
        assert len(events.read_events(w.path)[0]) == 43
    finally:
        panel.stop()


def test_follow_keeps_the_newest_in_view_and_pause_stops_it(layout: Layout, qtbot: QtBot) -> None:
    panel, w = _panel(layout, qtbot, 500)
    sb = panel.table.verticalScrollBar()
    try:
        assert panel.follow_box.isChecked()
        qtbot.waitUntil(lambda: sb.maximum() > 0 and sb.value() == sb.maximum(), timeout=WAIT_MS)
        # pause: new events are held back and the view does not move
        qtbot.keyClick(panel.pause_button, Qt.Key.Key_Space)
        assert panel.model.paused
        value = sb.value()
        _write(w, 300, start=500)
        qtbot.waitUntil(lambda: panel.model.pending == 300, timeout=WAIT_MS)
        assert panel.model.rowCount() == 500 and sb.value() == value
        assert "300" in panel.status.text()
        # resume: they arrive and the view follows to the newest
        qtbot.keyClick(panel.pause_button, Qt.Key.Key_Space)
        assert panel.model.rowCount() == 800
        qtbot.waitUntil(lambda: sb.value() == sb.maximum() and sb.value() > value, timeout=WAIT_MS)
        # scrolling up stops following; new events do not pull the view down
        sb.triggerAction(sb.SliderAction.SliderToMinimum)
        qtbot.waitUntil(lambda: not panel.follow_box.isChecked(), timeout=WAIT_MS)
        _write(w, 10, start=800)
        qtbot.waitUntil(lambda: panel.model.rowCount() == 810, timeout=WAIT_MS)
        assert sb.value() == 0
        panel.follow_box.setChecked(True)
        assert sb.value() == sb.maximum()
    finally:
        panel.stop()


def test_keyboard_reaches_controls_with_accessible_names(layout: Layout, qtbot: QtBot) -> None:
    panel, _ = _panel(layout, qtbot, 5)
    try:
        controls: list[QWidget] = [
            panel.server_box,
            panel.kind_box,
            panel.text_edit,
            panel.follow_box,
            panel.pause_button,
            panel.clear_button,
            panel.export_button,
            panel.table,
            panel.detail,
            panel.status,
        ]
        for c in controls:
            assert c.accessibleName(), c
        # every control can take keyboard focus
        assert all(c.focusPolicy() & Qt.FocusPolicy.TabFocus for c in controls[:-1])
        qtbot.keyClick(panel, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: panel.text_edit.hasFocus(), timeout=WAIT_MS)
        qtbot.keyClicks(panel.text_edit, '"id": 3')
        qtbot.keyClick(panel.text_edit, Qt.Key.Key_Return)
        assert [panel.model.record_at(r)["id"] for r in range(panel.model.rowCount())] == [3]  # type: ignore[index]
    finally:
        panel.stop()


def test_long_filter_shows_progress_and_keeps_following(layout: Layout, qtbot: QtBot) -> None:
    panel, w = _panel(layout, qtbot, 3000)
    panel.model.SYNC_ROWS = 0  # as over a million rows: the filter runs in slices
    try:
        panel.text_edit.setText("roots/list")
        panel.kind_box.setCurrentIndex(panel.kind_box.findData(events.ROOTS_ASKED))
        assert panel.model.filtering
        assert "filtering" in panel.status.text()
        _write(w, 40, start=3000)  # events arriving while the filter goes on
        qtbot.waitUntil(
            lambda: not panel.model.filtering and panel.model.rowCount() == 760, timeout=WAIT_MS
        )
        ids = [panel.model.record_at(r)["id"] for r in range(panel.model.rowCount())]  # type: ignore[index]
        assert ids == list(range(0, 3040, 4))
        assert "filtering" not in panel.status.text()
        sb = panel.table.verticalScrollBar()
        qtbot.waitUntil(lambda: sb.value() == sb.maximum(), timeout=WAIT_MS)
    finally:
        panel.stop()


def test_roots_show_as_folders_and_the_filter_finds_either_form(
    layout: Layout, qtbot: QtBot
) -> None:
    from roots_manager.core.roots.uri import path_to_uri
    from roots_manager.gui.log.log_model import SUMMARY

    folder = "/home/ana/my projects/web#staging/日本"
    uri = path_to_uri(folder)
    assert "%20" in uri and "%23" in uri
    w = events.EventWriter(layout, "s1")
    _write(w, 4)
    w.write(
        events.event(events.ROOTS_ANSWERED, "fs", "s1", dir=events.BRIDGE_TO_SERVER, uris=[uri])
    )
    panel = LogPanel(layout)
    qtbot.addWidget(panel)
    panel.resize(1000, 600)
    panel.show()
    panel.start()
    try:
        qtbot.waitUntil(lambda: panel.model.rowCount() == 5, timeout=WAIT_MS)
        summary = panel.model.index(4, SUMMARY).data()
        assert summary == f"1 root: {folder}"
        panel.table.selectRow(4)
        assert uri in panel.detail.toPlainText()  # the URI itself, in the JSON

        for text in ("my projects/web#staging", "日本", "my%20projects", uri):
            panel.text_edit.setText(text)
            panel.text_edit.returnPressed.emit()
            qtbot.waitUntil(lambda: not panel.model.filtering, timeout=WAIT_MS)
            assert panel.model.rowCount() == 1, text
            assert not panel.table.placeholder_shown()

        panel.text_edit.setText("no such folder")
        panel.text_edit.returnPressed.emit()
        qtbot.waitUntil(lambda: not panel.model.filtering, timeout=WAIT_MS)
        assert panel.model.rowCount() == 0
        assert panel.table.placeholder_shown()
        assert panel.table.placeholder() == "No event matches the filter."
    finally:
        panel.stop()


def test_follow_newest_shows_the_newest_when_the_log_tab_opens(
    layout: Layout, qtbot: QtBot
) -> None:
    from PySide6.QtWidgets import QTabWidget

    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    tabs.resize(900, 500)
    first = QWidget()
    tabs.addTab(first, "first")
    panel = LogPanel(layout)
    tabs.addTab(panel, "log")
    tabs.show()
    qtbot.waitExposed(tabs)
    panel.start()
    try:
        w = events.EventWriter(layout, "s1")
        _write(w, 400)  # arrive while the Log tab is not the one shown
        qtbot.waitUntil(lambda: panel.model.rowCount() == 400, timeout=WAIT_MS)
        assert panel.follow_box.isChecked()
        tabs.setCurrentWidget(panel)
        bar = panel.table.verticalScrollBar()
        qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=5000)
        last = panel.table.rowAt(panel.table.viewport().height() - 2)
        assert last in (398, 399, -1) and panel.table.rowAt(0) > 300
    finally:
        panel.stop()


def test_every_lane_of_the_timeline_is_shown_whole_or_scrolled_to(
    layout: Layout, qtbot: QtBot
) -> None:
    w = events.EventWriter(layout, "s1")
    servers = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]
    for i, name in enumerate(servers):
        w.write(events.event(events.ROOTS_ASKED, name, "s1", dir=events.SERVER_TO_HOST, id=i))
    panel = LogPanel(layout)
    qtbot.addWidget(panel)
    panel.resize(1000, 420)  # a short window: the timeline's pane is shorter than six lanes
    panel.show()
    panel.start()
    try:
        view = panel.timeline
        qtbot.waitUntil(lambda: len(view.timeline.servers()) == 6, timeout=WAIT_MS)
        qtbot.waitUntil(lambda: view.height() >= view.lanes_height(), timeout=WAIT_MS)
        # every lane is painted whole, the axis and the legend too: none is cut at the edge
        assert len(view.lanes_shown()) == 6
        pane = panel.timeline_pane
        assert pane.viewport().height() < view.lanes_height()
        bar = pane.verticalScrollBar()
        # and a scrollbar says there is more (laid out in the turn after the lanes grew)
        qtbot.waitUntil(lambda: bar.isVisible() and bar.maximum() > 0, timeout=WAIT_MS)
        # the keyboard on the last lane's mark brings that lane into sight
        last = view.lanes_shown()[-1]
        view.focus_mark(last, 0)
        y = int(view.mark_position(view.timeline.lanes[last].marks[0], last).y())
        assert bar.value() <= y <= bar.value() + pane.viewport().height()
        assert bar.value() > 0
    finally:
        panel.stop()


def test_the_timeline_shows_each_servers_marks_and_a_click_selects_the_event(
    layout: Layout, qtbot: QtBot
) -> None:
    w = events.EventWriter(layout, "s1")
    w.write(events.event(events.ROOTS_ASKED, "fs", "s1", dir=events.SERVER_TO_HOST, id=1))
    w.write(events.event(events.ROOTS_ANSWERED, "fs", "s1", id=1, uris=["file:///a"]))
    w.write(events.event(events.MESSAGE, "fs", "s1", method="tools/call", id=2))
    w.write(events.event(events.LIST_CHANGED_SENT, "git", "s1", uris=[]))
    panel = LogPanel(layout)
    qtbot.addWidget(panel)
    panel.resize(1000, 700)
    panel.show()
    panel.start()
    try:
        qtbot.waitUntil(lambda: panel.model.rowCount() == 4, timeout=WAIT_MS)
        view = panel.timeline
        qtbot.waitUntil(lambda: view.timeline.servers() == ["fs", "git"], timeout=WAIT_MS)
        kinds = [m.kind for m in view.timeline.lanes["fs"].marks]
        assert kinds == [MarkKind.ASKED, MarkKind.ANSWERED]
        assert view.isVisible() and view.height() >= view.minimumHeight()

        # the newest is in view, and painted
        view.zoom(0.01)  # out: seconds apart become pixels apart
        view.following = True
        view.refresh()
        image = view.grab().toImage()
        point = view.point_of_row(3)  # git's list_changed
        assert point is not None and 0 <= point.x() < view.width()
        assert image.pixelColor(point) == COLORS[MarkKind.LIST_CHANGED]

        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=point)
        rows = panel.table.selectionModel().selectedRows()
        assert [r.row() for r in rows] == [3]
        assert json.loads(panel.detail.toPlainText())["kind"] == events.LIST_CHANGED_SENT
        assert not panel.follow_box.isChecked()  # what was picked stays in view

        # a filter that hides the event: the click says so instead of selecting another
        panel.text_edit.setText("tools/call")
        panel.text_edit.returnPressed.emit()
        assert not panel.select_index_row(3)
        assert "hidden" in panel.status.text()
        # an event selected, then a hidden one's mark clicked: the pane shows the one clicked,
        # not the JSON of the one selected before
        panel.text_edit.clear()
        panel.server_box.setCurrentIndex(panel.server_box.findData("fs"))
        qtbot.waitUntil(lambda: panel.model.rowCount() == 3, timeout=WAIT_MS)
        panel.table.selectRow(0)
        assert json.loads(panel.detail.toPlainText())["kind"] == events.ROOTS_ASKED
        assert not panel.select_index_row(3)
        assert json.loads(panel.detail.toPlainText())["kind"] == events.LIST_CHANGED_SENT
        assert not panel.table.selectionModel().selectedRows()
        panel.table.selectRow(1)
        panel.table.clearSelection()  # and a cleared selection leaves the pane empty
        assert panel.detail.toPlainText() == ""
    finally:
        panel.stop()


def _timed(w: events.EventWriter, at: str, kind: str, server: str, rid: object) -> None:
    """Write an event of *server* at second *at* of a fixed minute."""
    rec = events.event(kind, server, w.run, id=rid, uris=[])
    rec["ts"] = f"2026-01-01T10:00:{at}Z"
    w.write(rec)


def _shown_panel(layout: Layout, qtbot: QtBot) -> LogPanel:
    panel = LogPanel(layout)
    qtbot.addWidget(panel)
    panel.resize(1000, 700)
    panel.show()
    qtbot.waitExposed(panel)
    panel.activateWindow()
    panel.start()
    return panel


def test_the_timeline_is_worked_from_the_keyboard(layout: Layout, qtbot: QtBot) -> None:
    w = events.EventWriter(layout, "s1")
    for at, kind, server, rid in (
        ("01.0", events.ROOTS_ASKED, "fs", 1),  # row 0
        ("02.8", events.ROOTS_ASKED, "git", 7),  # row 1
        ("03.0", events.ROOTS_ANSWERED, "fs", 1),  # row 2
        ("04.0", events.LIST_CHANGED_SENT, "fs", None),  # row 3
        ("05.0", events.ROOTS_ANSWERED, "git", 7),  # row 4
    ):
        _timed(w, at + "00", kind, server, rid)
    panel = _shown_panel(layout, qtbot)
    try:
        qtbot.waitUntil(lambda: panel.model.rowCount() == 5, timeout=WAIT_MS)
        view = panel.timeline
        qtbot.waitUntil(lambda: view.timeline.servers() == ["fs", "git"], timeout=WAIT_MS)
        view.seconds_per_px = 0.01

        # Tab reaches it from the control before it, and it starts on the newest mark
        previous = view.previousInFocusChain()
        previous.setFocus(Qt.FocusReason.TabFocusReason)
        qtbot.waitUntil(previous.hasFocus, timeout=WAIT_MS)
        qtbot.keyClick(previous, Qt.Key.Key_Tab)
        qtbot.waitUntil(view.hasFocus, timeout=WAIT_MS)
        assert view.focused == ("git", 1)
        assert "git" in view.accessibleDescription()
        assert "answered" in view.accessibleDescription()

        def focused_row() -> int | None:
            mark = view.focused_mark()
            return mark.row if mark else None

        qtbot.keyClick(view, Qt.Key.Key_Left)
        assert focused_row() == 1
        qtbot.keyClick(view, Qt.Key.Key_Up)  # fs's mark nearest in time to git's request
        assert focused_row() == 2
        qtbot.keyClick(view, Qt.Key.Key_End)
        assert focused_row() == 3
        assert "list_changed sent" in view.accessibleDescription()
        qtbot.keyClick(view, Qt.Key.Key_Right)  # the lane's end: stays
        assert focused_row() == 3
        qtbot.keyClick(view, Qt.Key.Key_Home)
        assert focused_row() == 0
        qtbot.keyClick(view, Qt.Key.Key_Right)
        assert focused_row() == 2
        qtbot.keyClick(view, Qt.Key.Key_Down)
        assert focused_row() == 1
        qtbot.keyClick(view, Qt.Key.Key_Down)  # no lane below: stays
        assert focused_row() == 1
        qtbot.keyClick(view, Qt.Key.Key_Up)
        assert focused_row() == 2

        # the focused mark is ringed in the highlight colour
        ring = view.palette().color(view.palette().ColorRole.Highlight)
        point = view.point_of_row(2)
        assert point is not None
        image = view.grab().toImage()
        ringed = [
            image.pixelColor(point.x() + dx, point.y())
            for dx in range(-int(FOCUS_RING) - 2, int(FOCUS_RING) + 3)
        ]
        assert ring in ringed

        # Enter selects the event as a click does; Space as well
        qtbot.keyClick(view, Qt.Key.Key_Return)
        assert [r.row() for r in panel.table.selectionModel().selectedRows()] == [2]
        assert json.loads(panel.detail.toPlainText())["kind"] == events.ROOTS_ANSWERED
        view.setFocus()
        qtbot.keyClick(view, Qt.Key.Key_Left)
        qtbot.keyClick(view, Qt.Key.Key_Space)
        assert [r.row() for r in panel.table.selectionModel().selectedRows()] == [0]

        # +/- zoom
        view.setFocus()
        before = view.seconds_per_px
        qtbot.keyClick(view, Qt.Key.Key_Plus)
        assert view.seconds_per_px < before
        qtbot.keyClick(view, Qt.Key.Key_Minus)
        qtbot.keyClick(view, Qt.Key.Key_Minus)
        assert view.seconds_per_px > before
    finally:
        panel.stop()


def test_overlapping_requests_draw_two_held_bars_and_an_unanswered_one_reaches_now(
    layout: Layout, qtbot: QtBot
) -> None:
    w = events.EventWriter(layout, "s1")
    for second, kind, rid in (
        (1, events.ROOTS_ASKED, 1),
        (2, events.ROOTS_ASKED, 2),
        (4, events.ROOTS_ANSWERED, 2),
        (7, events.ROOTS_ANSWERED, 1),
        (8, events.ROOTS_ASKED, 3),
    ):
        _timed(w, f"0{second}.000", kind, "fs", rid)
    panel = _shown_panel(layout, qtbot)
    try:
        view = panel.timeline
        qtbot.waitUntil(lambda: len(view.timeline.lanes.get("fs", Lane("fs")).marks) == 5)
        lane = view.timeline.lanes["fs"]
        assert [s.asked_row for s in lane.spans] == [1, 0]
        assert [s.asked_row for s in lane.open_spans] == [4]
        view.seconds_per_px = 0.02
        asked = [m.ts for m in lane.marks]
        view.left = asked[0] - 10 * view.seconds_per_px
        now = asked[-1] + 2.0
        bars = view.held_bars("fs", now=now)
        assert len(bars) == 3
        by_start = sorted(bars, key=lambda b: b.left())
        # each bar starts at its own request and ends at its own answer
        assert by_start[0].left() == pytest.approx(view.x_of(asked[0]))
        assert by_start[0].right() == pytest.approx(view.x_of(asked[3]))
        assert by_start[1].left() == pytest.approx(view.x_of(asked[1]))
        assert by_start[1].right() == pytest.approx(view.x_of(asked[2]))
        # the request not answered is held up to now
        assert by_start[2].left() == pytest.approx(view.x_of(asked[4]))
        assert by_start[2].right() == pytest.approx(view.x_of(now))
    finally:
        panel.stop()


def test_the_timeline_folds_probe_runs_shows_the_logs_start_and_a_legend(
    layout: Layout, qtbot: QtBot
) -> None:
    """Two probe runs share one lane below the servers'; the first view spans the log from its
    first mark (ten minutes here, not the last 45 s); the legend names every mark."""
    w = events.EventWriter(layout, "s1")
    rec = events.event(events.ROOTS_ASKED, "fs", w.run, dir=events.SERVER_TO_HOST, id=1)
    rec["ts"] = "2026-01-01T10:00:00Z"
    w.write(rec)
    for at, server in (("02", "probe:fs"), ("05", "probe:git"), ("08", "probe")):
        rec = events.event(events.LIST_CHANGED_SENT, server, w.run, uris=[])
        rec["ts"] = f"2026-01-01T10:{at}:00Z"
        w.write(rec)
    rec = events.event(events.ROOTS_ASKED, "git", w.run, dir=events.SERVER_TO_HOST, id=2)
    rec["ts"] = "2026-01-01T10:10:00Z"
    w.write(rec)
    panel = _shown_panel(layout, qtbot)
    try:
        view = panel.timeline
        qtbot.waitUntil(lambda: len(view.timeline.servers()) == 3, timeout=WAIT_MS)
        assert view.timeline.servers() == ["fs", "git", PROBES]
        assert len(view.timeline.lanes[PROBES].marks) == 3
        assert view.lane_label(PROBES) == "Probe runs"
        first, last = view.timeline.first, view.timeline.last
        assert first is not None and last is not None
        assert LABEL_WIDTH <= view.x_of(first) < view.x_of(last) <= view.width()
        image = view.grab().toImage()
        band = [
            image.pixelColor(x, y)
            for x in range(0, view.width())
            for y in range(view.height() - LEGEND_HEIGHT, view.height())
        ]
        for kind in MarkKind:
            assert COLORS[kind] in band, f"the legend shows no {kind.value} mark"
        assert [words for _, words in view.legend_items()] == [
            "asked for roots",
            "answered",
            "list_changed sent",
            "consent",
            "refused",
            "answer held",
        ]
    finally:
        panel.stop()
