"""Where Roots Manager keeps its state: one private per-user directory.

The directory is found as a string first (:func:`home_folder`), and made a :class:`~pathlib.Path`
only by those who want one: a bridge reads the store and names its live marker before it starts
its server, and pathlib, with the ``urllib.parse`` and ``ipaddress`` it imports, is 2 to 3 ms of
that wait. So pathlib is imported where a path is made, not with this module.
"""

from __future__ import annotations

import os
import stat
import sys

from roots_manager.support.paths import inside

TYPE_CHECKING = False  # not typing's: the bridge imports this module before its server starts
if TYPE_CHECKING:
    from pathlib import Path

HOME_ENV = "ROOTS_MANAGER_HOME"
LOGS_ENV = "ROOTS_MANAGER_LOGS"
"""Where the bridges' event logs go, when not in the per-user directory's ``logs`` folder."""
STORE_NAME = "store.json"
"""The store's file name in the per-user directory (:attr:`Layout.store`)."""
LIVE_NAME = "live"
"""The folder of the live markers in the per-user directory (:attr:`Layout.live`)."""


def _given(value: str) -> str:
    """A folder named in the environment, with ``~`` expanded and made absolute, as pathlib's
    ``Path(value).expanduser().absolute()`` makes it: nothing normalised, and a ``~`` that
    cannot be expanded an error rather than a folder of that name in the working directory."""
    if value.startswith("~"):
        expanded = os.path.expanduser(value)
        if expanded.startswith("~"):
            raise RuntimeError("Could not determine home directory.")
        value = expanded
    drive = os.path.splitdrive(value)[0]
    if os.path.isabs(value) and (drive or sys.platform != "win32"):
        return value
    return os.path.join(os.getcwd(), value)  # Windows' \folder: on the working drive


def home_shortened(path: str, home: str) -> str:
    """*path* with the home folder *home* it lies in written ``~`` (``~/proj``), for showing."""
    return "~" + path[len(home) :] if inside(path, home) else path


def home_folder() -> str:
    """The per-user directory (:func:`default_home`) as a string, for the bridge's start."""
    override = os.environ.get(HOME_ENV)
    if override:
        return _given(override)
    return _platform_home()


def default_home() -> Path:
    """The per-user directory: ``$ROOTS_MANAGER_HOME`` if set, else the platform's data dir."""
    from pathlib import Path

    return Path(home_folder())


APP_FOLDER = "roots-manager"
"""The name of Roots Manager's folder inside each of the platform's per-user folders."""


def _xdg_base(variable: str, default: str) -> str:
    """:func:`xdg_base` as a string."""
    base = os.environ.get(variable, "")
    return base if os.path.isabs(base) else os.path.expanduser(f"~/{default}")


def xdg_base(variable: str, default: str) -> Path:
    """The XDG base directory *variable* (``XDG_STATE_HOME``), or *default* under the home
    folder (``.local/state``) when it is unset, empty or relative: the XDG Base Directory
    Specification says a relative one is to be ignored (it would name another folder in each
    working directory, and a bridge does not start in the app's)."""
    from pathlib import Path

    return Path(_xdg_base(variable, default))


def xdg_folder(variable: str, default: str) -> Path:
    """Roots Manager's folder in the XDG base directory *variable* (:func:`xdg_base`)."""
    return xdg_base(variable, default) / APP_FOLDER


def _platform_home() -> str:
    """:func:`platform_home` as a string."""
    if sys.platform == "linux":
        return os.path.join(_xdg_base("XDG_DATA_HOME", ".local/share"), APP_FOLDER)
    import platformdirs  # here: it imports tempfile, 3 ms of a bridge's start

    return platformdirs.user_data_dir(APP_FOLDER, appauthor=False)


def platform_home() -> Path:
    """The per-user directory the platform gives, whatever ``$ROOTS_MANAGER_HOME`` says."""
    from pathlib import Path

    return Path(_platform_home())


def xdg_split(home: Path) -> tuple[Path, Path] | None:
    """Where the logs and the app's settings go apart from *home*: on Linux, when *home* is
    the platform's own (``$XDG_DATA_HOME/roots-manager``), the folders ``XDG_STATE_HOME``
    and ``XDG_CONFIG_HOME`` name; None elsewhere, and for a home of one's own
    (``$ROOTS_MANAGER_HOME`` elsewhere), which keeps everything inside it.

    The bridge and the app each decide this from the same variables, so they agree on where
    the logs are; a host starts the bridge with ``$ROOTS_MANAGER_HOME`` only for a home that
    is not the platform's (:func:`roots_manager.core.hosts.wrap.home_for_hosts`).
    """
    if sys.platform != "linux":
        return None
    if os.environ.get(HOME_ENV) and os.path.realpath(home) != os.path.realpath(_platform_home()):
        return None
    return xdg_folder("XDG_STATE_HOME", ".local/state"), xdg_folder("XDG_CONFIG_HOME", ".config")


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
    from roots_manager.core.roots.broadness import Broad, broadness  # only where a folder is made

    if broadness(str(path)) in (Broad.HOME, Broad.FS_ROOT):
        return "it is your home folder or the root of the file system"
    return None


def _refused(path: Path, reason: str) -> SharedDirectoryError:
    return SharedDirectoryError(
        f"{path} cannot hold Roots Manager's private state: {reason}. Point "
        f"{HOME_ENV} at a folder of its own (it is created if missing)"
    )


