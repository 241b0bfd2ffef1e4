"""The observer's hot path in C (``sandbox/_fastobserve.c``): it lets a call through untold only
where the Python observer would tell nothing (judging it by the same steps: the names, then the
path the kernel reaches), and hands every other call to Python.

The same calls (paths, descriptors, flags, rules) are put to both, from this very process: the
C decision reads the path with ``process_vm_readv`` and resolves it from ``/proc/TID`` exactly
as it does for a confined server, and so does the Python observer.
"""

from __future__ import annotations

import ctypes
import errno
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hypothesis
import pytest

from tests.conftest import only_on_linux

pytestmark = only_on_linux("Landlock and seccomp are Linux kernel features")

AT_FDCWD = -100
O_PATH = 0o10000000
O_NOFOLLOW = 0o400000
O_DIRECTORY = 0o200000
O_CLOEXEC = 0o2000000
O_NONBLOCK = 0o4000
"""Linux's values, written out as the observer's are: the module imports on every system."""
FLAGS = (
    os.O_RDONLY, os.O_WRONLY, os.O_RDWR, 3, os.O_CREAT, os.O_TRUNC, O_PATH, O_NOFOLLOW,
    O_DIRECTORY, os.O_EXCL, O_CLOEXEC, O_NONBLOCK, os.O_APPEND,
)  # fmt: skip
NAMES = (
    *("granted", "readonly", "filerule", "outside", "sub", "file", "f", "secret", "missing"),
    *("link_out", "link_in", "link_dir", "to_granted", "..", ".", ""),
)
AT_SYMLINK_NOFOLLOW = 0x100


def _fast() -> Any:
    try:
        from roots_manager.sandbox import _fastobserve
    except ImportError:
        pytest.fail(
            "roots_manager.sandbox._fastobserve did not build (is there a C compiler?); "
            "ROOTS_MANAGER_PURE_OBSERVER=1 runs the Python observer alone"
        )
    return _fastobserve


@pytest.fixture
def tree() -> Iterator[Path]:
    base = Path(tempfile.mkdtemp(prefix="rm-fastobserve-"))
    for folder in ("granted/sub", "readonly", "outside/dir"):
        (base / folder).mkdir(parents=True)
    for name in ("granted/file", "granted/sub/f", "readonly/f", "filerule", "outside/secret"):
        (base / name).write_text("x", encoding="utf-8")
    (base / "granted" / "link_out").symlink_to(base / "outside" / "secret")
    (base / "granted" / "link_in").symlink_to(base / "granted" / "file")
    (base / "granted" / "link_dir").symlink_to(base / "outside")
    # a folder on the way that is a link into the grant, as /lib is to usr/lib
    (base / "outside" / "to_granted").symlink_to(base / "granted")
    yield base
    shutil.rmtree(base, ignore_errors=True)


class Both:
    """One Python observer and its hot path in C, over the same rules."""

    def __init__(self, base: Path, root_listing: bool, *, writes: bool = False) -> None:
        from roots_manager.sandbox import landlock as ll
        from roots_manager.sandbox import seccomp
        from roots_manager.sandbox.observer import Observer, Rule, fast_path

        rules = [
            Rule(str(base / "granted"), ll.READ_WRITE, True),
            Rule(str(base / "readonly"), ll.READ, True),
            Rule(str(base / "filerule"), ll.READ_FILE, False),
        ]
        if root_listing:
            rules.append(Rule("/", ll.READ_DIR, True))
        self.read, self.write = os.pipe()
        os.set_blocking(self.write, False)
        self.observer = Observer(rules, 7, self.write)
        self.numbers = seccomp.SYSCALLS[seccomp.machine()]
        _fast()
        fast = fast_path(self.observer, -1, seccomp.machine(), writes=writes)
        assert fast is not None
        self.fast = fast
        self.tid = threading.get_native_id()

    def close(self) -> None:
        os.close(self.read)
        os.close(self.write)

    def put(self, name: str, path: bytes, flags: int, dirfd: int = AT_FDCWD) -> tuple[bool, Any]:
        """The C decision (True: let through untold), and what the Python observer finds
        (None: nothing to tell). *flags*: an open's, or execveat's."""
        from roots_manager.sandbox import notified_calls

        buffer = ctypes.create_string_buffer(path)
        address = ctypes.addressof(buffer)
        args = {
            "openat": (dirfd & 0xFFFFFFFF, address, flags, 0o644, 0, 0),
            "execveat": (dirfd & 0xFFFFFFFF, address, 0, 0, flags, 0),
            "execve": (address, 0, 0, 0, 0, 0),
        }.get(name, (address, flags, 0o644, 0, 0, 0))
        through = self.fast.decide(self.tid, self.numbers[name], args)
        raw = notified_calls.NOTIF.pack(1, self.tid, 0, self.numbers[name], 0, 0, *args)
        caller = notified_calls._Caller(-1, notified_calls.Notification(raw))
        return through, self.observer.judge(caller, name, args)


