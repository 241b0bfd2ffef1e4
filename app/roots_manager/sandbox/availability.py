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


class Protection(NamedTuple):
    """One thing confinement holds a server to on this machine, or cannot."""

    name: str
    enforced: bool
    detail: str


def _linux_protections(abi: int) -> list[Protection]:
    assert sys.platform == "linux"  # Landlock was found
    from roots_manager.sandbox import landlock, seccomp

    rights = "reading, writing, running, creating, removing, renaming and truncating files"
    if abi >= 5:
        rights += " and device ioctls"
    scoped = abi >= landlock.SCOPES_ABI
    need_scope = f"needs Landlock ABI {landlock.SCOPES_ABI} (Linux 6.12); this kernel has {abi}"
    filtered = seccomp.available()
    filter_note = filtered or ""
    by_kernel = abi >= landlock.RESOLVE_UNIX_ABI
    need_unix = f"Landlock ABI {landlock.RESOLVE_UNIX_ABI}, Linux 7.1"
    return [
        Protection("files", True, f"Landlock ABI {abi}: {rights} outside the grants is refused"),
        Protection(
            "abstract Unix sockets",
            scoped,
            "no connecting to a socket by abstract name made outside the server"
            if scoped
            else need_scope,
        ),
        Protection(
            "signals",
            scoped,
            "no signal to a process outside the server's own tree" if scoped else need_scope,
        ),
        Protection(
            "other processes",
            filtered is None,
            "no change to the limits, priority or CPUs of a process but itself; no user "
            "namespace, no mount, no keyring, no System V IPC"
            if filtered is None
            else filter_note,
        ),
        Protection(
            "Unix sockets by path",
            filtered is None or by_kernel,
            "refused (the session bus, the user's systemd), but those the user allowed; no "
            "abstract name bound, a path bound only in a writable grant; held by "
            + " and ".join(
                ([f"Landlock ABI {abi} (the kernel)"] if by_kernel else [])
                + (["the supervisor (seccomp)"] if filtered is None else [])
            )
            + ("" if by_kernel else f" (the kernel holds it too from {need_unix})")
            if filtered is None or by_kernel
            else filter_note,
        ),
        Protection(
            "network, when blocked",
            filtered is None,
            "no socket but Unix and netlink ("
            + (
                "the seccomp filter"
                if filtered is None
                else "seccomp is missing here: " + filter_note
            )
            + "); no TCP port bound or connected to "
            + (f"(Landlock ABI {abi})" if abi >= landlock.NET_ABI else "(needs Landlock ABI 4)")
            + "; no UDP port bound, connected or sent to "
            + (
                f"(Landlock ABI {abi})"
                if abi >= landlock.UDP_ABI
                else f"(the kernel holds it too from Landlock ABI {landlock.UDP_ABI}, Linux 7.2)"
            ),
        ),
        Protection(
            "metadata",
            filtered is None,
            "chmod, chown, utime and extended attributes only inside the writable grants; "
            "no set-user-ID file; no file system ioctl that writes; no lease"
            if filtered is None
            else filter_note,
        ),
        Protection(
            "terminal",
            filtered is None,
            "a new session with no controlling terminal; TIOCSTI and TIOCLINUX refused"
            if filtered is None
            else "a new session with no controlling terminal; " + filter_note,
        ),
        Protection(
            "protected names",
            filtered is None,
            "a protected place that is not there, or is a link (a project's .envrc or "
            ".vscode, ~/.ssh, a ~/.bashrc kept in dotfiles), is never made by the server: its "
            "supervisor makes each of its new names"
            if filtered is None
            else filter_note,
        ),
        Protection(
            "privileges",
            True,
            "every capability dropped (as root the bounding set too); no new privileges",
        ),
        Protection(
            "process tree",
            True,
            "all the server starts ends with it: at a restart, and when its bridge ends, "
            "even killed",
        ),
        Protection(
            "processes",
            filtered is None,
            "at most 1,024 at once in the server's tree, or its own limit "
            "(servers confine NAME --max-processes N): a fork past it fails"
            if filtered is None
            else filter_note,
        ),
        Protection(
            "network, when limited to domains",
            filtered is None,
            "only through Roots Manager's proxy, to the domains allowed (servers network NAME "
            "domains): a network namespace of its own, with only a loopback; where none can be "
            "made (unprivileged user namespaces off), "
            + (
                "the proxy on this machine's loopback, where the supervisor and Landlock "
                f"(ABI {abi}) hold the server to its port (another local program may use that "
                "port too, to the same domains)"
                if abi >= landlock.NET_ABI
                else f"not started (that needs Landlock ABI {landlock.NET_ABI}, Linux 6.7)"
            )
            if filtered is None
            else filter_note,
        ),
        Protection(
            "network",
            False,
            "not restricted unless blocked or limited to domains (servers network NAME): a "
            "confined server may connect anywhere",
        ),
        Protection(
            "names",
            False,
            "a path outside the grants can still be looked up (stat, its extended attributes "
            "read, inotify), and other processes' command lines read in /proc",
        ),
        Protection(
            "locks",
            False,
            "a file it may read can still be locked (flock, read locks), making its writers wait",
        ),
        Protection(
            "hard links",
            False,
            "a hard link put inside a grant before the server ran leads to its file: the kernel "
            "judges the file by where it is reached (a held place with a second name makes its "
            "grant read-only)",
        ),
    ]


ALWAYS_MISSING = ("network", "names", "locks", "hard links")
"""What no machine's confinement holds a server to: said in the report, not at every start."""


def protections(found: Availability | None = None) -> list[Protection]:
    """What a confined server is held to here, and what it is not (empty: nothing confines)."""
    found = availability() if found is None else found
    if not found.available:
        return []
    if found.mechanism == "landlock":
        return _linux_protections(found.abi or 0)
    return [
        Protection("files", True, "sandbox-exec's profile (untested on a real Mac)"),
        Protection("network", False, "not restricted: a confined server may connect anywhere"),
    ]


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


def confines_by_default() -> bool:
    """Whether a server whose confinement is not decided starts confined here: where the
    machine can confine with a mechanism the tests run (Landlock), never the untested one."""
    found = availability()
    return found.available and found.tested
