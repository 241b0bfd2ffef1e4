"""The exec wrapper: confine this process to the given rules, then become the server.

Usage::

    python -m roots_manager.sandbox.confine [--parent PID] [--refusals FD] [--answers FD:SECONDS]
        [--rules-fd FD] [--read-write P]
        [--read-only P] [--runtime P] [--listing P] [--device P] [--tmpdir P] -- COMMAND [ARGS...]

The bridge starts a confined server through this wrapper rather than confining in a
``preexec_fn``, which can deadlock in a threaded process. On Linux this process becomes the server's supervisor
(:mod:`roots_manager.sandbox.supervisor`): its child drops every capability, applies the Landlock
rules and the seccomp filter, and ``exec``s the server, which with everything it starts runs
under them. On macOS the wrapper ``exec``s ``sandbox-exec`` with the generated profile.

With ``--refusals FD`` (Linux), each access the rules refuse the server is told on descriptor
*FD*, one JSON line per refusal (:mod:`roots_manager.sandbox.observer`). With ``--answers
FD:SECONDS`` a read refused while a host's request is in flight waits up to *SECONDS* for the
bridge to say a folder holding it was granted (:mod:`roots_manager.sandbox.asking`).

Exit codes (only before the exec; after it, the server's own): 126 the rules cannot be applied,
127 the command cannot be run, 2 bad usage.
"""

from __future__ import annotations

import errno
import os
import sys

from roots_manager.core.confinement.rules import COMPANIONS, Rules
from roots_manager.support.bundle import restore_user_environment
from roots_manager.support.paths import inside

TYPE_CHECKING = False  # not typing's: the exec wrapper must not pay for importing it
if TYPE_CHECKING:
    from collections.abc import Sequence

EXIT_REFUSED = 126
EXIT_CANNOT_RUN = 127
EXIT_USAGE = 2


def open_rules(rules: Rules) -> tuple[list[tuple[int, int]], list[tuple[str, int]]]:
    """Each rule's path opened without following links, with its Landlock rights; and the real
    path of each folder the server may write, with a descriptor of its own for the supervisor.

    A path that cannot be opened so (missing, a link anywhere in it) gets no rule: it cannot be
    reached either. A granted path whose object is not the one the bridge checked (its
    ``--expect`` identity) gets none and is said: the server starts with less, never with more.
    """
    from roots_manager.sandbox import landlock as ll
    from roots_manager.support.nofollow import Identity, open_no_follow

    expected = {i.path: i for i in map(Identity.from_arg, rules.expect)}
    grouped = (
        (rules.runtime, ll.READ_EXECUTE),
        (rules.listing, ll.READ_DIR),
        (rules.devices, ll.DEVICE),
        (rules.read_only, ll.READ),
        (rules.read_write, ll.READ_WRITE),
        (rules.sockets, ll.SOCKET),
    )
    opened: list[tuple[int, int]] = []
    writable: list[tuple[str, int]] = []
    for path in own_names(rules.own_files):
        fd = _own_file(path)
        if fd is not None:
            opened.append((fd, ll.OWN_FILE))
    for paths, access in grouped:
        for path in paths:
            try:
                fd = open_no_follow(path)
            except OSError as exc:
                if exc.errno in (errno.EMFILE, errno.ENFILE) and sys.platform != "win32":
                    import resource

                    most = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
                    raise OSError(
                        exc.errno,
                        f"after {len(opened)} of its rules, no more descriptors may be opened: "
                        f"more granted folders than this machine lets one process hold open "
                        f"(RLIMIT_NOFILE {most}; a writable grant takes two)",
                    ) from exc
                continue  # missing, or a link on its way: no rule, and no way there
            identity = expected.get(path)
            if identity is not None and not identity.matches(fd):
                os.close(fd)
                print(
                    f"roots-manager confine: {path} is no longer the folder that was granted; "
                    "the server starts without it",
                    file=sys.stderr,
                )
                continue
            opened.append((fd, access))
            if access == ll.READ_WRITE:
                writable.append((os.readlink(f"/proc/self/fd/{fd}"), os.dup(fd)))
    return opened, writable