@pytest.fixture
def both(tree: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Both]:
    monkeypatch.delenv("ROOTS_MANAGER_PURE_OBSERVER", raising=False)
    monkeypatch.delenv("ROOTS_MANAGER_BENCH_OBSERVER_FLOOR", raising=False)
    monkeypatch.chdir(tree)
    made = Both(tree, root_listing=False)
    yield made
    made.close()


def test_what_is_let_through_and_what_goes_to_python(both: Both, tree: Path) -> None:
    """A table of the decisions, each the Python observer's by the names."""
    t = str(tree).encode()
    expected = [
        # (call, path, flags, let through in C)
        ("openat", t + b"/granted/file", os.O_RDONLY | os.O_CLOEXEC, True),
        ("open", t + b"/granted/sub/f", os.O_RDONLY, True),
        ("openat", t + b"/granted/sub", os.O_RDONLY | os.O_DIRECTORY, True),
        ("openat", t + b"/granted/sub/../file", os.O_RDWR, True),
        ("openat", t + b"//granted/./file", os.O_WRONLY, True),  # one slash of two, "." gone
        ("openat", b"granted/file", os.O_RDONLY, True),  # from the working folder
        ("openat", t + b"/readonly/f", os.O_RDONLY, True),
        ("openat", t + b"/filerule", os.O_RDONLY, True),  # a file: read_file is what it asks
        ("openat", t + b"/filerule", os.O_RDONLY | os.O_DIRECTORY, True),  # ENOTDIR: untold
        ("openat", t + b"/readonly/f", os.O_WRONLY, False),  # refused: Python tells it
        ("openat", t + b"/outside/secret", os.O_RDONLY, False),
        ("openat", t + b"/outside/dir", os.O_RDONLY, False),  # a folder listed
        ("openat", t + b"/outside/dir", os.O_WRONLY, True),  # a folder opened to write: EISDIR
        ("openat", t + b"/granted/../outside/secret", os.O_RDONLY, False),
        ("openat", t + b"/granted/link_in", os.O_RDONLY, True),  # a link: judged at its target
        ("openat", t + b"/granted/link_out", os.O_RDONLY, False),
        ("openat", t + b"/outside/to_granted/file", os.O_RDONLY, True),  # a link on the way
        ("openat", t + b"/outside/to_granted/../secret", os.O_RDONLY, False),  # ".." after it
        ("openat", t + b"/outside/missing", os.O_RDONLY, True),  # ENOENT, never a refusal
        ("openat", t + b"/outside/to_granted", os.O_RDONLY | O_NOFOLLOW, False),  # ELOOP: Python
        ("execve", t + b"/granted/file", 0, True),
        ("execve", t + b"/readonly/f", 0, False),  # not to be run: Python tells it
        ("execve", t + b"/outside/secret", 0, False),
        ("execve", t + b"/outside/to_granted/sub/f", 0, True),
        ("execve", t + b"/granted/link_in", 0, True),
        ("execve", t + b"/granted/link_out", 0, False),
        ("execve", t + b"/granted/sub", 0, True),  # a folder: EACCES, but not Landlock's
        ("execve", t + b"/outside/missing", 0, True),
        ("execveat", b"file", 0, True),  # from the working folder
        ("execveat", t + b"/granted/link_out", AT_SYMLINK_NOFOLLOW, True),  # ELOOP
        ("openat", t + b"/granted/link_out", os.O_RDONLY | O_NOFOLLOW, True),  # the link itself
        ("openat", t + b"/granted/new", os.O_WRONLY | os.O_CREAT, False),  # made: to Python
        ("openat", t + b"/granted/file", os.O_WRONLY | os.O_TRUNC, False),
        ("openat", t + b"/outside/secret", O_PATH, True),  # no right to hold a path
        ("openat", t + b"/outside/secret", 3, True),  # nothing asked
        ("openat", b"", os.O_RDONLY, False),
        ("openat", b"/proc/self/cwd/granted/file", os.O_RDONLY, False),  # the caller's: Python
        ("openat", b"//" + t[1:] + b"/granted/file", os.O_RDONLY, False),  # "//": Python's
        ("openat", t + b"/granted/missing", os.O_RDONLY, True),  # ENOENT, never a refusal
    ]
    for name, path, flags, through in expected:
        dirfd = AT_FDCWD
        if name == "execveat" and not path.startswith(b"/"):
            dirfd = os.open(tree / "granted", os.O_RDONLY | os.O_DIRECTORY)
        try:
            got, found = both.put(name, path, flags, dirfd)
        finally:
            if dirfd != AT_FDCWD:
                os.close(dirfd)
        assert got == through, (name, path, flags, found)
        if got:
            assert found is None, (name, path, flags, found)


