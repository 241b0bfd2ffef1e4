"""Qt's own dialogs speak the app's language: every text Qt's folder dialog asks for, shown for
real in Japanese and Chinese, is translated, by Qt's catalogue or by ours for what it leaves
out (its "Look in:" and "Files of type:" labels, the "Folder" of each row)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel

from roots_manager.gui.common.resources import install_translators

DIALOG_CONTEXTS = {
    "QFileDialog",
    "QAbstractFileIconProvider",
    "QFileSystemModel",
    "QDialogButtonBox",
    "QPlatformTheme",
    "QSidebar",
}
"""Where the texts the folder dialog shows come from (Qt also asks, unseen, for the names of
every multimedia key a shortcut could have, and for its layout direction)."""


class Untranslated(QTranslator):
    """Installed before every other translator, so asked last: only for the texts no other
    has a translation of, which it notes."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[tuple[str, str]] = set()

    def translate(  # type: ignore[override]
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str:
        self.asked.add((context, source))
        return ""

    def isEmpty(self) -> bool:
        return False


@pytest.mark.parametrize("language", ["ja", "zh_CN"])
def test_the_folder_dialog_has_no_english_left(  # type: ignore[no-untyped-def]
    language: str, qapp: QApplication, qtbot, tmp_path: Path
) -> None:
    (tmp_path / "projects").mkdir()  # a row, and its type, to be shown
    spy = Untranslated()
    qapp.installTranslator(spy)
    translators = install_translators(qapp, language)
    try:
        # the dialog the app opens for a folder, as Qt draws it where there is no native one
        dialog = QFileDialog(None, "", str(tmp_path))
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOptions(QFileDialog.Option.ShowDirsOnly | QFileDialog.Option.DontUseNativeDialog)
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        qtbot.wait(300)  # the folder's rows, and their types, come from a thread
        labels = {w.text() for w in dialog.findChildren(QLabel) if w.isVisible()}
        assert "&Look in:" not in labels and "Files of &type:" not in labels, labels
        shown = {(c, t) for c, t in spy.asked if c in DIALOG_CONTEXTS}
        assert shown == set(), sorted(shown)
    finally:
        for t in translators:
            qapp.removeTranslator(t)
        qapp.removeTranslator(spy)
