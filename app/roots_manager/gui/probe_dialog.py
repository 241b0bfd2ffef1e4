"""The Probe… dialog: what a server really does with its roots, as a paired matrix.

The dialog shows the plan, runs it with a progress bar and Cancel, fills the matrix as rows
arrive (inside and outside side by side, coloured by outcome, the raw request and answer of
the selected cell below), puts the verdict on top, keeps the table (the app always saves it)
and links to what changed since the previous saved run.
"""

from __future__ import annotations

import html
import json
import shlex

from PySide6.QtCore import QItemSelection, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from roots_manager.core.log.probe_runs import bridge_name
from roots_manager.core.names import visible
from roots_manager.core.paths import Layout
from roots_manager.core.probe.plan import PathTool
from roots_manager.core.probe.reasons import Status, plan
from roots_manager.core.probe.report import Report, short
from roots_manager.core.probe.table import Comparison, compare, history, save
from roots_manager.core.probe.verdict import VERDICT_NAMES
from roots_manager.gui.probe_model import INSIDE, OUTSIDE, ProbeRowsModel, ProbeWorker
from roots_manager.gui.probe_texts import plan_text, problem_text, reason_text, status_text
from roots_manager.probe.connection import ALLOW, HANDSHAKE, MODERN


class ProbeDialog(QDialog):
    """Probe one server: its command line (with ``{allow}``), the plan, the run, the table."""

    run_finished = Signal(object)
    """The run ended: its :class:`Report`, or None when it was cancelled."""

    def __init__(
        self, layout: Layout, server: str, command: list[str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.layout_ = layout
        self.server = server
        self.worker: ProbeWorker | None = None
        self.report: Report | None = None
        self.comparison: Comparison | None = None
        self.setWindowTitle(self.tr("Probe {server}").format(server=visible(server)))

        self.plan = QLabel(self)
        self.plan.setAccessibleName(self.tr("Plan"))
        plan = self.plan
        plan.setWordWrap(True)
        self.command = QLineEdit(shlex.join(command), self)
        self.command.textChanged.connect(lambda _: self._show_plan(None))
        self.command.setAccessibleName(self.tr("The server's command line"))
        self.command.setPlaceholderText(self.tr("npx -y some-server {allow}"))
        command_label = QLabel(self.tr("&Command:"), self)
        command_label.setBuddy(self.command)
        self.protocol = QComboBox(self)
        self.protocol.addItem(self.tr("initialize handshake"), HANDSHAKE)
        self.protocol.addItem(self.tr("2026-07-28 (roots with each request)"), MODERN)
        self.protocol.setAccessibleName(self.tr("Protocol"))
        self.protocol.currentIndexChanged.connect(lambda _: self._show_plan(None))
        protocol_label = QLabel(self.tr("&Protocol:"), self)
        protocol_label.setBuddy(self.protocol)

        self.verdict = QLabel(self)
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(Qt.TextFormat.RichText)
        self.verdict.setAccessibleName(self.tr("Verdict"))
        self.changes = QLabel(self)
        self.changes.setTextFormat(Qt.TextFormat.RichText)
        self.changes.linkActivated.connect(self.show_changes)
        self.changes.hide()

        self.progress = QProgressBar(self)
        self.progress.setAccessibleName(self.tr("Progress"))
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.status = QLabel(self)

        self.model = ProbeRowsModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setAccessibleName(self.tr("Probe matrix"))
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.selectionModel().selectionChanged.connect(self._selected)
        self.raw = QPlainTextEdit(self)
        self.raw.setReadOnly(True)
        self.raw.setAccessibleName(self.tr("Request and answer"))
        self.raw.setPlaceholderText(
            self.tr("Select a cell to see the request sent and the answer received.")
        )
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.table)
        split.addWidget(self.raw)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)

        self.start_button = QPushButton(self.tr("&Start"), self)
        self.start_button.setDefault(True)
        self.start_button.clicked.connect(self.start)
        self.cancel_button = QPushButton(self.tr("Ca&ncel"), self)
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        close = QPushButton(self.tr("C&lose"), self)
        close.clicked.connect(self.close)

        row = QHBoxLayout()
        row.addWidget(command_label)
        row.addWidget(self.command, 1)
        row.addWidget(protocol_label)
        row.addWidget(self.protocol)
        buttons = QHBoxLayout()
        buttons.addWidget(self.progress, 1)
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(close)
        lay = QVBoxLayout(self)
        lay.addWidget(self.verdict)
        lay.addWidget(self.changes)
        lay.addWidget(plan)
        lay.addLayout(row)
        lay.addLayout(buttons)
        lay.addWidget(self.status)
        lay.addWidget(split, 1)
        self.resize(1000, 700)
        self._show_plan(None)

    def _show_plan(self, tools: list[PathTool] | None) -> None:
        """The plan: the phases, and the tools to be probed once the server listed them."""
        items = plan(
            tools,
            server=bridge_name(self.server),
            modern=self.protocol.currentData() == MODERN,
            allowance_known=ALLOW in self.command.text(),
        )
        self.plan.setText(plan_text(items))

    # ---- the run ------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.worker is not None

    def start(self) -> None:
        """Run the probe with the command line in the box."""
        if self.running:
            return
        try:
            command = shlex.split(self.command.text())
        except ValueError as exc:
            self.status.setText(
                self.tr("The command line cannot be read: {reason}").format(reason=exc)
            )
            return
        if not command:
            self.status.setText(self.tr("Give the server's command line first."))
            return
        self.model.clear()
        self.report = None
        self.verdict.clear()
        self.changes.hide()
        self.raw.clear()
        self.progress.setRange(0, 0)  # busy until the plan is known
        self.status.setText(self.tr("Starting the server…"))
        self.worker = ProbeWorker(
            command, self.server, self.layout_.logs, self.protocol.currentData(), self
        )
        self.worker.rows_found.connect(self.model.add_rows)
        self.worker.progressed.connect(self._progressed)
        self.worker.planned.connect(self._show_plan)
        self.worker.finished.connect(self._finished)
        self.worker.failed.connect(self._failed)
        self.start_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.command.setEnabled(False)
        self.protocol.setEnabled(False)
        self.worker.start()

    def cancel(self) -> None:
        """Stop the run; the server is stopped and the scratch tree removed."""
        if self.worker is not None:
            self.status.setText(self.tr("Cancelling: stopping the server…"))
            self.cancel_button.setEnabled(False)
            self.worker.cancel()

    def _progressed(self, done: int, total: int, status: Status) -> None:
        if total:
            self.progress.setRange(0, total)
            self.progress.setValue(min(done, total))
        self.status.setText(status_text(status))

    def _ended(self) -> None:
        if self.worker is not None:
            self.worker.wait(10)
            self.worker.deleteLater()
        self.worker = None
        self.start_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.command.setEnabled(True)
        self.protocol.setEnabled(True)
        self.progress.setRange(0, 1)

    def _failed(self, reason: str) -> None:
        self._ended()
        self.status.setText(self.tr("The probe failed: {reason}").format(reason=reason))
        self.run_finished.emit(None)

    def _finished(self, report: Report | None) -> None:
        self._ended()
        if report is None:
            self.status.setText(self.tr("Cancelled. The server was stopped."))
            self.run_finished.emit(None)
            return
        self.progress.setValue(1)
        self.report = report
        self.model.finish(report)
        self.verdict.setText(self._verdict_html(report))
        previous = history(self.layout_, report.name)
        try:
            path = save(self.layout_, report)
            saved = self.tr("Saved as {file}.").format(file=path.name)
        except OSError as exc:
            saved = self.tr("The table could not be saved: {reason}").format(reason=exc)
        took = self.tr("{rows} rows in {seconds} s.").format(
            rows=len(report.rows), seconds=f"{report.seconds:.1f}"
        )
        problem = (
            problem_text(report.problem_detail)
            if report.problem_detail is not None
            else report.problem or ""
        )
        self.status.setText(" ".join(p for p in (problem, took, saved) if p))
        if previous:
            self.comparison = compare(previous[0].report, report)
            before = previous[0].report
            n = len(self.comparison.rows)
            changed = (
                self.tr(
                    "%n row(s) changed since the previous run ({when}, version {version})", "", n
                )
                if before.version
                else self.tr("%n row(s) changed since the previous run ({when}, no version)", "", n)
            )
            self.changes.setText(
                '<a href="changes">'
                + html.escape(changed.format(when=before.started_at, version=before.version))
                + "</a>"
            )
            self.changes.show()
        self.run_finished.emit(report)

    def _words(self) -> dict[bool | None, str]:
        """A verdict line's value in words."""
        return {True: self.tr("yes"), False: self.tr("no"), None: self.tr("undecided")}

    def _verdict_html(self, report: Report) -> str:
        words = self._words()
        lines = []
        for name in VERDICT_NAMES:
            f = report.verdict.get(name)
            if f is None:
                continue
            mark = f"<b>{html.escape(words[f.value])}</b>"
            reason = html.escape(reason_text(f))
            lines.append(f"{html.escape(name)}: {mark} <small>{reason}</small>")
        if report.allowance is None:
            lines.append(
                html.escape(
                    self.tr(
                        "The server's own allowance is unknown (no {allow} in its command "
                        "line): a refusal outside the root proves less."
                    )
                )
            )
        return "<br>".join(lines)

    # ---- details ------------------------------------------------------------------------

    def _selected(self, selected: QItemSelection, _: QItemSelection) -> None:
        indexes = selected.indexes()
        if not indexes:
            return
        index = indexes[0]
        row = self.model.row_at(index.row())
        if row is None:
            return
        cells = (
            [("inside", row.inside)]
            if index.column() == INSIDE
            else [("outside", row.outside)]
            if index.column() == OUTSIDE
            else [("inside", row.inside), ("outside", row.outside)]
        )
        parts = []
        for side, cell in cells:
            doc = {"request": cell.request, "answer": cell.answer, "changed": cell.changed}
            text = json.dumps(doc, ensure_ascii=False, indent=2)
            if self.report is not None:
                text = short(self.report, text)
            parts.append(f"# {side}: {cell.outcome.value} ({cell.evidence.value})\n{text}")
        self.raw.setPlainText("\n\n".join(parts))

    def show_changes(self, _link: str = "") -> None:
        """Show the rows that changed since the previous saved run, below the matrix."""
        c = self.comparison
        if c is None:
            return
        compared = (
            self.tr("Compared with the run of {when} (version {version}):")
            if c.old.version
            else self.tr("Compared with the run of {when} (no version):")
        )
        lines = [compared.format(when=c.old.started_at, version=c.old.version)]
        words = self._words()
        for ch in c.rows:
            old = "-" if ch.old is None else f"{ch.old[0].value} / {ch.old[1].value}"
            new = "-" if ch.new is None else f"{ch.new[0].value} / {ch.new[1].value}"
            lines.append(f"{' '.join(ch.key)}: {old} -> {new}")
        if not c.rows:
            lines.append(self.tr("No row changed its outcome."))
        for name, (a, b) in c.verdict.items():
            lines.append(f"{name}: {words[a]} -> {words[b]}")
        self.raw.setPlainText("\n".join(lines))

    def closeEvent(self, event: QCloseEvent) -> None:
        # closing stops the run: no server is left behind a closed window
        if self.worker is not None:
            self.worker.cancel()
            self.worker.wait(15)
        super().closeEvent(event)