def own_names(files: Sequence[str]) -> list[str]:
    """Each file of *files* and its SQLite companions beside it (:data:`~roots_manager.core.
    confinement.rules.COMPANIONS`)."""
    return [f + c for f in files for c in ("", *COMPANIONS)]


def _own_file(path: str) -> int | None:
    """A descriptor of the file *path* reached without following links, if it is one regular
    file with no second name (written through another, it would write a place held
    elsewhere); None otherwise (missing: the supervisor makes it)."""
    import stat

    from roots_manager.support.nofollow import open_no_follow

    try:
        fd = open_no_follow(path)
    except OSError:
        return None
    st = os.fstat(fd)
    if stat.S_ISREG(st.st_mode) and st.st_nlink == 1:
        return fd
    os.close(fd)
    return None


def _hold_places(rules: Rules, unkept: Sequence[tuple[str, str]] = ()) -> Rules:
    """Hold the rules' protected, hidden and pinned places by mounts
    (:mod:`roots_manager.sandbox.mounts`), in a mount namespace of this process's own, before
    any rule is opened; the rules as they may be applied.

    Where a place cannot be held (no namespace may be made here, a mount refused), the rules
    lose what would reach it: a writable rule holding a read-only or pinned place becomes
    read-only, a rule holding a hidden place goes. The server starts with less, never more,
    and the wrapper says so. *unkept* are the names of ``--guard`` that cannot be kept from
    being made (each with why): each is handled as a read-only place that cannot be held.
    """
    layers = _layer_folders(rules)
    entries = [
        *(("pin", p) for p in rules.pin),
        *(("protect", p) for p in rules.protect),
        *(("hide", p) for p in rules.hide),
        *(("layer", p) for p in layers),
    ]
    if sys.platform != "linux":  # where Landlock confines
        return rules
    from roots_manager.sandbox import mounts

    # shared memory of its own, never the machine's (another program's segments), unless the
    # user granted a folder there (which the server's own tmpfs would hide)
    granted = (*rules.read_write, *rules.read_only)
    if os.path.isdir(mounts.SHARED_MEMORY) and not any(
        inside(p, mounts.SHARED_MEMORY) for p in granted
    ):
        entries.append((mounts.OWN_TMPFS, mounts.SHARED_MEMORY))

    missed: list[tuple[str, str, str]] = [("guard", path, why) for path, why in unkept]
    try:
        if os.environ.get(NO_NAMESPACE_ENV):
            raise mounts.MountError(errno.EPERM, "refused for a test")
        mounts.enter_namespace()
    except OSError as exc:
        missed += [
            (kind, path, f"no mount namespace: {exc.strerror or exc}") for kind, path in entries
        ]
    else:
        placed = mounts.hold(entries, {p: f for p, (_, f) in layers.items()})
        missed += placed.missed
        if (mounts.OWN_TMPFS, mounts.SHARED_MEMORY) in placed.held:
            rules = rules.replace(read_write=(*rules.read_write, mounts.SHARED_MEMORY))
    missed = [m for m in missed if m[0] != mounts.OWN_TMPFS]  # without: no shared memory
    if not missed:
        return rules
    read_write, read_only = list(rules.read_write), list(rules.read_only)
    for _, path, why in [m for m in missed if m[0] == "layer"]:
        # a cache of the server's own instead, named to it by the package manager's variable:
        # the shared one is not written
        variable, folder = layers[path]
        if not variable.isidentifier():  # no variable moves it (protected.is_variable)
            read_write = [r for r in read_write if r != path]
            print(
                f"roots-manager confine: {path} cannot be layered ({why}); it is not "
                "writable for this run",
                file=sys.stderr,
            )
            continue
        own = os.path.join(folder, "own")
        os.makedirs(own, mode=0o700, exist_ok=True)
        os.environ[variable] = own
        read_write = [own if r == path else r for r in read_write]
        print(
            f"roots-manager confine: {path} cannot be layered ({why}); the server fills a "
            f"cache of its own ({own}) instead",
            file=sys.stderr,
        )
    missed = [m for m in missed if m[0] != "layer"]
    order = {"hide": 0, "protect": 1, "guard": 2, "pin": 3}  # the strongest reason said first
    for kind, path, why in sorted(missed, key=lambda m: order[m[0]]):
        # a rule holding the place, or inside it (but the server's own TMPDIR, which holds
        # nothing of anyone else's)
        held = [r for r in read_write if inside(path, r) or (inside(r, path) and r != rules.tmpdir)]
        for rule in held:
            read_write.remove(rule)
            if kind != "hide":
                read_only.append(rule)
            print(
                f"roots-manager confine: {path} cannot be kept {_HELD[kind]} ({why}); "
                f"{rule} is {'read-only' if kind != 'hide' else 'closed'} for this run",
                file=sys.stderr,
            )
        if kind == "hide":
            for rule in [r for r in read_only if inside(path, r)]:
                read_only.remove(rule)
                print(
                    f"roots-manager confine: {path} cannot be hidden ({why}); "
                    f"{rule} is closed for this run",
                    file=sys.stderr,
                )
    return rules.replace(read_write=tuple(read_write), read_only=tuple(dict.fromkeys(read_only)))


