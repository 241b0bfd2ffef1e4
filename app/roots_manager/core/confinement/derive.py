"""What a confined server may touch: its roots, and what it needs to run.

Pure path computation over the file system as it is now, testable on any OS: the platform
code (:mod:`roots_manager.sandbox`) only turns the :class:`~roots_manager.core.confinement.rules.Rules` made
here into the kernel's rules.

Everything a server needs to *run* is read-and-execute only: the system directories, ``/etc``
without the files that hold secrets, the interpreter and its prefix (a venv, a Node.js install),
the command's own package and the files named on its command line, ``/proc`` and a few devices.
Writable besides the roots: a private temporary directory and the package manager caches the
command needs (``~/.npm`` for ``npx``, the uv cache for ``uvx``), each through a layer of the
server's own, so that what it writes there never runs anywhere else. The rest of the home folder
(``~/.ssh``, ``~/.aws``, ``~/Documents``) is not in the rules, so it cannot be read.
"""

from __future__ import annotations

import fnmatch
import functools
import glob
import os
import re
import shutil
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from roots_manager.core.confinement.protected import (
    ARXIV_PAPERS,
    CHROME_DEVTOOLS_CACHE,
    CHROME_DEVTOOLS_DATA,
    DESKTOP_COMMANDER_STATE,
    HIDDEN,
    HOME,
    SERENA_STATE,
    TABLE,
    shared_caches,
)
from roots_manager.core.confinement.rules import COMPANIONS, Rules
from roots_manager.support.paths import inside

SYSTEM_DIRS = ("/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/opt")
PROC_AND_SYS = (
    "/proc",
    "/sys/fs/cgroup",
    "/sys/devices/system/cpu",
    "/sys/devices/system/node",
    "/sys/kernel/mm/transparent_hugepage",
)
"""Read by runtimes to size themselves (CPU count, memory limit, NUMA nodes, huge pages: uv,
esbuild and ``ps`` read the last two at every start, and went on without them). What of other processes needs
ptrace access (their memory, descriptors, environment, ``root`` and ``cwd``) stays closed: Landlock
refuses it for processes outside the domain; what any process may read of another (its command
line, its status) stays readable."""
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
    """Folders and programs read and executed."""
    files: list[str] = field(default_factory=list)
    """Files named on the command line: each read, on its own, never written."""
    writable: list[str] = field(default_factory=list)
    databases: list[str] = field(default_factory=list)
    """Database files named on the command line (:func:`_databases`): each read and written on
    its own, with its SQLite companions beside it, made by the supervisor."""
    refused: list[tuple[str, str]] = field(default_factory=list)
    """Paths the command seemed to need and is not given, each with why."""

    def add(self, path: str, *, writable: bool = False, file: bool = False) -> None:
        target = self.writable if writable else self.files if file else self.runtime
        if path not in target:
            target.append(path)

    def refuse(self, path: str, why: str) -> None:
        if all(p != path for p, _ in self.refused):
            self.refused.append((path, why))


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
    any_first = _first_names(tuple(secrets))
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


@functools.lru_cache(maxsize=8)
def _first_names(secrets: tuple[str, ...]) -> re.Pattern[str]:
    """One expression matching the names that the first component of one of *secrets* (relative
    shell patterns) matches: one match per name, and most names (all but a few of /etc's)
    match none."""
    return re.compile("|".join(fnmatch.translate(s.split("/")[0]) for s in secrets))


def _etc_secret(path: str) -> str | None:
    """Why *path* (reached through a link in /etc) is a secret of /etc's, or None."""
    if path == ETC or not inside(path, ETC):
        return None
    parts = path[len(ETC) + 1 :].split(os.sep)
    if _first_names(ETC_SECRETS).match(parts[0]) is None:
        return None
    for secret in ETC_SECRETS:
        pattern = secret.split("/")
        if len(parts) >= len(pattern) and all(
            fnmatch.fnmatchcase(n, p) for n, p in zip(parts, pattern, strict=False)
        ):
            return "it holds secrets"
    return None


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


def _written(path: str) -> str:
    """Where a folder the server will write really is, its last name not followed.

    The rules grant each folder as it is identified, without following links: a grant that is a
    link is refused, and so nothing is writable through the link. Following it here would take
    what it points to for writable (a folder swapped for a link to ``/`` made every runtime file
    look writable, and the server could not start); a grant that is a folder again when it is
    identified is this very path.
    """
    head, tail = os.path.split(os.path.abspath(path))
    return os.path.join(os.path.realpath(head), tail) if tail else os.path.realpath(path)


class _Scope:
    """What derivation must respect: the home folder, and the folders the server may write.

    Nothing a server can write may widen its own rules, so a file inside a writable folder is
    never read to find more paths (its shebang, a venv's ``.pth`` files); and no derived rule
    may cover the file system's root, the home folder or a folder that holds it.
    """

    def __init__(self, env: Mapping[str, str], writable: Iterable[str]) -> None:
        self.home = os.path.realpath(_home(env))
        self.writable = [_written(p) for p in writable]

    def too_broad(self, path: str) -> str | None:
        """Why *path* (a real path) may not be opened by a derived rule, or None."""
        if os.path.dirname(path) == path:
            return "it is the file system's root"
        if path == self.home:
            return "it is the home folder"
        if inside(self.home, path):
            return "it holds the home folder"
        return None

    def secret(self, path: str) -> str | None:
        """Why *path* (a real path) may not be read, being or holding a secret of the home
        (:data:`~roots_manager.core.confinement.protected.TABLE`'s hidden places), or None."""
        for place in TABLE:
            if place.where == HOME and place.access == HIDDEN:
                hidden = os.path.join(self.home, place.path)
                if path == hidden or inside(path, hidden) or inside(hidden, path):
                    return "it is or holds a secret"
        return None

    def writable_by_server(self, path: str) -> bool:
        """Whether *path* (a real path) lies in a folder the server may write."""
        return any(inside(path, w) for w in self.writable)

    def allow(self, needs: Needs, path: str, *, file: bool = False) -> bool:
        """Add real path *path* to *needs* unless it is too broad (then say why)."""
        why = self.too_broad(path)
        if why is not None:
            needs.refuse(path, why)
            return False
        needs.add(path, file=file)
        return True


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
    if too_broad or inside(home, prefix):
        return folder
    return prefix


