"""Learn…: a server run confined for a while, then the smallest grants that would have allowed
what it was refused, each ticked, and Accept grants the ticked ones.

What is proposed and what never is, and turning confinement on and back off, are
:mod:`roots_manager.actions.learning`'s; the dialog counts down, shows and ticks.
"""

from __future__ import annotations

import os
import time

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from roots_manager.actions import learning as learn
from roots_manager.core.confinement.learning import Kind, Proposal, Proposed
from roots_manager.core.directory.layout import home_shortened
from roots_manager.core.servers.names import visible
from roots_manager.gui.common.confinement_text import reason_text
from roots_manager.gui.common.watcher import StoreWatcher

TICK_MS = 500
"""How often the time left and the refusals so far are shown again."""
MIN_WIDTH = 520
"""The least width, in pixels: the intro wraps in a few lines."""
TITLE_ROOM = 160
"""Pixels beside the title's text that a window manager's frame takes (icon and buttons)."""


class LearnDialog(QDialog):
    """Learning one server's grants, from Start to Accept (or closing: nothing granted)."""

    learned = Signal(str)
    """Server name: the ticked grants of the proposal were granted."""

    def __init__(self, watcher: StoreWatcher, server: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self.server = server
        self.learning: learn.Learning | None = None
        self.proposal: Proposal | None = None
        self.deadline = 0.0
        self.home = os.path.expanduser("~")
        self.setWindowTitle(self.tr("Learn what {server} needs").format(server=visible(server)))

        intro = QLabel(
            self.tr(
                "{server} runs confined while it learns: use it from its host as usual. At "
                "the end, the smallest grants that would have allowed what it was refused are "
                "proposed; never /, your home folder or a secret."
            ).format(server=visible(server)),
            self,
        )
        intro.setWordWrap(True)
        self.minutes = QSpinBox(self)
        self.minutes.setRange(1, 240)
        self.minutes.setValue(10)
        self.minutes.setSuffix(self.tr(" min"))
        self.minutes.setAccessibleName(self.tr("How long to learn"))
        self.start_button = QPushButton(self.tr("Start"), self)
        self.start_button.clicked.connect(lambda: self.start())
        self.stop_button = QPushButton(self.tr("Stop now"), self)
        self.stop_button.clicked.connect(self.stop)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.note.setVisible(False)
        self.list = QListWidget(self)
        self.list.setAccessibleName(self.tr("The grants proposed"))
        self.accept_button = QPushButton(self.tr("Accept"), self)
        self.accept_button.setToolTip(self.tr("Grant the ticked ones"))
        self.accept_button.clicked.connect(self.accept_ticked)
        self.close_button = QPushButton(self.tr("Close"), self)
        self.close_button.clicked.connect(self.reject)

        when = QHBoxLayout()
        when.addWidget(QLabel(self.tr("Learn for"), self))
        when.addWidget(self.minutes)
        when.addStretch(1)
        when.addWidget(self.start_button)
        when.addWidget(self.stop_button)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.accept_button)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(when)
        layout.addWidget(self.status)
        layout.addWidget(self.note)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)

        self.timer = QTimer(self)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)
        # wide enough for its title whole (beside a window manager's buttons) and for the
        # intro to wrap in a few lines; as tall as its texts wrap to at that width
        title = self.fontMetrics().horizontalAdvance(self.windowTitle()) + TITLE_ROOM
        self.setMinimumWidth(max(MIN_WIDTH, title))
        self._show_phase()

    def _fit(self) -> None:
        """Grow to show what the dialog holds now (up to the screen's room): the proposal's
        longest line whole and each of its lines, the wrapped texts at the width taken."""
        room = self.screen().availableGeometry()
        rows = self.list.count() if self.list.isVisibleTo(self) else 0
        if rows:
            metrics = self.list.fontMetrics()
            longest = max(metrics.horizontalAdvance(self.list.item(i).text()) for i in range(rows))
            # the tick box, the frame and a scrollbar's width beside the text
            extra = 2 * self.list.frameWidth() + 4 * metrics.averageCharWidth() + 24
            self.list.setMinimumWidth(min(longest + extra, room.width() * 9 // 10 - 40))
            tall = sum(self.list.sizeHintForRow(i) for i in range(rows))
            self.list.setMinimumHeight(
                min(tall + 2 * self.list.frameWidth() + 4, room.height() // 2)
            )
        width = min(max(self.width(), self.minimumSizeHint().width()), room.width() * 9 // 10)
        self.resize(width, self.height())
        box = self.layout()
        wraps = box is not None and box.hasHeightForWidth()
        height = box.totalHeightForWidth(width) if box is not None and wraps else 0
        height = max(height, self.minimumSizeHint().height(), self.sizeHint().height())
        self.resize(width, min(height, room.height() * 9 // 10))

    def _show_phase(self) -> None:
        running = self.learning is not None and self.proposal is None
        self.start_button.setVisible(self.learning is None)
        self.minutes.setEnabled(self.learning is None)
        self.stop_button.setVisible(running)
        self.list.setVisible(self.proposal is not None)
        self.accept_button.setVisible(self.proposal is not None and bool(self.proposal.grants))
        self._fit()

    def start(self, seconds: float | None = None) -> bool:
        """Start learning for *seconds* (None: the minutes chosen); False when refused (the
        watcher says why: a machine that cannot confine, a server forgotten since)."""
        started = self.watcher.act(lambda store: learn.start(store, self.server))
        if started is None:
            return False
        self.learning = started
        if started.unconfined_runs:
            self.note.setText(
                self.tr(
                    "{server} is running unconfined now and cannot be restarted confined: it "
                    "is learned from its next start. Have its host start it again."
                ).format(server=visible(self.server))
            )
            self.note.setVisible(True)
        length = self.minutes.value() * 60 if seconds is None else seconds
        self.deadline = time.monotonic() + length
        self.timer.start()
        self._tick()
        self._show_phase()
        return True

    def _tick(self) -> None:
        if self.learning is None:
            return
        n = self.learning.collect(self.watcher.store)
        left = max(0, round(self.deadline - time.monotonic()))
        self.status.setText(
            self.tr("%n refused so far", "", n)
            + " · "
            + self.tr("{minutes}:{seconds:02d} left").format(minutes=left // 60, seconds=left % 60)
        )
        if self.deadline <= time.monotonic():
            self.stop()

    def stop(self) -> None:
        """End learning now and show the proposal, every grant of it ticked."""
        lr = self.learning
        if lr is None or self.proposal is not None:
            return
        self.timer.stop()
        lr.collect(self.watcher.store)
        self.proposal = learn.proposal(self.watcher.store, lr, home=self.home)
        self.list.clear()
        for g in self.proposal.grants:
            item = QListWidgetItem(self._grant_text(g))
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            item.setToolTip(", ".join(g.examples))
            self.list.addItem(item)
        for x in self.proposal.left_out:
            item = QListWidgetItem(
                self.tr("Left out: {path} ({reason})").format(
                    path=self._shown(x.path), reason=reason_text(x.reason)
                )
            )
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.list.addItem(item)
        if not self.proposal.refusals:
            self.status.setText(self.tr("Nothing was refused: was the server used while learning?"))
        elif not self.proposal.grants:
            self.status.setText(self.tr("Nothing to propose: what was refused is left out."))
        else:
            self.status.setText(
                self.tr(
                    "%n refused. Proposed grants, to accept or untick:", "", self.proposal.refusals
                )
            )
        self._show_phase()

    def _grant_text(self, g: Proposed) -> str:
        if g.kind is Kind.DOMAIN:
            return self.tr("Domain, through the proxy: {domain}").format(domain=visible(g.path))
        path = self._shown(g.path)
        if g.kind is Kind.CREATE:
            return self.tr("Make its own folder: {path}").format(path=path)
        if g.kind is Kind.FILE:
            if g.read_only:
                return self.tr("This file, read-only: {path}").format(path=path)
            return self.tr("This file: {path}").format(path=path)
        if g.read_only:
            return self.tr("Folder, read-only: {path}").format(path=path)
        return self.tr("Folder: {path}").format(path=path)

    def _shown(self, path: str) -> str:
        return home_shortened(path, self.home)

    def ticked(self) -> list[Proposed]:
        """The grants of the proposal ticked now."""
        if self.proposal is None:
            return []
        return [
            g
            for i, g in enumerate(self.proposal.grants)
            if self.list.item(i).checkState() == Qt.CheckState.Checked
        ]

    def accept_ticked(self) -> bool:
        """Grant the ticked grants and close; False when the grant was refused (the watcher
        says why, and the dialog stays open)."""
        lr = self.learning
        if lr is None or self.proposal is None:
            return False
        chosen = self.ticked()
        done = self.watcher.act(lambda store: learn.finish(store, lr, chosen))
        if done is None:
            return False
        self.learning = None
        if done.granted:
            self.learned.emit(self.server)
        self.accept()
        return True

    def reject(self) -> None:
        """Close: nothing granted, and a confinement learning turned on is turned back off."""
        self.timer.stop()
        lr = self.learning
        if lr is not None:
            self.learning = None
            self.watcher.act(lambda store: learn.finish(store, lr, []))
        super().reject()
