"""What the program does, said on stderr when asked: ``-v`` or ``ROOTS_MANAGER_DEBUG=1``.

The store it opens and where, the lock it takes, each file it writes, each host file it reads:
the first things to know when a command does not do what was expected. The lines go through
Python's :mod:`logging`, at DEBUG level, under the ``roots_manager`` logger.

A bridge imports the core modules that call :func:`debug`, and its start-up is measured: so
:mod:`logging` is imported only once the front end has switched tracing on; until then
:func:`debug` is one test of a flag and this module imports only :mod:`os`.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not typing's: this module imports nothing it need not
if TYPE_CHECKING:
    import logging

ENV = "ROOTS_MANAGER_DEBUG"
LOGGER = "roots_manager"

_on = False
_handler: logging.Handler | None = None


def asked_by_environment() -> bool:
    """Whether ``ROOTS_MANAGER_DEBUG`` asks for tracing (set, and not empty or ``0``)."""
    return os.environ.get(ENV, "") not in ("", "0")


def switch(prog: str, on: bool) -> None:
    """From now on say (*on*) or do not say, on stderr, what this process does, each line led
    by *prog*. A second call replaces the first (``main()`` runs many times in one test)."""
    global _on, _handler
    if _handler is not None:
        import logging

        logging.getLogger(LOGGER).removeHandler(_handler)
        _handler = None
    _on = on
    if on:
        import logging

        _handler = logging.StreamHandler()  # the stderr of now
        _handler.setFormatter(logging.Formatter(f"{prog}: debug: %(message)s"))
        logger = logging.getLogger(LOGGER)
        logger.addHandler(_handler)
        logger.setLevel(logging.DEBUG)


def debug(message: str, *args: object) -> None:
    """Log *message* % *args* at DEBUG level, if tracing is on (else nothing, and cheaply)."""
    if _on:
        import logging

        logging.getLogger(LOGGER).debug(message, *args)