def _package_dir(path: str) -> str:
    """The folder a script's code lives in: its outermost node_modules or site-packages, if any;
    otherwise its own folder.

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


_ENV_TAKES_VALUE = frozenset(("-u", "--unset", "-C", "--chdir", "-S", "--split-string", "-P"))


def env_program(words: Sequence[str]) -> str | None:
    """The program ``env`` runs given *words* (its arguments, as a shebang splits them).

    Options (``-i``, ``-u NAME``, ``-C DIR``, ``-S STRING`` split into more words) and
    ``NAME=VALUE`` assignments are skipped, never taken for paths. None when no program is left.
    """
    rest = list(words)
    while rest:
        word = rest.pop(0)
        if word == "--":
            return rest[0] if rest else None
        if word in ("-S", "--split-string"):
            continue  # the rest of the line is already split into words
        if word.startswith("-S") or word.startswith("--split-string="):
            rest = word.split("=", 1)[1].split() + rest if "=" in word else word[2:].split() + rest
            continue
        if word in _ENV_TAKES_VALUE:
            rest = rest[1:]
            continue
        if word.startswith("-") or ("=" in word and not word.startswith(os.sep)):
            continue
        return word
    return None


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


def _executable(
    name: str, env: Mapping[str, str], needs: Needs, scope: _Scope, depth: int = 0
) -> None:
    """Add *name*, its install and its shebang's interpreter (and theirs) to *needs*.

    Only real paths are added (a rule is opened without following links). What lies in a folder
    the server may write is opened as it is, but not read for more (its shebang, its venv).
    """
    found = shutil.which(name, path=env.get("PATH")) if os.sep not in name else name
    if found is None or depth > INTERPRETER_DEPTH:
        return
    path = os.path.realpath(found)
    if not scope.allow(needs, path):
        return
    if scope.writable_by_server(path):
        needs.refuse(path, "the server may write it: it is not read to find what it runs")
        return
    # the install is found from the name as called too: a venv's python links out of the venv
    venv = False
    for called in dict.fromkeys((os.path.abspath(found), path)):
        prefix = os.path.realpath(_prefix(called, scope.home))
        venv = venv or os.path.isfile(os.path.join(prefix, "pyvenv.cfg"))
        if scope.allow(needs, prefix) and not scope.writable_by_server(prefix):
            for extra in _venv_paths(prefix):
                scope.allow(needs, os.path.realpath(extra))
    site = None if venv else _user_site(path, env)
    if site is not None:
        scope.allow(needs, site)
    words = _shebang(path)
    if not words:
        return
    program: str | None = words[0]
    if os.path.basename(words[0]) == "env":
        program = env_program(words[1:])
    if program is not None:
        _executable(program, env, needs, scope, depth + 1)


_PYTHON = re.compile(r"python(\d+\.\d+)$")


def _user_site(interpreter: str, env: Mapping[str, str]) -> str | None:
    """The user site-packages folder a Python interpreter outside a venv reads
    (``~/.local/lib/python3.11/site-packages``, where ``pip install --user`` puts packages), if
    there is one and the environment does not turn it off: read-only, as the interpreter's
    own packages are."""
    version = _PYTHON.search(os.path.basename(interpreter))
    if version is None or env.get("PYTHONNOUSERSITE"):
        return None
    base = env.get("PYTHONUSERBASE") or os.path.join(_home(env), ".local")
    site = os.path.join(base, "lib", f"python{version.group(1)}", "site-packages")
    return os.path.realpath(site) if os.path.isdir(site) else None


def _home(env: Mapping[str, str]) -> str:
    return env.get("HOME") or os.path.expanduser("~")


_NPX = frozenset(("npx", "npx-cli.js"))
_NPM = frozenset(("npm", "npm-cli.js"))
_UVX = frozenset(("uvx",))
_DENO = frozenset(("deno",))
_BUN = frozenset(("bun",))
"""Bun, and ``bunx``: a link to ``bun`` (its real path's name is ``bun``)."""
_PIPX = frozenset(("pipx",))
_UV = frozenset(("uv",))


_NPM_PREFIX = ("--prefix", "-C")
"""npm's option naming the folder whose ``node_modules`` it runs a package from (``-C`` is its
short form)."""


def _npm_options(command: Sequence[str]) -> tuple[list[str], str | None]:
    """The words of *command* after the program and before ``--``, less the value of npm's
    ``--prefix`` (so ``npm --prefix DIR exec`` reads as ``exec``), and that value if given."""
    words: list[str] = []
    prefix = None
    rest = list(command[1 : command.index("--", 1)] if "--" in command[1:] else command[1:])
    while rest:
        word = rest.pop(0)
        if word in _NPM_PREFIX and rest:
            prefix = rest.pop(0)
        elif word.startswith("--prefix="):
            prefix = word.split("=", 1)[1]
        else:
            words.append(word)
    return words, prefix


def _program(command: Sequence[str], env: Mapping[str, str]) -> str:
    """The name of the program *command* runs, from its real path (``npx`` behind a link)."""
    found = shutil.which(command[0], path=env.get("PATH")) if os.sep not in command[0] else None
    return os.path.basename(os.path.realpath(found or command[0]))


def _npm_runs(command: Sequence[str], program: str) -> tuple[bool, str | None]:
    """Whether *command*, whose program is *program*, runs a package through npm (``npx``,
    ``npm exec``, ``npm x``), and the ``--prefix`` folder it runs it from, if given."""
    words, prefix = _npm_options(command)
    first = next((w for w in words if not w.startswith("-")), "")
    return program in _NPX or (program in _NPM and first in ("exec", "x")), prefix


def _caches(
    command: Sequence[str], env: Mapping[str, str], program: str, cwd: str | None = None
) -> dict[str, str]:
    """The package manager caches *command*, whose program is *program* (:func:`_program`),
    runs from and fills, each by its variable (:func:`~roots_manager.core.confinement.protected.
    shared_caches`), and the environment of a ``uv run`` project (:data:`PROJECT_ENVIRONMENT`):
    writable, through a layer of the server's own.

    Decided from the program that runs (its real path's name, and its first argument), never
    from words that merely appear on the command line.
    """
    first = _subcommand(command, program)
    caches = shared_caches(env)
    own = {v: caches[v] for v in written_by(_package(command, program))}
    project = _project_environment(command, env, program, os.getcwd() if cwd is None else cwd)
    return {**_package_manager_caches(command, program, first, caches), **own, **project}


PROJECT_ENVIRONMENT = "UV_PROJECT_ENVIRONMENT"
"""The environment a ``uv run --directory DIR`` runs the server in (``DIR/.venv``), by uv's own
variable for it: layered as a package cache is. Read-only, Python could not write its bytecode
there, and compiled every module again at each start (a warm start 2.5 times direct's); written,
the server could rewrite what the user runs. Layered, what it writes stays its own."""


def _project_environment(
    command: Sequence[str], env: Mapping[str, str], program: str, cwd: str
) -> dict[str, str]:
    """:data:`PROJECT_ENVIRONMENT` and the folder it names for a ``uv run`` in a project, if
    that folder is there (nothing is made in the user's project); else nothing."""
    found = _uv_project_folder(command, program, cwd)
    if found is None:
        return {}
    project = found[0]
    named = os.path.expanduser(env.get(PROJECT_ENVIRONMENT) or ".venv")
    venv = os.path.realpath(os.path.join(project, named))  # relative: to the project, as uv
    return {PROJECT_ENVIRONMENT: venv} if os.path.isdir(venv) else {}


def _package_manager_caches(
    command: Sequence[str], program: str, first: str, caches: Mapping[str, str]
) -> dict[str, str]:
    """The package manager caches of :func:`_caches`."""
    if _npm_runs(command, program)[0]:
        return {"npm_config_cache": caches["npm_config_cache"]}
    if program in _UVX or (program in _UV and first in ("run", "tool", "x")):
        return {v: caches[v] for v in ("UV_CACHE_DIR", "UV_PYTHON_INSTALL_DIR")}
    if program in _DENO:
        return {"DENO_DIR": caches["DENO_DIR"]}
    if program in _BUN:  # bunx, bun x, and bun's installs at a run: its global cache
        return {"BUN_INSTALL_CACHE_DIR": caches["BUN_INSTALL_CACHE_DIR"]}
    if program in _PIPX and first == "run":
        return {v: caches[v] for v in ("PIPX_HOME", "PIPX_LOG_DIR", "PIPX_VENV_CACHEDIR")}
    return {}


BROWSER_PACKAGES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "@playwright/mcp": (("PLAYWRIGHT_BROWSERS_PATH", "PWMCP_PROFILES_DIR_FOR_TEST"), ()),
    "chrome-devtools-mcp": (
        (CHROME_DEVTOOLS_CACHE, CHROME_DEVTOOLS_DATA),
        ("PUPPETEER_CACHE_DIR",),
    ),
}
"""The npm packages of MCP servers that run a browser, each with the browser folders
(:data:`~roots_manager.core.confinement.protected.BROWSER_CACHES`) it writes, layered as a
package cache is (made first when missing: a layer needs a folder to cover), and those it
only reads (the browsers Puppeteer installed), where they are. What each writes, read in its
code: Playwright MCP makes its browser profile in ``ms-playwright-mcp`` and records each
browser it runs in ``ms-playwright/b``, and fails the call when it cannot; Chrome DevTools MCP
keeps its profile and its update check in ``~/.cache/chrome-devtools-mcp`` and its usage state
in ``~/.local/share/chrome-devtools-mcp``."""
STATE_PACKAGES: dict[str, tuple[str, ...]] = {
    "@wonderwhy-er/desktop-commander": (DESKTOP_COMMANDER_STATE,),
    "serena-agent": (SERENA_STATE,),
    "serena": (SERENA_STATE,),  # its README's uvx --from git+https://github.com/oraios/serena
    "arxiv-mcp-server": (ARXIV_PAPERS,),
}
"""The packages of servers that keep a folder of their own in the home
(:data:`~roots_manager.core.confinement.protected.SERVER_STATE`), npm's and PyPI's (by
:func:`_package`'s names), each with those it writes: layered as a package cache is, made
first when missing. Each made that folder at its start, or at its first call, and failed
confined without it."""
SERVER_FOLDERS = {
    "PLAYWRIGHT_BROWSERS_PATH": "Playwright's browsers, and its registry of those running",
    "PWMCP_PROFILES_DIR_FOR_TEST": "Playwright MCP's browser profiles",
    "PUPPETEER_CACHE_DIR": "the browsers Puppeteer installed",
    CHROME_DEVTOOLS_CACHE: "its browser profile and its update check",
    CHROME_DEVTOOLS_DATA: "its usage state",
    DESKTOP_COMMANDER_STATE: "its configuration and its logs",
    SERENA_STATE: "its configuration, memories and logs",
    ARXIV_PAPERS: "the papers it downloads",
}
"""What each folder of :data:`BROWSER_PACKAGES` and :data:`STATE_PACKAGES` holds, as
``servers show`` says."""
SERVER_PROGRAMS = {
    "playwright-mcp": "@playwright/mcp",
    "mcp-server-playwright": "@playwright/mcp",
    "chrome-devtools-mcp": "chrome-devtools-mcp",
    "desktop-commander": "@wonderwhy-er/desktop-commander",
}
"""The names those servers' npm packages are run by when installed (their ``bin``)."""


