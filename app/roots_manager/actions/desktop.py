"""Desktop integration without root: the launcher, icons, metainfo and autostart entry that a
Linux desktop finds the app by, in the user's XDG folders, starting *this* installation.

The shipped ``.desktop`` entry says ``Exec=roots-manager``, which is right for a system package
and wrong for a venv, a pipx install or an unpacked bundle, whose ``roots-manager`` is not on
the desktop session's ``PATH`` (or is another installation's). The installed copy names this
installation's executable by its absolute path (:mod:`roots_manager.support.installation`).

What an install writes, and which folders and caches it created, is kept in a record in the
per-user directory, so that an uninstall removes exactly that and nothing else, even when the
XDG variables have changed since; with no record (removed by hand, or nothing installed) it
removes the files an install would write where the variables point now, and only those.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from roots_manager import APP_ID
from roots_manager.core.directory.layout import xdg_base
from roots_manager.support import resources
from roots_manager.support.installation import own_executable

RECORD_NAME = "desktop-install.json"
"""The record of the last install, in the per-user directory."""
RECORD_VERSION = 1
HIDDEN_OPTION = "--hidden"
"""The app's option to start in the tray without a window (:mod:`roots_manager.gui.options`)."""

_RESERVED = frozenset(" \t\"'\\><~|&;$*?#()`")
"""Characters that make an ``Exec`` argument need quotes (the Desktop Entry Specification)."""
_QUOTED_ESCAPES = frozenset('"`$\\')
"""Characters escaped by a backslash inside a quoted ``Exec`` argument."""


class DesktopError(Exception):
    """The desktop files cannot be made as asked; the message says why and what to do."""


@dataclass(frozen=True)
class Folders:
    """The user's XDG data and configuration folders, where the files go."""

    data: Path
    config: Path

    @classmethod
    def from_env(cls) -> Folders:
        """``$XDG_DATA_HOME`` and ``$XDG_CONFIG_HOME``, or their defaults
        (:func:`roots_manager.core.directory.layout.xdg_base`)."""
        return cls(
            xdg_base("XDG_DATA_HOME", ".local/share"), xdg_base("XDG_CONFIG_HOME", ".config")
        )

    @property
    def applications(self) -> Path:
        return self.data / "applications"

    @property
    def entry(self) -> Path:
        return self.applications / f"{APP_ID}.desktop"

    @property
    def hicolor(self) -> Path:
        return self.data / "icons" / "hicolor"

    def icon(self, size: int | None) -> Path:
        """The PNG icon of *size* pixels, or the scalable SVG for None."""
        if size is None:
            return self.hicolor / "scalable" / "apps" / f"{APP_ID}.svg"
        return self.hicolor / f"{size}x{size}" / "apps" / f"{APP_ID}.png"

    @property
    def metainfo(self) -> Path:
        return self.data / "metainfo" / f"{APP_ID}.metainfo.xml"

    @property
    def autostart(self) -> Path:
        return self.config / "autostart" / f"{APP_ID}.desktop"

    def targets(self, autostart: bool = True) -> list[Path]:
        """Every file an install writes here (with the autostart entry, if *autostart*)."""
        icons = [self.icon(size) for size in resources.icon_pngs()]
        out = [self.entry, *icons, self.icon(None), self.metainfo]
        return [*out, self.autostart] if autostart else out

    def caches(self) -> list[Cache]:
        """The caches the desktop reads these files through."""
        return [
            Cache.of("update-desktop-database", self.applications),
            Cache.of("gtk-update-icon-cache", self.hicolor),
        ]


CACHE_TOOLS: dict[str, tuple[str, tuple[str, ...]]] = {
    "update-desktop-database": ("mimeinfo.cache", ("-q",)),
    # -t: a user's hicolor folder has no index.theme of its own (the theme is the system's);
    # -f: write the cache all the same
    "gtk-update-icon-cache": ("icon-theme.cache", ("-q", "-t", "-f")),
}
"""Each cache tool: the file it writes in the folder it is given, and its options."""


@dataclass(frozen=True)
class Cache:
    """A cache a tool builds over a folder of desktop files."""

    tool: str
    folder: Path
    name: str
    options: tuple[str, ...]

    @classmethod
    def of(cls, tool: str, folder: Path) -> Cache:
        name, options = CACHE_TOOLS[tool]
        return cls(tool, folder, name, options)

    @property
    def path(self) -> Path:
        return self.folder / self.name


@dataclass(frozen=True)
class CacheRun:
    """What was done to one cache."""

    tool: str
    folder: str
    status: str
    """``refreshed``, ``removed`` (it was ours and nothing is left for it), ``missing`` (the
    tool is not installed: the desktop reads the folder without it), ``failed`` or
    ``skipped`` (nothing changed in its folder)."""
    detail: str = ""

    def to_json(self) -> dict[str, str]:
        return {
            "tool": self.tool,
            "folder": self.folder,
            "status": self.status,
            "detail": self.detail,
        }


