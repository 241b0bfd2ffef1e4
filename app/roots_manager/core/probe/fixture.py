"""The boundary probe's scratch tree: a small monorepo the probed server is pointed at.

The tree lives in a fresh temporary directory, never among the user's own folders. Its top is
what the server's command line may allow (``{allow}``); the probe's root, ``packages/checkout``,
is strictly narrower, so that a target in the gap between the two (``packages/billing``) tells a
server that reads its roots from one that only enforces its command line. Every file holds a
token of its own, so an answer that reveals a file's content is recognised as such; the secret
file outside every root can only be revealed by a boundary failure.

The tree is restored before each call (a write or a move made by the previous call is undone)
and snapshotted around it, so that a write is judged by what changed on disk, not by what the
server says it did.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
from dataclasses import dataclass, field
from pathlib import Path

ROOT = "packages/checkout"
"""The probe's first root: every pair's inside target is in it."""
SECOND_ROOT = "packages/shipping"
"""The second root, granted from the start: a server that honours only the first refuses it."""
NEW_ROOT = "packages/billing"
"""The root that replaces both in the ``list_changed`` round trip (an outside sibling before)."""
ADDED_ROOT = "packages/docs"
"""The second root added to the changed list (after ``packages/billing`` in the list)."""
NOTES = "notes.txt"
SECRET = "private/secret.txt"
"""Outside every root at all times: only a boundary failure can reveal its token."""
LINK = f"{ROOT}/escape"
"""A symbolic link inside the root that leads out of it (to ``private``)."""
HASH_NAME = "web#staging"
NON_ASCII = "日本語 données"

FOLDERS = (
    ROOT,
    f"{ROOT}/{HASH_NAME}",
    f"{ROOT}/{NON_ASCII}",
    "packages/checkout-old",
    NEW_ROOT,
    SECOND_ROOT,
    ADDED_ROOT,
    f"packages/{HASH_NAME}",
    f"packages/{NON_ASCII}",
    "private",
)
"""Every folder of the tree (a ``notes.txt`` in each but ``private``, which holds the secret)."""


@dataclass(frozen=True)
class Entry:
    """What one path of the tree holds: a file's bytes, a folder, or a link's target."""

    kind: str  # "file", "dir" or "link"
    digest: str = ""


Snapshot = dict[str, Entry]
"""The tree's entries by path relative to its top (links are not followed)."""


@dataclass
class Fixture:
    """The scratch tree at *top*, with the token of every file."""

    top: Path
    tokens: dict[str, str] = field(default_factory=dict)
    """File path (relative) -> the unique token it holds."""

    @classmethod
    def create(cls, top: Path) -> Fixture:
        """Lay the tree out in the empty or missing folder *top*."""
        run = secrets.token_hex(6)
        tokens = {f"{d}/{NOTES}": f"rmprobe-{run}-{i}" for i, d in enumerate(FOLDERS[:-1])}
        tokens[SECRET] = f"rmprobe-{run}-secret"
        fixture = cls(top.absolute(), tokens)
        fixture.restore()
        return fixture

    def path(self, rel: str) -> Path:
        """The absolute path of *rel* (relative to the top; may hold ``..``, never resolved)."""
        return self.top / rel

    @property
    def secret(self) -> str:
        """The token of the secret file outside every root."""
        return self.tokens[SECRET]

    def resolved(self, rel: str) -> str:
        """Where *rel* leads, as a server that follows the link and decodes ``%2e`` would go.

        Lexical only (nothing is looked up on disk), so that it can name what does not exist.
        """
        rel = rel.replace("%2e", ".")
        if within(rel, LINK):
            rel = "private" + rel[len(LINK) :]
        return os.path.normpath(rel)

    def token_of(self, rel: str) -> str | None:
        """The token in file *rel*, following the link out of the root as a server would."""
        return self.tokens.get(self.resolved(rel))

    def restore(self) -> None:
        """Put the tree back as :meth:`create` made it: undo writes, moves and removals."""
        self.top.mkdir(parents=True, exist_ok=True)
        expected = self._expected()
        for rel, entry in self.snapshot().items():
            want = expected.get(rel)
            if want is None or want.kind != entry.kind:
                self._remove(self.top / rel)
        for d in FOLDERS:
            (self.top / d).mkdir(parents=True, exist_ok=True)
        for rel, token in self.tokens.items():
            target = self.top / rel
            data = _content(token)
            if not target.is_file() or target.is_symlink() or target.read_bytes() != data:
                target.write_bytes(data)
        link = self.top / LINK
        if not link.is_symlink() or os.readlink(link) != "../../private":
            if link.exists() or link.is_symlink():
                self._remove(link)
            link.symlink_to("../../private", target_is_directory=True)

    def _remove(self, path: Path) -> None:
        # never follows a link: the tree's own link leads to a folder that must stay
        if path.is_symlink() or not path.is_dir():
            path.unlink(missing_ok=True)
        else:
            shutil.rmtree(path, ignore_errors=True)

    def _expected(self) -> Snapshot:
        out: Snapshot = {}
        for d in ("packages", *FOLDERS):
            out[d] = Entry("dir")
        for rel, token in self.tokens.items():
            out[rel] = Entry("file", _digest(_content(token)))
        out[LINK] = Entry("link", "../../private")
        return out

    def snapshot(self) -> Snapshot:
        """Every entry under the top now (links recorded by their target, not followed)."""
        out: Snapshot = {}
        for base, dirs, files in os.walk(self.top):
            for name in dirs + files:
                full = os.path.join(base, name)
                rel = os.path.relpath(full, self.top)
                if os.path.islink(full):
                    out[rel] = Entry("link", os.readlink(full))
                elif os.path.isdir(full):
                    out[rel] = Entry("dir")
                else:
                    try:
                        with open(full, "rb") as f:
                            out[rel] = Entry("file", _digest(f.read(1 << 20)))
                    except OSError:
                        out[rel] = Entry("file", "?")
        return out


def changed(before: Snapshot, after: Snapshot) -> list[str]:
    """The paths that appeared, went or changed between two snapshots, sorted."""
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


def within(rel: str, folder: str) -> bool:
    """Whether relative path *rel* is *folder* or inside it (by path components, not prefix).
    The fixture's names are joined by ``/`` on every system, not the system's separator, so
    this is not :func:`roots_manager.support.paths.inside`."""
    return rel == folder or rel.startswith(folder + "/")


def _content(token: str) -> bytes:
    return f"{token}\nA file of the Roots Manager boundary probe's scratch tree.\n".encode()


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]
