"""Privacy of the per-user folder on Windows: a protected access list for the user alone.

POSIX makes the folder private with mode 0700. Windows ignores modes; a folder there inherits
the access list of its parent, which under ``%APPDATA%`` already leaves out other ordinary
users but lets in the local Administrators group, and elsewhere (a ``ROOTS_MANAGER_HOME`` on
another drive, a shared folder) may let in everyone. The folder is given a *protected* DACL
(nothing inherited from above) that grants full control to two principals only, inherited by
every file and folder created in it (``OICI``): so ``store.json``, the markers and the logs get
it without a call of their own:

- the user the app runs as (the token's user SID);
- ``SYSTEM`` (``SY``): the operating system itself, which backup, search indexing and
  antivirus run as; left out, they fail on the folder, and it could not keep SYSTEM out anyway.

The local Administrators group (``BA``) is **not** included, as mode 0700 gives root nothing:
an administrator who wants the files must take ownership first (which Windows allows them and
records), rather than reading them by default. The same holds for every other user.

This module is the pure part, run on every platform: the SDDL text from a SID (refusing what is
not a user's SID), the reading of a DACL read back, and what to do with a folder. The calls to
Windows are in :mod:`roots_manager.platform.windows.acl_calls`; the flow that joins them is :func:`make_private`.
"""

from __future__ import annotations

import enum
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

SID_SYNTAX = re.compile(
    r"S-1-(?P<authority>[0-9]{1,10}|0x[0-9A-F]{12})(?P<subs>(?:-[0-9]{1,10}){1,15})"
)
"""A SID as ``ConvertSidToStringSidW`` writes it: revision 1, an identifier authority (in hex
from 2**32 on), then one to fifteen 32-bit sub-authorities."""

USER_SID_PREFIXES = ("S-1-5-21-", "S-1-12-1-", "S-1-5-80-", "S-1-5-82-")
"""Accounts a process runs as: local and domain accounts, Microsoft Entra ID (Azure AD)
accounts, services' virtual accounts, IIS application pools."""

SERVICE_ACCOUNTS = ("S-1-5-18", "S-1-5-19", "S-1-5-20")
"""LocalSystem, LocalService, NetworkService: a bridge started by a service runs as one."""

FULL_CONTROL = "FA"
INHERITED_BY_ALL = "OICI"
"""Object and container inherit: every file and folder created inside gets the entry."""


class SidError(ValueError):
    """The text is not the SID of an account a process runs as."""


def checked_sid(sid: str) -> str:
    """*sid* itself, if it is a user's or service's SID in the string form Windows writes.

    Raises :class:`SidError` for anything else: text that is not a SID (an SDDL alias such as
    ``WD``, a SID with spaces, brackets or semicolons that would change the access list it is
    put in), a SID outside the 32-bit ranges, and the SIDs of groups (Everyone, Users,
    Authenticated Users ...), which would make the folder anything but private.
    """
    match = SID_SYNTAX.fullmatch(sid)
    if match is None:
        raise SidError(f"not a SID: {sid!r}")
    authority = match["authority"]
    if not authority.startswith("0x") and int(authority) >= 2**32:
        raise SidError(f"a SID's authority from 2**32 on is written in hex: {sid!r}")
    if any(int(sub) >= 2**32 for sub in match["subs"][1:].split("-")):
        raise SidError(f"a SID's parts are 32-bit numbers: {sid!r}")
    if sid not in SERVICE_ACCOUNTS and not sid.startswith(USER_SID_PREFIXES):
        raise SidError(f"not the SID of a user's account (a group, or a well-known SID): {sid}")
    return sid


def private_sddl(sid: str) -> str:
    """The protected DACL, in SDDL, that gives full control to *sid* and SYSTEM only."""
    return "D:P" + "".join(_ace(who) for who in (checked_sid(sid), "SY"))


