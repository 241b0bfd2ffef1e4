"""What the probe's bridge is called in the user's log: never a name of the user's servers.

The probe of ``fs`` runs under ``probe:fs`` (and a probe given no name under ``probe``), so that
its roots traffic in the user's log is not taken for theirs (the app's last roots/list of ``fs``
stays the real ``fs``'s), and the Log tab's timeline folds every probe run into one lane.
"""

from __future__ import annotations

BRIDGE_NAME = "probe"
"""The server's name in the private store and the log when the probe is given no name."""
PREFIX = "probe:"


def bridge_name(name: str | None) -> str:
    """The name the probe's bridge runs under: ``probe:fs`` for a probe of ``fs``."""
    return PREFIX + name if name else BRIDGE_NAME


def is_probe(server: str) -> bool:
    """Whether events under *server* are a probe's (see :func:`bridge_name`)."""
    return server == BRIDGE_NAME or server.startswith(PREFIX)
