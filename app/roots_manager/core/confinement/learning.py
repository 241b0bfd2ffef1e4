"""Learning a server's grants: from what it was refused while confined, the smallest grants that
would have allowed it, and what is left out and why.

A refused file asks for its folder (read only when only reads were refused there; read and
write when anything was written, made, removed or run, which a read-only grant never allows),
a refused listing for that folder, and the folders asked for inside another one asked for are
folded into it. A file refused alone (the one read or written in its folder, which nothing
else there was asked of) is proposed alone, the narrowest grant that allows it: one refused
``~/Documents/report.pdf`` never proposes the whole of ``~/Documents``. Sibling folders are
not folded into their parent: that would grant folders nothing asked for. Where the folder is too broad to grant (the home folder, or one holding a
credential such as ``~/.config`` holding ``~/.config/gh``), a refused file is asked for alone
(``~/.gitconfig``, as an extra readable or writable path). A folder the server was refused
making for itself in the home or a folder every program shares (``~/.serena``) is proposed to be
made, alone (:func:`~roots_manager.core.confinement.offers.own_folder`), never as a root. A
domain Roots Manager's proxy refused a server limited to domains (a denial with ``domain``) is
proposed as a domain to allow (:attr:`Kind.DOMAIN`), never as a path.

Never proposed, each listed as left out with the reason: ``/``, the home folder and the folders
above it, what :func:`~roots_manager.core.confinement.offers.secret` calls a secret (credentials
in a home, another user's files, system files others may not read), connections, a folder or
file that is no longer there, and what the server may already do (a domain it may reach now). Granting any of them is still
possible, by hand, on purpose.

Pure: the file system is looked at only through *is_dir*, *exists* and *stat*, which a test may
give.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from roots_manager.core.confinement.offers import NOT_A_PATH, broad, own_folder, secret
from roots_manager.support.paths import inside
from roots_manager.support.translatable import QT_TRANSLATE_NOOP, Words

CONNECTION = QT_TRANSLATE_NOOP("CoreText", "a connection, not a path")
NO_FOLDER = QT_TRANSLATE_NOOP("CoreText", "no longer a folder")
GONE = QT_TRANSLATE_NOOP("CoreText", "no longer there")
ALLOWED = QT_TRANSLATE_NOOP("CoreText", "the server may do this now")
"""Why a refusal is left out of a proposal (besides :mod:`.offers`' reasons), in words the app
translates."""

READS = frozenset({"read", "list"})
"""What a read-only grant allows (Landlock's READ_FILE and READ_DIR; not EXECUTE)."""
_OF_FOLDER = frozenset({"list", "create", "remove"})
"""Operations a rule on a file cannot allow: only its folder's can."""


class Kind(Enum):
    """What a proposed grant is."""

    FOLDER = "folder"
    """A folder granted to the server (a root, read only or read and write)."""
    FILE = "file"
    """One file made readable (or writable) by the server's confinement, not a root."""
    CREATE = "create"
    """A folder of the server's own, made and made writable by its confinement, not a root."""
    DOMAIN = "domain"
    """A domain added to those the server may reach through Roots Manager's proxy (its
    :attr:`~Proposed.path` is the domain)."""


@dataclass(frozen=True, slots=True)
class Proposed:
    """One grant of a proposal."""

    path: str
    kind: Kind
    read_only: bool
    operations: tuple[str, ...]
    """The operations refused that it would have allowed, sorted."""
    refusals: int
    """How many refusals it would have allowed (folded ones counted)."""
    examples: tuple[str, ...] = ()
    """A few of the paths refused under it."""


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A refusal no grant of the proposal allows, and why."""

    path: str
    operations: tuple[str, ...]
    reason: str
    refusals: int


@dataclass(frozen=True, slots=True)
class Proposal:
    """What learning proposes: :attr:`grants` to accept or edit, and :attr:`left_out`."""

    grants: tuple[Proposed, ...]
    left_out: tuple[LeftOut, ...]
    refusals: int
    """Every refusal looked at, folded ones counted."""

    def as_json(self) -> dict[str, Any]:
        """The proposal as ``servers learn --json`` prints it."""
        return {
            "refusals": self.refusals,
            "grants": [
                {
                    "path": g.path,
                    "kind": g.kind.value,
                    "read_only": g.read_only,
                    "operations": list(g.operations),
                    "refusals": g.refusals,
                    "examples": list(g.examples),
                }
                for g in self.grants
            ],
            "left_out": [
                {
                    "path": x.path,
                    "operations": list(x.operations),
                    "reason": x.reason,
                    "refusals": x.refusals,
                }
                for x in self.left_out
            ],
        }


EXAMPLES = 3
"""How many refused paths a proposed grant names."""


ALONE = frozenset({"read", "write"})
"""The operations on a file that a grant of that file alone allows (a program run needs what
lies beside it, and making or removing a file needs its folder)."""


@dataclass(slots=True)
class _Asked:
    operations: set[str] = field(default_factory=set)
    refusals: int = 0
    examples: list[str] = field(default_factory=list)
    files: set[str] = field(default_factory=set)
    """Up to two of the files refused in a folder that a grant of the file alone allows."""
    whole: bool = False
    """The folder itself was asked of: listed, something made, removed or run in it, a count
    of refusals folded, or a folder inside it."""

    def add(self, operation: str, count: int, example: str | None, alone: str | None) -> None:
        self.operations.add(operation)
        self.refusals += count
        if example is not None and example not in self.examples and len(self.examples) < EXAMPLES:
            self.examples.append(example)
        if alone is None or operation not in ALONE or count != 1:
            self.whole = True
        elif len(self.files) < 2:
            self.files.add(alone)

    def lone_file(self) -> str | None:
        """The one file asked of in this folder, when nothing else there was."""
        return next(iter(self.files)) if not self.whole and len(self.files) == 1 else None

    def merge(self, other: _Asked) -> None:
        self.whole = True
        self.operations |= other.operations
        self.refusals += other.refusals
        for example in other.examples:
            if example not in self.examples and len(self.examples) < EXAMPLES:
                self.examples.append(example)


def propose(
    denials: Iterable[Mapping[str, Any]],
    *,
    home: str,
    granted: Mapping[str, bool] | None = None,
    domains: Sequence[str] | None = (),
    users_homes: tuple[str, ...] = ("/home", "/root"),
    is_dir: Callable[[str], bool] = os.path.isdir,
    exists: Callable[[str], bool] = os.path.lexists,
    stat: Callable[[str], os.stat_result] = os.stat,
) -> Proposal:
    """The smallest grants that would have allowed the refusals *denials* (events of
    :mod:`roots_manager.core.log.denials`) of the user whose home is *home*.

    *granted* maps the paths the server may use now to whether only for reading (its granted
    folders and extra paths): what they allow already is left out. *domains* are the domains
    it may reach now (None: the whole network): a refused domain they match is left out too.
    """
    from roots_manager.support.domains import DomainError, matches, pattern

    home = os.path.normpath(home)
    now = {os.path.normpath(p): ro for p, ro in (granted or {}).items()}
    folders: dict[str, _Asked] = {}
    files: dict[str, _Asked] = {}
    made: dict[str, _Asked] = {}
    named: dict[str, _Asked] = {}
    left: dict[tuple[str, str], _Asked] = {}
    total = 0

    def leave(path: str, reason: str, operations: Iterable[str], count: int) -> None:
        asked = left.setdefault((path, reason), _Asked())
        asked.operations.update(operations)
        asked.refusals += count

    for rec in denials:
        operation = rec.get("operation")
        path = rec.get("path") if isinstance(rec.get("path"), str) else None
        folder = rec.get("folder") if isinstance(rec.get("folder"), str) else None
        folded = rec.get("folded")
        count = (1 if path else 0) + (folded if isinstance(folded, int) and folded > 0 else 0)
        if not isinstance(operation, str) or count == 0:
            continue
        total += count
        where = path or folder
        asked_domain = rec.get("domain")
        if operation == "connect" and isinstance(asked_domain, str):
            try:
                domain = pattern(asked_domain)
            except DomainError:
                leave(asked_domain, Words("CoreText", CONNECTION), [operation], count)
                continue
            named.setdefault(domain, _Asked()).add(operation, count, where, None)
            continue
        if operation == "connect":
            leave(where or "(network)", Words("CoreText", CONNECTION), [operation], count)
            continue
        if where is None or not where.startswith("/"):
            leave(str(where), Words("CoreText", NOT_A_PATH), [operation], count)
            continue
        where = os.path.normpath(where)
        why = secret(where, home=home, users_homes=users_homes, stat=stat)
        if why is not None:
            leave(where, why, [operation], count)
            continue
        if path is not None and own_folder(rec, where, home) is not None:
            made.setdefault(where, _Asked()).add(operation, count, where, None)
            continue
        if path is None or operation == "list":
            needed, one_file = where, None  # a folder's count, or a folder refused its listing
        else:
            needed = os.path.dirname(where)
            one_file = None if operation in _OF_FOLDER else where
        too = broad(needed, home) or secret(needed, home=home, users_homes=users_homes, stat=stat)
        # a rule on a folder's path (the root, the home, a folder holding it: read as a file)
        # would be a rule on the whole folder
        file_too = broad(one_file, home) if one_file is not None else None
        if too is None:
            folders.setdefault(needed, _Asked()).add(operation, count, path and where, one_file)
        elif one_file is not None and file_too is None:
            files.setdefault(one_file, _Asked()).add(operation, count, one_file, None)
        else:
            leave(where, file_too or too, [operation], count)

    # a folder asked for inside another one asked for is the outer one's
    outer: dict[str, _Asked] = {}
    for path in sorted(folders, key=lambda p: p.count("/")):  # the outer ones first
        top = next((a for a in _above(path) if a in outer), None)
        if top is None:
            outer[path] = folders[path]
        else:
            outer[top].merge(folders[path])
    grants: list[Proposed] = []
    for path, asked in sorted(outer.items()):
        read_only = asked.operations <= READS
        lone = asked.lone_file()
        if lone is not None and lone not in files and exists(lone):
            files[lone] = asked  # the file alone; one gone since asks for its folder
            continue
        if _allowed(path, read_only, now):
            leave(path, Words("CoreText", ALLOWED), asked.operations, asked.refusals)
        elif not is_dir(path):
            leave(path, Words("CoreText", NO_FOLDER), asked.operations, asked.refusals)
        else:
            grants.append(_proposed(path, Kind.FOLDER, read_only, asked))
    for path, asked in sorted(files.items()):
        read_only = asked.operations <= READS
        # no proposed folder holds it: its own folder was too broad (and so is any above it),
        # or it was the one file asked of there
        if _allowed(path, read_only, now):
            leave(path, Words("CoreText", ALLOWED), asked.operations, asked.refusals)
        elif not exists(path):
            leave(path, Words("CoreText", GONE), asked.operations, asked.refusals)
        else:
            grants.append(_proposed(path, Kind.FILE, read_only, asked))
    for path, asked in sorted(made.items()):
        if _allowed(path, False, now):
            leave(path, Words("CoreText", ALLOWED), asked.operations, asked.refusals)
        else:
            grants.append(_proposed(path, Kind.CREATE, False, asked))
    for domain, asked in sorted(named.items()):
        if domains is None or matches(tuple(domains), domain):
            leave(domain, Words("CoreText", ALLOWED), asked.operations, asked.refusals)
        else:
            grants.append(_proposed(domain, Kind.DOMAIN, False, asked))
    out_left = tuple(
        LeftOut(path, tuple(sorted(a.operations)), reason, a.refusals)
        for (path, reason), a in sorted(left.items())
    )
    return Proposal(tuple(grants), out_left, total)


def _proposed(path: str, kind: Kind, read_only: bool, asked: _Asked) -> Proposed:
    return Proposed(
        path,
        kind,
        read_only,
        tuple(sorted(asked.operations)),
        asked.refusals,
        tuple(asked.examples),
    )


def _above(path: str) -> list[str]:
    """The folders above *path*, nearest first (``/`` last)."""
    out = []
    while (up := os.path.dirname(path)) != path:
        out.append(up)
        path = up
    return out


def _allowed(path: str, read_only: bool, now: Mapping[str, bool]) -> bool:
    """Whether a grant of *now* already allows *path* as asked (read only or not)."""
    return any(inside(path, p) and (read_only or not ro) for p, ro in now.items())


CANNOT_CONFINE = "this machine cannot confine a server ({reason}), and learning runs it confined"
"""The refusal of learning where confinement cannot be had."""

ALREADY_LEARNING = "{server!r} is being learned already, by process {pid}: let it finish first"
"""The refusal of a second learning of a server while one runs."""
