"""Whether this machine can confine a server, and with what.

Linux needs Landlock at ABI :data:`MIN_ABI` or newer; macOS has ``sandbox-exec`` (its profile is
generated but untested on a real Mac); Windows has nothing that fits. A bridge asked to confine
refuses to start the server when this says no.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass

MIN_ABI = 3
"""Landlock ABI 3 added the truncate right: below it, a confined server could still empty any
file it can name (``truncate(2)`` needs no open for writing), so it would not be confined."""
TEST_ABI_ENV = "ROOTS_MANAGER_TEST_LANDLOCK_ABI"
"""Test-only: the Landlock ABI to pretend the kernel has (0: none). Tests use it to check the
refusal on a kernel without Landlock; it can only make confinement refuse, never weaken it."""
SANDBOX_EXEC = "/usr/bin/sandbox-exec"


@dataclass(frozen=True)
class Availability:
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

    pretend = os.environ.get(TEST_ABI_ENV)
    try:
        real = landlock.abi_version()
    except OSError as exc:
        return Availability("landlock", False, f"the Landlock check failed: {exc}", 0)
    # the pretended version can only lower what the kernel has
    abi = min(real, int(pretend)) if pretend is not None and pretend.isdigit() else real
    if abi == 0:
        return Availability(
            "landlock",
            False,
            "this Linux kernel has no Landlock (it needs 5.13 or newer with Landlock enabled "
            "in the lsm= boot list)",
            0,
        )
    if abi < MIN_ABI:
        return Availability(
            "landlock",
            False,
            f"this Linux kernel's Landlock is ABI {abi}; confinement needs ABI {MIN_ABI} "
            "(Linux 6.2 or newer), which can refuse truncating files outside the grants",
            abi,
        )
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
