"""The consent prompt: a dialog asking whether a new or changed server may see roots."""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import (
    QFontDatabase,
    QStandardItem,
    QStandardItemModel,
)
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from roots_manager.actions.questions import ConsentAnswer, ConsentQuestion, RootChoice
from roots_manager.core.consent.wait import ConsentWait, WaitStage, current_wait
from roots_manager.core.directory.layout import Layout
from roots_manager.core.servers.names import visible
from roots_manager.core.store.grants import Decision
from roots_manager.gui.common.folder_dialog import pick_folder
from roots_manager.gui.common.folder_drops import FolderDrops
from roots_manager.gui.common.placeholder_view import PlaceholderListView
from roots_manager.gui.roots.roots_model import unavailable_text
from roots_manager.gui.servers.servers_model import local_time

RootIdRole = Qt.ItemDataRole.UserRole + 1

AddRoots = Callable[[list[str]], list[RootChoice]]
"""Adds folders as roots (asking and reporting as the Roots tab does); returns the new ones."""

WAIT_TICK_MS = 500


class ConsentDialog(QDialog):
    """Asks one :class:`ConsentQuestion`; nothing is pre-checked."""

    answered = Signal(object)
    """The user decided; the argument is a :class:`ConsentAnswer`, or None for "not now"."""

    def __init__(
        self,
        question: ConsentQuestion,
        parent: QWidget | None = None,
        *,
        layout: Layout | None = None,
        add_roots: AddRoots | None = None,
        confined: bool | None = None,
        network: str = "allowed",
    ) -> None:
        """*confined*: whether the server runs confined (None: not known), which the footer
        says: roots are an access control only for a confined server; *network*: its network
        then (``allowed``, ``domains``, ``blocked``)."""
        super().__init__(parent)
        self.question = question
        self.confined = confined
        self.layout_ = layout
        self.add_roots = add_roots
        self._sent = False
        self.setWindowTitle(self.tr("A server asks for your folders"))
        self.setAccessibleName(
            self.tr("Consent request from {server}").format(server=visible(question.server))
        )

        title = QLabel(
            self.tr("<h3>May <i>{server}</i> see your folders?</h3>").format(
                server=_html(visible(question.server))
            ),
            self,
        )
        title.setTextFormat(Qt.TextFormat.RichText)
        if question.reason == "new-server":
            why = self.tr(
                "This server has not run behind Roots Manager before. While you decide, its "
                "request for folders is held, for a limited time; then it is answered with no "
                "folder, and your decision reaches it later."
            )
        else:
            why = self.tr(
                "This server's command line changed since you approved it. Its grants are "
                "suspended until you decide; a changed command may be a different program."
            )
        reason = QLabel(why, self)
        reason.setWordWrap(True)
        when = QLabel(
            self.tr("Asked at {when}.").format(when=local_time(question.requested_at)), self
        )
        # the deadline the server really has, from its bridge's log, kept current
        self.wait_label = QLabel(self)
        self.wait_label.setObjectName("consentWait")
        self.wait_label.setWordWrap(True)
        self.wait_label.setTextFormat(Qt.TextFormat.PlainText)
        self.wait: ConsentWait | None = None
        self._wait_timer = QTimer(self)
        self._wait_timer.setInterval(WAIT_TICK_MS)
        self._wait_timer.timeout.connect(self.update_wait)

        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.command = QPlainTextEdit(shlex.join(question.command), self)
        self.command.setReadOnly(True)
        self.command.setFont(mono)
        self.command.setMaximumHeight(self.fontMetrics().lineSpacing() * 4 + 12)
        self.command.setAccessibleName(self.tr("Full command line"))
        command_label = QLabel(self.tr("Full co&mmand line:"), self)
        command_label.setBuddy(self.command)

        box = QVBoxLayout(self)
        box.addWidget(title)
        box.addWidget(reason)
        box.addWidget(when)
        box.addWidget(self.wait_label)
        box.addWidget(command_label)
        box.addWidget(self.command)
        if question.previous_command is not None:
            self.previous = QPlainTextEdit(shlex.join(question.previous_command), self)
            self.previous.setReadOnly(True)
            self.previous.setFont(mono)
            self.previous.setMaximumHeight(self.fontMetrics().lineSpacing() * 4 + 12)
            self.previous.setAccessibleName(self.tr("Previously approved command line"))
            previous_label = QLabel(self.tr("Previously &approved command line:"), self)
            previous_label.setBuddy(self.previous)
            box.addWidget(previous_label)
            box.addWidget(self.previous)

        self.model = QStandardItemModel(self)
        for r in question.roots:
            self._append_root(r, checked=False)
        self.roots = PlaceholderListView(
            self.tr("Drop folders here, or use Add folder…") if add_roots is not None else "",
            self,
        )
        self.roots.setModel(self.model)
        self.roots.setAccessibleName(self.tr("Roots the server may see"))
        # a folder dropped on the list becomes a root, ticked
        if add_roots is not None:
            FolderDrops(self.roots).dropped.connect(self.add_paths)
        self.roots_label = QLabel(self)
        self.roots_label.setWordWrap(True)
        self.roots_label.setBuddy(self.roots)
        self.add_button = QPushButton(self.tr("Add &folder…"), self)
        self.add_button.setToolTip(
            self.tr("Add a folder to your roots and tick it here (or drop folders on the list)")
        )
        self.add_button.clicked.connect(self.add_folder)
        self.add_button.setVisible(add_roots is not None)
        label_row = QHBoxLayout()
        label_row.addWidget(self.roots_label, 1)
        label_row.addWidget(self.add_button)
        box.addLayout(label_row)
        box.addWidget(self.roots, 1)
        self._label_roots()

        self.notice = QLabel(self.footer_text(confined, network), self)
        self.notice.setWordWrap(True)
        box.addWidget(self.notice)
        if question.waiting:
            box.addWidget(
                QLabel(
                    self.tr("%n more request(s) wait after this one.", "", question.waiting),
                    self,
                )
            )

        self.while_running_button = QPushButton(self.tr("Allow w&hile it runs"), self)
        self.always_button = QPushButton(self.tr("Al&ways allow"), self)
        self.deny_button = QPushButton(self.tr("&Deny"), self)
        self.later_button = QPushButton(self.tr("&Later"), self)
        self.later_button.setToolTip(
            self.tr("Decide later: the request stays pending and the server waits or sees nothing")
        )
        self.while_running_button.clicked.connect(lambda: self._send(Decision.WHILE_RUNNING))
        self.always_button.clicked.connect(lambda: self._send(Decision.ALWAYS))
        self.deny_button.clicked.connect(lambda: self._send(Decision.DENY))
        self.later_button.clicked.connect(self.reject)
        # why the Allow buttons cannot be clicked, while they cannot
        self.allow_hint = QLabel(self.tr("Tick the folders it may see to allow it, or Deny."), self)
        self.allow_hint.setWordWrap(True)
        box.addWidget(self.allow_hint)
        # One order on every style: a QDialogButtonBox lays its buttons out as the platform's
        # theme says, and GTK's puts Deny first, where a user used to Fusion clicks Allow.
        self.buttons = QHBoxLayout()
        for b in (
            self.later_button,
            None,
            self.deny_button,
            self.while_running_button,
            self.always_button,
        ):
            if b is None:
                self.buttons.addStretch(1)
            else:
                self.buttons.addWidget(b)
        box.addLayout(self.buttons)
        # no default button: Enter must not allow anything by accident
        for b in (
            self.while_running_button,
            self.always_button,
            self.deny_button,
            self.later_button,
        ):
            b.setAutoDefault(False)
            b.setDefault(False)
        self.model.itemChanged.connect(self._update_buttons)
        self._update_buttons()
        self.roots.setFocus()
        self.resize(560, 520)
        if layout is not None:
            self.update_wait()
            self._wait_timer.start()
        else:
            self.wait_label.setVisible(False)

    # ---- the server's deadline ------------------------------------------------------------

    def update_wait(self) -> None:
        """Read the server's wait again from its bridge's log and say where it stands."""
        if self.layout_ is None:
            return
        self.wait = current_wait(self.layout_, self.question.server)
        self.wait_label.setText(self.wait_text(self.wait, time.time()))
        # the countdown stands out while it runs; the other states are plain information
        font = self.wait_label.font()
        font.setBold(self.wait is not None and self.wait.stage is WaitStage.HOLDING)
        self.wait_label.setFont(font)
        if self.wait is not None and self.wait.stage in (WaitStage.TIMED_OUT, WaitStage.DECIDED):
            self._wait_timer.stop()  # nothing moves any more

    def wait_text(self, wait: ConsentWait | None, now: float) -> str:
        """What the user is told about the server's wait."""
        server = visible(self.question.server)
        if wait is None:
            return self.tr(
                "{server} is not waiting now: your decision applies when it next asks."
            ).format(server=server)
        if wait.stage is WaitStage.NOT_ASKED:
            return self.tr(
                "{server} has not asked for its folders yet; once it asks, it waits up to "
                "{seconds} s for your decision."
            ).format(server=server, seconds=f"{wait.timeout:g}")
        if wait.stage is WaitStage.HOLDING:
            left = wait.remaining(now) or 0.0
            return self.tr("{server} is waiting: {seconds} s").format(
                server=server, seconds=int(left + 0.999)
            )
        return self.tr(
            "The time ran out: {server} was answered with no folder. A decision now still "
            "reaches it."
        ).format(server=server)

    # ---- adding roots here ----------------------------------------------------------------

    def _append_root(self, r: RootChoice, *, checked: bool) -> None:
        item = QStandardItem(f"{r.name} — {r.path}")
        item.setData(r.id, RootIdRole)
        item.setEditable(False)
        item.setCheckable(True)
        item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
        if r.unavailable is not None:
            # a missing folder is never sent to a server, so it cannot be ticked either
            item.setEnabled(False)
            item.setCheckState(Qt.CheckState.Unchecked)
            item.setText(
                self.tr("{name} — {path} ({reason})").format(
                    name=r.name, path=r.path, reason=unavailable_text(r.unavailable)
                )
            )
        self.model.appendRow(item)

    def _label_roots(self) -> None:
        if self.model.rowCount():
            text = self.tr("&Roots it may see (tick the ones you allow):")
        elif self.add_roots is not None:
            text = self.tr(
                "You have no roots yet. Add the folders this server may see with Add folder…, "
                "or allow it with none for now."
            )
        else:
            text = self.tr("You have no roots yet: allowing approves the server with no folder.")
        self.roots_label.setText(text)

    def add_folder(self) -> None:
        """Pick a folder, add it as a root and tick it."""
        path = pick_folder(self, self.tr("Add a folder the server may see"))
        if path:
            self.add_paths([path])

    def add_paths(self, paths: list[str]) -> list[RootChoice]:
        """Add *paths* as roots and list them here, ticked; returns the roots added."""
        if self.add_roots is None or not paths:
            return []
        added = self.add_roots(paths)
        known = {self.model.item(row).data(RootIdRole) for row in range(self.model.rowCount())}
        for r in added:
            if r.id not in known:
                self._append_root(r, checked=True)
        self._label_roots()
        self._update_buttons()
        return added

    def checked_root_ids(self) -> list[str]:
        """The ids of the roots ticked."""
        out = []
        for row in range(self.model.rowCount()):
            item = self.model.item(row)
            if item is not None and item.checkState() == Qt.CheckState.Checked:
                out.append(str(item.data(RootIdRole)))
        return out

    def set_checked(self, root_ids: list[str]) -> None:
        """Tick exactly the roots *root_ids*."""
        for row in range(self.model.rowCount()):
            item = self.model.item(row)
            if item is not None:
                on = item.data(RootIdRole) in root_ids
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def footer_text(self, confined: bool | None, network: str = "allowed") -> str:
        """What roots are worth for this server: an access control only if it runs confined
        (and what its network is then)."""
        if confined and network == "domains":
            return self.tr(
                "This server runs confined: the kernel refuses it every file outside the folders "
                "you allow (a refusal shows in Roots Manager, where it can be allowed). Its "
                "network reaches only its domains, through Roots Manager's proxy."
            )
        if confined and network == "blocked":
            return self.tr(
                "This server runs confined: the kernel refuses it every file outside the folders "
                "you allow (a refusal shows in Roots Manager, where it can be allowed). Its "
                "network is blocked."
            )
        if confined:
            return self.tr(
                "This server runs confined: the kernel refuses it every file outside the folders "
                "you allow (a refusal shows in Roots Manager, where it can be allowed). Its "
                "network is not restricted unless you block it."
            )
        if confined is None:
            return self.tr(
                "Roots tell a server where to look. Only a confined server is held to them by "
                "the kernel; another can still open any file its process may."
            )
        return self.tr(
            "This server does not run confined: roots tell it where to look, but they are not "
            "an access control. It can still open any file its process may."
        )

    def _update_buttons(self, *_: object) -> None:
        some = bool(self.checked_root_ids()) or not self.model.rowCount()
        self.while_running_button.setEnabled(some)
        self.always_button.setEnabled(some)
        self.allow_hint.setVisible(not some)
        why = "" if some else self.tr("Tick at least one folder first")
        self.while_running_button.setToolTip(why)
        self.always_button.setToolTip(why)

    def _send(self, decision: Decision) -> None:
        ids = () if decision == Decision.DENY else tuple(self.checked_root_ids())
        self._emit(ConsentAnswer(decision, ids))
        self.accept()

    def _emit(self, answer: ConsentAnswer | None) -> None:
        if not self._sent:
            self._sent = True
            self.answered.emit(answer)

    def reject(self) -> None:
        self._emit(None)
        super().reject()

    def withdraw(self) -> None:
        """Close without an answer: the request was settled elsewhere."""
        self._sent = True
        super().reject()


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
