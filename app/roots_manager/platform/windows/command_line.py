"""A server's command line as Windows must be given it: found through ``PATHEXT``, batch files
run through ``cmd.exe`` with every argument quoted for it.

``subprocess.Popen`` with a list calls ``CreateProcess``, which tries ``.exe`` only: ``npx`` is
``npx.cmd``, so every configuration that names ``npx`` fails (exit 127). And a batch file is run
by ``cmd.exe``, which parses the line again with rules of its own (``&``, ``|``, ``%``, ``^``...):
an argument passed as ``CreateProcess`` expects it could run a second command. The rules here
are those of Node.js's ``cross-spawn``, which every ``npx`` on Windows goes through.

Pure functions over a ``PATH``, a ``PATHEXT`` and a file test, so that they run (and are tested)
on any platform.
"""

from __future__ import annotations

import ntpath
import os
import re
from collections.abc import Callable, Sequence

DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD"
_META = re.compile(r'([()\][%!^"`<>&|;, *?])')
_CMD_SHIM = re.compile(r"node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$", re.IGNORECASE)


def find(
    name: str,
    path: str,
    pathext: str = DEFAULT_PATHEXT,
    isfile: Callable[[str], bool] = os.path.isfile,
) -> str | None:
    """The file *name* runs, as ``cmd.exe`` would find it; None if there is none.

    A name with a folder is looked for there only; otherwise in each folder of *path*. A name
    without an extension gets each of *pathext*'s; one with an extension is tried as it is first.
    """
    exts = [e for e in pathext.split(";") if e] or DEFAULT_PATHEXT.split(";")
    has_ext = ntpath.splitext(name)[1] != ""
    spellings = ([name] if has_ext else []) + [name + e.lower() for e in exts]
    if ntpath.dirname(name):
        folders = [""]
    else:
        folders = [f.strip('"') for f in path.split(";") if f.strip('"')]
    for folder in folders:
        for spelling in spellings:
            candidate = ntpath.join(folder, spelling) if folder else spelling
            if isfile(candidate):
                return candidate
    return None


def escape_command(command: str) -> str:
    """A program's path for ``cmd.exe``: its special characters escaped with ``^``."""
    return _META.sub(r"^\1", command)


def escape_argument(arg: str, *, double: bool = False) -> str:
    """One argument for a batch file run by ``cmd.exe``.

    Quoted as the C runtime reads a command line (backslashes before a quote doubled), then
    every character ``cmd.exe`` treats specially escaped with ``^``; twice when the batch file
    passes its arguments on to another (*double*: npm's ``node_modules\\.bin`` shims).
    """
    arg = re.sub(r'(\\*)"', r'\1\1\\"', arg)
    arg = re.sub(r"(\\*)$", r"\1\1", arg)
    arg = _META.sub(r"^\1", f'"{arg}"')
    return _META.sub(r"^\1", arg) if double else arg


def command_line(
    command: Sequence[str],
    path: str,
    pathext: str = DEFAULT_PATHEXT,
    comspec: str = "cmd.exe",
    isfile: Callable[[str], bool] = os.path.isfile,
) -> str | list[str]:
    """What to give ``Popen`` for *command* on Windows: an argument list for a program, or a
    ``cmd.exe`` command line (a string ``Popen`` passes on as it is) for a batch file."""
    found = find(command[0], path, pathext, isfile)
    if found is None:
        return list(command)  # CreateProcess says it is not there: the bridge's exit 127
    if not found.lower().endswith((".cmd", ".bat")):
        return [found, *command[1:]]
    double = _CMD_SHIM.search(found) is not None
    shell = " ".join(
        [escape_command(found), *(escape_argument(a, double=double) for a in command[1:])]
    )
    program = f'"{comspec}"' if " " in comspec else comspec
    return f'{program} /d /s /c "{shell}"'
