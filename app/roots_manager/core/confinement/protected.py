"""What a confined server never rewrites, whatever it was granted: the table, and where it lies.

A grant is the user's decision, and a broad one (the home folder, ``~/.config``, a project)
holds things that decide what runs later or what confines the server: Roots Manager's own
store (a server that set its own ``confine`` to false would be restarted free), the hosts'
configuration files (rewritten, the server runs without the bridge next time), shell start
files, autostart entries, ``~/.local/bin``, a project's ``.git/hooks`` and ``.git/config`` (run
by the user's next ``git``), editor and agent settings. Such a grant is still granted; the
places of :data:`TABLE` inside it stay read-only, and the secrets of :data:`TABLE` unreadable
(:mod:`roots_manager.sandbox.mounts` holds them, by the kernel's mounts).

:func:`protections` works out, for the folders a server may write and read, which places of the
table (and which read-only grants nested in a writable one) lie inside them now, and which
folders between a grant and a protected place are pinned (bound onto themselves, so that they
cannot be renamed away and rebuilt). Pure but for ``lstat`` and the listings that find a
writable grant's repositories (a bounded number); the same answer feeds the wrapper's rules
and ``servers show``.
"""

from __future__ import annotations

import bisect
import collections
import os
import sys

from roots_manager.support.paths import inside

TYPE_CHECKING = False  # not typing's: see roots_manager.core.confinement.rules
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

READ_ONLY = "read-only"
HIDDEN = "hidden"
PINNED = "pinned"
"""A folder between a grant and a protected place: writable as granted, but not renamed away."""
NOT_MADE = "not made"
"""A protected place that is not there: the server may not make it (nor what would hold it)."""
LINKED = "link kept"
"""A protected place that is a symbolic link (``~/.bashrc`` kept in a dotfiles folder): no
mount can cover a link, so its name is kept as a missing place's is (the server may not make
it again once removed, nor rename or link anything onto it), and what it leads to is held
where a grant holds it."""
LAYERED = "layered"
"""A shared package cache the server's own package manager fills (``~/.npm`` for ``npx``): it
sees the cache as it is, and what it writes there goes to a layer of its own
(:mod:`roots_manager.sandbox.mounts`), never into what the user's and other servers' next
``npx`` runs."""
GUARDED = (NOT_MADE, LINKED)
"""The accesses held by the supervisor (a name no call of the server's may make), not by a
mount."""
YOURS = "an exception of your grant (grant --except or --hide)"
MADE_IF_MISSING = (".local/bin", ".config/autostart", ".config/systemd/user")
"""Folders of the home that run what is put in them: made empty when missing in a writable
grant (with *create*), so that the server cannot make them first."""

HOME = "home"
"""A place relative to the home folder."""
PROJECT = "project"
"""A place relative to each folder a server may write, and to each repository in it (found by
:func:`repositories`)."""
STATE = "state"
"""Roots Manager's own folders (its store, logs, settings) and its code."""
HOST = "host"
"""A host's configuration file, from the hosts table, for the user and for each project."""
CACHE = "cache"
"""A package manager's shared cache, where the environment puts it (:func:`shared_caches`)."""


class Place:
    """One row of the table: where, what, how it is held and why."""

    __slots__ = ("access", "path", "where", "why")

    def __init__(self, where: str, path: str, access: str, why: str) -> None:
        self.where = where
        self.path = path
        self.access = access
        self.why = why

    def __repr__(self) -> str:
        return f"Place({self.where!r}, {self.path!r}, {self.access!r})"


_SHELL = "a shell start file: it runs in the user's next shell, outside confinement"
_RUNS = "what is there runs later, as the user, outside confinement"
_SECRET = "a secret: a confined server never reads it, though the folder holding it is granted"
_GIT = "git runs it, or runs what it names, at the user's next git command in that repository"
_SETTINGS = "editor and agent settings: they name programs the editor or agent runs"
_TOOLS = "editor and agent settings and extensions: they name or hold programs that run later"

