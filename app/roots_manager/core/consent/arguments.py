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


ENGINES = frozenset(("docker", "podman", "podman-remote", "nerdctl"))
"""Container engines' clients: ``{roots}`` among their ``run`` options is the grants mounted."""
_ENGINE_FLAGS = frozenset((
    "-i", "-t", "-it", "-ti", "-d", "-P", "-q", "-r", "-D", "--rm", "--detach", "--interactive",
    "--tty", "--init", "--privileged", "--read-only", "--publish-all", "--quiet", "--remote",
    "--debug", "--tls", "--tlsverify", "--no-healthcheck", "--replace",
))  # fmt: skip
"""The engines' options that take no value (every other option without ``=`` takes the next
word)."""


def engine_image(command: Sequence[str]) -> int | None:
    """The position of the image in *command* when it is a container engine's ``run`` or
    ``create`` (``docker run -i --rm IMAGE``, ``podman --remote container run ...``), or None:
    what stands before it are the engine's options, what follows the container's command."""
    if not command or os.path.basename(command[0]) not in ENGINES:
        return None
    i = _options_end(command, 1)
    if command[i : i + 1] == ["container"]:
        i += 1
    if command[i : i + 1] not in (["run"], ["create"]):
        return None
    i = _options_end(command, i + 1)
    if command[i : i + 1] == ["--"]:
        i += 1
    return i if i < len(command) else None


def _options_end(command: Sequence[str], i: int) -> int:
    """Where the options (and ``{roots}``) starting at *i* end."""
    while i < len(command) and command[i] != "--":
        word = command[i]
        if word == ROOTS_ARG:
            i += 1
        elif not word.startswith("-"):
            break
        else:
            i += 1 if "=" in word or word in _ENGINE_FLAGS else 2
    return i


class Mount:
    """A granted folder as a container gets it: *source* on the machine (its real path,
    checked when it was added), *target* in the container (the path the server is told),
    read-only or not."""

    __slots__ = ("read_only", "source", "target")

    def __init__(self, source: str, target: str, read_only: bool) -> None:
        self.source = source
        self.target = target
        self.read_only = read_only


def expand_engine(
    command: Sequence[str], mounts: Sequence[Mount], held: Sequence[Mount] = ()
) -> tuple[list[str], list[str]]:
    """*command*, a container engine's ``run`` (:func:`engine_image`), with each ``{roots}``
    among its options replaced by one ``-v SOURCE:TARGET[:ro]`` per folder of *mounts* and of
    *held* (the places inside them kept read-only, after them so that they cover them), and
    each after the image by the folders' targets; and the folders left out, whose names the
    engine's ``-v`` cannot hold (a ``:`` or a ``,``)."""
    image = engine_image(command)
    skipped = [m.target for m in (*mounts, *held) if any(c in m.source + m.target for c in ":,")]
    kept = [m for m in mounts if m.target not in skipped]
    volumes: list[str] = []
    for m in (*kept, *(h for h in held if h.target not in skipped)):
        volumes += ["-v", f"{m.source}:{m.target}{':ro' if m.read_only else ''}"]
    out: list[str] = []
    for i, arg in enumerate(command):
        if arg != ROOTS_ARG:
            out.append(arg)
        elif image is not None and i < image:
            out += volumes
        else:
            out += [m.target for m in kept]
    return out, skipped


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


def mounts_now(layout: Layout, server: str, fingerprint: str, run: str = "") -> list[Mount]:
    """The folders of :func:`folders_now` as a container engine mounts them: each from its
    real path (checked when it was added: the engine, which follows links, is not led
    elsewhere by one swapped in since), at the path the server is told, read-only for a
    read-only grant."""
    from roots_manager.core.store.file import Store, StoreError

    try:
        state = Store(layout).read()
    except (StoreError, OSError):
        return []
    result = effective(state, server, fingerprint=fingerprint, run=run or None)
    read_only = {g.root for g in state.grants if g.server == server and g.read_only}
    roots = {r.uri: r for r in state.roots}
    out = []
    for entry in result["roots"]:
        root = roots.get(entry["uri"])
        target = uri_to_path(entry["uri"])
        source = (root.real or root.path) if root is not None else target
        out.append(Mount(source, target, root is not None and root.id in read_only))
    return out
