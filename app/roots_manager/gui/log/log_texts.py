"""The log's words in the user's language: event summaries, bridge modes, why a bridge ended.

The core words its summaries in English (:func:`roots_manager.core.log.events.summary_parts`),
each template marked for Qt's translation tools where the core defines it, in the ``LogSummary``
context; this module translates them when shown. The
servers table uses the same words as the log, without depending on the log's model.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from roots_manager.core.log import events

# the bridge's modes, as a run start names them
_MODES: dict[str, str] = {
    "managed": str(QT_TRANSLATE_NOOP("LogSummary", "managed")),
    "observe": str(QT_TRANSLATE_NOOP("LogSummary", "observing only")),
}


# why a bridge run ended, as the bridge words it (its log is in English)
_END_REASONS = frozenset(
    {
        QT_TRANSLATE_NOOP("LogSummary", "host closed stdin"),
        QT_TRANSLATE_NOOP("LogSummary", "host stopped reading"),
        QT_TRANSLATE_NOOP("LogSummary", "the server closed its stdout"),
        QT_TRANSLATE_NOOP("LogSummary", "server exited"),
        QT_TRANSLATE_NOOP("LogSummary", "cannot start"),
    }
)
_SIGNAL_REASON = re.compile(r"^(SIG[A-Z0-9]+) received$")
QT_TRANSLATE_NOOP("LogSummary", "{signal} received")


def end_reason(reason: str) -> str:
    """Why a bridge run ended, in the user's language when the bridge's words are known."""
    if reason in _END_REASONS:
        return _translate_summary(reason)
    m = _SIGNAL_REASON.match(reason)
    if m:
        return _translate_summary("{signal} received").format(signal=m.group(1))
    return reason


def _translate_summary(template: str) -> str:
    return QCoreApplication.translate("LogSummary", template)


def bridge_mode_name(mode: str) -> str:
    """A bridge's mode (``managed``, ``observe``) in the user's language."""
    return _translate_summary(_MODES[mode]) if mode in _MODES else mode


def translated_summary(rec: dict[str, Any]) -> str:
    """An event's summary in the user's language."""
    template, values = events.summary_parts(rec)
    mode = values.get("mode")
    if isinstance(mode, str):
        values = {**values, "mode": bridge_mode_name(mode)}
    reason = values.get("reason")
    if rec.get("kind") == events.RUN_END and isinstance(reason, str):
        values = {**values, "reason": end_reason(reason)}
    try:
        return _translate_summary(template).format(**values)
    except Exception:  # a translation with broken placeholders: the English summary
        return template.format(**values)
