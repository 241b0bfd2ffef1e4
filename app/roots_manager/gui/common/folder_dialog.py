"""The folder dialog, opened where the user keeps folders rather than where the app started.

Qt's folder dialog opens in the working directory when given no start, which for an app
started from a desktop menu is the home folder by chance and, from a terminal or a launcher,
anything at all (``/``, the app's own folder). It starts next to the folder picked last when
there is one (projects tend to live side by side), else in the home folder.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from PySide6.QtWidgets import QFileDialog, QWidget


def start_folder(recent: Iterable[str] = ()) -> str:
    """Where the folder dialog opens: the parent of the first of *recent* (newest first)
    whose parent still exists, else the home folder."""
    for path in recent:
        parent = os.path.dirname(os.path.normpath(path))
        if parent and os.path.isdir(parent):
            return parent
    return os.path.expanduser("~")


def pick_folder(parent: QWidget, title: str, recent: Iterable[str] = ()) -> str:
    """Ask for a folder with the platform's dialog; the empty string if none was chosen."""
    return QFileDialog.getExistingDirectory(parent, title, start_folder(recent))
