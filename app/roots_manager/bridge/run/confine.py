"""Starting the server confined: the exec wrapper around its command, or a refusal.

Whether to confine is decided before the server starts: ``--confine`` forces it, otherwise the
server's stored setting decides. A bridge asked to confine on a machine that cannot never starts
the server unconfined: it refuses with :data:`EXIT_NOT_CONFINED` and says why.

A server whose setting is not decided yet (first seen, or remembered before its first start)
gets the default: confined where this machine can confine (Linux with Landlock; the untested
macOS sandbox is never a default), unless the store's ``confine_new`` is off. That is a default,
not a request: where the machine cannot, the server starts unconfined and the bridge says so,
and its setting stays undecided (a kernel that can confine confines it). The bridge records
what the default made of it (:attr:`Launch.default`), once, at the start.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import time

from roots_manager.bridge.run.spawn import spawn
from roots_manager.core.servers.defaults import ASK_SECONDS_DEFAULT
from roots_manager.core.store.versions import UNDECIDED_SCHEMA
from roots_manager.support import cyclic_gc

TYPE_CHECKING = False  # not typing's: see roots_manager.bridge.main
if TYPE_CHECKING:
    from collections.abc import Sequence

    from roots_manager.bridge.run.warden import Warden
    from roots_manager.core.confinement.confined import Derived
    from roots_manager.core.confinement.rules import Rules
    from roots_manager.core.store.state import State

EXIT_NOT_CONFINED = 126
"""The shell's "cannot execute": the server was asked to run confined and cannot be."""
CONFINE_OPTION = "--confine"
EXEC_CONFINED = "--exec-confined"
"""The bundled bridge's first argument when it runs as the exec wrapper (never a user's)."""
_BOOT = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from roots_manager.sandbox.confine import main; sys.exit(main(sys.argv[2:]))"
)
"""The wrapper runs with ``-I -S``: without site, Python starts in a third of the time, and the
package is found through the folder it was imported from here."""


CONFINED_FOLDER = "confined"
LAYERS_FOLDER = "layers"
"""Per server, the layers it wrote over the shared package caches (``~/.npm``): its own,
kept for its next starts (:data:`~roots_manager.core.confinement.protected.LAYERED`)."""
"""The folder, in the per-user directory, of each confined server's own folder (its ``TMPDIR``;
that it is there says the server ran confined)."""


class ConfinementRefused(OSError):
    """The server was to run confined, and cannot: the bridge exits 126 without starting it."""

    exit_code = EXIT_NOT_CONFINED


def forced(options: Sequence[str]) -> bool:
    """Whether *options* (before ``--``) hold ``--confine``, however argparse lets it be shortened."""
    return any(o.startswith("--conf") and CONFINE_OPTION.startswith(o) for o in options)


class Glance:
    """The server's stored entry at a glance, and the default for an undecided server (a plain
    class: ``typing``'s NamedTuple would be imported before the server starts)."""

    __slots__ = ("confine_new", "entry")

    def __init__(self, entry: dict[str, object], confine_new: bool) -> None:
        self.entry = entry
        self.confine_new = confine_new


def _stored_setting(store_path: str, server: str) -> Glance | None:
    """The server's stored entry at a glance (an empty entry when there is none; None: the
    store cannot be read now).

    A glance rather than the checked read, which is only needed, and done, when confining. A
    store that is not a regular file (a FIFO would block the open) or is damaged reads as None.
    """
    try:
        fd = os.open(
            store_path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        )
    except FileNotFoundError:
        return Glance({}, True)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb") as f:
            fd = -1
            with cyclic_gc.paused():  # a document of many objects, none in a cycle
                doc = json.load(f)
    except (OSError, ValueError, RecursionError):
        return None
    finally:
        if fd >= 0:
            os.close(fd)
    if not isinstance(doc, dict):
        return Glance({}, True)
    servers, settings = doc.get("servers"), doc.get("settings")
    entry = servers.get(server) if isinstance(servers, dict) else None
    if isinstance(entry, dict) and entry.get("confine") is None:
        old = doc.get("schema")
        if isinstance(old, int) and old < UNDECIDED_SCHEMA:
            entry = {**entry, "confine": False}  # decided, off, before defaults existed
    new = settings.get("confine_new") if isinstance(settings, dict) else None
    return Glance(entry if isinstance(entry, dict) else {}, new is not False)