@dataclass
class Change:
    """What an install or an uninstall did."""

    action: str
    exec: list[str] = field(default_factory=list)
    """The command line the desktop entry starts (an install's)."""
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)
    """Files an uninstall would remove that were not there (already removed)."""
    folders_created: list[str] = field(default_factory=list)
    folders_removed: list[str] = field(default_factory=list)
    caches: list[CacheRun] = field(default_factory=list)
    record: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "version": RECORD_VERSION,
            "action": self.action,
            "exec": self.exec,
            "written": self.written,
            "removed": self.removed,
            "absent": self.absent,
            "folders_created": self.folders_created,
            "folders_removed": self.folders_removed,
            "caches": [c.to_json() for c in self.caches],
            "record": self.record,
        }


# ---- the command line the desktop starts ----------------------------------------------------


def launcher(executable: str | None = None, frozen: bool | None = None) -> list[str]:
    """The command line that starts this installation's app, by absolute paths.

    ``roots-manager`` beside this Python or in its scripts folder (a venv, pipx, a ``--user``
    install), or beside this executable in a bundle; in a bundle without it, this executable
    itself (both of the bundle's executables take the command line); else this Python running
    the package.
    """
    executable = executable or sys.executable
    frozen = getattr(sys, "frozen", False) if frozen is None else frozen
    found = own_executable("roots-manager", executable, frozen)
    if found is not None:
        return [found]
    if frozen:
        return [str(Path(executable).absolute())]
    return [str(Path(executable).absolute()), "-m", "roots_manager.cli"]


def _checked(text: str) -> str:
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        raise DesktopError(
            f"{text!r} holds a control character, which a desktop entry cannot start; "
            "install Roots Manager under a path without one"
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise DesktopError(
            f"{text!r} is not UTF-8, which a desktop entry must be; install Roots Manager "
            "under a path whose name is UTF-8"
        ) from None
    return text


def _string(text: str) -> str:
    """*text* as a desktop entry's string value (a backslash is written twice)."""
    return _checked(text).replace("\\", "\\\\")


def exec_value(argv: Iterable[str]) -> str:
    """The ``Exec`` value that starts *argv*: each argument quoted as the Desktop Entry
    Specification says, ``%`` doubled (field codes), then escaped as a string value.

    A ``%`` in the program's own path is refused: GLib (GNOME, and whatever uses GIO to start
    apps) looks for the program before it undoes the doubling, finds none and shows no entry.
    """
    argv = list(argv)
    if argv and "%" in argv[0]:
        raise DesktopError(
            f"{argv[0]} has a '%' in its path, which GNOME cannot start from a desktop "
            "entry; install Roots Manager under a path without one"
        )
    words = []
    for arg in argv:
        arg = _checked(arg).replace("%", "%%")
        if not arg or any(c in _RESERVED for c in arg):
            arg = '"' + "".join("\\" + c if c in _QUOTED_ESCAPES else c for c in arg) + '"'
        words.append(arg)
    return _string(" ".join(words))


def entry_text(template: str, argv: list[str], *, autostart: bool = False) -> str:
    """The shipped desktop entry *template* made to start *argv*.

    For the autostart entry, the app starts in the tray (:data:`HIDDEN_OPTION`) and without
    startup notification, which would show a busy cursor waiting for a window that never comes.
    """
    if autostart:
        argv = [*argv, HIDDEN_OPTION]
    values = {"Exec": exec_value(argv), "TryExec": _string(argv[0])}
    if autostart:
        values["StartupNotify"] = "false"
    out, group, done = [], "", set()
    for line in template.splitlines():
        if line.startswith("["):
            group = line.strip()
        key = line.split("=", 1)[0].strip() if "=" in line else ""
        if group == "[Desktop Entry]" and key in values:
            line = f"{key}={values[key]}"
            done.add(key)
        out.append(line)
    if "Exec" not in done:
        raise DesktopError("the shipped desktop entry has no Exec line (resources/ is damaged)")
    return "\n".join(out) + "\n"


# ---- the record -------------------------------------------------------------------------


@dataclass
class Record:
    """What installs wrote and created, merged over installs until an uninstall."""

    files: list[str] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)
    """Folders an install created (the uninstall removes them once empty)."""
    caches: dict[tuple[str, str], bool] = field(default_factory=dict)
    """Each cache refreshed, by tool and folder: whether an install created it."""

    @classmethod
    def read(cls, path: Path) -> Record | None:
        try:
            doc = json.loads(path.read_bytes())
            return cls(
                files=[str(f) for f in doc["files"]],
                folders=[str(f) for f in doc["folders"]],
                caches={
                    (str(c["tool"]), str(c["folder"])): bool(c["created"]) for c in doc["caches"]
                },
            )
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise DesktopError(
                f"{path} cannot be read ({exc}): it records what 'desktop install' wrote; "
                "delete it to uninstall the files where the XDG folders point now"
            ) from exc

    def write(self, path: Path) -> None:
        from roots_manager.core.store.file import write_atomic

        doc = {
            "version": RECORD_VERSION,
            "files": self.files,
            "folders": self.folders,
            "caches": [
                {"tool": tool, "folder": folder, "created": created}
                for (tool, folder), created in self.caches.items()
            ],
        }
        write_atomic(path, json.dumps(doc, indent=2).encode("utf-8") + b"\n")


