"""Whether this machine can confine a server, and with what.

Linux needs Landlock at ABI :data:`MIN_ABI` or newer; macOS has ``sandbox-exec`` (its profile is
generated but untested on a real Mac); Windows has nothing that fits. A bridge asked to confine
refuses to start the server when this says no.
"""

from __future__ import annotations

import shutil
import sys
from typing import NamedTuple

SANDBOX_EXEC = "/usr/bin/sandbox-exec"


class Availability(NamedTuple):
    """What this machine offers for confinement."""

    mechanism: str
    """``landlock``, ``sandbox-exec`` or ``none``."""
    available: bool
    reason: str
    """One line for the user: what confines, or why nothing can."""
    abi: int | None = None
    """The Landlock ABI version, on Linux."""
    tested: bool = True
    """False where the mechanism has never been run by the tests (macOS)."""


def _landlock() -> Availability:
    from roots_manager.sandbox import landlock

    try:
        abi = landlock.usable_abi()
    except OSError as exc:
        return Availability("landlock", False, f"the Landlock check failed: {exc}", 0)
    why = landlock.refusal(abi)
    if why is not None:
        return Availability("landlock", False, why, abi)
    return Availability("landlock", True, f"Landlock ABI {abi}", abi)


def availability() -> Availability:
    """What this machine offers; see :class:`Availability`."""
    if sys.platform.startswith("linux"):
        return _landlock()
    if sys.platform == "darwin":
        if shutil.which(SANDBOX_EXEC) is None:
            return Availability("sandbox-exec", False, f"{SANDBOX_EXEC} is missing", tested=False)
        return Availability(
            "sandbox-exec",
            True,
            "macOS sandbox-exec (untested on a real Mac: the profile is generated and checked "
            "as text only)",
            tested=False,
        )
    return Availability(
        "none", False, f"confinement is not available on {sys.platform} (Linux and macOS only)"
    )
