"""A root: a folder the user keeps, and what a folder must be to become one.

A root is named by a path or a ``file://`` URI; :func:`find_root` and :func:`new_root` are the
rules :class:`roots_manager.core.store.state.State` applies to its list of roots.
"""

from __future__ import annotations

import errno
import os
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from roots_manager.core.roots import identity
from roots_manager.core.roots import uri as uris
from roots_manager.core.roots.broadness import Broad, broadness, home
from roots_manager.core.servers.names import BIDI_CONTROLS
from roots_manager.support.refusal import ModelError
from roots_manager.support.translatable import QT_TRANSLATE_NOOP

_URI_LIKE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+://")

_BROAD_TEMPLATES = {
    Broad.FS_ROOT: QT_TRANSLATE_NOOP(
        "CoreError",
        "refusing to add {path}: it is the root of the file system: every server granted it "
        "could be pointed at every file. Add a project folder instead, or pass --allow-broad "
        "if you really mean it",
    ),
    Broad.HOME: QT_TRANSLATE_NOOP(
        "CoreError",
        "refusing to add {path}: it is your home folder: every server granted it could be "
        "pointed at all your files. Add a project folder instead, or pass --allow-broad if you "
        "really mean it",
    ),
    Broad.HOLDS_HOME: QT_TRANSLATE_NOOP(
        "CoreError",
        "refusing to add {path}: it holds your home folder ({home}): every server granted it "
        "could be pointed at all your files. Add a project folder instead, or pass "
        "--allow-broad if you really mean it",
    ),
}
_BROAD_REASONS = {
    kind: template.removeprefix("refusing to add {path}: ").split(". Add a project folder")[0]
    for kind, template in _BROAD_TEMPLATES.items()
}
"""Each reason alone, as the templates word it."""
BROAD_REFUSALS: tuple[str, ...] = tuple(_BROAD_TEMPLATES.values())
"""The templates of a folder refused as too broad, one per reason."""

TOO_LONG = QT_TRANSLATE_NOOP(
    "CoreError",
    "cannot add {path}: the path, or a folder name in it, is longer than the system allows "
    "(ENAMETOOLONG)",
)
"""A path the system refuses to look up for its length: it may well exist, by a shorter name."""


@dataclass
class Root:
    id: str
    path: str
    name: str
    added_at: str
    real: str | None = None
    """The folder's real path (links followed) when it was added; None in older stores. A root
    that later leads elsewhere, through a link swapped in, is withheld from every server."""
    mount_point: bool = False
    """Whether the folder was the top of a file system of its own (a mount point) when added.
    Found later on its parent's file system, it is the folder an unmount left behind, not the
    one granted, and is withheld. False in older stores: nothing is known of them."""

    @property
    def uri(self) -> str:
        return uris.path_to_uri(self.path)


def normalize_path(path: str) -> str:
    """Make *path* absolute and tidy (``~`` expanded, ``..`` folded, NFC on macOS); symlinks
    are kept.

    On POSIX a leading ``//`` becomes ``/``: :func:`os.path.normpath` keeps exactly two (POSIX
    leaves their meaning to the system), but Linux and macOS read them as one, and ``//tmp/x``
    kept apart from ``/tmp/x`` would be a second root for one folder."""
    norm = os.path.normpath(os.path.abspath(os.path.expanduser(path)))
    if os.name == "posix" and norm.startswith("//"):
        norm = norm[1:]
    return identity.spelled(norm)


def path_of(ref: str) -> str:
    """The normalised path that *ref* names: a ``file://`` URI or a path (``~`` allowed)."""
    if ref.lower().startswith("file:") or _URI_LIKE.match(ref):
        try:
            return normalize_path(uris.uri_to_path(ref))
        except uris.UriError as exc:
            raise ModelError(exc.template, **exc.values) from exc
    return normalize_path(ref)


