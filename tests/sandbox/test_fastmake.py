"""The thread that makes a confined server's names, in C (``_fastmake.c``) and in Python
(``making.Maker``), alike: confined to the server's Landlock ruleset, so that what the kernel
refuses the server it refuses there with the same errno, and nothing at all when it could not
be confined.

Real Landlock rulesets on real folders, in this process: only the maker's thread is confined.
The C thread not built is a failure, as the observer's is (``test_fastobserve.py``): the
install builds it wherever a C compiler is. Its other half, the open it answers itself while
the supervisor goes on, is run by confined servers (``tests/security/test_names_kept.py``).
"""

from __future__ import annotations

import errno
import os
import queue
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import only_on_linux

pytestmark = only_on_linux("a confined server's names are made by its supervisor: Linux")

if sys.platform == "linux":
    from roots_manager.sandbox import landlock, making


def _c(ruleset: int) -> Any:
    try:
        from roots_manager.sandbox import _fastmake
    except ImportError:
        pytest.fail("roots_manager.sandbox._fastmake did not build (is there a C compiler?)")
    return _fastmake.Maker(ruleset)


MAKERS: dict[str, Callable[[int], Any]] = {"C": _c, "Python": lambda r: making.Maker(r)}


@pytest.fixture
def places(tmp_path: Path) -> Iterator[tuple[Path, Path, int, int]]:
    """A granted folder, a folder beside it that is not, and a descriptor of each."""
    if landlock.usable_abi() < 1:
        pytest.fail("this kernel has no Landlock: the maker cannot be confined")
    granted, other = tmp_path / "granted", tmp_path / "other"
    granted.mkdir()
    other.mkdir()
    fds = os.open(granted, os.O_RDONLY | os.O_DIRECTORY), os.open(other, os.O_RDONLY)
    yield granted, other, *fds
    for fd in fds:
        os.close(fd)


def _maker(kind: str, granted: Path) -> Any:
    held = os.open(granted, os.O_PATH | os.O_CLOEXEC)
    try:
        ruleset = landlock.ruleset([(held, landlock.READ_WRITE)], landlock.usable_abi())
    finally:
        os.close(held)
    return MAKERS[kind](ruleset)


@pytest.mark.parametrize("kind", MAKERS)
def test_names_are_made_in_the_grant_as_asked(
    kind: str, places: tuple[Path, Path, int, int]
) -> None:
    granted, _, folder, _ = places
    maker = _maker(kind, granted)
    assert maker.failed is None
    fd = maker.open(b"file", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o640, folder)
    try:
        assert os.write(fd, b"written") == 7
        assert not os.get_inheritable(fd), "every descriptor made there is close-on-exec"
    finally:
        os.close(fd)
    assert (granted / "file").read_bytes() == b"written"
    assert stat.S_IMODE((granted / "file").stat().st_mode) == 0o640, "the mode as asked: umask 0"
    maker.mkdir(b"folder", 0o750, folder)
    assert stat.S_IMODE((granted / "folder").stat().st_mode) == 0o750
    maker.mknod(b"fifo", stat.S_IFIFO | 0o600, 0, folder)
    assert stat.S_ISFIFO((granted / "fifo").lstat().st_mode)
    maker.symlink(b"file", b"link", folder)
    assert os.readlink(granted / "link") == "file"
    with pytest.raises(OSError) as long:
        maker.symlink(b"x" * 4096, b"long", folder)
    assert long.value.errno == errno.ENAMETOOLONG
    source = os.open(granted / "file", os.O_RDONLY)
    try:
        maker.link(source, b"second", folder)
    finally:
        os.close(source)
    assert (granted / "file").stat().st_nlink == 2
    maker.rename(folder, b"second", folder, b"renamed", 0)
    assert (granted / "renamed").exists() and not (granted / "second").exists()
    with pytest.raises(OSError) as kept:
        maker.rename(folder, b"renamed", folder, b"file", making.RENAME_NOREPLACE)
    assert kept.value.errno == errno.EEXIST, "renameat2's flags are passed on"
    maker.unlink(b"renamed", folder)
    maker.rmdir(b"folder", folder)
    assert not (granted / "renamed").exists() and not (granted / "folder").exists()
    again = maker.open(b"file", os.O_RDONLY, 0, folder)
    os.close(again)
    with pytest.raises(OSError) as missing:
        maker.open(b"missing", os.O_RDONLY, 0, folder)
    assert missing.value.errno == errno.ENOENT


@pytest.mark.parametrize("kind", MAKERS)
def test_outside_the_grant_the_kernel_refuses_as_it_refuses_the_server(
    kind: str, places: tuple[Path, Path, int, int]
) -> None:
    granted, other, _, elsewhere = places
    maker = _maker(kind, granted)
    tries: list[Callable[[], object]] = [
        lambda: maker.open(b"file", os.O_WRONLY | os.O_CREAT, 0o600, elsewhere),
        lambda: maker.open(str(other / "file").encode(), os.O_WRONLY | os.O_CREAT, 0o600, None),
        lambda: maker.mkdir(b"folder", 0o700, elsewhere),
        lambda: maker.symlink(b"/", b"link", elsewhere),
        lambda: maker.mknod(b"fifo", stat.S_IFIFO | 0o600, 0, elsewhere),
    ]
    for attempt in tries:
        with pytest.raises(OSError) as refused:
            attempt()
        assert refused.value.errno == errno.EACCES
    assert list(other.iterdir()) == [], "nothing made beside the grant"
    # this thread is not confined: only the maker's is
    (other / "mine").write_text("the test's own", encoding="utf-8")


@pytest.mark.parametrize("kind", MAKERS)
def test_a_maker_that_cannot_be_confined_makes_nothing(
    kind: str, places: tuple[Path, Path, int, int]
) -> None:
    granted, _, folder, _ = places
    maker = MAKERS[kind](os.open(os.devnull, os.O_RDONLY))  # no ruleset
    assert maker.failed
    for attempt in (
        lambda: maker.open(b"file", os.O_WRONLY | os.O_CREAT, 0o600, folder),
        lambda: maker.mkdir(b"folder", 0o700, folder),
    ):
        with pytest.raises(OSError) as refused:
            attempt()
        assert refused.value.errno == errno.EPERM
    assert list(granted.iterdir()) == []


@pytest.mark.parametrize("kind", MAKERS)
def test_a_fifo_opened_later_answers_when_its_writer_comes(
    kind: str, places: tuple[Path, Path, int, int]
) -> None:
    """The open of a FIFO's reader waits for a writer in a thread of its own (started from the
    confined one), while the maker goes on making names."""
    granted, _, folder, _ = places
    os.mkfifo(granted / "fifo")
    maker = _maker(kind, granted)
    got: queue.SimpleQueue[int | OSError] = queue.SimpleQueue()
    maker.later(b"fifo", os.O_RDONLY, 0, folder, got.put)
    made = maker.open(b"meanwhile", os.O_WRONLY | os.O_CREAT, 0o600, folder)
    os.close(made)
    assert got.empty(), "no writer yet"
    writer = os.open(granted / "fifo", os.O_WRONLY)
    try:
        reader = got.get(timeout=10)
        assert isinstance(reader, int), reader
        os.write(writer, b"through")
        assert os.read(reader, 16) == b"through"
        os.close(reader)
    finally:
        os.close(writer)
    maker.later(b"missing", os.O_RDONLY, 0, folder, got.put)
    missing = got.get(timeout=10)
    assert isinstance(missing, OSError) and missing.errno == errno.ENOENT, missing