def ensure_private_dir(path: Path) -> Path:
    """Create *path* (and parents) if needed and make it private to the user.

    On POSIX that is no access for the group and others (0700 when made); the owner's own
    permissions are left as the user set them, so a folder made read-only stays so. On Windows
    a protected access list for the user and SYSTEM
    (:mod:`roots_manager.platform.windows.folder_acl`), which what is created inside inherits;
    a failure to set it is said once and the folder is used all the same.

    Raises :class:`SharedDirectoryError` for a folder that must not be made private: another
    user's, a shared one such as ``/tmp``, the home folder, or the root of the file system.
    """
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    except PermissionError as exc:  # the folder that could not be made, as a write refused
        from roots_manager.support.writeerror import named

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
    private = mode & 0o700
    if mode != private:
        reason = _not_ours(path, st)
        if reason:
            raise _refused(path, reason)
        # only what others may do is taken away: the owner's own bits are the user's choice
        # (after a `chmod a-w` nothing is written here, and a write refused says so)
        path.chmod(private)
    return path


class Layout:
    """The files and folders of the per-user directory, and of the folders beside it that
    hold its logs and the app's settings; not changed once made.

    A plain class, not a dataclass: the bridge reads its layout before it starts the server,
    and ``dataclasses`` (which imports ``inspect``) would add 5 ms to every server's start.
    """

    __slots__ = ("config_dir", "home", "log_dir", "state_dir")
    home: Path
    log_dir: Path | None
    """The event logs' folder when it is not this directory's own (``$ROOTS_MANAGER_LOGS``)."""
    state_dir: Path | None
    """Where this directory keeps its logs, when not in *home* (``XDG_STATE_HOME``)."""
    config_dir: Path | None
    """Where the app keeps its settings, when not in *home* (``XDG_CONFIG_HOME``)."""

    def __init__(
        self,
        home: Path,
        log_dir: Path | None = None,
        *,
        state_dir: Path | None = None,
        config_dir: Path | None = None,
    ) -> None:
        object.__setattr__(self, "home", home)
        object.__setattr__(self, "log_dir", log_dir)
        object.__setattr__(self, "state_dir", state_dir)
        object.__setattr__(self, "config_dir", config_dir)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Layout is not changed (set {name!r}): make another")

    def _key(self) -> tuple[Path | None, ...]:
        return (self.home, self.log_dir, self.state_dir, self.config_dir)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"Layout(home={self.home!r}, log_dir={self.log_dir!r}, "
            f"state_dir={self.state_dir!r}, config_dir={self.config_dir!r})"
        )

    @classmethod
    def default(cls) -> Layout:
        from pathlib import Path

        logs = os.environ.get(LOGS_ENV)
        home = default_home()
        split = xdg_split(home)
        return cls(
            home,
            Path(_given(logs)) if logs else None,
            state_dir=split[0] if split else None,
            config_dir=split[1] if split else None,
        )

    @property
    def logs_elsewhere(self) -> bool:
        """The event logs are kept outside *home*: its store's limits are not theirs."""
        return self.log_dir is not None

    @property
    def store(self) -> Path:
        return self.home / STORE_NAME

    @property
    def store_backup(self) -> Path:
        return self.home / "store.json.bak"

    @property
    def store_lock(self) -> Path:
        return self.home / "store.json.lock"

    @property
    def logs(self) -> Path:
        if self.log_dir is not None:
            return self.log_dir
        return (self.state_dir or self.home) / "logs"

    @property
    def app_log(self) -> Path:
        """The desktop app's own log (rotated beside it as ``app.log.1``, ``app.log.2``)."""
        return (self.state_dir or self.home) / "app.log"

    @property
    def restart_log(self) -> Path:
        """What the app wrote as it started again, before its log was open."""
        return (self.state_dir or self.home) / "restart.log"

    @property
    def settings(self) -> Path:
        """The desktop app's settings (window geometry, recent folders)."""
        return (self.config_dir or self.home) / "gui.ini"

    @property
    def live(self) -> Path:
        """Markers of running bridges and of the running desktop app."""
        return self.home / LIVE_NAME

    @property
    def probes(self) -> Path:
        """The boundary probe's saved tables, a folder per server."""
        return self.home / "probes"

    def ensure(self) -> Layout:
        """Create the private directory tree, after moving what an earlier version kept in
        *home* to the folders beside it, once (:mod:`roots_manager.support.relocation`).

        The settings' folder is made by the app, which alone uses it.
        """
        ensure_private_dir(self.home)
        if self.state_dir is not None:
            ensure_private_dir(self.state_dir)
        home = str(self.home)  # strings, not paths: this runs at every bridge's start
        if any(os.path.lexists(os.path.join(home, n)) for n in self._moved_names()):
            if self.config_dir is not None:
                ensure_private_dir(self.config_dir)
            from roots_manager.support.relocation import move_all

            move_all(self.relocations())
        for d in (self.logs, self.live):
            ensure_private_dir(d)
        return self

    def _moved_names(self) -> tuple[str, ...]:
        names: tuple[str, ...] = ()
        if self.state_dir is not None:
            names = ("logs",) if self.log_dir is None else ()
            names += ("app.log", "app.log.1", "app.log.2", "restart.log")
        return (*names, "gui.ini") if self.config_dir is not None else names

    def relocations(self) -> list[tuple[Path, Path]]:
        """Where each file an earlier version kept in *home* goes now (none if it stays)."""
        moves = []
        for name in self._moved_names():
            target = self.settings if name == "gui.ini" else (self.state_dir or self.home) / name
            moves.append((self.home / name, target))
        return moves