def broad_reason(path: str) -> str | None:
    """Why adding *path* as a root is too broad, or None if it is not.

    Symbolic links are followed: a link to the home folder is as broad as the home folder.
    """
    kind = broadness(path)
    if kind is None:
        return None
    return _BROAD_REASONS[kind].format(home=home())


def find_root(roots: Sequence[Root], ref: str) -> Root:
    """The root of *roots* named by *ref*: a ``file://`` URI, a root's name, or a path."""
    if ref.lower().startswith("file:") or _URI_LIKE.match(ref):
        return _root_by_path(roots, path_of(ref), ref)
    by_name = [r for r in roots if r.name == ref]
    looks_like_path = ref.startswith(("/", "~", ".")) or os.sep in ref
    if len(by_name) == 1 and not looks_like_path:
        return by_name[0]
    if len(by_name) > 1 and not looks_like_path:
        paths = ", ".join(r.path for r in by_name)
        raise ModelError(
            "several roots are named {ref!r} ({paths}); name one by its path",
            ref=ref,
            paths=paths,
        )
    return _root_by_path(roots, normalize_path(ref), ref)


def _root_by_path(roots: Sequence[Root], path: str, ref: str) -> Root:
    for r in roots:
        if r.path == path:
            return r
    raise ModelError("no root matches {ref!r} (roots-manager roots list shows them)", ref=ref)


def new_root(
    roots: Sequence[Root], path: str, name: str | None, *, allow_broad: bool, added_at: str
) -> Root:
    """The root the folder at *path* (a path or a ``file://`` URI) makes beside *roots*."""
    norm = path_of(path)
    if not os.path.isdir(norm):
        try:
            os.lstat(norm)
        except OSError as exc:
            # the system looked nothing up: such a path is not known not to exist
            # (Windows says ERROR_FILENAME_EXCED_RANGE, which Python maps to ENOENT)
            if exc.errno == errno.ENAMETOOLONG or getattr(exc, "winerror", None) == 206:
                raise ModelError(TOO_LONG, path=norm) from None
            raise ModelError("cannot add {path}: it does not exist", path=norm) from None
        raise ModelError("cannot add {path}: it is not a folder", path=norm)
    broad = broadness(norm)
    if broad is not None and not allow_broad:
        values = {"home": home()} if broad is Broad.HOLDS_HOME else {}
        raise ModelError(_BROAD_TEMPLATES[broad], path=norm, **values)
    for r in roots:
        if identity.respelled(r.path, norm):  # /Users/me/Code is /users/me/code on a Mac
            raise ModelError("{path} is already a root, named {name!r}", path=norm, name=r.name)
    uris.path_to_uri(norm)  # refuses paths with no URI before anything is stored
    real = os.path.realpath(norm)
    return Root(
        id=os.urandom(6).hex(),
        path=norm,
        real=real,
        name=clean_name(name) if name is not None else _shown_name(os.path.basename(norm) or norm),
        added_at=added_at,
        mount_point=os.path.ismount(real),
    )


def _unsafe_char(c: str) -> bool:
    # Control characters can drive a terminal (escape sequences); lone surrogates stand for
    # file name bytes that are not UTF-8 and have no character to show.
    return unicodedata.category(c) in ("Cc", "Cs") or c in BIDI_CONTROLS


def clean_name(name: str) -> str:
    """*name* as a root's name: white space folded; an empty name or an unsafe character is
    refused."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise ModelError("a root's name cannot be empty")
    bad = sorted({f"U+{ord(c):04X}" for c in cleaned if _unsafe_char(c)})
    if bad:
        raise ModelError(
            "a root's name cannot hold control or text-direction characters ({chars})",
            chars=", ".join(bad),
        )
    return cleaned


def _shown_name(text: str) -> str:
    """A name made from a folder's own name, with characters a name cannot hold replaced."""
    cleaned = " ".join(text.split())
    return "".join("\ufffd" if _unsafe_char(c) else c for c in cleaned) or "\ufffd"
