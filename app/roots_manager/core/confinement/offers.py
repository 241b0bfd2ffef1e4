"""What may be granted in one click from a denial, and what never is.

A confined server refused ``~/notes/todo.md`` may be offered **Allow folder** (``~/notes``,
read and write), **Allow read-only** (the folder, read only) and **Allow this file** (only when
a file was refused, read only or read and write as it asked). A server refused making its own
state folder where a folder is too broad or shared to allow (``~/.serena`` in the home,
``~/.cache/chrome-devtools-mcp``) is offered **Allow and create** that folder alone: Roots
Manager makes it and allows it to be written. A refusal of a system secret is
shown and offered nothing: a non-world-readable file of the system (``/etc/shadow``), another
user's home, the credentials in a home (``~/.ssh``, ``~/.gnupg``, keyrings, ``~/.password-store``,
``~/.aws`` and other cloud tools), the home folder itself and ``/``; nor a protected place kept
from being made (which no grant opens). Roots Manager's own code and state (its package, the
folder it is installed in, its venv, a ``__pycache__`` under them, its store and logs) and the
places of :data:`~roots_manager.core.confinement.protected.TABLE` (shell start files,
``~/.local/bin``, editor settings, a repository's ``.git/hooks``...) are never offered as a
folder, nor anything written there: a server that could write them would run outside its
confinement later; reading one file there, or the folder read-only, may still be offered.
Granting such a path is still possible, by hand, on purpose; it is only never one click away.

A server whose network is limited to domains and was refused one by Roots Manager's proxy (a
denial with a ``domain``) is offered **Allow domain** (that name, added to its domains), and
nothing about paths.

Pure: the file system is looked at through :func:`os.stat` alone, and only for a system file's
mode (*stat* may be given by a test).
"""

from __future__ import annotations

import os
import stat as st
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from roots_manager.support.paths import inside
from roots_manager.support.translatable import QT_TRANSLATE_NOOP, Words


class Offer(Enum):
    """A one-click grant."""

    FOLDER = "allow-folder"
    READ_ONLY = "allow-read-only"
    FILE = "allow-file"
    CREATE = "allow-create"
    DOMAIN = "allow-domain"


@dataclass(frozen=True, slots=True)
class Offers:
    """What a denial may be granted with (:attr:`offers` empty: none, for :attr:`refused`)."""

    folder: str | None
    """The folder Allow folder and Allow read-only grant."""
    file: str | None
    """The file Allow this file grants (None: the refusal was not of one file)."""
    offers: tuple[Offer, ...]
    refused: str | None = None
    """Why nothing is offered, in words (a secret, the home folder, ...); with offers, why
    Allow folder is not among them (Roots Manager's own code, a protected place)."""
    create: str | None = None
    """The folder Allow and create makes and allows to be written (None: not offered)."""
    domain: str | None = None
    """The domain Allow domain adds to the server's domains, in normal form (None: not
    offered, the refusal was not the proxy's)."""


SECRETS_IN_HOME = (
    ".ssh",
    ".gnupg",
    ".password-store",
    ".local/share/keyrings",
    ".aws",
    ".azure",
    ".config/gcloud",
    ".kube",
    ".docker",
    ".netrc",
    ".pgpass",
    ".git-credentials",
    ".config/gh",
    ".mozilla",
    ".config/google-chrome",
    ".config/chromium",
    ".pki",
    ".gnome2/keyrings",
    ".local/share/kwalletd",
)
"""Paths of a home that hold credentials: never offered, nor a folder holding one."""

_WRITES = ("write", "create", "remove")
MAKING_FOLDERS = ("mkdir", "mkdirat")
"""The calls a refused folder of the server's own is made with."""
SHARED = (".cache", ".local/share", ".local/state", ".config")
"""The home's folders each program keeps its own folder in: too shared to allow whole to one
server, so a folder made there is offered alone (as one made in the home itself)."""

