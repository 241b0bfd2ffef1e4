"""A host's own file: read only if it is one, written whole or not at all, never over the host.

Only a regular file is read (:mod:`roots_manager.support.statefile` refuses a named pipe, a device, a
link to nothing, naming the path). It is written as a new file beside it that then takes its
place, so that a reader sees the old file or the new one, never half of one; a file or a folder
that is read-only is refused before anything is written, although the folder alone would let
the file be replaced: read-only is how people keep a host, or a dotfile manager, from changing
a file. Every refusal is one sentence that names the file.

The host may write its file while we do: the file is replaced only if it is still what was read
(:mod:`roots_manager.support.unchanged`, as the store is). A host write found before or just after
our rename leaves the host's file in place, whole, and nothing of ours; the caller makes the
change again from what the host wrote, or says it did not make it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from roots_manager.support import statefile, trace, unchanged

MAX_HOST_FILE_BYTES = 1 << 30
"""The largest host file read. Claude Code keeps its project history in ``~/.claude.json``,
which passes a hundred megabytes; the limit only stops a file that is no host's settings from
filling the memory, where an edit holds a few copies of it."""


class HostFileError(OSError):
    """A host file cannot be read or written; the message is one sentence that names it.

    :attr:`path` is the file when the cause is the system's (a full disk), for a front end
    that words the cause its own way.
    """

    def __init__(self, message: str, path: Path | None = None) -> None:
        super().__init__(message)
        self.path = path


class FileChanged(HostFileError):
    """The host wrote the file while we did; what it wrote is in place, our change is not."""


def _reason(exc: OSError) -> str:
    text = exc.strerror or str(exc)
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def read_host_file(path: Path) -> bytes:
    """The bytes of a host file (links followed); only a regular file of sensible size."""
    try:
        data = statefile.read_regular(path, MAX_HOST_FILE_BYTES)
        trace.debug("read the host file %s (%d bytes)", path, len(data))
        return data
    except statefile.NotRegularFile as exc:
        # a link to /dev/zero says it is a link, not only a device
        raise HostFileError(
            f"{statefile.described(path)} is {exc.kind}, not a regular file"
        ) from exc
    except statefile.DanglingLink:
        raise
    except statefile.TooLarge as exc:
        raise HostFileError(
            f"{path} holds more than {MAX_HOST_FILE_BYTES >> 20} MiB, too much for a host's "
            "settings, and is not read"
        ) from exc
    except OSError as exc:
        raise HostFileError(f"{path} cannot be read: {_reason(exc)}") from exc


def check_writable(path: Path) -> None:
    """Refuse, before anything is written, a file or a folder that will not take the write."""
    target = Path(os.path.realpath(path))
    if not os.path.exists(target):
        raise HostFileError(f"{path} no longer exists")
    if not os.access(target, os.W_OK):
        raise HostFileError(f"{path} is read-only")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise HostFileError(
            f"the folder of {path} is read-only, and the new file is written there before it "
            "takes the old one's place"
        )


def write_host_file(
    path: Path,
    data: bytes,
    expected: bytes,
    *,
    before_rename: Callable[[], None] | None = None,
) -> None:
    """Replace host file *path* with *data*, atomically, keeping its mode.

    *expected* is what the file held when the change was made from it. Raises
    :class:`FileChanged` if the host wrote the file in the meantime: the host's file is then in
    place, whole, and nothing of ours is (:func:`roots_manager.support.unchanged.replace_unchanged`).
    A file that is a symbolic link is replaced where the link points, so the link stays (dotfile
    managers use them). *before_rename* runs between the last look at the file and the rename
    (tests make the host write there).
    """
    check_writable(path)
    target = Path(os.path.realpath(path))
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, mode)
            unchanged.replace_unchanged(
                tmp,
                target,
                unchanged.Read(expected),
                limit=MAX_HOST_FILE_BYTES,
                before_rename=before_rename,
            )
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        if os.name != "nt":
            dfd = os.open(target.parent, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
    except unchanged.Changed as exc:
        raise FileChanged(str(exc).replace(str(target), str(path))) from exc
    except HostFileError:
        raise
    except OSError as exc:
        raise HostFileError(f"{path} cannot be written: {_reason(exc)}", path) from exc
    trace.debug("wrote the host file %s (%d bytes)", path, len(data))
