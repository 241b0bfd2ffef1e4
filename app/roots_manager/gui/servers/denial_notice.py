"""The notice of a confined server's refusal, with the grants it may be given in one click.

"fs was refused ~/notes/todo.md (read) while running tools/call read_file", and **Allow
folder**, **Allow read-only**, **Allow this file**, **Ignore**. What may be offered is
:func:`roots_manager.core.confinement.offers.offers`'s decision: a refusal of a secret (a system
file others may not read, another user's home, ``~/.ssh``, keyrings, cloud credentials, the home
folder itself) is shown with why, and offered nothing but Ignore.

Allowing grants the folder (a root made of it if it is not one yet) or lets the server read (or
write) the file, through :mod:`roots_manager.actions`; the bridge then restarts the confined
server under its new rules, so the host's next try works. Several refusals wait in turn; the
notice says how many more there are.
"""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from roots_manager.actions import confinement as confine_actions
from roots_manager.actions import consent as consent_actions
from roots_manager.core.confinement.offers import Offer, Offers, offers
from roots_manager.core.log.denials import START_UP, shown
from roots_manager.core.names import visible
from roots_manager.core.paths import home_shortened, inside
from roots_manager.core.store.grants import Scope
from roots_manager.gui.common.confinement_text import reason_text
from roots_manager.gui.common.watcher import StoreWatcher

WAITING_AT_MOST = 50
"""Refusals kept waiting for the user; older ones are in the Log tab."""


class DenialNotice(QFrame):
    """Shown above the tabs while refusals wait for the user's look."""

    allowed = Signal(str, str)
    """A refusal was granted: the server, and what was granted (a folder or a file)."""

    def __init__(self, watcher: StoreWatcher, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self.home = os.path.expanduser("~")
        self.waiting: list[dict[str, Any]] = []
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(self.tr("A confined server was refused"))
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.folder_button = QPushButton(self.tr("Allow &folder"), self)
        self.read_only_button = QPushButton(self.tr("Allow &read-only"), self)
        self.file_button = QPushButton(self.tr("Allow this fi&le"), self)
        self.ignore_button = QPushButton(self.tr("I&gnore"), self)
        self.folder_button.clicked.connect(lambda: self.allow(Offer.FOLDER))
        self.read_only_button.clicked.connect(lambda: self.allow(Offer.READ_ONLY))
        self.file_button.clicked.connect(lambda: self.allow(Offer.FILE))
        self.ignore_button.clicked.connect(self.ignore)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 8, 4)
        row.addWidget(self.label, 1)
        for button in (
            self.folder_button,
            self.read_only_button,
            self.file_button,
            self.ignore_button,
        ):
            row.addWidget(button)
        self.setVisible(False)

    # ---- what waits ---------------------------------------------------------------------

    def add(self, denials: list[dict[str, Any]]) -> None:
        """Refusals that just happened (denial events, oldest first)."""
        for rec in denials:
            if isinstance(rec.get("server"), str) and isinstance(rec.get("operation"), str):
                self.waiting.append(rec)
        del self.waiting[:-WAITING_AT_MOST]
        self._show()

    @property
    def current(self) -> dict[str, Any] | None:
        """The refusal shown (the oldest waiting)."""
        return self.waiting[0] if self.waiting else None

    def offers_now(self) -> Offers | None:
        rec = self.current
        return None if rec is None else offers(rec, home=self.home)

    def _show(self) -> None:
        rec = self.current
        if rec is None:
            self.setVisible(False)
            return
        got = offers(rec, home=self.home)
        text = self.sentence(rec)
        if not got.offers:
            text += " " + self.tr("Not offered in one click: {why}.").format(
                why=reason_text(got.refused) if got.refused else self.tr("not a path")
            )
        more = len(self.waiting) - 1
        if more:
            text += " " + self.tr("(%n more waiting)", "", more)
        self.label.setText(text)
        self.label.setToolTip(shown(rec.get("path") or ""))
        self.folder_button.setVisible(Offer.FOLDER in got.offers)
        self.read_only_button.setVisible(Offer.READ_ONLY in got.offers)
        self.file_button.setVisible(Offer.FILE in got.offers)
        if got.folder is not None:
            self.folder_button.setToolTip(self._shown(got.folder))
            self.read_only_button.setToolTip(self._shown(got.folder))
        if got.file is not None:
            self.file_button.setToolTip(self._shown(got.file))
        self.setVisible(True)

    def _shown(self, path: str) -> str:
        # escaped: a path comes from the server's side, and may hold a bidi override
        return shown(home_shortened(path, self.home))

    def sentence(self, rec: dict[str, Any]) -> str:
        """The refusal in the user's language: who, what, and what the server was doing."""
        operation = self._operations().get(str(rec.get("operation")), str(rec.get("operation")))
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
            return self.tr(
                "{server} was refused {path} ({operation}) while running {request}."
            ).format(request=request, **params)
        return self.tr("{server} was refused {path} ({operation}) between requests.").format(
            **params
        )

    def _operations(self) -> dict[str, str]:
        return {
            "read": self.tr("read"),
            "write": self.tr("write"),
            "list": self.tr("list"),
            "execute": self.tr("execute"),
            "create": self.tr("create"),
            "remove": self.tr("remove"),
            "connect": self.tr("connect"),
        }

    # ---- the user's answer --------------------------------------------------------------

    def ignore(self) -> None:
        """Leave the refusal shown as it is (it stays in the Log); show the next."""
        if self.waiting:
            self.waiting.pop(0)
        self._show()

    def allow(self, offer: Offer) -> bool:
        """Grant what *offer* says for the refusal shown; False when it was refused (the
        watcher says why) or is not offered for it."""
        rec = self.current
        got = self.offers_now()
        if rec is None or got is None or offer not in got.offers:
            return False
        server = str(rec["server"])
        if offer is Offer.FILE:
            assert got.file is not None
            target = got.file
            writes = rec.get("operation") == "write"
            done: object = self.watcher.act(
                lambda store: confine_actions.confine(
                    store,
                    server,
                    allow_read=() if writes else (target,),
                    allow_write=(target,) if writes else (),
                )
            )
        else:
            assert got.folder is not None
            target = got.folder
            done = self.watcher.act(
                lambda store: consent_actions.grant(
                    store, server, [target], Scope.ALWAYS, read_only=offer is Offer.READ_ONLY
                )
            )
        if done is None:
            return False
        # the same folder refused again for the same server needs no second click
        self.waiting = [
            r
            for r in self.waiting[1:]
            if not (r.get("server") == server and _inside(r.get("path"), target))
        ]
        self._show()
        self.allowed.emit(server, target)
        return True


def _inside(path: object, top: str) -> bool:
    return isinstance(path, str) and inside(path, top)