# ---- install and uninstall ----------------------------------------------------------------


def _add(items: list[str], new: Iterable[str]) -> None:
    items.extend(n for n in new if n not in items)


def _write(path: Path, data: bytes) -> None:
    """Replace *path* with *data* at once: a desktop reading the folder never sees half a file."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "xb") as f:  # the umask's mode: these are read by the desktop
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _make_parents(path: Path) -> list[str]:
    """Create the folders above *path*; those that were not there, outermost first."""
    missing = []
    parent = path.parent
    while not parent.exists():
        missing.append(parent)
        parent = parent.parent
    path.parent.mkdir(parents=True, exist_ok=True)
    return [str(p) for p in reversed(missing)]


def _refresh(cache: Cache) -> CacheRun:
    tool = shutil.which(cache.tool)
    if tool is None:
        return CacheRun(cache.tool, str(cache.folder), "missing", "not installed")
    try:
        done = subprocess.run(
            [tool, *cache.options, str(cache.folder)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return CacheRun(cache.tool, str(cache.folder), "failed", str(exc))
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        detail = said[-1] if said else f"exit code {done.returncode}"
        return CacheRun(cache.tool, str(cache.folder), "failed", detail)
    return CacheRun(cache.tool, str(cache.folder), "refreshed")


def _sources(folders: Folders, argv: list[str], autostart: bool) -> list[tuple[Path, bytes]]:
    template = resources.desktop_entry().read_text(encoding="utf-8")
    files = [(folders.entry, entry_text(template, argv).encode("utf-8"))]
    files += [(folders.icon(size), png.read_bytes()) for size, png in resources.icon_pngs().items()]
    files.append((folders.icon(None), resources.icon_svg().read_bytes()))
    files.append((folders.metainfo, resources.metainfo().read_bytes()))
    if autostart:
        text = entry_text(template, argv, autostart=True)
        files.append((folders.autostart, text.encode("utf-8")))
    return files


def install(record_path: Path, folders: Folders, *, autostart: bool = False) -> Change:
    """Write the desktop entry, the icons and the metainfo (and, if *autostart*, the autostart
    entry) under *folders*, starting this installation (:func:`launcher`), and
    refresh the caches whose tools are installed.

    The record is saved whatever happens, so that what was written before a failure is
    uninstalled too; the error then goes on to the caller.
    """
    argv = launcher()
    change = Change("install", exec=argv, record=str(record_path))
    record = Record.read(record_path) or Record()
    try:
        for path, data in _sources(folders, argv, autostart):
            created = _make_parents(path)
            change.folders_created += created
            _add(record.folders, created)
            _write(path, data)
            change.written.append(str(path))
            _add(record.files, [str(path)])
        for cache in folders.caches():
            existed = cache.path.exists()
            outcome = _refresh(cache)
            change.caches.append(outcome)
            key = (cache.tool, str(cache.folder))
            record.caches[key] = record.caches.get(key, False) or (
                not existed and cache.path.exists()
            )
    finally:
        record.write(record_path)
    return change


def _holds_only(folder: Path, name: str) -> bool:
    """*folder* holds no file but *name* at its top, at any depth."""
    for top, _dirs, names in os.walk(folder):
        if any(n != name or Path(top) != folder for n in names):
            return False
    return True


def uninstall(record_path: Path, folders: Folders) -> Change:
    """Remove what the recorded installs wrote (or, with no record, the files an install
    would write under *folders*), the folders they created once empty, and their caches
    when nothing else is left in them; refresh the others. Twice is the same as once."""
    change = Change("uninstall", record=str(record_path))
    record = Record.read(record_path)
    if record is None:
        files = [str(p) for p in folders.targets()]
        made: list[str] = []
        caches = {(c.tool, str(c.folder)): False for c in folders.caches()}
    else:
        files, made, caches = record.files, record.folders, record.caches
    for name in files:
        try:
            os.unlink(name)
        except FileNotFoundError:
            change.absent.append(name)
            continue
        change.removed.append(name)
    if change.removed:
        for (tool, folder), created in caches.items():
            if tool not in CACHE_TOOLS or not os.path.isdir(folder):
                continue
            cache = Cache.of(tool, Path(folder))
            if created and _holds_only(cache.folder, cache.name):
                with contextlib.suppress(FileNotFoundError):
                    cache.path.unlink()
                change.caches.append(CacheRun(tool, folder, "removed"))
            else:
                change.caches.append(_refresh(cache))
    for folder in sorted(made, key=lambda f: f.count(os.sep), reverse=True):
        with contextlib.suppress(FileNotFoundError, OSError):
            os.rmdir(folder)  # only if empty: what another program put there stays
            change.folders_removed.append(folder)
    with contextlib.suppress(FileNotFoundError):
        record_path.unlink()
    return change
