"""Where Roots Manager keeps its state: one private per-user directory."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

HOME_ENV = "ROOTS_MANAGER_HOME"
LOGS_ENV = "ROOTS_MANAGER_LOGS"
"""Where the bridges' event logs go, when not in the per-user directory's ``logs`` folder."""


def default_home() -> Path:
    """The per-user directory: ``$ROOTS_MANAGER_HOME`` if set, else the platform's data dir."""
    override = os.environ.get(HOME_ENV)
    if override:
        return Path(override).expanduser().absolute()
    return platform_home()


def platform_home() -> Path:
    """The per-user directory the platform gives, whatever ``$ROOTS_MANAGER_HOME`` says."""
    import platformdirs  # here: it imports tempfile, 3 ms of a bridge's start when it is set

    return Path(platformdirs.user_data_dir("roots-manager", appauthor=False))


class SharedDirectoryError(PermissionError):
    """The per-user directory points at a folder that is not Roots Manager's own."""


def _not_ours(path: Path, st: os.stat_result) -> str | None:
    # Making a folder private means chmod 0700; done to /tmp or to the home folder (a mistyped
    # ROOTS_MANAGER_HOME) that would break other users or programs, so such folders are refused.
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return "it belongs to another user"
    if st.st_mode & (stat.S_ISVTX | stat.S_IWOTH):
        return "it is a shared folder (writable by everyone)"
    return home_or_root(path)


def home_or_root(path: Path) -> str | None:
    """Why *path* must never be made private to Roots Manager: it is the home folder or the
    root of a file system (a drive on Windows); None for any other folder."""
    real = os.path.realpath(path)
    if real == os.path.realpath(os.path.expanduser("~")) or os.path.dirname(real) == real:
        return "it is your home folder or the root of the file system"
    return None


def _refused(path: Path, reason: str) -> SharedDirectoryError:
    return SharedDirectoryError(
        f"{path} cannot hold Roots Manager's private state: {reason}. Point "
        f"{HOME_ENV} at a folder of its own (it is created if missing)"
    )


def ensure_private_dir(path: Path) -> Path:
    """Create *path* (and parents) if needed and make it private to the user.

    On POSIX that is mode 0700; on Windows a protected access list for the user and SYSTEM
    (:mod:`roots_manager.platform.windows.folder_acl`), which what is created inside inherits; a failure to set it
    is said once and the folder is used all the same.

    Raises :class:`SharedDirectoryError` for a folder that must not be made private: another
    user's, a shared one such as ``/tmp``, the home folder, or the root of the file system.
    """
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    except PermissionError as exc:  # the folder that could not be made, as a write refused
        from roots_manager.core.writeerror import named

        raise named(exc, exc.filename or path) from exc
    if sys.platform == "win32":
        # imported here: nothing of it is needed, nor loaded, on other systems
        from roots_manager.platform.windows import folder_acl as acl

        def windows() -> acl.AclSystem:
            from roots_manager.platform.windows import acl_calls as winacl

            return winacl

        outcome = acl.make_private(path, windows, shared=home_or_root(path))
        if outcome.step is acl.AclStep.REFUSED:
            raise _refused(path, outcome.reason or "")
        acl.say_failure_once(path, outcome)
        return path
    st = path.stat()
    mode = stat.S_IMODE(st.st_mode)
    if mode != 0o700:
        reason = _not_ours(path, st)
        if reason:
            raise _refused(path, reason)
        path.chmod(0o700)
    return path


class Layout:
    """The files and folders inside the per-user directory; not changed once made.

    A plain class, not a dataclass: the bridge reads its layout before it starts the server,
    and ``dataclasses`` (which imports ``inspect``) would add 5 ms to every server's start.
    """

    __slots__ = ("home", "log_dir")
    home: Path
    log_dir: Path | None
    """The event logs' folder when it is not ``logs`` in *home* (``$ROOTS_MANAGER_LOGS``)."""

    def __init__(self, home: Path, log_dir: Path | None = None) -> None:
        object.__setattr__(self, "home", home)
        object.__setattr__(self, "log_dir", log_dir)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Layout is not changed (set {name!r}): make another")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return (self.home, self.log_dir) == (other.home, other.log_dir)

    def __hash__(self) -> int:
        return hash((self.home, self.log_dir))

    def __repr__(self) -> str:
        return f"Layout(home={self.home!r}, log_dir={self.log_dir!r})"

    @classmethod
    def default(cls) -> Layout:
        logs = os.environ.get(LOGS_ENV)
        return cls(default_home(), Path(logs).expanduser().absolute() if logs else None)

    @property
    def logs_elsewhere(self) -> bool:
        """The event logs are kept outside *home*: its store's limits are not theirs."""
        return self.log_dir is not None

    @property
    def store(self) -> Path:
        return self.home / "store.json"

    @property
    def store_backup(self) -> Path:
        return self.home / "store.json.bak"

    @property
    def store_lock(self) -> Path:
        return self.home / "store.json.lock"

    @property
    def logs(self) -> Path:
        return self.log_dir if self.log_dir is not None else self.home / "logs"

    @property
    def live(self) -> Path:
        """Markers of running bridges and of the running desktop app."""
        return self.home / "live"

    @property
    def probes(self) -> Path:
        """The boundary probe's saved tables, a folder per server."""
        return self.home / "probes"

    def ensure(self) -> Layout:
        """Create the private directory tree."""
        for d in (self.home, self.logs, self.live):
            ensure_private_dir(d)
        return self