def _glanced(server: str) -> tuple[Glance | None, bool | None]:
    """The server's stored entry at a glance (:func:`_stored_setting`), and what the default
    makes of it if its confinement is not decided (:attr:`Launch.default`)."""
    from roots_manager.core.directory.layout import STORE_NAME, home_folder

    glance = _stored_setting(os.path.join(home_folder(), STORE_NAME), server)
    if glance is None or glance.entry.get("confine") is not None:
        return glance, None
    return glance, _confines_new(glance.confine_new)


def _confined_at_a_glance(
    command: Sequence[str], glance: Glance, default: bool | None, force: bool
) -> bool:
    """Whether a glance (:func:`_glanced`) says the server starts confined with its command
    as written (``{roots}`` is filled from the full reading); if not, it may still be (the
    full reading in :func:`wrapped` decides)."""
    confined = force or glance.entry.get("confine") is True or bool(default)
    return confined and "{roots}" not in command


def _confines_new(confine_new: bool) -> bool | None:
    """Whether an undecided server starts confined here (see the module's docstring); None:
    the machine cannot confine, so nothing decides it yet (it may, after a kernel upgrade)."""
    if not confine_new:
        return False
    from roots_manager.sandbox.availability import confines_by_default

    return True if confines_by_default() else None


class Launch:
    """How the server was started: the command line run, and what its confinement depends on."""

    __slots__ = (
        "answers",
        "argv",
        "ask",
        "default",
        "folders",
        "forget_confined",
        "key",
        "notes",
        "readable",
        "refusals",
        "restartable",
        "rules_fd",
        "started",
        "supervised",
        "warden",
    )

    def __init__(
        self,
        argv: list[str],
        key: tuple[tuple[str, ...], ...] | None,
        entry: dict[str, object] | None = None,
        folders: list[str] | None = None,
        default: bool | None = None,
    ) -> None:
        self.argv = argv
        self.rules_fd: int | None = None
        """A descriptor holding the rules (``--rules-fd``), for the wrapper alone."""
        self.started: float | None = None
        """When the process was started (:func:`time.monotonic`; None: not yet): the host may
        speak with it before the run has loaded (:mod:`~roots_manager.bridge.transport.early`)."""
        self.default = default
        """What the default made of a server whose confinement was not decided: confined or
        not (None: it was decided, the store could not be read, or the machine cannot
        confine, so that nothing decided it)."""
        self.folders = folders
        """The folders given for ``{roots}`` on its command line (None: it has none)."""
        self.key = key
        """:func:`~roots_manager.core.confinement.confined.confinement_key` at the start; None: unconfined."""
        self.supervised = key is not None and sys.platform.startswith("linux")
        """The process started is the confined server's supervisor
        (:mod:`roots_manager.sandbox.supervisor`), not the server itself."""
        self.warden: Warden | None = None
        """What ends the server's tree and removes the live marker if the bridge is killed
        (:mod:`.warden`)."""
        self.refusals: int | None = None
        """The reading end of the pipe the supervisor tells the server's refusals on
        (:mod:`.denials`); None: they are not observed."""
        asked = (entry or {}).get("ask_seconds")
        if asked is None:  # absent or null: the default
            asked = ASK_SECONDS_DEFAULT
        self.ask = asked if isinstance(asked, int) and not isinstance(asked, bool) else 0
        """Seconds a read the rules refuse waits for the user's answer, where the bridge says it
        is a question (0: refused at once)."""
        self.answers: int | None = None
        """The writing end of the pipe the supervisor reads the bridge's answers on
        (:mod:`.asking`); None: it asks nothing."""
        self.readable: tuple[str, ...] = ()
        """The folders the server could read at its start (a folder granted since is served
        by the supervisor, :mod:`roots_manager.sandbox.asking`)."""
        self.notes: list[str] = []
        """What the start said of the server's confinement on stderr (places held inside its
        grants, file systems mounted in them), for the log too."""
        self.forget_confined = False
        """The server runs unconfined by its setting: a folder left by a confined run before
        (confinement was turned off since) is removed once it has started (:func:`start`)."""
        setting = (entry or {}).get("restart_on_revoke")
        self.restartable = (
            folders is not None or setting is True or (key is not None and setting is not False)
        )
        """Whether the bridge may restart this server (its folders on its command line,
        confined, or restart on revoke on)."""


