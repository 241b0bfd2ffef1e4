"""Folders dropped from a file manager: which of the dropped URLs are local folders, and a view
that takes them, lit while they are over it."""

from __future__ import annotations

import os
from collections.abc import Iterable

from PySide6.QtCore import QEvent, QObject, QUrl, Signal
from PySide6.QtGui import QColor, QDragMoveEvent, QDropEvent, QPalette
from PySide6.QtWidgets import QAbstractItemView


def dropped_folders(urls: Iterable[QUrl]) -> list[str]:
    """The local folders among dropped URLs."""
    out = []
    for url in urls:
        if url.isLocalFile():
            path = url.toLocalFile()
            if os.path.isdir(path):
                out.append(path)
    return out


class FolderDrops(QObject):
    """Folders dropped on *view* are taken (:attr:`dropped`); while a drag that carries one is
    over it, the view is tinted with the highlight colour, so the user sees where the folders
    will go before letting go."""

    dropped = Signal(list)
    """The local folders dropped (paths)."""

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view)
        self.view = view
        self.lit = False
        """A drag carrying folders is over the view now."""
        self._palette = QPalette(view.palette())
        view.setAcceptDrops(True)
        view.viewport().setAcceptDrops(True)
        view.viewport().installEventFilter(self)

    def _light(self, on: bool) -> None:
        if on == self.lit:
            return
        self.lit = on
        if not on:
            self.view.setPalette(self._palette)
            return
        self._palette = QPalette(self.view.palette())
        lit = QPalette(self._palette)
        mark = lit.color(QPalette.ColorRole.Highlight)
        for role in (QPalette.ColorRole.Base, QPalette.ColorRole.AlternateBase):
            base = lit.color(role)
            # a quarter of the highlight over the view's own colour: its text stays readable
            lit.setColor(
                role,
                QColor(
                    (3 * base.red() + mark.red()) // 4,
                    (3 * base.green() + mark.green()) // 4,
                    (3 * base.blue() + mark.blue()) // 4,
                ),
            )
        self.view.setPalette(lit)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            drag: QDragMoveEvent = event  # type: ignore[assignment]
            folders = drag.mimeData().hasUrls() and dropped_folders(drag.mimeData().urls())
            self._light(bool(folders))
            if folders:
                drag.acceptProposedAction()
                return True
        elif kind == QEvent.Type.DragLeave:
            self._light(False)
        elif kind == QEvent.Type.Drop:
            self._light(False)
            drop: QDropEvent = event  # type: ignore[assignment]
            folders = dropped_folders(drop.mimeData().urls())
            if folders:
                drop.acceptProposedAction()
                self.dropped.emit(folders)
                return True
        return super().eventFilter(watched, event)
