"""The notice of a confined server's refusal, with the grants it may be given in one click.

"fs was refused ~/notes/todo.md (read) while running tools/call read_file", and **Allow
folder**, **Allow read-only**, **Allow this file**, **Ignore**. What may be offered is
:func:`roots_manager.core.confinement.offers.offers`'s decision: a refusal of a secret (a system
file others may not read, another user's home, ``~/.ssh``, keyrings, cloud credentials, the home
folder itself) is shown with why, and offered nothing but Ignore; Roots Manager's own code and
the protected places are never offered as a folder.

The refusals wait grouped by server, folder and operation
(:class:`~roots_manager.core.confinement.refusals.Refusals`): the notice shows the newest that
can be acted on, counts the others, ignores a server's start-up refusals at once, and opens the
list of them all (:mod:`roots_manager.gui.servers.refusals_dialog`), where each row has the same
Allow and Ignore. Allowing grants the folder (a root made of it if it is not one yet) or lets the
server read (or write) the file, through :mod:`roots_manager.actions`; the bridge then restarts
the confined server under its new rules, so the host's next try works. A server set to ask
(``servers ask``) is not restarted: its refused read *waits* (the event's ``waits``), the notice
says so with the seconds left, and Allow lets that very call read
(:mod:`roots_manager.sandbox.asking`). A Log row and a
server's Recent activity allow a refusal through :meth:`DenialNotice.allow_refusal`: one grant,
wherever it is asked for (:mod:`roots_manager.actions.refusals`).
"""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from roots_manager.actions import refusals as refusal_actions
from roots_manager.core.confinement.offers import Offer, Offers
from roots_manager.core.confinement.refusals import Group, Key, Refusals
from roots_manager.core.directory.layout import home_shortened
from roots_manager.core.directory.records import EventRecord
from roots_manager.core.log import denials
from roots_manager.core.log.denials import START_UP, shown
from roots_manager.core.servers.names import visible
from roots_manager.gui.common.confinement_text import operation_text, reason_text
from roots_manager.gui.common.watcher import StoreWatcher