SHELL_FILES = (
    ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv",
    ".zprofile", ".zlogin", ".zlogout", ".config/fish", ".inputrc", ".xprofile", ".xsessionrc",
    ".xinitrc", ".pam_environment", ".config/environment.d",
)  # fmt: skip
"""What a shell or a desktop session reads at its start, in the home folder."""

CHROME_DEVTOOLS_CACHE = "chrome-devtools-mcp cache"
CHROME_DEVTOOLS_DATA = "chrome-devtools-mcp data"
"""Chrome DevTools MCP's folders: named by no variable (:data:`BROWSER_CACHES`)."""


def is_variable(name: str) -> bool:
    """Whether *name*, a shared cache's key (:data:`SHARED_CACHES`), is an environment
    variable the program reads for that cache (a key with none is a description)."""
    return name.isidentifier()


TOOL_FOLDERS = (
    ".claude", ".codex", ".gemini", ".cursor", ".vscode", ".vscode-server",
    ".config/Code/User", ".config/Code - Insiders/User", ".config/VSCodium/User",
    ".config/Cursor/User",
)  # fmt: skip
"""The user's editor and agent folders: settings that name programs to run (hooks, tasks,
terminal profiles, MCP servers) and extensions whose code runs in the editor."""

BROWSER_CACHES = (
    ("PLAYWRIGHT_BROWSERS_PATH", "XDG_CACHE_HOME", ".cache", "ms-playwright"),
    ("PWMCP_PROFILES_DIR_FOR_TEST", "XDG_CACHE_HOME", ".cache", "ms-playwright-mcp"),
    ("PUPPETEER_CACHE_DIR", "", ".cache", "puppeteer"),
    (CHROME_DEVTOOLS_CACHE, "", ".cache", "chrome-devtools-mcp"),
    (CHROME_DEVTOOLS_DATA, "XDG_DATA_HOME", ".local/share", "chrome-devtools-mcp"),
)
"""The browsers' shared caches and profiles, as :data:`SHARED_CACHES`'s rows, each where the
program that fills it looks for it (read in its package's code): the browsers Playwright
installs (``ms-playwright``; and its registry of running browsers, ``ms-playwright/b``, which
names the code the next Playwright loads to reach one), Playwright MCP's browser profiles,
the browsers Puppeteer installs (``~/.cache/puppeteer``, ``XDG_CACHE_HOME`` not read), and
Chrome DevTools MCP's profile and update check (``~/.cache/chrome-devtools-mcp``, likewise)
and its usage state. A browser run later reads a profile's ``NativeMessagingHosts``, which
name programs it runs outside any confinement. The variable of a row with none is no name a
program reads (:func:`is_variable`)."""

DESKTOP_COMMANDER_STATE = "desktop-commander state"
SERENA_STATE = "serena state"
ARXIV_PAPERS = "arxiv-mcp-server papers"
SERVER_STATE = (
    (DESKTOP_COMMANDER_STATE, "", "", ".claude-server-commander"),
    (SERENA_STATE, "", "", ".serena"),
    (ARXIV_PAPERS, "", "", ".arxiv-mcp-server"),
)
"""Popular servers' own folders in the home, as :data:`SHARED_CACHES`'s rows, each where its
server keeps it whatever the environment says (read in its code): Desktop Commander's
configuration (the commands it refuses, the folders it reaches) and its logs, Serena's
configuration, memories and logs, and the papers arxiv-mcp-server downloads. None is named by
a variable (:func:`is_variable`). Its own server writes it through a layer of its own (made
first when missing); what is put there decides what that server does at its next start, so
another server's grant holds it read-only, as a cache."""

