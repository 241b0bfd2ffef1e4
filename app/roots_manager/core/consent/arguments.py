"""A server's granted folders on its command line: ``{roots}`` in the command, for the servers
that take their folders as arguments and never ask for roots (the migration path SEP-2577 names).

``roots-bridge --server fs -- npx -y @modelcontextprotocol/server-filesystem {roots}`` starts the
server with one argument per folder it may see now, and again, with the new ones, whenever what
it may see changes: such a server learns its folders only when it starts. The server's identity
(its command fingerprint) is the command as written, with ``{roots}`` in it, so a change of
grants is not a new command to approve.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from roots_manager.core.consent.effective import effective
from roots_manager.core.directory.layout import Layout
from roots_manager.core.roots.uri import uri_to_path

ROOTS_ARG = "{roots}"
"""The argument replaced by the server's granted folders, one argument each."""


def takes_roots(command: Sequence[str]) -> bool:
    """Whether *command* is given its folders as arguments."""
    return ROOTS_ARG in command


def expand(command: Sequence[str], folders: Sequence[str]) -> list[str]:
    """*command* with each ``{roots}`` replaced by *folders* (none: the argument goes)."""
    out: list[str] = []
    for arg in command:
        if arg == ROOTS_ARG:
            out.extend(folders)
        else:
            out.append(arg)
    return out


HOST_MARKS = ("${", "{env:", "{file:")
"""How hosts mark what they fill in before they start a command: never a folder of ours."""


def folder_arguments(command: Sequence[str]) -> list[int]:
    """The positions in *command* of the arguments that are folders: existing directories
    named by an absolute (or ``~``) path, after the package or script argument (the first one
    that is not an option), and not the value of an option (``--root /srv``: one folder is
    meant there, not a list).

    These are what ``hosts wrap --roots-args`` replaces with ``{roots}``. A command that
    already has ``{roots}`` has none.
    """
    if takes_roots(command):
        return []
    out: list[int] = []
    seen_package = False
    for i, arg in enumerate(command[1:], start=1):
        if not seen_package:
            seen_package = not arg.startswith("-")
            continue
        if command[i - 1].startswith("-") and "=" not in command[i - 1]:
            continue
        if any(m in arg for m in HOST_MARKS):
            continue
        path = os.path.expanduser(arg)
        if os.path.isabs(path) and os.path.isdir(path):
            out.append(i)
    return out


def with_roots_argument(command: Sequence[str], positions: Sequence[int]) -> list[str]:
    """*command* with the folders at *positions* replaced by one ``{roots}``, where the first
    of them stood."""
    if not positions:
        return list(command)
    drop = set(positions)
    out: list[str] = []
    for i, arg in enumerate(command):
        if i == positions[0]:
            out.append(ROOTS_ARG)
        elif i not in drop:
            out.append(arg)
    return out


def folder_paths(command: Sequence[str], positions: Sequence[int]) -> list[str]:
    """The folders at *positions* of *command*, as absolute paths (``~`` expanded)."""
    return [os.path.abspath(os.path.expanduser(command[i])) for i in positions]


def folders_now(layout: Layout, server: str, fingerprint: str, run: str = "") -> list[str]:
    """The folders *server*, run by the command of *fingerprint*, may see now, as paths, in the
    order of its ``roots/list`` answer; none when the store cannot be read (it starts with no
    folder rather than with a guess, and a readable store restarts it with its folders)."""
    from roots_manager.core.store.file import Store, StoreError

    try:
        state = Store(layout).read()
    except (StoreError, OSError):
        return []
    result = effective(state, server, fingerprint=fingerprint, run=run or None)
    return [uri_to_path(r["uri"]) for r in result["roots"]]
