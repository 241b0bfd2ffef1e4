"""Where Roots Manager keeps its state: one private per-user directory."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

import platformdirs

HOME_ENV = "ROOTS_MANAGER_HOME"


def default_home() -> Path:
    """The per-user directory: ``$ROOTS_MANAGER_HOME`` if set, else the platform's data dir."""
    override = os.environ.get(HOME_ENV)
    if override:
        return Path(override).expanduser().absolute()
    return Path(platformdirs.user_data_dir("roots-manager", appauthor=False))


def ensure_private_dir(path: Path) -> Path:
    """Create *path* (and parents) if needed and make it private to the user (0700)."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode != 0o700 and os.name != "nt":
        path.chmod(0o700)
    return path


@dataclass(frozen=True)
class Layout:
    """The files and folders inside the per-user directory."""

    home: Path

    @classmethod
    def default(cls) -> Layout:
        return cls(default_home())

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
        return self.home / "logs"

    @property
    def live(self) -> Path:
        """Markers of running bridges and of the running desktop app."""
        return self.home / "live"

    def ensure(self) -> Layout:
        """Create the private directory tree."""
        for d in (self.home, self.logs, self.live):
            ensure_private_dir(d)
        return self
