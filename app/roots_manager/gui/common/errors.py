"""The core's error messages in the user's language.

A :class:`~roots_manager.support.refusal.Refusal` carries a template from
:data:`roots_manager.core.store.state.ERROR_TEMPLATES` or :data:`roots_manager.core.roots.uri.ERROR_TEMPLATES`
and its values; the core marks each template for Qt's translation tools where it defines it
(:mod:`roots_manager.support.translatable`), in the ``CoreError`` context, which is where they are
translated here.
"""

from __future__ import annotations

import errno

from PySide6.QtCore import QCoreApplication

from roots_manager.support.refusal import Refusal


def _translate(template: str) -> str:
    return QCoreApplication.translate("CoreError", template)


def error_text(exc: Exception) -> str:
    """What to tell the user about *exc*: a core refusal in their language, else its message."""
    if isinstance(exc, Refusal):
        return exc.translated(_translate)
    return str(exc)


def watch_trouble_text(exc: BaseException) -> str:
    """Why a folder cannot be followed live, as the status lines say it: "not following live:
    REASON; retrying" (the watch is tried again every 2 s at most, the folder polled meanwhile)."""
    if isinstance(exc, OSError) and exc.errno == errno.EMFILE:
        why = QCoreApplication.translate(
            "Watch",
            "no inotify instance or file descriptor is left "
            "(fs.inotify.max_user_instances, ulimit -n): {error}",
        ).format(error=exc)
    elif isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        why = QCoreApplication.translate(
            "Watch", "no inotify watch is left (fs.inotify.max_user_watches): {error}"
        ).format(error=exc)
    else:
        why = f"{type(exc).__name__}: {exc}"
    return QCoreApplication.translate("Watch", "not following live: {reason}; retrying").format(
        reason=why
    )
