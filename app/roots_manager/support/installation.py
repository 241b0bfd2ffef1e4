"""This installation's own executables: where ``roots-bridge`` and ``roots-manager`` are.

Whatever another program is told to start (a host's wrapped entry, the desktop's launcher)
must start *this* installation, not whichever ``roots-manager`` comes first on someone's
``PATH``: a host's ``PATH`` may not hold ours, and the desktop's may lead to another install.
So the path is absolute, and found from the running interpreter.
"""

from __future__ import annotations

import contextlib
import os
import sys
import sysconfig
from pathlib import Path


def own_executable(
    name: str, executable: str | None = None, frozen: bool | None = None
) -> str | None:
    """The absolute path of the executable *name* that belongs with this installation, or None.

    In a bundle it is the executable beside this one (*executable*, the running one by
    default); otherwise the script pip (or pipx) installed with this package: beside this
    Python (a venv), or in this Python's scripts folder (a system or ``--user`` install).
    ``PATH`` is not searched. This Python's path is taken as it is, links and all: a venv's
    ``python`` is a link out of the venv, and following it would leave the venv behind.
    """
    executable = executable or sys.executable
    frozen = getattr(sys, "frozen", False) if frozen is None else frozen
    name = f"{name}.exe" if os.name == "nt" else name
    folders = [Path(executable).parent]
    if not frozen:
        folders.append(Path(executable).parent / "Scripts")  # Windows venvs and installs
        for scheme in (None, f"{os.name}_user"):
            with contextlib.suppress(KeyError):
                scripts = (
                    sysconfig.get_path("scripts", scheme)
                    if scheme
                    else sysconfig.get_path("scripts")
                )
                folders.append(Path(scripts))
    for folder in folders:
        candidate = folder / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate.absolute())
    return None
