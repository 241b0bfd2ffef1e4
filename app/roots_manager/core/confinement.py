"""What a confined server may touch: its roots, and what it needs to run.

Pure path computation over the file system as it is now, testable on any OS: the platform
code (:mod:`roots_manager.sandbox`) only turns the :class:`~roots_manager.core.rules.Rules` made
here into the kernel's rules.

Everything a server needs to *run* is read-and-execute only: the system directories, ``/etc``
without the files that hold secrets, the interpreter and its prefix (a venv, a Node.js install),
the command's own package and the files named on its command line, ``/proc`` and a few devices.
Writable besides the roots: a private temporary directory and the package manager caches the
command needs (``~/.npm`` for ``npx``, the uv cache for ``uvx``). The rest of the home folder
(``~/.ssh``, ``~/.aws``, ``~/Documents``) is not in the rules, so it cannot be read.
"""

from __future__ import annotations

import fnmatch
import glob
import os
import re
import shutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from roots_manager.core.rules import Rules

SYSTEM_DIRS = ("/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/opt")
PROC_AND_SYS = ("/proc", "/sys/fs/cgroup", "/sys/devices/system/cpu")
"""Read by runtimes to size themselves (CPU count, memory limit). Other processes' /proc entries
stay closed: Landlock refuses ptrace-mode access to processes outside the domain."""
DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/dev/tty")
ETC = "/etc"
ETC_SECRETS = (
    "shadow*",
    "gshadow*",
    "sudoers",
    "sudoers.d",
    "ssh/ssh_host_*key",
    "ssl/private",
    "credstore*",
    "wireguard",
    "NetworkManager/system-connections",
    "security/opasswd",
    "ipsec.secrets",
    "ipsec.d/private",
    "libvirt/secrets",
    "openvpn",
)
"""Paths under /etc (shell patterns, per path component) that hold secrets; never readable."""
INTERPRETER_DEPTH = 3
"""Shebang hops followed (a script run by ``env node``, and node itself)."""

Listing = Callable[[str], Iterable[str]]


@dataclass
class Needs:
    """What a command needs besides its roots, found by :func:`command_needs`."""

    runtime: list[str] = field(default_factory=list)
    writable: list[str] = field(default_factory=list)

    def add(self, path: str, *, writable: bool = False) -> None:
        target = self.writable if writable else self.runtime
        if path not in target:
            target.append(path)


def open_beneath(top: str, secrets: Sequence[str], listdir: Listing = os.listdir) -> list[str]:
    """The paths under *top* to open so that all of it is readable except *secrets*.

    Landlock can only allow, never carve out, so a folder holding a secret is opened entry by
    entry, down to the secret itself. *secrets* are relative shell patterns, one per component.
    """
    patterns = [tuple(s.split("/")) for s in secrets]
    if not patterns:
        return [top]
    out: list[str] = []
    try:
        names = sorted(listdir(top))
    except OSError:
        return out
    # one match per name: most names (all but a few of /etc's) match no secret at all
    any_first = re.compile("|".join(fnmatch.translate(p[0]) for p in patterns))
    prefix = top if top.endswith(os.sep) else top + os.sep
    for name in names:
        if any_first.match(name) is None:
            out.append(prefix + name)
            continue
        matching = [p for p in patterns if fnmatch.fnmatchcase(name, p[0])]
        if any(len(p) == 1 for p in matching):
            continue
        path = os.path.join(top, name)
        deeper = ["/".join(p[1:]) for p in matching]
        if deeper and os.path.isdir(path) and not os.path.islink(path):
            out += open_beneath(path, deeper, listdir)
        else:
            out.append(path)
    return out


def listed_beneath(top: str, secrets: Sequence[str]) -> list[str]:
    """The folders :func:`open_beneath` descends into: their names may be listed."""
    out = [top]
    for secret in secrets:
        parts = secret.split("/")[:-1]
        for n in range(1, len(parts) + 1):
            path = os.path.join(top, *parts[:n])
            if os.path.isdir(path) and path not in out:
                out.append(path)
    return out


def _prefix(executable: str, home: str) -> str:
    """The install an executable belongs to: ``/opt/node`` for ``/opt/node/bin/node``.

    Never the file system's root (``/bin/sh``), the home folder (``~/bin/tool``) or
    ``~/.local`` (which holds keyrings and app data): there, only the ``bin`` folder itself.
    """
    folder = os.path.dirname(executable)
    if os.path.basename(folder) != "bin":
        return folder
    prefix = os.path.dirname(folder)
    too_broad = prefix == os.path.dirname(prefix) or prefix == os.path.join(home, ".local")
    if too_broad or home == prefix or home.startswith(prefix.rstrip(os.sep) + os.sep):
        return folder
    return prefix