def test_where_the_supervisor_opens_what_writes_every_such_open_goes_to_python(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With repositories kept beneath a grant, the supervisor opens every file opened to
    write (roots_manager.sandbox.making): the C path lets through only what reads."""
    monkeypatch.delenv("ROOTS_MANAGER_PURE_OBSERVER", raising=False)
    monkeypatch.chdir(tree)
    writes = Both(tree, root_listing=False, writes=True)
    try:
        t = str(tree).encode()
        for flags, through in (
            (os.O_RDONLY, True),
            (os.O_WRONLY, False),
            (os.O_RDWR, False),
            (O_PATH | os.O_WRONLY, True),  # a path held: nothing is written
        ):
            assert writes.put("openat", t + b"/granted/file", flags)[0] is through, flags
    finally:
        writes.close()


def test_relative_paths_are_joined_to_the_callers_descriptor(both: Both, tree: Path) -> None:
    granted = os.open(tree / "granted", os.O_RDONLY | os.O_DIRECTORY)
    outside = os.open(tree / "outside", os.O_RDONLY | os.O_DIRECTORY)
    try:
        assert both.put("openat", b"file", os.O_RDONLY, granted) == (True, None)
        assert both.put("openat", b"sub/../file", os.O_RDONLY, granted) == (True, None)
        through, found = both.put("openat", b"secret", os.O_RDONLY, outside)
        assert not through and found is not None
        through, found = both.put("openat", b"../outside/secret", os.O_RDONLY, granted)
        assert not through and found is not None
        assert both.put("openat", b"file", os.O_RDONLY, 999)[0] is False  # no such descriptor
    finally:
        os.close(granted)
        os.close(outside)


def test_a_long_relative_path_is_judged_whole(both: Both, tree: Path) -> None:
    """A descriptor deep in the grant and a long path from it: together longer than PATH_MAX,
    which the kernel allows (each is shorter), and judged as Python judges them."""
    deep = tree / "granted"
    for i in range(14):
        deep = deep / (f"{i:02}" * 100)
    deep.mkdir(parents=True)
    folder = os.open(deep, os.O_RDONLY | os.O_DIRECTORY)
    try:
        long = os.fsencode("/".join(["b" * 250] * 14) + "/f")
        assert len(os.fsencode(str(deep))) + len(long) > 6000
        for _ in range(2):  # the second from what the first remembered
            assert both.put("openat", long, os.O_RDONLY, folder) == (True, None)
            assert both.put("openat", b"../" * 15 + b"outside/secret", 0, folder)[0] is False
    finally:
        os.close(folder)


def test_a_path_the_caller_does_not_hold_is_handed_to_python(both: Both) -> None:
    numbers = both.numbers
    for address in (0, 8, 1 << 63, (1 << 64) - 1):
        assert not both.fast.decide(both.tid, numbers["openat"], (AT_FDCWD, address, 0, 0, 0, 0))
    # a path that runs into memory that is not there
    page = ctypes.CDLL(None).getpagesize()
    assert page > 0
    long = ctypes.create_string_buffer(b"/" * 5000)  # no NUL within PATH_MAX
    assert not both.fast.decide(
        both.tid, numbers["openat"], (AT_FDCWD, ctypes.addressof(long), 0, 0, 0, 0)
    )
    # a path across two pages is read whole; one that runs off its mapping is not
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                          ctypes.c_int, ctypes.c_long)  # fmt: skip
    libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
    pages = libc.mmap(None, 2 * page, 3, 0x22, -1, 0)  # read and write, private, anonymous
    assert pages not in (None, ctypes.c_void_p(-1).value)
    try:
        path = os.fsencode(os.getcwd()) + b"/granted/sub/f"
        start = pages + page - len(path) // 2
        ctypes.memmove(start, path + b"\0", len(path) + 1)
        assert both.fast.decide(both.tid, numbers["openat"], (AT_FDCWD, start, 0, 0, 0, 0))
        assert libc.munmap(pages + page, page) == 0
        assert not both.fast.decide(both.tid, numbers["openat"], (AT_FDCWD, start, 0, 0, 0, 0))
    finally:
        libc.munmap(pages, 2 * page)
    # other calls, the socket's case too, are Python's
    for name in ("mkdir", "unlink", "execve", "truncate", "socket", "creat"):
        if name in numbers:
            assert not both.fast.decide(both.tid, numbers[name], (AT_FDCWD, 0, 0, 0, 0, 0))


def test_the_c_path_never_lets_through_what_python_would_tell(tree: Path) -> None:
    """Differential: paths drawn from the tree's names (links, a folder on the way that is a
    link, "..", ".", empty ones, missing files), absolute, relative to the working folder or to
    a descriptor, opened with any flags or run, under two sets of rules: whenever C lets a call
    through, the Python observer finds no refusal."""
    st = hypothesis.strategies

    old = os.getcwd()
    os.chdir(tree)
    granted = os.open(tree / "granted", os.O_RDONLY | os.O_DIRECTORY)
    outside = os.open(tree / "outside", os.O_RDONLY | os.O_DIRECTORY)
    observers = [Both(tree, root_listing=False), Both(tree, root_listing=True)]
    seen = {True: 0, False: 0}
    try:

        @hypothesis.settings(max_examples=2000, deadline=None, database=None)
        @hypothesis.example("granted", ["link_out"], False, [], "openat", 0)
        @hypothesis.example("abs", ["granted", "link_dir", "secret"], False, [], "open", 1)
        @hypothesis.example("cwd", ["granted", "..", "outside", "secret"], False, [], "open", 0)
        @hypothesis.example("abs", ["readonly", "f"], False, [os.O_RDWR], "openat", 1)
        @hypothesis.example("abs", ["outside", "to_granted", "..", "secret"], False, [], "open", 0)
        @hypothesis.example("outside", ["to_granted", "link_out"], False, [], "execveat", 0)
        @hypothesis.given(
            start=st.sampled_from(["abs", "cwd", "granted", "outside"]),
            parts=st.lists(st.sampled_from(NAMES), max_size=5),
            trailing=st.booleans(),
            flags=st.lists(st.sampled_from(FLAGS), max_size=4),
            name=st.sampled_from(["openat", "open", "execve", "execveat"]),
            which=st.integers(0, 1),
        )
        def check(
            start: str, parts: list[str], trailing: bool, flags: list[int], name: str, which: int
        ) -> None:
            path = "/".join(parts) + ("/" if trailing else "")
            dirfd = AT_FDCWD
            if start == "abs":
                path = f"{tree}/{path}"
            elif start in ("granted", "outside"):
                if name in ("open", "execve"):
                    return
                dirfd = granted if start == "granted" else outside
            mask = 0
            for flag in flags:
                mask |= flag
            if name.startswith("execve"):  # execveat's own flag, or none
                mask = AT_SYMLINK_NOFOLLOW if name == "execveat" and mask & 1 else 0
            through, found = observers[which].put(name, os.fsencode(path), mask, dirfd)
            seen[through] += 1
            if through:
                assert found is None, (name, path, oct(mask), start, found)

        check()
    finally:
        os.chdir(old)
        os.close(granted)
        os.close(outside)
        for made in observers:
            made.close()
    assert seen[True] > 50 and seen[False] > 50, seen  # both ways were exercised


def test_serve_answers_the_allowed_opens_itself_and_hands_on_the_rest(tree: Path) -> None:
    """A real seccomp listener: a child process opens files in and out of the rules; serve()
    lets through, untold, the allowed reads, and returns each other call to Python."""
    from roots_manager.sandbox import landlock, libc, notified_calls, seccomp
    from roots_manager.sandbox.observer import Observer, Rule, fast_path

    _fast()
    go_r, go_w = os.pipe()
    said_r, said_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the filter is for this process only
        try:
            landlock.set_no_new_privs()
            listener = seccomp.install(seccomp.machine(), sockets=False, observe=True)
            os.write(said_w, b"%d\n" % listener)
            os.read(go_r, 1)
            os.close(listener)
            results = []
            for name in ("granted/file", "granted/sub/f", "outside/secret", "granted/file"):
                try:
                    os.close(os.open(f"{tree}/{name}", os.O_RDONLY))
                    results.append("ok")
                except OSError as exc:
                    results.append(errno.errorcode[exc.errno])
            os.write(said_w, (" ".join(results) + "\n").encode())
        finally:
            os._exit(0)
    os.close(go_r)
    os.close(said_w)
    read, write = os.pipe()
    try:
        number = int(os.read(said_r, 64))
        pidfd = os.pidfd_open(pid)
        listener = libc.pidfd_getfd(pidfd, number)
        os.close(pidfd)
        from roots_manager.sandbox import landlock as ll

        observer = Observer([Rule(str(tree / "granted"), ll.READ_WRITE, True)], 7, write)
        fast = fast_path(observer, listener, seccomp.machine())
        assert fast is not None
        os.write(go_w, b"k")
        handed: list[notified_calls.Notification] = []
        while True:
            events, raw = fast.serve([said_r], 10_000)
            if raw is not None:
                note = notified_calls.Notification(raw)
                handed.append(note)
                notified_calls.respond(listener, note, flags=notified_calls.FLAG_CONTINUE)
                continue
            assert events, "serve() timed out"
            if any(fd == said_r for fd, _ in events):
                break
        said = os.read(said_r, 4096).decode().split()
        os.waitpid(pid, 0)
        os.close(listener)
    finally:
        os.close(go_w)
        os.close(said_r)
        os.close(read)
        os.close(write)
    assert said == ["ok", "ok", "ok", "ok"]  # no Landlock here: every open went on
    names = seccomp.names(seccomp.machine())
    # the one outside the rules came back to Python, the three inside did not
    opens = [n for n in handed if names.get(n.nr) in ("open", "openat")]
    assert len(opens) == 1, [names.get(n.nr) for n in handed]
    passed, to_python = fast.counts()
    assert passed >= 3 and to_python == len(handed)
