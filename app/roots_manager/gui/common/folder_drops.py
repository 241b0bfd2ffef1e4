"""Folders dropped from a file manager: which of the dropped URLs are local folders."""

from __future__ import annotations

import os
from collections.abc import Iterable

from PySide6.QtCore import QUrl


def dropped_folders(urls: Iterable[QUrl]) -> list[str]:
    """The local folders among dropped URLs."""
    out = []
    for url in urls:
        if url.isLocalFile():
            path = url.toLocalFile()
            if os.path.isdir(path):
                out.append(path)
    return out