def _package_dir(path: str) -> str:
    """The folder a script's code lives in: its outermost node_modules or site-packages, if any.

    A script inside an npm package imports its sibling packages; one inside site-packages
    imports the others there; anything else, only its own folder.
    """
    parts = path.split(os.sep)
    for marker in ("node_modules", "site-packages"):
        if marker in parts[:-1]:
            return os.sep.join(parts[: parts.index(marker) + 1])
    return os.path.dirname(path)


def _shebang(path: str) -> list[str]:
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except OSError:
        return []
    if not head.startswith(b"#!"):
        return []
    return head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()


def _venv_paths(prefix: str) -> list[str]:
    """The folders a venv's ``.pth`` files add to its path (editable installs)."""
    if not os.path.isfile(os.path.join(prefix, "pyvenv.cfg")):
        return []
    out = []
    for pth in glob.glob(
        os.path.join(glob.escape(prefix), "lib", "python*", "site-packages", "*.pth")
    ):
        try:
            with open(pth, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        out += [line for line in lines if os.path.isabs(line) and os.path.isdir(line)]
    return out


def _executable(name: str, env: Mapping[str, str], needs: Needs, depth: int = 0) -> None:
    """Add *name*, its install and its shebang's interpreter (and theirs) to *needs*."""
    found = shutil.which(name, path=env.get("PATH")) if os.sep not in name else name
    if found is None or depth > INTERPRETER_DEPTH:
        return
    for path in dict.fromkeys((os.path.abspath(found), os.path.realpath(found))):
        needs.add(path)
        prefix = _prefix(path, os.path.realpath(_home(env)))
        needs.add(prefix)
        for extra in _venv_paths(prefix):
            needs.add(extra)
    words = _shebang(os.path.realpath(found))
    if not words:
        return
    if os.path.basename(words[0]) == "env":
        words = [w for w in words[1:] if not w.startswith("-")] or words
    _executable(words[0], env, needs, depth + 1)


def _home(env: Mapping[str, str]) -> str:
    return env.get("HOME") or os.path.expanduser("~")


def _caches(command: Sequence[str], env: Mapping[str, str], needs: Needs) -> None:
    """The package manager caches *command* runs from: writable, since it fills them."""
    words = [os.path.basename(w) for w in command[:3]]
    home = _home(env)
    if "npx" in words or ("npm" in words and ("exec" in command or "x" in command)):
        needs.add(env.get("npm_config_cache") or os.path.join(home, ".npm"), writable=True)
    if "uvx" in words or ("uv" in words and ("run" in command or "tool" in command)):
        cache = env.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")
        data = env.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
        needs.add(env.get("UV_CACHE_DIR") or os.path.join(cache, "uv"), writable=True)
        needs.add(env.get("UV_PYTHON_INSTALL_DIR") or os.path.join(data, "uv"), writable=True)


def command_needs(command: Sequence[str], env: Mapping[str, str], cwd: str) -> Needs:
    """What *command* needs to run: its executable, interpreters, package, files, caches.

    Of the files named on the command line, each is readable; the first (the script an
    interpreter runs) opens its package too. Folders named on it are not: a server is told its
    folders there (the filesystem server given ``/``), and those are what confinement withholds.
    """
    needs = Needs()
    _executable(command[0], env, needs)
    first = True
    for arg in command[1:]:
        path = os.path.normpath(os.path.join(cwd, arg)) if arg and not arg.startswith("-") else ""
        if not path or not os.path.isfile(path):
            continue
        needs.add(path)
        if first:
            package = _package_dir(os.path.realpath(path))
            needs.add(package)
            first = False
    _caches(command, env, needs)
    return needs


def runtime_rules(command: Sequence[str], env: Mapping[str, str], cwd: str) -> Rules:
    """The rules every confined server gets for *command*, before its roots are added."""
    needs = command_needs(command, env, cwd)
    runtime = [d for d in SYSTEM_DIRS if os.path.isdir(d)]
    runtime += open_beneath(ETC, ETC_SECRETS)
    runtime += [p for p in PROC_AND_SYS if os.path.exists(p)]
    runtime += [p for p in needs.runtime if p not in runtime]
    return Rules(
        read_write=tuple(needs.writable),
        runtime=tuple(runtime),
        listing=tuple(listed_beneath(ETC, ETC_SECRETS)),
        devices=tuple(d for d in DEVICES if os.path.exists(d)),
    )