SHORT_NAMES = "/tmp"
"""Where the server's own temporary folder gets a short name (:func:`short_name`)."""


def short_name(tmpdir: str) -> str:
    """A short name for the server's own temporary folder *tmpdir*, the name it is told
    (``TMPDIR``): a link ``/tmp/rm-UID-HASH`` to it, made here, or *tmpdir* itself.

    A Unix socket's path holds at most 107 bytes, and *tmpdir* lies deep in the user's folder
    (``~/.local/share/roots-manager/confined/KEY``): a socket a server binds under a folder of
    its own there (Chromium's ``org.chromium.Chromium.XXXXXX/SingletonSocket``, refused "Socket
    path too long", and the browser gone) could not be named. Through the link it can; the
    kernel binds it in *tmpdir*, where the rules let the server make sockets and connect to its
    own. The link is the user's in the sticky ``/tmp``, so nobody else can replace it; one
    there already is used only if it is the user's own link to *tmpdir* (made at a previous
    start), else *tmpdir* is told as it is."""
    if sys.platform != "linux":
        return tmpdir
    import zlib  # built in: the wrapper imports nothing costly

    # named for the whole path: each Roots Manager folder (a test's) has its servers' own
    key = zlib.crc32(os.fsencode(tmpdir))
    link = os.path.join(SHORT_NAMES, f"rm-{os.geteuid()}-{key:08x}")
    try:
        top = os.stat(SHORT_NAMES)
        if not top.st_mode & 0o1000 or top.st_uid != 0 or len(link) >= len(tmpdir):
            return tmpdir  # not sticky and root's: a name there could be replaced
        try:
            os.symlink(tmpdir, link)
        except FileExistsError:
            import stat

            st = os.lstat(link)
            mine = stat.S_ISLNK(st.st_mode) and st.st_uid == os.geteuid()
            if not mine or os.readlink(link) != tmpdir:
                return tmpdir
    except OSError:
        return tmpdir
    return link


def _layer_folders(rules: Rules) -> dict[str, tuple[str, str]]:
    """Each layered cache of *rules*, with its variable and the folder of its layer."""
    if rules.layers is None:
        return {}
    out = {}
    for entry in rules.layer:
        variable, path = entry.split(":", 1)
        out[path] = (variable, os.path.join(rules.layers, variable))
    return out


_HELD = {"pin": "in place", "protect": "read-only", "hide": "hidden", "guard": "from being made"}
NO_NAMESPACE_ENV = "ROOTS_MANAGER_TEST_NO_MOUNT_NAMESPACE"
"""Test-only: act as if no mount namespace could be made here (the rules fail closed)."""


