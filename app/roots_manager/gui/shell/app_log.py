"""The desktop app's own log: ``app.log`` in the state folder (``$XDG_STATE_HOME/roots-manager``
on Linux, else the per-user directory), private to the user, and
where exceptions that nothing caught (in Qt slots, in async tasks) are written."""

from __future__ import annotations

import asyncio
import logging
import logging.handlers
import os
import stat
import sys
from pathlib import Path
from types import TracebackType
from typing import Any

from roots_manager.core.directory.layout import Layout

log = logging.getLogger("roots_manager.gui")


def private_file(path: Path) -> None:
    """Create *path* empty and private (0600) if it is missing; tighten it if it is not."""
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600))
    if os.name != "nt" and stat.S_IMODE(path.stat().st_mode) != 0o600:
        path.chmod(0o600)


class _PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log whose files are private to the user, whatever the umask."""

    def _open(self):  # type: ignore[no-untyped-def]
        private_file(Path(self.baseFilename))
        return super()._open()


def setup_logging(layout: Layout) -> None:
    """Send the app's log (and unhandled exceptions) to ``app.log`` in the state folder."""
    logger = logging.getLogger("roots_manager")
    if any(getattr(h, "_roots_manager", False) for h in logger.handlers):
        return
    handler = _PrivateRotatingFileHandler(
        layout.app_log, maxBytes=1_000_000, backupCount=2, encoding="utf-8"
    )
    handler._roots_manager = True  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


def install_excepthook(loop: asyncio.AbstractEventLoop | None = None) -> None:
    """Route exceptions from Qt slots and async tasks to the app log instead of stderr alone."""

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        log.error("unhandled exception", exc_info=(kind, exc, tb))
        sys.__excepthook__(kind, exc, tb)

    sys.excepthook = hook
    if loop is not None:

        def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            log.error(
                "async task failed: %s", context.get("message"), exc_info=context.get("exception")
            )

        loop.set_exception_handler(handler)