def _why_unconfined(server: str) -> str:
    """Why a new server runs unconfined although new servers start confined: the machine cannot
    confine, or only with a mechanism no test runs (macOS), which is never a default."""
    from roots_manager.sandbox.availability import availability

    found = availability()
    if found.available:  # not tested, so not chosen for the user
        import shlex

        return (
            f"new servers start confined only where confinement is tested, and this machine "
            f"has {found.reason}: it runs unconfined "
            f"(roots-manager servers confine {shlex.quote(server)} on confines it with that)"
        )
    return (
        f"new servers start confined where the machine can confine, and {found.reason}: it "
        "runs unconfined"
    )


def _check_runnable(command: Sequence[str]) -> None:
    """Raise what starting *command* unconfined would: the wrapper runs it only after the rules
    are made, and a program that is not there must read the same either way."""
    import shutil

    if command and shutil.which(command[0]) is None:
        program = command[0]
        if os.sep in program and os.path.exists(program):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), program)
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), program)


def _mounts_grants(command: Sequence[str]) -> bool:
    """Whether *command* is a container engine's ``run`` with ``{roots}`` among its options."""
    from roots_manager.core.consent.arguments import ROOTS_ARG, engine_image

    image = engine_image(command)
    return image is not None and ROOTS_ARG in command[:image]


def _engine_command(command: Sequence[str], server: str, fp: str, run: str) -> list[str]:
    """*command*, a container engine's ``run``, with its ``{roots}`` made the grants' bind
    mounts, and the places inside a writable one that a confined server never rewrites
    (:data:`~roots_manager.core.confinement.protected.TABLE`) mounted read-only over them, the
    hidden ones covered (``/dev/null`` for a file, an empty folder for a folder): the
    container is the engine's, outside the rules, so its mounts are what holds it."""
    from pathlib import Path

    from roots_manager.core.confinement.protected import HIDDEN, READ_ONLY, protections
    from roots_manager.core.consent.arguments import Mount, expand_engine, mounts_now
    from roots_manager.core.directory.layout import Layout, ensure_private_dir
    from roots_manager.core.hosts.known import Platform, protected_places

    layout = Layout.default()
    mounts = mounts_now(layout, server, fp, run)
    held = protections(
        [m.source for m in mounts if not m.read_only],
        [m.source for m in mounts if m.read_only],
        env=os.environ,
        hosts=protected_places(Platform("linux", Path(os.path.expanduser("~")), os.environ)),
    )
    covers: list[Mount] = []
    for place in held:
        if place.access == READ_ONLY:
            covers.append(Mount(place.path, _target(place.path, mounts), True))
        elif place.access == HIDDEN:
            empty = "/dev/null"
            if os.path.isdir(place.path):
                empty = str(ensure_private_dir(layout.home / CONFINED_FOLDER / "empty"))
            covers.append(Mount(empty, _target(place.path, mounts), True))
    expanded, skipped = expand_engine(command, mounts, covers)
    for target in skipped:
        print(
            f"roots-bridge: {server}: {target} is not mounted in the container: the engine's "
            "-v cannot name a path with a ':' or a ','",
            file=sys.stderr,
            flush=True,
        )
    return expanded


def _target(path: str, mounts: Sequence[object]) -> str:
    """Where *path*, inside the source of one of *mounts*, is in the container."""
    from roots_manager.core.consent.arguments import Mount
    from roots_manager.support.paths import inside

    for m in mounts:
        assert isinstance(m, Mount)
        if inside(path, m.source):
            return m.target + path[len(m.source) :]
    return path