def _resolve(name: str) -> str:
    """*name* looked up in ``PATH`` now, as ``execvp`` would.

    Done before the rules apply: ``os.execvp`` imports ``warnings`` on its way, which the rules
    no longer let this interpreter read once they apply.
    """
    if os.sep in name:
        return name
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(folder or os.curdir, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return name


def _linux(
    rules: Rules,
    executable: str,
    command: list[str],
    parent: int | None,
    refusals: int | None,
    answers: tuple[int, float] | None = None,
) -> int:
    if sys.platform != "linux":
        raise OSError(f"confinement is not available on {sys.platform} (Linux and macOS only)")
    # the availability module is not imported: its typing import alone would double the cost
    from roots_manager.sandbox import landlock as ll
    from roots_manager.sandbox import seccomp, supervisor

    abi = ll.usable_abi()
    why = ll.refusal(abi)
    if why is not None:
        raise OSError(why)
    # without the filter the server still runs confined by Landlock; the bridge said what
    # is missing (the sockets by path, metadata, the terminal's injection)
    filtered = seccomp.available() is None
    if not rules.network and not filtered:
        # Landlock alone would refuse TCP only: UDP and raw sockets would stay open
        raise OSError("the network cannot be blocked here: seccomp's user notification is missing")
    if rules.network and rules.domains is not None and not filtered:
        # the namespace holds TCP and UDP; a vsock to the host would stay open
        raise OSError(
            "the network cannot be limited to domains here: seccomp's user notification is missing"
        )
    nofile = _most_descriptors()
    kept = None
    unkept: list[tuple[str, str]] = []
    # without the filter the names go unkept, as the metadata goes unmediated (the bridge
    # said so: "protected names")
    if (rules.guard or rules.repositories_beneath or rules.read_write or rules.own_files) and (
        filtered
    ):
        from roots_manager.sandbox import making

        kept, gone = making.Kept.of(rules.guard)
        kept.beneath = tuple(rules.repositories_beneath)
        kept.git = bool(rules.read_write)  # a git folder it may write holds to its rules
        kept.own_files(rules.own_files)
        unkept = [(path, "the folder it would be made in cannot be opened") for path in gone]
    rules = _hold_places(rules, unkept)
    opened, writable = open_rules(rules)
    plan = supervisor.Plan(
        opened,
        writable,
        list(rules.sockets),
        executable,
        command,
        abi,
        filtered,
        network=rules.network,
        events=refusals,
        nofile=nofile,
        max_processes=rules.max_processes,
        kept=kept,
        own=rules.tmpdir,
        answers=answers[0] if answers is not None else None,
        ask=answers[1] if answers is not None else 0.0,
        domains=rules.domains if rules.network else None,
    )
    sys.stdout.flush()
    return supervisor.supervise(plan, parent)


ANSWERS = "--answers"
"""``--answers FD:SECONDS`` (after ``--refusals``): the bridge's answers, read by the supervisor,
and how long a read the rules refuse waits for one (:mod:`~roots_manager.sandbox.asking`)."""
RULES_FD = "--rules-fd"
"""Rules read from this descriptor (NUL-separated options, the last :data:`RULES_END`): a
pipe the bridge writes them to while this process starts, or a sealed memory file; it is
closed once read, so the server never has it."""
RULES_END = "--end-of-rules"
"""The last of the rules read from a descriptor: without it they ended early (the bridge
stopped writing), and nothing runs."""


class _NoRules(Exception):
    """The descriptor closed with nothing written: the bridge started the server otherwise."""


def _rules_from(fd: int) -> list[str]:
    chunks = []
    try:
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    finally:
        os.close(fd)
    if not chunks:
        raise _NoRules
    args = b"".join(chunks).split(b"\0")
    if args[-1:] != [os.fsencode(RULES_END)]:
        raise ValueError("they ended early")
    if b"--" in args:
        raise ValueError("the rules hold a '--'")
    return [os.fsdecode(a) for a in args[:-1]]


def _most_descriptors() -> int | None:
    """Let this process hold as many descriptors as it may (the soft limit up to the hard one):
    each rule is an open descriptor, two for a writable grant, and a server granted thousands
    of folders needs more than the usual 1,024. Returns the soft limit it had, which the server
    gets back before it runs (None: unchanged)."""
    if sys.platform == "win32":
        return None
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == hard:
        return None
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (OSError, ValueError):
        return None
    return soft


def _waits_on_pipe(fd: int) -> bool:
    """Whether the rules come through a pipe the bridge is still writing (a first start), not
    a sealed memory file read at once (a restart), where nothing is waited for."""
    import stat

    try:
        return stat.S_ISFIFO(os.fstat(fd).st_mode)
    except OSError:
        return False  # said when they are read


def _preload() -> None:
    """Load, while the bridge is still working the rules out (the pipe waits for it), every
    module the supervisor needs before the server's first call goes on, and the one its first
    connect needs (``npx`` asks its registry at each start): loaded after the rules, each was
    time the server waited for (``bench/bench_bridge.py``'s confined start)."""
    import contextlib  # loaded already, by making
    import resource  # noqa: F401
    import socket  # noqa: F401
    import zlib  # noqa: F401

    from roots_manager.sandbox import (  # noqa: F401
        asking,
        landlock,
        making,
        mounts,
        observer,
        seccomp,
        supervisor,
    )

    with contextlib.suppress(ImportError):  # not built here: Python judges every call
        from roots_manager.sandbox import _fastobserve  # noqa: F401


def main(argv: Sequence[str] | None = None) -> int:
    """Confine and run the command; returns its exit code (or why it could not run)."""
    args = list(sys.argv[1:] if argv is None else argv)
    parent: int | None = None
    if args[:1] == ["--parent"] and len(args) > 1 and args[1].isdigit():
        parent = int(args[1])
        args = args[2:]
    refusals: int | None = None
    if args[:1] == ["--refusals"] and len(args) > 1 and args[1].isdigit():
        refusals = int(args[1])
        args = args[2:]
    answers: tuple[int, float] | None = None
    if args[:1] == [ANSWERS] and len(args) > 1:
        fd, _, seconds = args[1].partition(":")
        try:
            answers = (int(fd), float(seconds))
        except ValueError:
            print(f"roots-manager confine: {ANSWERS} wants FD:SECONDS", file=sys.stderr)
            return EXIT_USAGE
        args = args[2:]
    if args[:1] == [RULES_FD] and len(args) > 1 and args[1].isdigit():
        if sys.platform == "linux" and _waits_on_pipe(int(args[1])):
            _preload()
        try:
            args = _rules_from(int(args[1])) + args[2:]
        except _NoRules:
            return EXIT_USAGE  # nothing to say: the bridge did not start the server this way
        except (OSError, ValueError) as exc:
            print(f"roots-manager confine: the rules cannot be read: {exc}", file=sys.stderr)
            return EXIT_USAGE
    try:
        rules, command = Rules.from_args(args)
    except ValueError as exc:
        print(f"roots-manager confine: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if rules.tmpdir is not None:
        told = short_name(rules.tmpdir)
        for name in ("TMPDIR", "TMP", "TEMP"):
            os.environ[name] = told
    executable = _resolve(command[0])
    if sys.platform != "darwin":
        try:
            return _linux(rules, executable, command, parent, refusals, answers)
        except OSError as exc:
            print(f"roots-manager confine: the server cannot be confined: {exc}", file=sys.stderr)
            return EXIT_REFUSED
    from roots_manager.sandbox.seatbelt import profile

    executable = "/usr/bin/sandbox-exec"
    command = [executable, "-p", profile(rules), *command]
    sys.stdout.flush()
    try:
        # the bundled bridge is the wrapper in a bundle: what it added is not the server's
        restore_user_environment(os.environ)
        os.execv(executable, command)
    except OSError as exc:
        print(f"roots-manager confine: {command[0]}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_CANNOT_RUN
    return EXIT_CANNOT_RUN


if __name__ == "__main__":
    sys.exit(main())