SHARED_CACHES = (
    ("npm_config_cache", "", "", ".npm"),
    ("UV_CACHE_DIR", "XDG_CACHE_HOME", ".cache", "uv"),
    ("UV_PYTHON_INSTALL_DIR", "XDG_DATA_HOME", ".local/share", "uv"),
    ("PIP_CACHE_DIR", "XDG_CACHE_HOME", ".cache", "pip"),
    ("DENO_DIR", "XDG_CACHE_HOME", ".cache", "deno"),
    ("BUN_INSTALL_CACHE_DIR", "BUN_INSTALL", ".bun", "install/cache"),
    ("PIPX_HOME", "XDG_DATA_HOME", ".local/share", "pipx"),
    ("PIPX_LOG_DIR", "XDG_STATE_HOME", ".local/state", "pipx/log"),
    ("PIPX_VENV_CACHEDIR", "XDG_CACHE_HOME", ".cache", "pipx"),
    *BROWSER_CACHES,
    *SERVER_STATE,
)
"""The package managers' shared caches, each as ``(its variable, the base's variable, the base's
default in the home, its folder in the base)``: what ``npx``, ``uvx``, ``deno``, ``bun``
(``bunx``), ``pipx run`` and ``pip install`` put there, they (and the user's next ``npx`` or
``uvx``, unconfined) run later; the browsers' (:data:`BROWSER_CACHES`); and servers' own folders (:data:`SERVER_STATE`)."""


def shared_caches(env: Mapping[str, str]) -> dict[str, str]:
    """Each shared cache's variable and where it is for *env* (absolute, links unresolved)."""
    home = env.get("HOME") or os.path.expanduser("~")
    out = {}
    for variable, base_variable, base_default, name in SHARED_CACHES:
        given = env.get(variable, "")
        if given and os.path.isabs(given):
            out[variable] = os.path.normpath(given)
            continue
        base = env.get(base_variable, "") if base_variable else ""
        base = base if os.path.isabs(base) else os.path.join(home, base_default)
        out[variable] = os.path.normpath(os.path.join(base, name))
    return out


_LAYERED = (
    "a package cache the server's package manager fills: it sees the cache, and what it "
    "writes there stays in a copy of its own"
)
_LAYERED_BROWSER = (
    "the browser's cache or profile the server fills: it sees it, and what it writes there "
    "stays in a copy of its own"
)
_LAYERED_STATE = (
    "the server's own folder: it sees it, and what it writes there stays in a copy of its own"
)
_CACHE = (
    "a package or browser cache, or a server's own folder: what is put there runs, or decides "
    "what runs, at the user's (or another server's) next start"
)

TABLE: tuple[Place, ...] = (
    Place(
        STATE,
        "",
        READ_ONLY,
        "Roots Manager's store, logs and settings, and the code the bridge runs: they confine "
        "the server",
    ),
    *(Place(HOME, p, READ_ONLY, _SHELL) for p in SHELL_FILES),
    Place(HOME, ".local/bin", READ_ONLY, "programs on the user's PATH: " + _RUNS),
    Place(HOME, ".config/autostart", READ_ONLY, "desktop autostart entries: " + _RUNS),
    Place(HOME, ".config/systemd/user", READ_ONLY, "systemd user units: " + _RUNS),
    Place(HOME, ".gitconfig", READ_ONLY, "git's settings name programs git runs: " + _RUNS),
    Place(HOME, ".config/git", READ_ONLY, "git's settings name programs git runs: " + _RUNS),
    *(Place(HOME, p, READ_ONLY, _TOOLS) for p in TOOL_FOLDERS),
    *(Place(HOME, p, HIDDEN, _SECRET) for p in (".ssh", ".gnupg", ".git-credentials", ".netrc")),
    Place(HOST, "", READ_ONLY, "a host's configuration: rewritten, servers run without the bridge"),
    Place(CACHE, "", READ_ONLY, _CACHE),
    Place(PROJECT, ".git/hooks", READ_ONLY, _GIT),
    Place(PROJECT, ".git/config", READ_ONLY, _GIT),
    Place(PROJECT, ".envrc", READ_ONLY, "direnv runs it on entering the folder"),
    *(
        Place(PROJECT, p, READ_ONLY, _SETTINGS)
        for p in (".vscode", ".idea", ".claude", ".cursor", ".gemini", ".mcp.json")
    ),
)
"""Every place a confined server never rewrites (or reads, for a secret), whatever it was
granted. :data:`HOST` and :data:`STATE` rows stand for paths worked out on this machine."""