# Why a path is never offered in one click, in words the app translates (CoreText)
WHOLE_FILE_SYSTEM = QT_TRANSLATE_NOOP("CoreText", "the whole file system")
HOME_FOLDER = QT_TRANSLATE_NOOP("CoreText", "the home folder, or a folder holding it")
CREDENTIALS = QT_TRANSLATE_NOOP("CoreText", "credentials ({path})")
ANOTHER_USER = QT_TRANSLATE_NOOP("CoreText", "another user's home")
SYSTEM_UNSEEN = QT_TRANSLATE_NOOP("CoreText", "a system file that cannot be looked at")
SYSTEM_PRIVATE = QT_TRANSLATE_NOOP("CoreText", "a system file others may not read")
KERNEL_VIEW = QT_TRANSLATE_NOOP("CoreText", "the kernel's view of processes")
NOT_A_PATH = QT_TRANSLATE_NOOP("CoreText", "not a path")
NOT_A_DOMAIN = QT_TRANSLATE_NOOP("CoreText", "not a domain ({domain})")
TOO_BROAD = QT_TRANSLATE_NOOP("CoreText", "too broad")
PROTECTED = QT_TRANSLATE_NOOP(
    "CoreText", "a protected place, which no grant opens (servers show NAME says why)"
)
OWN_CODE = QT_TRANSLATE_NOOP(
    "CoreText", "Roots Manager's own code or state ({path}): a server that wrote it would run free"
)
KEPT_PLACE = QT_TRANSLATE_NOOP(
    "CoreText", "a place kept read-only whatever is granted ({path}): what is there runs later"
)
NOT_OFFERED = QT_TRANSLATE_NOOP(
    "CoreError", "{offer} is not offered for the refusal of {path}: {why}"
)
"""The refusal of a one-click grant that was not offered (the offer stale, or never made)."""


def _words(template: str, **values: str) -> Words:
    return Words("CoreText", template, **values)


def own_folders() -> tuple[str, ...]:
    """Roots Manager's own code and state on this machine (its package, the folder it was
    installed in, its venv, its per-user directory and logs), as
    :func:`~roots_manager.core.confinement.protected.state_folders` finds them."""
    from roots_manager.core.confinement.protected import state_folders

    return tuple(state_folders(os.environ))


def kept(path: str, *, home: str, own: Sequence[str]) -> str | None:
    """Why a folder or file at *path* is never offered as a writable folder: Roots Manager's own
    code or state (*own*: :func:`own_folders`), or a place of
    :data:`~roots_manager.core.confinement.protected.TABLE` in the home or in a project (or a
    folder holding one of the home's); None when it is not one."""
    from roots_manager.core.confinement.protected import HOME, PROJECT, TABLE

    path = os.path.normpath(path)
    for top in own:
        if inside(path, top) or inside(top, path):
            return _words(OWN_CODE, path=top)
    for place in TABLE:
        if place.where == HOME and place.path:
            where = os.path.join(home, place.path)
            # a folder holding it is granted with it (the home itself is too broad anyway)
            if inside(path, where) or (inside(where, path) and path != home):
                return _words(KEPT_PLACE, path=where)
        elif place.where == PROJECT:
            parts = path.split(os.sep)
            first = place.path.split("/")
            for at in range(len(parts) - len(first) + 1):
                if parts[at : at + len(first)] == first:
                    return _words(KEPT_PLACE, path=os.sep.join(parts[: at + len(first)]))
    return None


def offers(
    denial: Mapping[str, Any],
    *,
    home: str,
    users_homes: tuple[str, ...] = ("/home", "/root"),
    stat: Callable[[str], os.stat_result] = os.stat,
    own: Sequence[str] | None = None,
) -> Offers:
    """The one-click grants a denial (an event of :mod:`roots_manager.core.log.denials`) may
    be offered, for the user whose home is *home*; *own* is Roots Manager's own code and
    state (by default :func:`own_folders`)."""
    if "domain" in denial:
        return domain_offers(denial)
    path = denial.get("path")
    operation = denial.get("operation")
    if not isinstance(path, str) or not path.startswith("/") or operation == "connect":
        return Offers(None, None, (), _words(NOT_A_PATH))
    if denial.get("protected") is True:  # kept whatever is granted: a grant would not help
        return Offers(None, None, (), _words(PROTECTED))
    path = os.path.normpath(path)
    home = os.path.normpath(home)
    folder_refused = operation == "list"
    folder: str | None = path if folder_refused else os.path.dirname(path)
    why = secret(path, home=home, users_homes=users_homes, stat=stat)
    if why is not None:
        return Offers(None, None, (), why)
    # a file made or removed is its folder's business: a rule on a file cannot allow either;
    # and a rule on a folder's path, read as a file, is a rule on the whole folder
    file = None if folder_refused or operation in ("create", "remove") else path
    if file is not None and broad(file, home) is not None:
        file = None
    grants: list[Offer] = []
    assert folder is not None
    held = kept(folder, home=home, own=own_folders() if own is None else own)
    create = own_folder(denial, path, home, own)
    if held is not None and operation in _WRITES:
        # written there, it would run free later; a folder of its own made there would not
        return Offers(None, None, (Offer.CREATE,) if create else (), held, create)
    if broad(folder, home) is None and secret(folder, home=home, users_homes=users_homes,
                                               stat=stat) is None:  # fmt: skip
        if held is None:
            grants.append(Offer.FOLDER)
        if operation not in _WRITES:
            grants.append(Offer.READ_ONLY)
    else:
        folder = None
    if file is not None:
        grants.append(Offer.FILE)
    if create is not None:
        grants.insert(0, Offer.CREATE)
    if not grants:
        # the root or the home says why first: that it holds Roots Manager's folder is not
        # the reason a user needs for "list /"
        return Offers(None, None, (), broad(path, home) or held or _words(TOO_BROAD))
    return Offers(folder, file, tuple(grants), held, create)