def wrapped(
    command: Sequence[str],
    server: str,
    force: bool,
    run: str = "",
    ceiling: tuple[tuple[str, ...], ...] | None = None,
    *,
    rules_to: int | None = None,
    glanced: tuple[Glance | None, bool | None] | None = None,
) -> Launch:
    """The command line to start: *command*, or the wrapper confining it.

    *rules_to*: the pipe of a wrapper started already (:func:`spawned`): a confined launch's
    rules are written there, and its *argv* is the caller's.
    *glanced*: the store's glance the caller took already (:func:`_glanced`), not read again.

    *run* is the bridge run a restart happens in (none yet at the first start); *ceiling* the
    confinement of the start the host made, which a restart in that run never loosens: it
    stays confined, and extra folders, sockets and network come only as the host's start had
    them (:func:`~roots_manager.core.confinement.confined.clamp`).
    Raises :class:`ConfinementRefused` when confinement is asked for and cannot be had.
    """
    force = force or ceiling is not None
    glance, default = glanced or _glanced(server)
    entry = None if glance is None else glance.entry
    literal = list(command)
    folders: list[str] | None = None
    if "{roots}" in literal:  # the granted folders as arguments (core.consent.arguments)
        from roots_manager.core.consent.arguments import expand, folders_now
        from roots_manager.core.directory.layout import Layout
        from roots_manager.core.store.state import fingerprint as command_fingerprint

        folders = folders_now(Layout.default(), server, command_fingerprint(literal), run)
        command = expand(literal, folders)
        if _mounts_grants(literal):
            command = _engine_command(literal, server, command_fingerprint(literal), run)
    if not force and entry is not None and not (entry.get("confine") is True or default):
        if glance is not None and glance.confine_new and entry.get("confine") is None:
            print(f"roots-bridge: {server}: {_why_unconfined(server)}", file=sys.stderr, flush=True)
        launch = Launch(list(command), None, entry, folders, default)
        launch.forget_confined = True
        return launch
    _check_runnable(command)
    from roots_manager.core.directory.file_key import file_key
    from roots_manager.core.directory.layout import Layout

    layout = Layout.default()
    ran_confined = layout.home / CONFINED_FOLDER / file_key(server)
    from roots_manager.core.confinement.confined import (
        clamp,
        confinement_key,
        wants_confinement,
    )
    from roots_manager.core.directory.layout import ensure_private_dir
    from roots_manager.core.store.file import Store, StoreError
    from roots_manager.core.store.state import fingerprint
    from roots_manager.sandbox.availability import availability

    try:
        state = Store(layout.ensure()).read()
    except (StoreError, OSError) as exc:
        if force:
            raise ConfinementRefused(
                f"the grants to confine the server to cannot be read: {exc}"
            ) from exc
        if ran_confined.exists():
            # it ran confined last time: a damaged store must not be what sets it free
            raise ConfinementRefused(
                f"the store cannot be read ({exc}) and {server!r} ran confined before: it is "
                "not started unconfined; repair the store (the desktop app offers to)"
            ) from exc
        # the bridge keeps serving over a damaged store, as before confinement existed; it says
        # so rather than confine with rules made from nothing
        print(
            f"roots-bridge: the store cannot be read ({exc}), so whether {server!r} is to run "
            "confined is unknown: it runs unconfined (--confine makes sure)",
            file=sys.stderr,
            flush=True,
        )
        return Launch(list(command), None, entry, folders)
    if not (force or wants_confinement(state, server, undecided=bool(default))):
        return Launch(list(command), None, entry, folders, default)
    found = availability()
    if not found.available:
        raise ConfinementRefused(
            f"confinement was asked for and {found.reason}; the server is not started unconfined"
        )
    ensure_private_dir(ran_confined.parent)  # the servers' folders: listing them is private
    tmpdir = ensure_private_dir(ran_confined)
    ensure_private_dir(layout.home / LAYERS_FOLDER)
    layers = ensure_private_dir(layout.home / LAYERS_FOLDER / file_key(server))
    fp = fingerprint(literal)  # the server's identity is its command as written
    derived = _derive(state, server, command, fp, run, ceiling, str(tmpdir), str(layers))
    from roots_manager.sandbox.availability import ALWAYS_MISSING, protections

    for protection in protections(found):
        if not protection.enforced and protection.name not in ALWAYS_MISSING:
            print(
                f"roots-bridge: {server}: confined, but without this protection "
                f"({protection.name}): {protection.detail}",
                file=sys.stderr,
                flush=True,
            )
    notes = _say_mounts(server, [*derived.rules.read_write, *derived.rules.read_only])
    rules_now = derived.rules
    held = len(rules_now.protect) + len(rules_now.hide) + len(rules_now.guard)
    if held:
        notes.append(
            f"{held} places inside the grants are held ({len(rules_now.protect)} read-only, "
            f"{len(rules_now.hide)} hidden, {len(rules_now.guard)} not there or links, never "
            f"made): servers show {server} lists them"
        )
    for path, why in derived.refused:
        # said on stderr, which the host keeps: the server starts with less, never with more
        print(
            f"roots-bridge: {server}: confined without {path}: {why}", file=sys.stderr, flush=True
        )
    key = clamp(confinement_key(state, server, fingerprint=fp, run=run, forced=True), ceiling)
    rules = derived.rules.to_args()
    if rules_to is not None:
        _write_rules(rules_to, rules)
        launch = Launch([], key, entry, folders, default)
    else:
        rules_fd = _rules_file(rules)
        if rules_fd is not None:
            from roots_manager.sandbox.confine import RULES_FD

            rules = [RULES_FD, str(rules_fd)]
        argv = [*wrapper(), "--parent", str(os.getpid()), *rules, "--", *command]
        launch = Launch(argv, key, entry, folders, default)
        launch.rules_fd = rules_fd
    launch.notes = notes
    launch.readable = (*derived.rules.read_write, *derived.rules.read_only)
    return launch