def _exists(path: str) -> bool:
    try:
        os.lstat(path)
    except OSError:
        return False
    return True


class HostPlaces:
    """The hosts' configuration files, from the hosts table (:func:`roots_manager.core.hosts.
    known.protected_places`): the user's, absolute, and a project's, relative to it."""

    __slots__ = ("project_names", "user_files")

    def __init__(self, user_files: Sequence[str], project_names: Sequence[str]) -> None:
        self.user_files = tuple(user_files)
        self.project_names = tuple(project_names)


def state_folders(env: Mapping[str, str]) -> list[str]:
    """Roots Manager's folders on this machine: the per-user directory in use, the platform's
    own, the logs, state and settings beside them, the installed package, the folder it was
    installed in (with its dependencies: ``site-packages``) and the Python environment running
    it (a venv, a pipx environment, a bundle)."""
    from roots_manager.core.directory.layout import APP_FOLDER, Layout, platform_home

    layout = Layout.default()
    out = [str(layout.home), str(platform_home()), str(layout.logs)]
    out += [str(d) for d in (layout.state_dir, layout.config_dir) if d is not None]
    for variable, default in (("XDG_STATE_HOME", ".local/state"), ("XDG_CONFIG_HOME", ".config")):
        base = env.get(variable, "")
        base = base if os.path.isabs(base) else os.path.join(env.get("HOME", "~"), default)
        out.append(os.path.join(os.path.expanduser(base), APP_FOLDER))
    import roots_manager

    # the code the bridge runs at every start, unconfined: the package, the folder its
    # dependencies sit beside it in, and the environment of the interpreter running it
    package = os.path.dirname(os.path.abspath(roots_manager.__file__))
    out += [package, os.path.dirname(package)]
    if sys.prefix != sys.base_prefix or getattr(sys, "frozen", False):
        out.append(sys.prefix)  # a venv (pipx's too) or a bundle: ours; never the system's
    return [os.path.realpath(p) for p in dict.fromkeys(out)]


def written_file_refusal(path: str, env: Mapping[str, str], hosts: HostPlaces) -> str | None:
    """Why the file *path* (real and absolute) may not be written on its own by a confined
    server (a database named on its command line), being a place of :data:`TABLE` or lying in
    one: a project's place among its folders (``.git``, ``.vscode``), a place of the home, Roots
    Manager's own, a host's configuration, a package cache; None if it may."""
    parts = path.split(os.sep)
    for place in TABLE:
        if place.where == PROJECT and place.path.split("/")[0] in parts:
            return place.why
    for name in hosts.project_names:
        if name.split("/")[0] in parts:
            return "a host's project configuration: " + _SETTINGS
    home = os.path.realpath(env.get("HOME") or os.path.expanduser("~"))
    places: list[tuple[str, str]] = []
    for place in TABLE:
        if place.where == HOME:
            places.append((os.path.join(home, place.path), place.why))
        elif place.where == STATE:
            places += [(p, place.why) for p in state_folders(env)]
        elif place.where == HOST:
            places += [(os.path.realpath(p), place.why) for p in hosts.user_files]
        elif place.where == CACHE:
            places += [(os.path.realpath(p), place.why) for p in shared_caches(env).values()]
    for where, why in places:
        if inside(path, where):
            return why
    return None


