"""A refusal's one-click grants as a menu: what a Log row and a server's Recent activity offer,
as the refusal notice does.

The offers are :func:`roots_manager.core.confinement.offers.offers`'s (never a secret, never a
protected place, never Roots Manager's own code or state as a folder); choosing one hands the
refusal and the offer to *chosen*, which grants it through :mod:`roots_manager.actions.refusals`
(the notice's :meth:`~roots_manager.gui.servers.denial_notice.DenialNotice.allow_refusal`).
Opened from the keyboard too: the menu key, Shift+F10 or :data:`ALLOW_KEYS`; :class:`AllowMenus`
is what a view of refusals needs to open them, written once for both views.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QPoint, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QAbstractItemView, QMenu, QWidget

from roots_manager.core.confinement.offers import Offer, offers
from roots_manager.core.directory.layout import home_shortened
from roots_manager.core.directory.records import EventKind, EventRecord
from roots_manager.core.log.denials import shown
from roots_manager.gui.common.confinement_text import reason_text

ALLOW_KEYS = ("Ctrl+Shift+A", "Shift+F10")
"""The keys that open the allow menu of the refusal selected (Shift+F10: a context menu's key
where the keyboard has no menu key)."""


def allow_shortcuts() -> list[QKeySequence]:
    """:data:`ALLOW_KEYS` as key sequences."""
    return [QKeySequence(k) for k in ALLOW_KEYS]


def is_refusal(rec: object) -> bool:
    """Whether *rec*, an event, is a confined server's refusal (a denial event)."""
    return (
        isinstance(rec, dict)
        and rec.get("kind") == EventKind.DENIAL
        and isinstance(rec.get("server"), str)
    )


def _menu_text(path: str, home: str) -> str:
    # escaped as the notice shows it (a bidi override, a terminal escape), and its & kept
    # from being taken for a mnemonic
    return shown(home_shortened(path, home)).replace("&", "&&")


def fill_allow_menu(
    menu: QMenu,
    denial: EventRecord,
    chosen: Callable[[EventRecord, Offer], object],
    home: str | None = None,
) -> int:
    """Add to *menu* the grants *denial* is offered (for the user whose home is *home*, by
    default this user's), each calling *chosen* with the refusal and its offer; where nothing
    is, a disabled entry that says why. Returns how many grants were added."""
    home = os.path.expanduser("~") if home is None else home
    found = offers(denial, home=home)
    for offer in found.offers:
        if offer is Offer.DOMAIN:
            assert found.domain is not None
            text = QCoreApplication.translate("AllowMenu", "Allow domain {domain}").format(
                domain=shown(found.domain).replace("&", "&&")
            )
        elif offer is Offer.CREATE:
            assert found.create is not None
            text = QCoreApplication.translate("AllowMenu", "Allow and create: {folder}").format(
                folder=_menu_text(found.create, home)
            )
        elif offer is Offer.FILE:
            assert found.file is not None
            text = QCoreApplication.translate("AllowMenu", "Allow this file: {file}").format(
                file=_menu_text(found.file, home)
            )
        else:
            assert found.folder is not None
            folder = _menu_text(found.folder, home)
            text = (
                QCoreApplication.translate("AllowMenu", "Allow folder: {folder}")
                if offer is Offer.FOLDER
                else QCoreApplication.translate("AllowMenu", "Allow read-only: {folder}")
            ).format(folder=folder)
        action = menu.addAction(text)
        action.setData(offer.value)
        action.triggered.connect(lambda _=False, o=offer: chosen(denial, o))
    if not found.offers:
        why = (
            reason_text(found.refused)
            if found.refused
            else QCoreApplication.translate("AllowMenu", "not a path")
        )
        text = QCoreApplication.translate("AllowMenu", "Not offered in one click: {why}").format(
            why=why
        )
        menu.addAction(text.replace("&", "&&")).setEnabled(False)
    elif Offer.FOLDER not in found.offers and found.refused and found.create is None:
        why = reason_text(found.refused)
        text = QCoreApplication.translate("AllowMenu", "No folder offered: {why}").format(why=why)
        menu.addAction(text.replace("&", "&&")).setEnabled(False)
    return len(found.offers)


class AllowMenus:
    """The allow menus of a view that lists refusals (a Log table, Recent activity): a
    right-click on *view* calls *at_point* with the point, the menu key, Shift+F10 or
    :data:`ALLOW_KEYS` call *at_current*; the view finds the refusal under them and asks
    :meth:`make` and :meth:`show` for its menu. The menu shown last is kept (:attr:`shown`)."""

    def __init__(
        self,
        owner: QWidget,
        view: QAbstractItemView,
        *,
        at_point: Callable[[QPoint], object],
        at_current: Callable[[], object],
        chosen: Callable[[EventRecord, Offer], object],
    ) -> None:
        self.owner = owner
        self.view = view
        self.chosen = chosen
        self.shown: QMenu | None = None
        """The allow menu open now (or last), kept while it is shown."""
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(at_point)
        for key in allow_shortcuts():
            shortcut = QShortcut(key, view)
            # the view's, not the window's: both views have one
            shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)
            shortcut.activated.connect(at_current)

    def make(self, refusal: EventRecord | None, name: str) -> QMenu | None:
        """The menu of what *refusal* may be granted, its accessible name *name* (None: no
        refusal)."""
        if refusal is None:
            return None
        menu = QMenu(self.owner)
        menu.setAccessibleName(name)
        fill_allow_menu(menu, refusal, self.chosen)
        return menu

    def show(self, menu: QMenu, at: QPoint) -> None:
        """Open *menu* at *at* (global), in place of the one shown before."""
        if self.shown is not None:
            self.shown.deleteLater()
        self.shown = menu
        menu.popup(at)

    def show_in_view(self, menu: QMenu | None, pos: QPoint) -> QMenu | None:
        """Open *menu*, if any, at *pos* in the view's viewport; returns it."""
        if menu is not None:
            self.show(menu, self.view.viewport().mapToGlobal(pos))
        return menu