class DenialNotice(QFrame):
    """Shown above the tabs while refusals wait for the user's look."""

    allowed = Signal(str, str)
    """A refusal was granted: the server, and what was granted (a folder or a file)."""
    answered = Signal(str, str, str)
    """A question was allowed for a while, nothing saved: the server, what its reads are
    served from (a folder or a file), and for how long (``run`` or ``once``)."""
    waiting_changed = Signal()
    """Refusals were added, ignored or granted: the list of them shows what waits now."""
    list_requested = Signal()
    """The user asked for the list of every refusal waiting."""

    def __init__(self, watcher: StoreWatcher, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self.home = os.path.expanduser("~")
        self.refusals = Refusals(self.home)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(self.tr("A confined server was refused"))
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.folder_button = QPushButton(self.tr("Allow &folder"), self)
        self.read_only_button = QPushButton(self.tr("Allow &read-only"), self)
        self.file_button = QPushButton(self.tr("Allow this fi&le"), self)
        self.create_button = QPushButton(self.tr("Allow and ma&ke"), self)
        self.domain_button = QPushButton(self.tr("Allow &domain"), self)
        self.ignore_button = QPushButton(self.tr("I&gnore"), self)
        self.start_up_button = QPushButton(self.tr("Ignore all start-&up"), self)
        self.list_button = QPushButton(self.tr("All refu&sals…"), self)
        self.duration = QComboBox(self)
        """For a question (a call that waits): how long an allow holds."""
        self.duration.addItem(self.tr("Always"), "always")
        self.duration.addItem(self.tr("Until it ends"), "run")
        self.duration.addItem(self.tr("This once"), "once")
        self.duration.setAccessibleName(self.tr("How long to allow"))
        self.duration_label = QLabel(self.tr("Allow for:"), self)
        self.duration_label.setBuddy(self.duration)
        self.duration.setToolTip(
            self.tr(
                "Always: a grant, saved, which its next start gets. Until it ends, and this "
                "once: the reads are served while it runs, or only those waiting now; nothing "
                "is saved."
            )
        )
        self.folder_button.clicked.connect(lambda: self.allow(Offer.FOLDER))
        self.read_only_button.clicked.connect(lambda: self.allow(Offer.READ_ONLY))
        self.file_button.clicked.connect(lambda: self.allow(Offer.FILE))
        self.create_button.clicked.connect(lambda: self.allow(Offer.CREATE))
        self.domain_button.clicked.connect(lambda: self.allow(Offer.DOMAIN))
        self.ignore_button.clicked.connect(lambda: self.ignore())
        self.start_up_button.clicked.connect(lambda: self.ignore_start_up())
        self.list_button.clicked.connect(self.list_requested)
        # the sentence on a line of its own, the buttons under it: beside six buttons, a
        # wrapped sentence was cut to the two lines the buttons' height left it
        box = QVBoxLayout(self)
        box.setContentsMargins(8, 4, 8, 4)
        box.setSpacing(2)
        box.addWidget(self.label)
        row = QHBoxLayout()
        row.addStretch(1)
        box.addLayout(row)
        row.addWidget(self.duration_label)
        row.addWidget(self.duration)
        for button in (
            self.domain_button,
            self.create_button,
            self.folder_button,
            self.read_only_button,
            self.file_button,
            self.ignore_button,
            self.start_up_button,
            self.list_button,
        ):
            row.addWidget(button)
        self.ticking = QTimer(self)
        """While the refusal shown waits for the user's answer: its seconds left, told again."""
        self.ticking.setInterval(1000)
        self.ticking.timeout.connect(self._show)
        self.setVisible(False)

    # ---- what waits ---------------------------------------------------------------------

    def add(self, denials: list[EventRecord]) -> None:
        """Refusals that just happened (denial events, oldest first)."""
        if self.refusals.add(denials):
            self._changed()

    @property
    def group(self) -> Group | None:
        """The group of refusals shown: the newest that can be acted on, else the newest."""
        return self.refusals.shown()

    @property
    def current(self) -> EventRecord | None:
        """The refusal shown (the newest of :attr:`group`)."""
        group = self.group
        return None if group is None else group.newest

    def offers_now(self) -> Offers | None:
        group = self.group
        return None if group is None else group.offers

    def _changed(self) -> None:
        self._show()
        self.waiting_changed.emit()

    def _show(self) -> None:
        group = self.group
        if group is None:
            self.ticking.stop()
            self.setVisible(False)
            return
        if waits_left(group.newest) > 0:
            self.ticking.start()
        else:
            self.ticking.stop()
        got = group.offers
        text = self.sentence(group.newest)
        if group.count > 1 and got.domain is not None:
            text += " " + self.tr("%n refusal(s) of this domain.", "", group.count)
        elif group.count > 1:
            text += " " + self.tr("%n refusal(s) of this folder.", "", group.count)
        if not got.offers:
            text += " " + self.tr("Not offered in one click: {why}.").format(
                why=reason_text(got.refused) if got.refused else self.tr("not a path")
            )
        elif Offer.FOLDER not in got.offers and got.refused and got.create is None:
            text += " " + self.tr("No folder offered: {why}.").format(why=reason_text(got.refused))
        others = len(self.refusals) - 1
        if others:
            text += " " + self.tr("(%n other(s) waiting)", "", others)
        self.label.setText(text)
        self.label.setToolTip(shown(group.newest.get("path") or ""))
        self.ignore_button.setToolTip(
            self.tr("Refuse the call that waits, now, and stop showing it")
            if waits_left(group.newest) > 0
            else self.tr("Stop showing it; it stays in the Log")
        )
        self.folder_button.setVisible(Offer.FOLDER in got.offers)
        self.read_only_button.setVisible(Offer.READ_ONLY in got.offers)
        self.file_button.setVisible(Offer.FILE in got.offers)
        self.create_button.setVisible(Offer.CREATE in got.offers)
        self.domain_button.setVisible(Offer.DOMAIN in got.offers)
        if got.domain is not None:
            self.domain_button.setToolTip(
                self.tr(
                    "Let {server} reach {domain} through Roots Manager's proxy, from its next start"
                ).format(server=visible(group.server), domain=shown(got.domain))
            )
        if got.create is not None:
            self.create_button.setToolTip(
                self.tr("Make {folder}, a folder of its own, and let it write there").format(
                    folder=self._shown(got.create)
                )
            )
        if got.folder is not None:
            self.folder_button.setToolTip(self._shown(got.folder))
            self.read_only_button.setToolTip(self._shown(got.folder))
        if got.file is not None:
            self.file_button.setToolTip(self._shown(got.file))
        start_ups = sum(1 for g in self.refusals.groups(group.server) if g.start_up)
        self.start_up_button.setVisible(start_ups > 0)
        self.start_up_button.setToolTip(
            self.tr("Stop showing the %n start-up refusal(s) of {server}", "", start_ups).format(
                server=visible(group.server)
            )
        )
        self.list_button.setVisible(others > 0)
        asking = waits_left(group.newest) > 0
        timed = asking and bool({Offer.FOLDER, Offer.READ_ONLY, Offer.FILE} & set(got.offers))
        self.duration.setVisible(timed)
        self.duration_label.setVisible(timed)
        if not asking:
            self.duration.setCurrentIndex(0)
        self.setVisible(True)

    def _shown(self, path: str) -> str:
        # escaped: a path comes from the server's side, and may hold a bidi override
        return shown(home_shortened(path, self.home))

    def sentence(self, rec: EventRecord) -> str:
        """The refusal in the user's language: who, what, and what the server was doing."""
        operation = operation_text(str(rec.get("operation")))
        path = rec.get("path")
        what = self._shown(path) if isinstance(path, str) else shown(rec.get("folder") or "?")
        params = {"server": visible(str(rec["server"])), "path": what, "operation": operation}
        requests = [r for r in rec.get("requests") or [] if isinstance(r, dict)]
        if rec.get("during") == START_UP:
            return self.tr("{server} was refused {path} ({operation}) at start-up.").format(
                **params
            )
        if requests:
            first = requests[0]
            request = " ".join(str(first[k]) for k in ("method", "tool") if first.get(k))
            left = waits_left(rec)
            if left > 0:
                return self.tr(
                    "{server} asks to {operation} {path} while running {request}: the call "
                    "waits %n second(s) more for your answer.",
                    "",
                    round(left),
                ).format(request=request, **params)
            return self.tr(
                "{server} was refused {path} ({operation}) while running {request}."
            ).format(request=request, **params)
        return self.tr("{server} was refused {path} ({operation}) between requests.").format(
            **params
        )

    # ---- the user's answer --------------------------------------------------------------

    def ignore(self, key: Key | None = None) -> None:
        """Stop showing the group *key* (by default the one shown); it stays in the Log. The
        question of one that waits is answered no: the call is refused now."""
        group = self.group
        if key is None and group is not None:
            key = group.key
        if group is not None and group.key == key and waits_left(group.newest) > 0:
            refusal_actions.deny_waiting(self.watcher.store.layout, group.server, "app")
        if key is not None and self.refusals.ignore(key):
            self._changed()

    def ignore_start_up(self, server: str | None = None) -> int:
        """Stop showing every start-up refusal of *server* (by default the shown one's);
        returns how many groups went."""
        group = self.group
        if server is None:
            if group is None:
                return 0
            server = group.server
        gone = self.refusals.ignore_start_up(server)
        if gone:
            self._changed()
        return gone

    def allow(self, offer: Offer, group: Group | None = None) -> bool:
        """Grant what *offer* says for *group* (by default the one shown); False when it was
        refused (the watcher says why) or is not offered for it."""
        group = self.group if group is None else group
        if group is None or offer not in group.offers.offers:
            return False
        return self.allow_refusal(group.newest, offer)

    def allow_refusal(self, denial: EventRecord, offer: Offer) -> bool:
        """Grant what *offer* says for *denial* (a denial event, from the notice, the list, a
        Log row or a server's Recent activity: the same grant from each); the refusals waiting
        that it covers go. False when it was refused (the watcher says why)."""
        home = self.home
        duration = self.duration.currentData()
        if duration != "always" and waits_left(denial) > 0 and offer is not Offer.CREATE:
            # the question answered for a while, saved nowhere: the grant stays as it was
            served = self.watcher.act(
                lambda store: refusal_actions.allow_waiting(
                    store.layout, denial, offer, str(duration), "app", home=home
                )
            )
            if served is None:
                return False
            self.refusals.allowed(denial, served[0].target)
            self._changed()
            self.answered.emit(served[0].server, served[0].target, str(duration))
            return True
        done = self.watcher.act(
            lambda store: refusal_actions.allow(store, denial, offer, home=home)
        )
        if done is None:
            return False
        # the same folder refused again for the same server needs no second click
        self.refusals.allowed(denial, done.target)
        self._changed()
        self.allowed.emit(done.server, done.target)
        return True


def waits_left(rec: EventRecord, now: float | None = None) -> float:
    """Seconds the refused call of *rec* still waits for the user's answer (0: it does not
    wait, or no longer)."""
    return denials.waits_left(rec, time.time() if now is None else now)