class Protection:
    """One place held inside what a server was granted, and why."""

    __slots__ = ("access", "path", "why")

    def __init__(self, path: str, access: str, why: str) -> None:
        self.path = path
        self.access = access
        self.why = why

    def __repr__(self) -> str:
        return f"Protection({self.path!r}, {self.access!r})"


REPOSITORY_DEPTH = 6
"""How many folders down from a writable grant repositories are looked for
(``~/src/github.com/org/repo`` is four)."""
FOLDERS_LOOKED = 5000
"""How many folders of one writable grant are listed to find its repositories, at most."""
_NOT_LOOKED_IN = frozenset({"node_modules", "__pycache__"})


_BARE = frozenset({"HEAD", "objects", "refs"})
"""What makes a folder a bare repository, for git (which uses its ``config`` and ``hooks``)."""


def repositories(
    folder: str, home: str | None = None, bare: list[str] | None = None
) -> tuple[list[str], bool]:
    """The git repositories in *folder* (itself among them if it is one), and whether every
    folder that might hold one was looked in; each bare repository found (a folder holding
    ``HEAD``, ``objects`` and ``refs``: ``~/repos/app.git``) goes into *bare*, when given.

    Breadth first, to :data:`REPOSITORY_DEPTH` folders down and :data:`FOLDERS_LOOKED`
    listings: a repository's own tree is not looked in (its submodules are its git folder's;
    only the folders directly in a granted repository are), a hidden folder is looked in but not
    below (``~/.oh-my-zsh`` is found, ``~/.cache`` is not searched), and links are not followed.
    Not every folder was looked in when the listings ran out, or when folders lay deeper than
    :data:`REPOSITORY_DEPTH`, or below a hidden folder of the *home* (where plugin managers keep
    the repositories they pull: ``~/.local/share/nvim/lazy/*``, ``~/.vim/bundle/*``,
    ``~/.tmux/plugins/*``): the repositories there are the supervisor's to keep
    (:attr:`~roots_manager.core.confinement.rules.Rules.repositories_beneath`).
    """
    found: list[str] = []
    todo = collections.deque([(folder, 0)])
    listed, deepest, whole = 0, REPOSITORY_DEPTH, True
    while todo:
        if listed == FOLDERS_LOOKED:
            return found, False
        path, depth = todo.popleft()
        listed += 1
        git, folders, marks = False, [], 0
        try:
            with os.scandir(path) as entries:
                for entry in entries:
                    name = entry.name
                    if name == ".git":
                        git = True
                    elif name not in _NOT_LOOKED_IN and entry.is_dir(follow_symlinks=False):
                        folders.append(name)
                    if name in _BARE:
                        marks += 1
        except OSError:
            continue
        if marks == len(_BARE) and not git:
            if bare is not None:
                bare.append(path)
            continue  # a bare repository's own tree: not looked in
        if git:
            found.append(path)
            if path != folder:
                continue
            deepest = 1  # a granted repository: the repositories directly in it
        if path != folder and os.path.basename(path)[0] == ".":
            if folders and os.path.dirname(path) == home:
                whole = False  # a tool's folder of the home: its plugins' repositories
            continue  # a hidden folder: looked in, not below
        if depth < deepest:
            todo.extend((os.path.join(path, name), depth + 1) for name in sorted(folders))
        elif folders and not git and deepest == REPOSITORY_DEPTH:
            whole = False  # folders too deep to look in, where a repository may be
    return found, whole