def written_by(package: str) -> tuple[str, ...]:
    """The folders of its own the server of *package* writes (:data:`BROWSER_PACKAGES`,
    :data:`STATE_PACKAGES`), by their keys in :func:`~roots_manager.core.confinement.
    protected.shared_caches`."""
    return (*BROWSER_PACKAGES.get(package, ((), ()))[0], *STATE_PACKAGES.get(package, ()))


_PYTHON_RUNNER_VALUES = frozenset(
    ("--from", "--with", "--with-editable", "--with-requirements", "--python", "-p", "--index",
     "--default-index", "--index-url", "--extra-index-url", "--spec", "--cache-dir", "--directory",
     "--project", "--config-file", "--constraints", "--overrides", "--build-constraints")
)  # fmt: skip
"""The options of ``uvx``, ``uv tool run`` and ``pipx run`` that take a value (the next word)."""


def _python_package(command: Sequence[str], program: str) -> str:
    """The PyPI package ``uvx`` (``uv tool run``, ``uv x``) or ``pipx run`` runs, its name as
    PyPI normalises it (``Serena_Agent`` is ``serena-agent``), without extras or version: the
    one named by ``--from`` (``--spec``), else the command's; a ``git+`` URL's is its last
    name. Empty for anything else."""
    words = list(command[1:])
    if program in _UV and words[:2] in (["tool", "run"], ["tool", "x"]):
        words = words[2:]
    elif (program in _UV and words[:1] == ["x"]) or (program in _PIPX and words[:1] == ["run"]):
        words = words[1:]
    elif program not in _UVX:
        return ""
    spec = ""
    while words:
        word = words.pop(0)
        option, eq, value = word.partition("=")
        if option in ("--from", "--spec"):
            spec = value if eq else (words.pop(0) if words else "")
        elif word.startswith("-"):
            if not eq and option in _PYTHON_RUNNER_VALUES and words:
                words.pop(0)
        else:
            spec = spec or word
            break
    if " @ " in spec:  # a direct reference: NAME @ URL
        spec = spec.split(" @ ", 1)[0]
    elif "://" in spec:  # a URL (git+https://github.com/oraios/serena@v1): its last name
        spec = spec.split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1].split("@", 1)[0]
        spec = spec.removesuffix(".git")
    name = re.split(r"[\[<>=!~;@ ]", spec, maxsplit=1)[0]
    return re.sub(r"[-_.]+", "-", name).lower()