def domain_offers(denial: Mapping[str, Any]) -> Offers:
    """What the proxy's refusal of a domain (a denial with ``domain``) is offered: Allow
    domain, for that domain in normal form; nothing for one that is not a domain."""
    from roots_manager.support.domains import DomainError, pattern

    asked = denial.get("domain")
    try:
        if not isinstance(asked, str) or denial.get("operation") != "connect":
            raise DomainError(str(asked))
        domain = pattern(asked)
    except DomainError:
        return Offers(None, None, (), _words(NOT_A_DOMAIN, domain=str(asked)))
    return Offers(None, None, (Offer.DOMAIN,), domain=domain)


def own_folder(
    denial: Mapping[str, Any], path: str, home: str, own: Sequence[str] | None = None
) -> str | None:
    """The folder a server was refused making for itself in the home or in one of its shared
    folders (:data:`SHARED`), if it may be offered to be made and allowed alone: not there yet,
    not a secret (the caller looked), nor a kept place or Roots Manager's own."""
    if denial.get("operation") != "create" or denial.get("call") not in MAKING_FOLDERS:
        return None
    parent = os.path.dirname(path)
    if parent != home and parent not in (os.path.join(home, s) for s in SHARED):
        return None
    if kept(path, home=home, own=own_folders() if own is None else own) is not None:
        return None
    return path


def broad(folder: str, home: str) -> str | None:
    """Why *folder* is too broad for one click (``/``, the home folder or a folder above it)."""
    if folder == "/":
        return _words(WHOLE_FILE_SYSTEM)
    if inside(home, folder):
        return _words(HOME_FOLDER)
    return None


def secret(
    path: str,
    *,
    home: str,
    users_homes: tuple[str, ...] = ("/home", "/root"),
    stat: Callable[[str], os.stat_result] = os.stat,
) -> str | None:
    """Why *path* is a secret never offered in one click; None when it is not one."""
    path = os.path.normpath(path)
    home = os.path.normpath(home)
    if inside(path, home):
        within = path[len(home) + 1 :]
        for name in SECRETS_IN_HOME:
            if inside(within, name) or inside(name, within):
                return _words(CREDENTIALS, path=f"~/{name}")
        return None
    for top in users_homes:
        if path == top:
            return None if top != "/root" else _words(ANOTHER_USER)
        if inside(path, top):
            return _words(ANOTHER_USER)
    if path == "/etc" or path.startswith(("/etc/", "/var/", "/root", "/boot/", "/proc/", "/sys/")):
        # a system file only root may read (/etc/shadow, /etc/sudoers, a host key)
        try:
            mode = stat(path).st_mode
        except OSError:
            return _words(SYSTEM_UNSEEN)
        if not mode & st.S_IROTH:
            return _words(SYSTEM_PRIVATE)
        if path.startswith(("/proc/", "/sys/")):
            return _words(KERNEL_VIEW)
    return None


def allow_words(command: str | None, why: str) -> str:
    """What :func:`allow_command` found, as the host's log and ``roots-manager denials`` say it:
    ``allow with: COMMAND``, or ``not offered: WHY``."""
    return f"allow with: {command}" if command else f"not offered: {why}"


def allow_command(
    server: str, denial: Mapping[str, Any], *, home: str, own: Sequence[str] | None = None
) -> tuple[str | None, str]:
    """The command that allows what *denial* refused to *server* (``roots-manager servers
    confine NAME --allow-write FOLDER``, ``roots-manager servers network NAME domains --allow
    DOMAIN``), or None with why nothing is offered; for a host's log, where a user looks first
    when a server fails, and ``roots-manager denials`` (*own* as for :func:`offers`)."""
    import shlex

    found = offers(denial, home=home, own=own)
    if not found.offers:
        return None, str(found.refused or _words(TOO_BROAD))
    if found.domain is not None:
        quoted = f"{shlex.quote(server)} domains --allow {shlex.quote(found.domain)}"
        return f"roots-manager servers network {quoted}", ""
    if found.create is not None:
        quoted = f"{shlex.quote(server)} --allow-write {shlex.quote(found.create)}"
        return f"roots-manager servers confine {quoted} --create", ""
    writes = denial.get("operation") in _WRITES
    path = found.folder if found.folder is not None else found.file
    assert path is not None
    option = "--allow-write" if writes else "--allow-read"
    command = f"roots-manager servers confine {shlex.quote(server)} {option} {shlex.quote(path)}"
    return command, ""
