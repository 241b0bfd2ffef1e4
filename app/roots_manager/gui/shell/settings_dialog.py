"""The settings dialog: the app's language, what closing the window does, how much log is kept."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from roots_manager.actions.settings import set_language, set_log_retention
from roots_manager.core.log import retention
from roots_manager.core.store.log_limits import LogRetention
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.support.resources import LANGUAGES

KEEP_IN_TRAY_KEY = "keepInTray"
LANGUAGE_NAMES = {"en": "English", "ja": "日本語", "zh_CN": "简体中文"}


class SettingsDialog(QDialog):
    """Choose the language and the traffic log limits (kept in the store), and whether closing
    keeps the app in the tray."""

    language_changed = Signal()
    """A new language was saved; it applies when the app starts again."""

    def __init__(
        self,
        watcher: StoreWatcher,
        settings: QSettings,
        parent: QWidget | None = None,
        *,
        running: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self.settings = settings
        self.running = running
        """The language the app runs in now: choosing it again needs no restart."""
        self.setWindowTitle(self.tr("Settings"))
        self.language = QComboBox(self)
        self.language.setAccessibleName(self.tr("Language"))
        self.language.addItem(self.tr("System default"), None)
        for code in LANGUAGES:
            # each language is named in itself, so that a user lost in a foreign one finds theirs
            self.language.addItem(LANGUAGE_NAMES.get(code, code), code)
        i = self.language.findData(watcher.state.language)
        self.language.setCurrentIndex(max(i, 0))
        self.keep_in_tray = QCheckBox(
            self.tr("&Keep running in the tray when the window is closed"), self
        )
        self.keep_in_tray.setChecked(bool(settings.value(KEEP_IN_TRAY_KEY, True, type=bool)))
        note = QLabel(
            self.tr("A new language applies after a restart, which you are offered when you save."),
            self,
        )
        note.setWordWrap(True)
        limits = watcher.state.log_retention
        self.log_size = self._limit_box(limits.max_mib, 1024 * 1024, self.tr(" MiB"))
        self.log_size.setAccessibleName(self.tr("Most space all traffic logs may take"))
        self.log_age = self._limit_box(limits.max_days, 36500, self.tr(" days"))
        self.log_age.setAccessibleName(self.tr("How long traffic logs are kept"))
        log_note = QLabel(
            self.tr(
                "When the bridges' traffic logs pass either limit, the oldest files are removed "
                "first. The log of a server running now is never removed."
            ),
            self,
        )
        log_note.setWordWrap(True)

        form = QFormLayout()
        language_label = QLabel(self.tr("&Language:"), self)
        language_label.setBuddy(self.language)
        form.addRow(language_label, self.language)
        form.addRow(self.keep_in_tray)
        size_label = QLabel(self.tr("Keep traffic logs &up to:"), self)
        size_label.setBuddy(self.log_size)
        form.addRow(size_label, self.log_size)
        age_label = QLabel(self.tr("Keep traffic logs &for:"), self)
        age_label.setBuddy(self.log_age)
        form.addRow(age_label, self.log_age)
        form.addRow(log_note)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)

    def _limit_box(self, value: int, top: int, suffix: str) -> QSpinBox:
        box = QSpinBox(self)
        box.setRange(0, top)
        box.setSuffix(suffix)
        box.setSpecialValueText(self.tr("no limit"))  # shown for 0
        box.setValue(value)
        return box

    def chosen_language(self) -> str | None:
        data = self.language.currentData()
        return str(data) if data else None

    def accept(self) -> None:
        """Save the choices: the language in the store, the tray choice in the app settings."""
        self.settings.setValue(KEEP_IN_TRAY_KEY, self.keep_in_tray.isChecked())
        language = self.chosen_language()
        changed = False
        if language != self.watcher.state.language:
            changed = bool(self.watcher.act(lambda store: set_language(store, language)))
        limits = LogRetention(self.log_size.value(), self.log_age.value())
        if limits != self.watcher.state.log_retention:
            saved = self.watcher.act(
                lambda store: set_log_retention(store, limits.max_mib, limits.max_days)
            )
            if saved is not None:
                # tighter limits apply now, not only when a bridge next starts or rotates
                retention.sweep_logs(self.watcher.layout, saved)
        super().accept()
        if changed and language != self.running:
            self.language_changed.emit()
