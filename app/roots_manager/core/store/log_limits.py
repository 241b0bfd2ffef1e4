"""How much of the bridges' traffic logs is kept: the limits the user sets, and their bounds.

:mod:`roots_manager.core.log.retention` applies them to the log directory.
"""

from __future__ import annotations

from dataclasses import dataclass

from roots_manager.support.refusal import ModelError
from roots_manager.support.translatable import QT_TRANSLATE_NOOP

_REFUSALS = {
    "size": QT_TRANSLATE_NOOP(
        "CoreError",
        "the traffic log size limit must be a whole number of MiB from 0 (no limit) to "
        "{top}, not {value!r}",
    ),
    "age": QT_TRANSLATE_NOOP(
        "CoreError",
        "the traffic log age limit must be a whole number of days from 0 (no limit) to "
        "{top}, not {value!r}",
    ),
}

RETENTION_REFUSALS: tuple[str, ...] = tuple(_REFUSALS.values())
"""The templates of a log limit refused, one per kind."""


DEFAULT_LOG_MAX_MIB = 256
DEFAULT_LOG_MAX_DAYS = 30
LOG_LIMIT_TOPS = {"size": 1024 * 1024, "age": 36500}  # 1 TiB, 100 years


@dataclass(frozen=True)
class LogRetention:
    """How much of the bridges' traffic logs is kept, in all and in time; 0 is no limit.

    The oldest files go first; a running bridge's files are never removed
    (:mod:`roots_manager.core.log.retention`).
    """

    max_mib: int = DEFAULT_LOG_MAX_MIB
    max_days: int = DEFAULT_LOG_MAX_DAYS

    @property
    def max_bytes(self) -> int | None:
        return self.max_mib * 1024 * 1024 or None

    @property
    def max_age(self) -> float | None:
        """The age limit in seconds."""
        return self.max_days * 86400.0 or None


def log_limit(kind: str, value: object) -> int:
    """*value* as a log limit of *kind* ("size" or "age"), or a :class:`ModelError`."""
    top = LOG_LIMIT_TOPS[kind]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
        raise ModelError(_REFUSALS[kind], top=top, value=value)
    return value