def _derive(
    state: State,
    server: str,
    command: Sequence[str],
    fp: str,
    run: str,
    ceiling: tuple[tuple[str, ...], ...] | None,
    tmpdir: str,
    layers: str,
) -> Derived:
    """The rules a confined start of *server* has now (see :func:`wrapped`)."""
    from pathlib import Path

    from roots_manager.core.confinement.confined import rules_for
    from roots_manager.core.hosts.known import Platform, protected_places

    return rules_for(
        state,
        server,
        list(command),
        fingerprint=fp,
        env=os.environ,
        cwd=os.getcwd(),
        tmpdir=tmpdir,
        hosts=protected_places(Platform("linux", Path(os.path.expanduser("~")), os.environ)),
        run=run,
        ceiling=ceiling,
        layers=layers,
    )


def rules_now(
    command: Sequence[str], server: str, run: str, ceiling: tuple[tuple[str, ...], ...] | None
) -> Rules | None:
    """The rules a confined start of *server* would have now, from the store as it is (None:
    it cannot be read); what :mod:`.asking` compares with the start's."""
    from roots_manager.core.directory.file_key import file_key
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.store.file import Store, StoreError
    from roots_manager.core.store.state import fingerprint

    layout = Layout.default()
    try:
        state = Store(layout).read()
    except (StoreError, OSError):
        return None
    literal = list(command)
    tmpdir = str(layout.home / CONFINED_FOLDER / file_key(server))
    layers = str(layout.home / LAYERS_FOLDER / file_key(server))
    try:
        derived = _derive(
            state, server, literal, fingerprint(literal), run, ceiling, tmpdir, layers
        )
    except (OSError, ValueError):
        return None
    return derived.rules


def _say_mounts(server: str, folders: Sequence[str]) -> list[str]:
    """Say each file system mounted inside a granted folder: granted with it, it may show what
    the user never meant to grant. Returns what was said, for the log."""
    from roots_manager.core.confinement.protected import mounts_inside

    said = []
    for point, fstype, source in mounts_inside(folders):
        said.append(
            f"confined, and {point} is granted with the folder it is in: a {fstype} file "
            f"system is mounted there ({source}), and all of it is reachable"
        )
        print(f"roots-bridge: {server}: {said[-1]}", file=sys.stderr, flush=True)
    return said


RULES_IN_ARGS = 64 * 1024
"""Rules longer than this (bytes, as arguments) go through a descriptor: the kernel refuses a
command line of more than about 2 MiB (E2BIG), which some 25,000 granted folders make."""