def _project_places(
    folder: str, names: Mapping[str, str], searched: dict[str, bool], home: str
) -> list[tuple[str, str]]:
    """The places of *names* (a project's, with why) in *folder* and in each repository in it
    (:func:`repositories`, with the *home*), whether they are there or not; whether every
    folder that might hold one was looked in goes into *searched*."""
    out = [(os.path.join(folder, name), why) for name, why in names.items()]
    bare: list[str] = []
    found, searched[folder] = repositories(folder, home, bare)
    # a bare repository is its own git folder: git runs its hooks and config at a push to it
    out += [(os.path.join(b, name), _GIT) for b in bare for name in ("hooks", "config")]
    for project in found:
        if project != folder:
            out += [(os.path.join(project, name), why) for name, why in names.items()]
        git = os.path.join(project, ".git")
        if not os.path.islink(git) and os.path.isfile(git):
            # a worktree's or a submodule's pointer to its git folder: pointed elsewhere, the
            # user's next git there would run another folder's hooks and config
            out.append((git, _GIT))
        else:
            out += _inner_git_places(git)
    return out


def _inner_git_places(git: str) -> list[tuple[str, str]]:
    """The hooks and config of each submodule's git folder kept in repository folder *git*
    (``.git/modules/NAME``), and each worktree's ``commondir`` there (``.git/worktrees/NAME``:
    pointed elsewhere, the user's next git in that worktree would read another folder's
    config), one level down."""
    out = [
        (os.path.join(m, name), _GIT)
        for m in _subfolders(os.path.join(git, "modules"))
        for name in ("hooks", "config")
    ]
    for worktree in _subfolders(os.path.join(git, "worktrees")):
        pointer = os.path.join(worktree, "commondir")
        if os.path.isfile(pointer):
            out.append((pointer, _GIT))
    return out


def _subfolders(folder: str) -> list[str]:
    try:
        with os.scandir(folder) as entries:
            return [e.path for e in entries if e.is_dir(follow_symlinks=False)]
    except OSError:
        return []


class _Folders:
    """A set of folders, and which of them holds a path or lies in one, in a few steps
    whatever their number (a server may be granted tens of thousands)."""

    def __init__(self, folders: Iterable[str]) -> None:
        self.folders = set(folders)
        self.ordered = sorted(self.folders)

    def holder(self, path: str) -> str | None:
        """The nearest of the folders that is *path* or holds it."""
        while True:
            if path in self.folders:
                return path
            parent = os.path.dirname(path)
            if parent == path:
                return None
            path = parent

    def inside(self, path: str) -> list[str]:
        """The folders that lie strictly inside *path*."""
        top = path.rstrip("/") + "/"
        # every path beginning "top" sorts from "top" to just before "top" with '/' raised
        i = bisect.bisect_left(self.ordered, top)
        j = bisect.bisect_left(self.ordered, top[:-1] + "0")
        return self.ordered[i:j]


