"""The Probe… dialog: what a server really does with its roots, as a paired matrix.

The dialog runs the probe with a progress bar and Cancel (the plan folded away until asked for),
fills the matrix as rows arrive (inside and outside side by side, coloured by outcome, the raw
request and answer of the selected cell below), and then says on top, in one sentence, what the
server does with its roots, with each finding below as a statement marked yes, no or unknown
(:mod:`roots_manager.core.probe.headline`). It keeps the table (the app always saves one, but
for a server with no tool that takes a path: nothing was probed) and links to what changed since
the previous saved run. A command line without ``{allow}`` gets an offer to add it, and why.
"""

from __future__ import annotations

import html
import json
import shlex

from PySide6.QtCore import QCoreApplication, QItemSelection, Qt, Signal
from PySide6.QtGui import QCloseEvent, QShowEvent
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
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log.probe_runs import bridge_name
from roots_manager.core.probe import headline as words
from roots_manager.core.probe.plan import PathTool
from roots_manager.core.probe.reasons import Status, plan
from roots_manager.core.probe.report import Report, short
from roots_manager.core.probe.table import Comparison, compare, history, save
from roots_manager.core.servers.names import visible
from roots_manager.gui.common.window_state import clamp_to_screen
from roots_manager.gui.probe.probe_model import INSIDE, OUTSIDE, ProbeRowsModel, ProbeWorker
from roots_manager.gui.probe.probe_texts import plan_text, problem_text, reason_text, status_text
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
        plan.hide()
        self.plan_button = QToolButton(self)
        self.plan_button.setText(self.tr("What the probe &does"))
        self.plan_button.setCheckable(True)
        self.plan_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.plan_button.setArrowType(Qt.ArrowType.RightArrow)
        self.plan_button.toggled.connect(self._fold_plan)
        self.command = QLineEdit(shlex.join(command), self)
        self.command.textChanged.connect(lambda _: self._show_plan(None))
        self.command.textChanged.connect(lambda _: self._offer_allow())
        self.allow_note = QLabel(
            self.tr(
                "Without {allow} the probe cannot tell the server's own refusals from its "
                "roots': add it where the server takes its folder."
            ),
            self,
        )
        self.allow_note.setWordWrap(True)
        self.allow_button = QPushButton(self.tr("&Add {allow}"), self)
        self.allow_button.clicked.connect(self.add_allow)
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

        self.headline = QLabel(self)
        self.headline.setWordWrap(True)
        self.headline.setAccessibleName(self.tr("What the probe found"))
        font = self.headline.font()
        font.setBold(True)
        self.headline.setFont(font)
        self.headline.hide()
        self.verdict = QLabel(self)
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(Qt.TextFormat.RichText)
        self.verdict.setAccessibleName(self.tr("Verdict"))
        self.verdict.hide()
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
        # rows one line high: the matrix is what the dialog is for
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
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
        split.setStretchFactor(0, 4)
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
        allow = QHBoxLayout()
        allow.addWidget(self.allow_note, 1)
        allow.addWidget(self.allow_button)
        buttons = QHBoxLayout()
        buttons.addWidget(self.plan_button)
        buttons.addWidget(self.progress, 1)
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(close)
        lay = QVBoxLayout(self)
        lay.addWidget(self.headline)
        lay.addWidget(self.verdict)
        lay.addWidget(self.changes)
        lay.addLayout(row)
        lay.addLayout(allow)
        lay.addLayout(buttons)
        lay.addWidget(plan)
        lay.addWidget(self.status)
        lay.addWidget(split, 1)
        self.resize(1000, 700)
        self._placed = False
        self._show_plan(None)
        self._offer_allow()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._placed:
            return
        self._placed = True
        # on the screen, title bar and all: at 1366x768, or at a 1.5 scale, 1000x700 is not
        screen = self.screen()
        if screen is not None:
            area = screen.availableGeometry()
            self.resize(
                min(self.width(), area.width() * 9 // 10),
                min(self.height(), area.height() * 17 // 20),
            )
            frame = self.frameGeometry()
            frame.moveCenter(area.center())
            self.move(frame.topLeft())
        clamp_to_screen(self)

    def _fold_plan(self, shown: bool) -> None:
        self.plan.setVisible(shown)
        self.plan_button.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    def _offer_allow(self) -> None:
        """Offer {allow} while the command line lacks it."""
        missing = ALLOW not in self.command.text()
        self.allow_note.setVisible(missing)
        self.allow_button.setVisible(missing)

    def add_allow(self) -> None:
        """Put {allow} at the end of the command line (where most servers take a folder)."""
        if ALLOW not in self.command.text():
            self.command.setText(self.command.text().rstrip() + " " + ALLOW)
        self.command.setFocus()

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
        self.headline.hide()
        self.verdict.hide()
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
        self.headline.setText(self.headline_text(report))
        self.headline.show()
        if words.nothing_to_probe(report):
            # no row, no finding: not a result to keep nor to compare a later run with
            self.status.setText("")
            self.run_finished.emit(report)
            return
        self.verdict.setText(self._verdict_html(report))
        self.verdict.show()
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
        return {v: self._translate(t) for v, t in words.VALUE.items()}

    @staticmethod
    def _translate(template: str, **params: object) -> str:
        text = QCoreApplication.translate(words.CONTEXT, template)
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):  # a translation with broken placeholders
            return template.format(**params)

    def headline_text(self, report: Report) -> str:
        """The one sentence on top: what the probe found, in the user's language."""
        line = words.headline(report, visible(self.server))
        return "".join(self._translate(part, **line.params) for part in line.parts)

    def _verdict_html(self, report: Report) -> str:
        values = self._words()
        marks = {True: ("✓", "#2e9657"), False: ("✗", "#c0392b"), None: ("?", "#808080")}
        lines = []
        for line in words.lines(report):
            sign, color = marks[line.good]
            finding = report.verdict[line.name]
            lines.append(
                f'<span style="color:{color}"><b>{sign}</b></span> '
                f"{html.escape(self._translate(line.statement))}: "
                f"<b>{html.escape(values[line.value])}</b> "
                f"<small>{html.escape(reason_text(finding))}</small>"
            )
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
        values = self._words()
        for ch in c.rows:
            old = "-" if ch.old is None else f"{ch.old[0].value} / {ch.old[1].value}"
            new = "-" if ch.new is None else f"{ch.new[0].value} / {ch.new[1].value}"
            lines.append(f"{' '.join(ch.key)}: {old} -> {new}")
        if not c.rows:
            lines.append(self.tr("No row changed its outcome."))
        for name, (a, b) in c.verdict.items():
            lines.append(f"{name}: {values[a]} -> {values[b]}")
        self.raw.setPlainText("\n".join(lines))

    def closeEvent(self, event: QCloseEvent) -> None:
        # closing stops the run: no server is left behind a closed window
        if self.worker is not None:
            self.worker.cancel()
            self.worker.wait(15)
        super().closeEvent(event)