def _package(command: Sequence[str], program: str) -> str:
    """The npm or PyPI package *command* runs, without its version: the one ``npx`` (``npm
    exec``) is given, or the one the program (or the script ``node`` runs) lies in, from its
    real path (``.../node_modules/@playwright/mcp/cli.js``, a bin's link to it); or the one
    ``uvx`` or ``pipx run`` is given (:func:`_python_package`); empty if none."""
    python = _python_package(command, program)
    if python:
        return python
    runs, _ = _npm_runs(command, program)
    if runs:
        words, _ = _npm_options(command)
        spec = ""
        for i, word in enumerate(words):
            if word in ("-p", "--package") and i + 1 < len(words):
                spec = words[i + 1]
                break
            if word.startswith("--package="):
                spec = word.split("=", 1)[1]
                break
        if not spec:
            rest = [w for w in words if not w.startswith("-")]
            rest += list(command[command.index("--", 1) + 1 :]) if "--" in command[1:] else []
            if program in _NPM and rest[:1] in (["exec"], ["x"]):
                rest = rest[1:]
            spec = rest[0] if rest else ""
        scope, _, name = spec.partition("/") if spec.startswith("@") else ("", "", spec)
        name = name.split("@", 1)[0]
        return f"{scope}/{name}" if scope else name
    if program in SERVER_PROGRAMS:
        return SERVER_PROGRAMS[program]
    script = _subcommand(command, program)
    for word in (command[0], script) if program in ("node", "nodejs", "bun") else (command[0],):
        found = shutil.which(word) if os.sep not in word else word
        if not found:
            continue
        parts = os.path.realpath(found).split(os.sep)
        if "node_modules" in parts[:-2]:
            at = len(parts) - 1 - parts[::-1].index("node_modules")
            name = parts[at + 1]
            if name.startswith("@") and at + 2 < len(parts) - 1:
                name = f"{name}/{parts[at + 2]}"
            return name
    return ""


def _browser_reads(
    command: Sequence[str], env: Mapping[str, str], program: str, needs: Needs, scope: _Scope
) -> None:
    """The browser folders a browser server only reads (:data:`BROWSER_PACKAGES`), each where
    it is, read and run: not one that is too broad, a secret, or not there."""
    caches = shared_caches(env)
    for variable in BROWSER_PACKAGES.get(_package(command, program), ((), ()))[1]:
        real = os.path.realpath(caches[variable])
        why = scope.too_broad(real) or scope.secret(real)
        if why is not None:
            needs.refuse(real, why)
        elif os.path.isdir(real):
            needs.add(real)


NPM_PROJECT_FILES = ("package.json", "package-lock.json", "npm-shrinkwrap.json")
"""What npm reads in the ``--prefix`` folder besides its ``node_modules``."""


def _npm_prefix(
    command: Sequence[str], program: str, cwd: str, needs: Needs, scope: _Scope
) -> None:
    """For ``npm exec --prefix DIR`` (and ``npx --prefix DIR``): the packages installed there,
    read and run (``DIR/node_modules``), and the project's own files npm reads (its
    ``package.json`` and lock file), each on its own. Not the folder itself, nor what else it
    holds: a project's other files are what its grants are for. A folder the server may write
    opens nothing more (it could put there what it likes), and a ``node_modules`` that is the
    home folder or holds it is refused, as any derived rule."""
    runs, prefix = _npm_runs(command, program)
    if not runs or not prefix:
        return
    folder = os.path.realpath(os.path.join(cwd, os.path.expanduser(prefix)))
    if scope.writable_by_server(folder):
        needs.refuse(folder, "the server may write it: it is not read to find what it runs")
        return
    modules = os.path.join(folder, "node_modules")
    if os.path.isdir(modules):
        real = os.path.realpath(modules)
        if scope.writable_by_server(real):
            needs.refuse(real, "the server may write it: it is not read to find what it runs")
        else:
            scope.allow(needs, real)
    for name in NPM_PROJECT_FILES:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            scope.allow(needs, os.path.realpath(path), file=True)


