"""The log's words in the user's language: event summaries (a refusal's too), the kinds of event
and the directions, bridge modes, why a bridge ended.

The core words its summaries in English (:func:`roots_manager.core.log.events.summary_parts`),
each template marked for Qt's translation tools where the core defines it, in the ``LogSummary``
context; this module translates them when shown. The
servers table uses the same words as the log, without depending on the log's model.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from roots_manager.core.directory.records import EventKind, EventRecord
from roots_manager.core.log import denials, events
from roots_manager.gui.common.confinement_text import operation_text

# the bridge's modes, as a run start names them
_MODES: dict[str, str] = {
    "managed": str(QT_TRANSLATE_NOOP("LogSummary", "managed")),
    "observe": str(QT_TRANSLATE_NOOP("LogSummary", "observing only")),
}


# the kinds of event, in words (the Kind column and filter; an event's id stays in its JSON)
_KINDS: dict[str, str] = {
    EventKind.RUN_START: str(QT_TRANSLATE_NOOP("LogSummary", "bridge started")),
    EventKind.RUN_END: str(QT_TRANSLATE_NOOP("LogSummary", "bridge ended")),
    EventKind.HANDSHAKE: str(QT_TRANSLATE_NOOP("LogSummary", "handshake")),
    EventKind.ROOTS_ASKED: str(QT_TRANSLATE_NOOP("LogSummary", "roots asked")),
    EventKind.ROOTS_ANSWERED: str(QT_TRANSLATE_NOOP("LogSummary", "roots answered")),
    EventKind.ROOTS_RELAYED: str(QT_TRANSLATE_NOOP("LogSummary", "roots relayed")),
    EventKind.LIST_CHANGED_SENT: str(QT_TRANSLATE_NOOP("LogSummary", "list_changed sent")),
    EventKind.LIST_CHANGED_RELAYED: str(QT_TRANSLATE_NOOP("LogSummary", "list_changed relayed")),
    EventKind.LIST_CHANGED_ASKED: str(QT_TRANSLATE_NOOP("LogSummary", "list_changed asked")),
    EventKind.MRTR_RESOLVED: str(QT_TRANSLATE_NOOP("LogSummary", "roots given in a retry")),
    EventKind.CONSENT_WAIT: str(QT_TRANSLATE_NOOP("LogSummary", "consent awaited")),
    EventKind.CONSENT_DECIDED: str(QT_TRANSLATE_NOOP("LogSummary", "consent decided")),
    EventKind.RESTART_ASKED: str(QT_TRANSLATE_NOOP("LogSummary", "restart asked")),
    EventKind.SERVER_RESTARTING: str(QT_TRANSLATE_NOOP("LogSummary", "server restarting")),
    EventKind.SERVER_RESTARTED: str(QT_TRANSLATE_NOOP("LogSummary", "server restarted")),
    EventKind.RESTART_FAILED: str(QT_TRANSLATE_NOOP("LogSummary", "restart failed")),
    EventKind.NON_JSON: str(QT_TRANSLATE_NOOP("LogSummary", "not JSON")),
    EventKind.DENIAL: str(QT_TRANSLATE_NOOP("LogSummary", "refusal")),
    EventKind.ERROR: str(QT_TRANSLATE_NOOP("LogSummary", "error")),
    EventKind.MESSAGE: str(QT_TRANSLATE_NOOP("LogSummary", "message")),
}

# which way a message went
_DIRECTIONS: dict[str, str] = {
    events.HOST_TO_SERVER: str(QT_TRANSLATE_NOOP("LogSummary", "host → server")),
    events.SERVER_TO_HOST: str(QT_TRANSLATE_NOOP("LogSummary", "server → host")),
    events.BRIDGE_TO_SERVER: str(QT_TRANSLATE_NOOP("LogSummary", "bridge → server")),
    events.BRIDGE_TO_HOST: str(QT_TRANSLATE_NOOP("LogSummary", "bridge → host")),
}


def kind_name(kind: str) -> str:
    """A kind of event in the user's language (an unknown one, from a newer bridge, as it is)."""
    return _translate_summary(_KINDS[kind]) if kind in _KINDS else kind


def direction_name(direction: str) -> str:
    """Which way a message went, in the user's language."""
    return _translate_summary(_DIRECTIONS[direction]) if direction in _DIRECTIONS else direction


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


def translated_summary(rec: EventRecord) -> str:
    """An event's summary in the user's language."""
    if rec.get("kind") == EventKind.DENIAL:
        return denials.summary(rec, translate=_translate_summary, operation=operation_text)
    template, values = events.summary_parts(rec)
    mode = values.get("mode")
    if isinstance(mode, str):
        values = {**values, "mode": bridge_mode_name(mode)}
    reason = values.get("reason")
    if rec.get("kind") == EventKind.RUN_END and isinstance(reason, str):
        values = {**values, "reason": end_reason(reason)}
    try:
        return _translate_summary(template).format(**values)
    except Exception:  # a translation with broken placeholders: the English summary
        return template.format(**values)