def protections(
    writable: Sequence[str],
    readable: Sequence[str] = (),
    *,
    env: Mapping[str, str],
    hosts: HostPlaces,
    own: Iterable[str] = (),
    create: bool = False,
    read_only: Iterable[str] = (),
    hidden: Iterable[str] = (),
    searched: dict[str, bool] | None = None,
    layered: Iterable[str] = (),
) -> list[Protection]:
    """The places of :data:`TABLE` that lie inside the folders *writable* (read-only or hidden
    there) or *readable* (hidden there), the read-only grants among *readable* nested in a
    writable one, and the folders to pin between them. *own* are writable folders of the
    server's own (its ``TMPDIR``): inside a protected place they stay writable (pinned).

    Only what exists is held (nothing is there to rewrite otherwise); with *create*, a missing
    folder of :data:`HOME` rows (``~/.config/autostart``) inside a writable grant is made, empty,
    so that the server cannot make it first. *read_only* and *hidden* are the user's own
    places (``grant --except``, ``--hide``), held as the table's are. Paths are real (links
    resolved) and absolute. *searched*, when given, is told for each writable grant whether its
    repositories were all looked for (:func:`repositories`). *layered* are the shared caches
    the server's own package manager fills (:data:`LAYERED`): each that is there is layered,
    wherever it is, and pinned in a writable grant holding it.
    """
    home = os.path.realpath(env.get("HOME") or os.path.expanduser("~"))
    own = {os.path.realpath(o) for o in own}
    layers = {os.path.realpath(c) for c in layered if os.path.isdir(c)}
    writers = _Folders(w for w in map(os.path.realpath, writable) if w not in own | layers)
    readers = _Folders(os.path.realpath(r) for r in readable)
    if not writers.folders and not readers.folders and not layers:
        return []
    anyone = _Folders(writers.folders | readers.folders)
    pools = _Pools(writers, anyone)
    shared = shared_caches(env)
    candidates: list[tuple[str, str, str]] = []  # path, access, why
    for place in TABLE:
        if place.where == HOME:
            candidates.append((os.path.join(home, place.path), place.access, place.why))
        elif place.where == STATE:
            candidates += [(p, place.access, place.why) for p in state_folders(env)]
        elif place.where == HOST:
            candidates += [(p, place.access, place.why) for p in hosts.user_files]
        elif place.where == CACHE:
            kept = [p for p in shared.values() if os.path.realpath(p) not in layers]
            candidates += [(p, place.access, place.why) for p in kept]
    candidates += [(os.path.normpath(p), READ_ONLY, YOURS) for p in read_only]
    candidates += [(os.path.normpath(p), HIDDEN, YOURS) for p in hidden]
    out: dict[str, Protection] = {}
    whys: dict[str, str] = {}
    if layers:  # why each is layered: a browser's, a server's own, else a package cache
        whys = {os.path.realpath(shared[row[0]]): _LAYERED_BROWSER for row in BROWSER_CACHES}
        whys.update((os.path.realpath(shared[row[0]]), _LAYERED_STATE) for row in SERVER_STATE)
    for cache in sorted(layers):
        out[cache] = Protection(cache, LAYERED, whys.get(cache, _LAYERED))
        holder = writers.holder(cache)
        if holder is not None:  # not renamed away, and a look-alike made in its place
            _pin_between(out, holder, cache)
    if create:  # first: a folder made holds what is kept out of it, not the other way round
        for made in MADE_IF_MISSING:
            path = os.path.join(home, made)
            if writers.holder(path) is not None and not _exists(path):
                _make(path)
    for path, access, why in candidates:
        pool = writers if access == READ_ONLY else anyone
        # the folders above it as they really are (a home reached through a link): only the
        # place itself may not be one
        path = os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))
        holder = pool.holder(path)
        if holder is None:
            # grants inside the place: each is held whole
            for w in pool.inside(path):
                out.setdefault(w, Protection(w, access, why))
            continue
        _hold(out, pools, path, access, why)
    names = {p.path: p.why for p in TABLE if p.where == PROJECT}
    for name in hosts.project_names:
        names.setdefault(name, "a host's project configuration: " + _SETTINGS)
    for w in writers.ordered:
        for path, why in _project_places(w, names, searched if searched is not None else {}, home):
            _hold(out, pools, path, READ_ONLY, why)
    for r in readers.ordered:
        holder = writers.holder(os.path.dirname(r))
        if holder is not None and r not in out:
            out[r] = Protection(r, READ_ONLY, "a read-only grant inside a writable one")
    held = _Folders(p.path for p in out.values() if p.access in (READ_ONLY, HIDDEN))
    for o in own:
        if held.holder(o) is not None:
            out[o] = Protection(o, PINNED, "the server's own folder, inside a protected place")
    return sorted(out.values(), key=lambda p: (p.path.count("/"), p.path))


class _Pools:
    """The folders a server may write, and those it may read or write (for a hidden place)."""

    def __init__(self, writers: _Folders, anyone: _Folders) -> None:
        self.writers = writers
        self.anyone = anyone