def _rules_file(rules: list[str]) -> int | None:
    """For rules too long for a command line: a sealed memory file holding them, NUL-separated,
    read from its start by the wrapper; None: they fit (or no such file here, on macOS)."""
    if sys.platform != "linux" or sum(len(a) + 1 for a in rules) <= RULES_IN_ARGS:
        return None
    import fcntl

    fd = os.memfd_create("roots-manager-rules", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        _write_rules(fd, rules)
        # nobody changes them from here on, whoever holds the descriptor
        seals = fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, seals)
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _write_rules(fd: int, rules: list[str]) -> None:
    """Write *rules* to *fd* as the wrapper reads them (``--rules-fd``): NUL-separated, ended
    by :data:`~roots_manager.sandbox.confine.RULES_END`."""
    from roots_manager.sandbox.confine import RULES_END

    view = memoryview(b"\0".join(os.fsencode(a) for a in (*rules, RULES_END)))
    while view:
        view = view[os.write(fd, view) :]


def _refusals_pipe(launch: Launch, server: str) -> int | None:
    """For a supervised server: a pipe whose writing end the supervisor is given
    (``--refusals FD``), its reading end kept in *launch*; the writing end, to pass on. A pipe
    that cannot be made is a warning: the server runs confined as ever, its refusals untold."""
    if sys.platform != "linux":
        return None  # supervised on Linux only
    if not launch.supervised:
        return None
    try:
        read, write = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError as exc:
        print(f"roots-bridge: {server}: its refusals go untold: {exc}", file=sys.stderr, flush=True)
        return None
    os.set_blocking(write, True)  # the supervisor makes it non-blocking itself
    from roots_manager.bridge.run.spawn import grow_pipe

    grow_pipe(read)  # a burst of refusals while the bridge is busy fits in the pipe
    at = launch.argv.index("--parent") + 2  # the wrapper reads --refusals after --parent
    launch.argv[at:at] = ["--refusals", str(write)]
    launch.refusals = read
    return write


def _answers_pipe(launch: Launch) -> int | None:
    """For a supervised server that asks (:attr:`Launch.ask`) and whose refusals are told: a
    pipe whose reading end the supervisor is given (``--answers FD:SECONDS``), its writing end
    kept in *launch*; the reading end, to pass on. None: it asks nothing."""
    if sys.platform != "linux":
        return None  # supervised on Linux only
    if launch.refusals is None or launch.ask <= 0:
        return None
    try:
        read, write = os.pipe2(os.O_CLOEXEC)
    except OSError:
        return None  # refused at once, as without asking
    os.set_blocking(write, False)  # the loop never waits on the supervisor
    from roots_manager.sandbox.confine import ANSWERS

    at = launch.argv.index("--refusals") + 2
    launch.argv[at:at] = [ANSWERS, f"{read}:{launch.ask}"]
    launch.answers = write
    return read


def wrapper() -> list[str]:
    """The exec wrapper's command line, before its rules.

    In a bundle (PyInstaller) there is no Python to run with ``-c``: the bundled bridge itself
    is the wrapper when its first argument is :data:`EXEC_CONFINED`.
    """
    if getattr(sys, "frozen", False):
        return [sys.executable, EXEC_CONFINED]
    import roots_manager  # imported already: where this package was found is where it is

    package = os.path.dirname(os.path.abspath(roots_manager.__file__))
    return [sys.executable, "-I", "-S", "-c", _BOOT, os.path.dirname(package)]


def start(
    command: Sequence[str],
    server: str,
    force: bool,
    run: str = "",
    *,
    run_id: str,
    ceiling: tuple[tuple[str, ...], ...] | None = None,
) -> tuple[subprocess.Popen[bytes], Launch]:
    """Start the server, confined if asked; raises :class:`OSError` if it cannot start.

    *run_id* is the bridge run's id, whose live marker the warden keeps; *run* is that same id
    once the run is recorded (a restart), empty at the first start (:func:`wrapped`).
    """
    proc, launch = spawned(command, server, force, run, ceiling)
    from roots_manager.core.directory.layout import LIVE_NAME, home_folder  # loaded already

    home = home_folder()
    if sys.platform != "win32":
        # at once: the host may kill the bridge any moment from now (a supervisor ends a
        # confined tree itself, but the run's live marker is the warden's alone)
        from roots_manager.bridge.run.warden import Warden
        from roots_manager.core.runs.run_id import marker_name

        marker = os.path.join(home, LIVE_NAME, marker_name(run_id))
        launch.warden = Warden.start(None if launch.supervised else proc.pid, marker)
    if launch.forget_confined:
        _forget_confined(home, server)
    return proc, launch