UV_PROJECT = ("--directory", "--project")
"""uv's options naming the project a ``uv run`` runs in (``--directory`` is also where its
script is found)."""
UV_GLOBAL_VALUED = frozenset(
    (*UV_PROJECT, "--cache-dir", "--config-file", "--color", "--python", "-p")
)
"""uv's options that may come before its command and take a value: the word after each is not
the command (``uv --directory DIR run server.py``, the Python quickstart's launch)."""
UV_NO_PROJECT = ("--no-project", "--script", "--gui-script")
"""``uv run`` options under which it looks for no project."""
UV_PROJECT_FILES = ("pyproject.toml", "uv.lock", ".python-version")
"""What ``uv run`` reads in a project besides its environment (``.venv``)."""


def _subcommand(command: Sequence[str], program: str) -> str:
    """What *command*, whose program is *program*, asks it to do: its first word that is not an
    option (``npm exec``'s ``exec``, ``pipx run``'s ``run``, ``node``'s script), nor for uv the
    value of one of :data:`UV_GLOBAL_VALUED` (``uv --directory DIR run``: ``run``)."""
    valued = UV_GLOBAL_VALUED if program in _UV else frozenset()
    words = iter(command[1:])
    for word in words:
        if word in valued:
            next(words, None)
        elif not word.startswith("-"):
            return word
    return ""


def _uv_project_folder(command: Sequence[str], program: str, cwd: str) -> tuple[str, bool] | None:
    """The real path of the project a ``uv run`` runs in, and whether the command names it:
    the folder ``--directory DIR`` (``--project DIR``) names, else the one uv finds itself, the
    working folder or the nearest folder above it holding a ``pyproject.toml`` (a host that
    starts servers in their project's folder, ``uv run server.py``). None: no project (not
    ``uv run``, ``--no-project``, or none found)."""
    if program not in _UV or _subcommand(command, program) != "run":
        return None
    project = None
    for i, word in enumerate(command[1:], 1):
        if word == "--":
            break
        if word in UV_PROJECT and i + 1 < len(command):
            project = command[i + 1]
        elif word.startswith(tuple(f"{o}=" for o in UV_PROJECT)):
            project = word.split("=", 1)[1]
        elif word in UV_NO_PROJECT and project is None:
            return None
    if project is not None:
        return os.path.realpath(os.path.join(cwd, os.path.expanduser(project))), True
    folder = os.path.realpath(cwd)
    while not os.path.isfile(os.path.join(folder, "pyproject.toml")):
        above = os.path.dirname(folder)
        if above == folder:
            return None
        folder = above
    return folder, False


def _uv_project(
    command: Sequence[str], program: str, cwd: str, needs: Needs, scope: _Scope
) -> str | None:
    """For ``uv run`` in a project (``--directory DIR``, ``--project DIR``, or the one uv finds
    from the working folder): the project's files uv reads, each on its own (its environment
    is layered: :data:`PROJECT_ENVIRONMENT`, read and run where it cannot be). Not the folder
    itself, nor what else it holds, and nothing the server may write (it could put there what
    it likes). The project's real path, where uv finds the script (None: no project)."""
    found = _uv_project_folder(command, program, cwd)
    if found is None:
        return None
    folder, named = found
    if scope.writable_by_server(folder):
        if named:  # one found by uv in a grant is the server's to read there already
            needs.refuse(folder, "the server may write it: it is not read to find what it runs")
        return None
    for name in UV_PROJECT_FILES:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            scope.allow(needs, os.path.realpath(path), file=True)
    venv = os.path.join(folder, ".venv")
    if os.path.isdir(venv) and not scope.writable_by_server(os.path.realpath(venv)):
        scope.allow(needs, os.path.realpath(venv))
    return folder


def package_caches(command: Sequence[str], env: Mapping[str, str]) -> dict[str, str]:
    """The shared package and browser caches *command* fills, each by its variable (made
    writable for it, through a layer of its own), as :func:`command_needs` finds them (behind
    ``sh -c`` too), less those refused (:func:`_safe_caches`)."""
    command, cwd = _unwrapped(command, env)
    return _safe_caches(_caches(command, env, _program(command, env), cwd), env)[0]


def _unwrapped(command: Sequence[str], env: Mapping[str, str]) -> tuple[Sequence[str], str]:
    """The command a shell's string runs and the folder it runs it in
    (:func:`_shell_command`), or *command* itself in the working folder."""
    shell = _shell_command(command, env, os.getcwd())
    return (shell[0], shell[1]) if shell is not None else (command, os.getcwd())