def _ace(who: str) -> str:
    return f"(A;{INHERITED_BY_ALL};{FULL_CONTROL};;;{who})"


_DACL = re.compile(r"D:(?P<flags>[A-Z]*)(?P<aces>(?:\([^()]*\))*)")
_ACE = re.compile(r"\([^()]*\)")


def same_private_dacl(current: str, wanted: str) -> bool:
    """Whether the DACL *current* (SDDL read back from a folder) is the protected one *wanted*.

    The flags Windows adds when it sets a DACL (``AI``, ``AR``: inheritance was computed) do not
    count, nor does the order of the entries; the protection (``P``) and each entry do.
    """
    have, want = _DACL.search(current), _DACL.fullmatch(wanted)
    if have is None or want is None:
        return False
    return "P" in _dacl_flags(have["flags"]) and sorted(_ACE.findall(have["aces"])) == sorted(
        _ACE.findall(want["aces"])
    )


def _dacl_flags(flags: str) -> set[str]:
    # SDDL's DACL flags: P, AR, AI, NO_ACCESS_CONTROL; the one-letter one is P
    return set(re.findall(r"AI|AR|NO_ACCESS_CONTROL|P", flags))


class AclStep(enum.Enum):
    """What is done to a folder's access list."""

    KEEP = "already private"
    SET = "made private"
    REFUSED = "refused: not Roots Manager's own folder"
    FAILED = "could not be made private"


@dataclass(frozen=True)
class AclOutcome:
    """What :func:`make_private` did with a folder, and why when it did not."""

    step: AclStep
    reason: str | None = None


class AclSystem(Protocol):
    """The calls to Windows that :func:`make_private` needs (:mod:`roots_manager.platform.windows.acl_calls`)."""

    def current_user_sid(self) -> str:
        """The string SID of the user this process runs as."""
        ...

    def canonical(self, sddl: str) -> str:
        """*sddl* as Windows writes it back (aliases for well-known SIDs, rights by name)."""
        ...

    def read_dacl(self, path: Path) -> str:
        """The DACL of *path*, in SDDL."""
        ...

    def set_protected_dacl(self, path: Path, sddl: str) -> None:
        """Give *path* the protected DACL *sddl*, passed on to what is inside."""
        ...


def make_private(path: Path, system: Callable[[], AclSystem], shared: str | None) -> AclOutcome:
    """Give the folder *path* the protected DACL of the current user, unless it has it.

    *system* loads the calls to Windows; *shared* is why the folder must not be made private
    (the home folder, a drive's root), or None. A failure is returned, not raised: the folder
    is used all the same.
    """
    try:
        calls = system()
        wanted = calls.canonical(private_sddl(calls.current_user_sid()))
        if same_private_dacl(calls.read_dacl(path), wanted):
            return AclOutcome(AclStep.KEEP)
        if shared is not None:
            return AclOutcome(AclStep.REFUSED, shared)
        calls.set_protected_dacl(path, wanted)
    except Exception as exc:
        # Not only OSError: the ctypes calls have never run on Windows (a wrong declaration
        # raises ArgumentError or AttributeError), and privacy that cannot be had must not
        # keep anyone from their state: the failure is said, the folder used.
        return AclOutcome(AclStep.FAILED, str(exc) or type(exc).__name__)
    return AclOutcome(AclStep.SET)


_said: list[str] = []


def say_failure_once(path: Path, outcome: AclOutcome) -> bool:
    """Say (once a process) that *path* could not be made private, and why; True if said now.

    A warning through :mod:`logging`: the app's log has it; where logging is not set up (the
    CLI, the bridge) Python writes it to stderr.
    """
    if outcome.step is not AclStep.FAILED or _said:
        return False
    _said.append(str(path))
    logging.getLogger(__name__).warning(
        "%s is not made private to you: its access list could not be set (%s). It is used "
        "all the same, with the permissions it inherits from its parent folder.",
        path,
        outcome.reason,
    )
    return True