def _hold(out: dict[str, Protection], pools: _Pools, path: str, access: str, why: str) -> None:
    """Hold *path* as *access* says, if a grant of *pools* holds it. A place that is not
    there is kept from being made where it could be (:func:`_keep_out`); a link keeps its name
    so, and what it leads to is held in turn where a grant holds it."""
    pool = pools.writers if access == READ_ONLY else pools.anyone
    holder = pool.holder(path)
    if holder is None or path in out:
        return
    writable = pools.writers.holder(path) is not None
    if not _exists(path):
        # in a read-only grant, or a place held read-only, nothing can be made
        if writable and not _within_held(out, holder, path):
            _keep_out(out, holder, path, why)
        return
    if os.path.islink(path):
        if writable:
            out[path] = Protection(path, LINKED, why)
        _pin_between(out, holder, path)
        target = os.path.realpath(path)
        if target != path:
            _hold(out, pools, target, access, f"{why} (through the link {path})")
        return
    out[path] = Protection(path, access, why)
    _pin_between(out, holder, path)


def _within_held(out: dict[str, Protection], holder: str, path: str) -> bool:
    """Whether a place already held read-only or hidden holds *path* (nothing in it can be
    made)."""
    parent = os.path.dirname(path)
    while parent != holder and inside(parent, holder):
        held = out.get(parent)
        if held is not None and held.access in (READ_ONLY, HIDDEN):
            return True
        parent = os.path.dirname(parent)
    return False


def _keep_out(out: dict[str, Protection], holder: str, path: str, why: str) -> None:
    """Keep the missing *path* from being made: its first missing folder (or itself) is a name
    the server may not make, in a folder pinned in place. Not a repository's ``.git``: a
    repository the server makes in a grant is the server's own, and ``git init`` stays its to
    run."""
    first = path
    parent = os.path.dirname(path)
    while parent != holder and inside(parent, holder) and not _exists(parent):
        first, parent = parent, os.path.dirname(parent)
    if os.path.basename(first) == ".git" or not os.path.isdir(parent) or first in out:
        return
    if os.path.islink(parent):
        return  # a link on the way: the folder it leads to is held where a grant holds it
    out[first] = Protection(first, NOT_MADE, why)
    _pin_between(out, holder, first)


def _make(path: str) -> None:
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except OSError:
        return  # not made: the server can make it as well as we could not, said by show()


def _pin_between(out: dict[str, Protection], holder: str, path: str) -> None:
    """Pin each folder strictly between *holder* and *path*."""
    parent = os.path.dirname(path)
    while parent != holder and inside(parent, holder):
        if parent not in out:
            out[parent] = Protection(parent, PINNED, "on the way to a protected place")
        parent = os.path.dirname(parent)


def _unescape(field: str) -> str:
    """A path of the mount table, whose space, tab, newline and backslash are octal escapes."""
    if "\\" not in field:
        return field
    import re

    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


MOUNT_TABLE = "/proc/self/mountinfo"


def mounts_inside(folders: Sequence[str], table: str | None = None) -> list[tuple[str, str, str]]:
    """The mounts of *table* (the text of ``/proc/self/mountinfo``, read when not given; none
    where it cannot be read) strictly inside one of *folders*: each mount point, its file
    system type and its source.

    A file system mounted in a granted folder (an administrator's bind mount, a removable
    disk) is granted with it: what it shows may be a folder the user never meant to grant. It
    is said when the server starts and by ``servers show``, never hidden.
    """
    if table is None:
        try:
            with open(MOUNT_TABLE, encoding="utf-8", errors="surrogateescape") as f:
                table = f.read()
        except OSError:
            return []
    real = [os.path.realpath(f) for f in folders]
    out: list[tuple[str, str, str]] = []
    for line in table.splitlines():
        fields = line.split(" ")
        if len(fields) < 10 or "-" not in fields[6:]:
            continue
        point = _unescape(fields[4])
        rest = fields[fields.index("-", 6) + 1 :]
        fstype, source = [*rest, "", ""][:2]
        if any(point != f and inside(point, f) for f in real):
            out.append((point, fstype, _unescape(source)))
    return list(dict.fromkeys(out))