def derived_folders(command: Sequence[str], env: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """What *command* is given because of what it runs, as ``servers show`` lists it: each
    ``(path, access, why)``, *access* ``layered`` (a folder written in a layer of its own, made
    first when missing), ``read-only``, ``refused`` (the environment put it where no rule may
    cover), or ``socket`` (a container engine's, for its client: :func:`engine_sockets`)."""
    command, cwd = _unwrapped(command, env)
    program = _program(command, env)
    package = _package(command, program)
    browser = BROWSER_PACKAGES.get(package, ((), ()))
    caches, unsafe = _safe_caches(_caches(command, env, program, cwd), env)
    out = []
    for variable, path in caches.items():
        missing = "" if os.path.isdir(path) else " (not there yet: made at its start)"
        if variable in written_by(package):
            why = f"{package} writes there: {SERVER_FOLDERS[variable]}{missing}"
        elif variable == PROJECT_ENVIRONMENT:
            why = (
                "the project's environment uv runs the server in: Python writes its bytecode there"
            )
        else:
            why = f"{os.path.basename(command[0])} fills this package cache{missing}"
        out.append((path, "layered", why))
    needs = Needs()
    _browser_reads(command, env, program, needs, _Scope(env, caches.values()))
    shared = shared_caches(env)
    for variable in browser[1]:
        real = os.path.realpath(shared[variable])
        if real in needs.runtime:
            out.append((real, "read-only", f"{package} runs {SERVER_FOLDERS[variable]}"))
    out += [(p, "refused", why) for p, why in (*unsafe, *needs.refused)]
    out += [
        (p, "socket", f"the {os.path.basename(command[0])} client talks to its engine there")
        for p in engine_sockets(command, env)
    ]
    return out


DOCKER_SOCKET = "/var/run/docker.sock"
PODMAN_SOCKET = "/run/podman/podman.sock"
"""The engines' sockets where nothing names another: Docker's, and the Podman service's for
root (``$XDG_RUNTIME_DIR/podman/podman.sock`` for a user)."""


def engine_sockets(command: Sequence[str], env: Mapping[str, str]) -> list[str]:
    """The socket of the container engine *command*'s client talks to (``docker``, ``podman
    --remote``): the one named on its command line (``-H``/``--host``, ``--url``) or in its
    environment (``DOCKER_HOST``, ``CONTAINER_HOST``), else the engine's own, as its folders
    really are (``/var/run`` is a link); none for a program that is not such a client, nor
    for an engine reached over the network. The client alone connects to it: the container
    the engine starts is outside the rules, and only its mounts hold it."""
    from roots_manager.core.consent.arguments import ENGINES

    if not command:
        return []
    program = os.path.basename(command[0])
    if program not in ENGINES:
        return []
    named = ""
    for i, word in enumerate(command[1:], 1):
        option, eq, value = word.partition("=")
        if option in ("-H", "--host", "--url") and not eq and i + 1 < len(command):
            value, eq = command[i + 1], "="
        if eq and option in ("-H", "--host", "--url"):
            named = value
            break
        if not word.startswith("-"):
            break  # the subcommand: what follows is its own
    podman = program.startswith("podman")
    named = named or env.get("CONTAINER_HOST" if podman else "DOCKER_HOST", "")
    if named and not named.startswith("unix://"):
        return []
    path = named.removeprefix("unix://")
    if not path:
        runtime = env.get("XDG_RUNTIME_DIR", "")
        root = sys.platform == "win32" or os.geteuid() == 0
        if not podman:
            path = DOCKER_SOCKET
        elif root or not os.path.isabs(runtime):
            path = PODMAN_SOCKET
        else:
            path = os.path.join(runtime, "podman", "podman.sock")
    head, leaf = os.path.split(os.path.abspath(path))
    return [os.path.join(os.path.realpath(head), leaf)]


def _safe_caches(
    caches: Mapping[str, str], env: Mapping[str, str]
) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """*caches* (:func:`_caches`) less those no derived rule may cover: where the environment
    puts one at the file system's root, the home folder or a folder holding it, a secret, or
    in (or around) a place of the home that is kept read-only (``~/.local/bin``); and those,
    each with why."""
    scope = _Scope(env, ())
    kept: dict[str, str] = {}
    refused: list[tuple[str, str]] = []
    for variable, path in caches.items():
        real = _written(path)
        why = scope.too_broad(real) or scope.secret(real)
        for place in TABLE if why is None else ():
            if place.where == HOME:
                held = os.path.join(scope.home, place.path)
                if real == held or inside(real, held) or inside(held, real):
                    why = f"it is, holds or lies in ~/{place.path}: {place.why}"
                    break
        if why is None:
            kept[variable] = path
        else:
            refused.append((path, why))
    return kept, refused


NPM_REGISTRY = "registry.npmjs.org"
PYPI = ("pypi.org", "files.pythonhosted.org")
DENO_REGISTRIES = ("jsr.io", "deno.land", "registry.npmjs.org")


def registry_domains(command: Sequence[str], env: Mapping[str, str]) -> dict[str, str]:
    """The package registries *command* downloads its server from, each with why (``npx``'s
    registry), for a server whose network is limited to domains: its first start works with
    nothing granted by hand. The registries the machine's npm and uv are set to (``npm_config_
    registry`` or ``registry=`` in ``~/.npmrc``; ``UV_DEFAULT_INDEX``, ``UV_INDEX_URL``,
    ``PIP_INDEX_URL``), else the public ones. Decided from the program that runs, as the
    caches are (:func:`package_caches`), behind ``sh -c`` too."""
    command = _unwrapped(command, env)[0]
    program = _program(command, env)
    first = _subcommand(command, program)
    if _npm_runs(command, program)[0] or program in _BUN:
        return dict.fromkeys(_npm_registries(env), f"{os.path.basename(command[0])}'s registry")
    if (
        program in _UVX
        or (program in _UV and first in ("run", "tool", "x"))
        or (program in _PIPX and first == "run")
    ):
        names = [
            _host_of(env[v])
            for v in ("UV_DEFAULT_INDEX", "UV_INDEX_URL", "PIP_INDEX_URL")
            if env.get(v)
        ]
        return dict.fromkeys(
            [n for n in names if n] or PYPI, f"{os.path.basename(command[0])}'s package index"
        )
    if program in _DENO:
        return dict.fromkeys(DENO_REGISTRIES, "deno's registries")
    return {}


def _npm_registries(env: Mapping[str, str]) -> list[str]:
    named = env.get("npm_config_registry") or env.get("NPM_CONFIG_REGISTRY")
    if not named:
        try:
            with open(os.path.join(_home(env), ".npmrc"), encoding="utf-8") as f:
                for line in f:
                    key, _, value = line.partition("=")
                    if key.strip() == "registry":
                        named = value.strip()
        except (OSError, UnicodeDecodeError):
            pass
    host = _host_of(named) if named else None
    return [host or NPM_REGISTRY]


def _host_of(url: str) -> str | None:
    from urllib.parse import urlsplit

    try:
        return urlsplit(url.strip()).hostname
    except ValueError:
        return None


SHELLS = frozenset(("sh", "bash", "dash", "zsh", "ksh"))
_SHELL_UNSAFE = re.compile(r"[$`|<>(){}*?\[\]~]")
"""What a ``-c`` string may not hold for its words to be read as they will run: expansions,
pipes, redirections, globs (a ``~`` alone is the home folder, expanded here)."""


def _shell_command(
    command: Sequence[str], env: Mapping[str, str], cwd: str
) -> tuple[list[str], str, list[str]] | None:
    """For ``sh -c 'cd DIR && . ./.env && exec PROGRAM ARGS'`` (bash, dash, zsh alike): the
    command the string ends in, the folder it runs in, and the files it sources on the way;
    None for any other command, or a string that is more than plain words joined by ``&&``
    or ``;`` (``cd``, ``.``/``source``, ``export``, then the program)."""
    if len(command) != 3 or command[1] != "-c" or _program(command, env) not in SHELLS:
        return None
    import shlex

    text = command[2]
    if _SHELL_UNSAFE.search(text.replace("~/", "")):
        return None
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&")
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:
        return None
    parts: list[list[str]] = [[]]
    for word in words:
        if word in ("&&", ";"):
            parts.append([])
        elif set(word) <= set(";&"):
            return None  # a lone & or ;;: not a plain sequence
        else:
            parts[-1].append(word)
    sourced: list[str] = []
    here = cwd
    for part in parts[:-1]:
        if not part:
            continue
        if part[0] == "cd" and len(part) == 2:
            here = os.path.normpath(os.path.join(here, os.path.expanduser(part[1])))
        elif part[0] in (".", "source") and len(part) == 2:
            sourced.append(os.path.normpath(os.path.join(here, os.path.expanduser(part[1]))))
        elif part[0] not in ("export", "set"):
            return None
    last = parts[-1][1:] if parts[-1][:1] == ["exec"] else parts[-1]
    if not last:
        return None
    return [os.path.expanduser(w) if w.startswith("~/") else w for w in last], here, sourced


SCRIPT_SUFFIXES = (".py", ".pyz", ".js", ".mjs", ".cjs", ".ts", ".mts", ".rb", ".pl", ".sh", ".php")
"""What a script an interpreter runs is called; any other file named on a command line is data."""


def _module(command: Sequence[str], env: Mapping[str, str], needs: Needs, scope: _Scope) -> None:
    """For ``python -m PACKAGE.MODULE`` run with this very interpreter: the package's folder,
    found as this interpreter finds it (an editable install's finder names no folder in a
    ``.pth`` file). Another interpreter's packages are its own install's (:func:`_executable`)."""
    if "-m" not in command[1:-1]:
        return
    name = command[command.index("-m", 1) + 1].split(".", 1)[0]
    found = (
        shutil.which(command[0], path=env.get("PATH")) if os.sep not in command[0] else command[0]
    )
    if not name.isidentifier() or found is None:
        return
    if os.path.realpath(found) != os.path.realpath(sys.executable):
        return
    import importlib.util

    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return
    if spec is None:
        return
    places = list(spec.submodule_search_locations or ())
    if not places and spec.origin and os.path.isfile(spec.origin):
        places = [spec.origin]
    for place in places:
        real = os.path.realpath(place)
        if scope.writable_by_server(real):
            needs.refuse(real, "the server may write it: it is not read to find what it runs")
        else:
            scope.allow(needs, real, file=os.path.isfile(real))


def _linked_modules(folder: str, needs: Needs, scope: _Scope) -> None:
    """A script's folder whose ``node_modules`` is a symbolic link (``npm link``, workspaces,
    pnpm): what the link leads to, read and run, as the folder's own ``node_modules`` would be.

    Every rule is opened without following links, so the folder's rule stops at the link.
    The link's target alone is given, never its parent; a target that is too broad (the home
    folder, a folder holding it) is refused as any derived rule; one the server may write is
    not needed (its grant reads it already) and not read for more.
    """
    modules = os.path.join(folder, "node_modules")
    if not os.path.islink(modules):
        return
    target = os.path.realpath(modules)
    if not os.path.isdir(target) or scope.writable_by_server(target):
        return
    if scope.writable_by_server(folder):
        # the server could have made the link, to lead its next start anywhere
        needs.refuse(target, "the server may write the link that leads there")
        return
    why = scope.too_broad(target) or scope.secret(target)
    if why is not None:
        needs.refuse(target, why)
        return
    scope.allow(needs, target)


def command_needs(
    command: Sequence[str], env: Mapping[str, str], cwd: str, writable: Iterable[str] = ()
) -> Needs:
    """What *command* needs to run: its executable, interpreters, package, files, caches.

    *writable* are the folders the server will be able to write (its grants, its temporary
    folder): nothing in them is read to widen the rules. Each file named on the command line is
    readable on its own; the first of them that is a script (:data:`SCRIPT_SUFFIXES`) opens its
    package too, or its own folder. Folders named on it are not: a server is told its folders
    there (the filesystem server given ``/``), and those are what confinement withholds. No
    derived rule covers ``/``, the home folder or a folder holding it (:attr:`Needs.refused`).
    """
    needs = Needs()
    program = _program(command, env)  # one look-up on PATH for both of its uses
    caches, unsafe = _safe_caches(_caches(command, env, program, cwd), env)
    for cache in caches.values():
        needs.add(cache, writable=True)
    for path, why in unsafe:
        needs.refuse(path, why)
    scope = _Scope(env, [*writable, *needs.writable])
    _browser_reads(command, env, program, needs, scope)
    _executable(command[0], env, needs, scope)
    shell = _shell_command(command, env, cwd)
    if shell is not None:
        # the program the string runs, in the folder it runs it in, as if it were the command
        inner, here, sourced = shell
        found = command_needs(inner, env, here, writable)
        for path in found.runtime:
            needs.add(path)
        for path in found.files:
            needs.add(path, file=True)
        for path in found.writable:
            needs.add(path, writable=True)
        needs.databases += [p for p in found.databases if p not in needs.databases]
        for path, why in found.refused:
            needs.refuse(path, why)
        for path in sourced:
            real = os.path.realpath(path)
            if os.path.isfile(real) and not scope.writable_by_server(real):
                scope.allow(needs, real, file=True)
    _module(command, env, needs, scope)
    _npm_prefix(command, program, cwd, needs, scope)
    project = _uv_project(command, program, cwd, needs, scope)
    script = False
    for arg in command[1:]:
        path = os.path.normpath(os.path.join(cwd, arg)) if arg and not arg.startswith("-") else ""
        if project is not None and path and not os.path.isfile(path):
            path = os.path.normpath(os.path.join(project, arg))  # uv runs it from there
        if not path or not os.path.isfile(path):
            continue
        real = os.path.realpath(path)
        scope.allow(needs, real, file=True)
        if not script and real.endswith(SCRIPT_SUFFIXES):
            script = True
            package = _package_dir(real)
            if scope.allow(needs, package) and package == os.path.dirname(real):
                _linked_modules(package, needs, scope)
    _databases(command, cwd, needs, scope)
    _git_settings(env, needs)
    return needs


DATABASE_SUFFIXES = (".db", ".sqlite", ".sqlite3")
DATABASE_OPTIONS = ("--db", "--db-path", "--database")
"""A database file on a command line: an option so named, or any word (an option's value, or
a positional) whose name ends so."""


def _databases(command: Sequence[str], cwd: str, needs: Needs, scope: _Scope) -> None:
    """The database files *command* names (:data:`DATABASE_OPTIONS`, :data:`DATABASE_SUFFIXES`),
    each given on its own with its :data:`COMPANIONS`, read and written: never its folder, which
    the server may not otherwise write. Not one in a folder the server may write (its grant
    gives it already), nor a name that is a link, not a file, the home or a secret."""
    words = list(command[1:])
    for i, word in enumerate(words):
        option, eq, value = word.partition("=")
        if eq and option.startswith("--"):
            named = option in DATABASE_OPTIONS
        elif word in DATABASE_OPTIONS and i + 1 < len(words):
            named, value = True, words[i + 1]
        elif not word.startswith("-"):
            named, value = False, word
        else:
            continue
        if not value or not (named or value.endswith(DATABASE_SUFFIXES)):
            continue
        path = os.path.normpath(os.path.join(cwd, os.path.expanduser(value)))
        folder, name = os.path.split(path)
        if not os.path.isdir(folder) or not name:
            continue
        real = os.path.join(os.path.realpath(folder), name)
        if real in needs.databases or scope.writable_by_server(real):
            continue
        why = scope.too_broad(real) or scope.secret(real)
        for each in (real, *(real + c for c in COMPANIONS)):
            if why is None and os.path.lexists(each) and not os.path.isfile(each):
                why = f"{each} is not a file"
            if why is None and os.path.islink(each):
                why = f"{each} is a symbolic link"
        if why is not None:
            needs.refuse(real, why)
            continue
        if real in needs.files:  # written, no longer only read
            needs.files.remove(real)
        needs.databases.append(real)


GIT_SETTINGS = (".gitconfig", ".config/git/config", ".config/git/ignore", ".config/git/attributes")
"""The user's own git settings, relative to the home (``.config`` as ``XDG_CONFIG_HOME`` puts
it): git exits at once when one of them cannot be read ("fatal: unknown error occurred while
reading the configuration files"), and a server that runs git (``mcp-server-git``), or ``npm
exec`` at every ``npx`` start, reads them."""
_CREDENTIAL = re.compile(rb'(?im)^\s*(?:extraheader|password|token|secret)\b|://[^/\s"]*@')
"""A setting that carries a secret (``http.extraHeader = Authorization: ...``, a token, a URL
with a user and password in it): a settings file holding one is not given."""


def _git_settings(env: Mapping[str, str], needs: Needs) -> None:
    """The user's git settings, each read-only on its own, where it is there and holds no
    secret (:data:`_CREDENTIAL`; ``~/.git-credentials`` is never one of them)."""
    home = _home(env)
    config = env.get("XDG_CONFIG_HOME", "")
    for name in GIT_SETTINGS:
        if name.startswith(".config/") and os.path.isabs(config):
            path = os.path.join(config, name.removeprefix(".config/"))
        else:
            path = os.path.join(home, name)
        real = os.path.realpath(path)
        try:
            with open(real, "rb") as f:
                text = f.read(1 << 20)
        except OSError:
            continue  # not there, or not a file: git goes on without it
        if _CREDENTIAL.search(text):
            needs.refuse(real, "it holds a secret (a token, a password or an extra header)")
        else:
            needs.add(real, file=True)


def database_files(
    command: Sequence[str], env: Mapping[str, str], cwd: str, writable: Iterable[str] = ()
) -> list[str]:
    """The database files *command* names that a confined start gives it to write, each with
    its :data:`COMPANIONS` (:func:`_databases`), before the table of protected places."""
    return command_needs(command, env, cwd, writable).databases


def runtime_rules(
    command: Sequence[str], env: Mapping[str, str], cwd: str, writable: Iterable[str] = ()
) -> tuple[Rules, list[tuple[str, str]]]:
    """The rules every confined server gets for *command*, before its roots are added, and the
    paths refused to it with why (see :func:`command_needs`)."""
    needs = command_needs(command, env, cwd, writable)
    scope = _Scope(env, ())
    system = [d for d in SYSTEM_DIRS if os.path.isdir(d)]
    system += open_beneath(ETC, ETC_SECRETS)
    system += [p for p in PROC_AND_SYS if os.path.exists(p)]
    # every rule is opened without following links: a link here (``/lib`` to ``usr/lib``,
    # ``/etc/localtime``) is given as what it leads to, which the server cannot change
    runtime: dict[str, None] = {}  # in order, once each
    for path in (*system, *needs.runtime):
        real = os.path.realpath(path)
        why = scope.too_broad(real) or _etc_secret(real)
        if why is not None:
            needs.refuse(real, why)
        else:
            runtime[real] = None
    return (
        Rules(
            read_write=tuple(os.path.realpath(p) for p in needs.writable),
            read_only=tuple(needs.files),
            runtime=tuple(runtime),
            listing=tuple(listed_beneath(ETC, ETC_SECRETS)),
            devices=tuple(d for d in DEVICES if os.path.exists(d)),
            own_files=tuple(needs.databases),
        ),
        needs.refused,
    )
