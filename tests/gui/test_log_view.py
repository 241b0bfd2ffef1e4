"""The live log panel: detail pane, export, clear, pause and follow, keyboard and names."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from roots_manager.core import events, export
from roots_manager.core.paths import Layout
from roots_manager.core.timeline import MarkKind
from roots_manager.gui.log_view import LogPanel
from roots_manager.gui.timeline_view import COLORS

WAIT_MS = 20_000


def _write(w: events.EventWriter, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        server = ("fs", "git")[i % 2]
        kind = events.ROOTS_ASKED if i % 4 == 0 else events.MESSAGE
        w.write(
            events.event(
                kind, server, w.session, dir=events.SERVER_TO_HOST, id=i, method="roots/list"
            )
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
    from roots_manager.core.uri import path_to_uri
    from roots_manager.gui.log_model import SUMMARY

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
    finally:
        panel.stop()