def spawned(
    command: Sequence[str],
    server: str,
    force: bool,
    run: str = "",
    ceiling: tuple[tuple[str, ...], ...] | None = None,
) -> tuple[subprocess.Popen[bytes], Launch]:
    """The server started, confined if asked (see :func:`wrapped`); raises :class:`OSError`
    if it cannot start.

    A server a glance at the store says starts confined gets its wrapper started first, told
    to read its rules from a pipe, and they are worked out while it starts: the wrapper's
    Python and its modules load on another core meanwhile, not after. If the store's full
    reading says otherwise (or the rules cannot be made), the pipe closes with nothing in it
    and the wrapper is ended before it ran anything.
    """
    glance, default = glanced = _glanced(server)
    forced = force or ceiling is not None
    if (
        sys.platform != "linux"  # supervised where a wrapper reads its rules from a pipe
        or glance is None
        or not _confined_at_a_glance(command, glance, default, forced)
    ):
        launch = wrapped(command, server, force, run, ceiling, glanced=glanced)
        return _spawn(launch, server), launch
    from roots_manager.sandbox.confine import RULES_FD

    read, write = os.pipe2(os.O_CLOEXEC)
    waiting = Launch(
        [*wrapper(), "--parent", str(os.getpid()), RULES_FD, str(read), "--", *command],
        (),  # confined: its key is known once its rules are
        glance.entry,
    )
    try:
        proc = _spawn(waiting, server, read)
    except BaseException:
        os.close(write)
        raise
    try:
        launch = wrapped(command, server, force, run, ceiling, rules_to=write, glanced=glanced)
    except BaseException:
        _abandon(proc, write, waiting)
        raise
    if launch.key is None:  # unconfined after all: no rules were written
        _abandon(proc, write, waiting)
        return _spawn(launch, server), launch
    os.close(write)
    launch.argv, launch.refusals, launch.answers = waiting.argv, waiting.refusals, waiting.answers
    launch.started = waiting.started
    return proc, launch


def _spawn(launch: Launch, server: str, *given: int) -> subprocess.Popen[bytes]:
    """Start *launch*'s command with the pipes of its supervisor and the descriptors *given*
    (and its rules' descriptor), closed here once it holds them."""
    told = _refusals_pipe(launch, server)
    asks = _answers_pipe(launch)
    given = tuple(fd for fd in (told, asks, launch.rules_fd, *given) if fd is not None)
    try:
        proc = spawn(launch.argv, pass_fds=given)
        launch.started = time.monotonic()
    except BaseException:
        for fd in (launch.refusals, launch.answers):
            if fd is not None:
                os.close(fd)
        launch.refusals = launch.answers = None
        raise
    finally:
        for fd in given:
            os.close(fd)  # the supervisor holds it now: its end closes the pipe
        launch.rules_fd = None
    return proc


def _abandon(proc: subprocess.Popen[bytes], write: int, waiting: Launch) -> None:
    """End a wrapper still waiting for its rules (it has run nothing), and its pipes."""
    os.close(write)
    proc.kill()
    proc.wait()
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            stream.close()
    for fd in (waiting.refusals, waiting.answers):
        if fd is not None:
            os.close(fd)


def _forget_confined(home: str, server: str) -> None:
    """Remove what a confined run of *server* left in *home*: its confinement was turned off
    since. After the server's start, not before: it is seldom there, and to know, the bridge
    needs the folder's name (:func:`~roots_manager.core.directory.file_key.file_key`)."""
    from roots_manager.core.directory.file_key import file_key

    for folder in (CONFINED_FOLDER, LAYERS_FOLDER):
        ran_confined = os.path.join(home, folder, file_key(server))
        if os.path.exists(ran_confined):
            import shutil

            shutil.rmtree(ran_confined, ignore_errors=True)
