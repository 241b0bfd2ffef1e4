"""The warden: what ends a server's tree, and takes the run's live marker away, when the bridge
itself is killed.

A host's last word is ``SIGKILL``, and a bridge killed with it runs no code: a server that reads
no stdin and ignores every other signal would then outlive it, with whatever it started (npm's
``npm exec`` → ``sh`` → ``node``). The warden is what ends it: a
``/bin/sh`` of its own session, started right after the server, that waits on a pipe only the
bridge can write. When the bridge says the tree is gone (``done``), the warden leaves; when the
pipe ends without that, the bridge died: the warden removes the run's live marker (a bridge
killed before it could take the marker away would leave the app and ``servers list`` showing a
run that is over), then sends the server's process group ``SIGTERM`` and, a second later,
``SIGKILL``. A confined server gets one for its marker alone: its supervisor, which watches the
bridge through a pidfd (:mod:`roots_manager.sandbox.supervisor`), ends its tree, the processes
that left the group included, and no signal of the warden's may cut that short.

It costs a fork of the shell (about half a millisecond, after the server has started) and a
process asleep in ``read``: no wake-ups. POSIX only (on Windows the job object ends the tree
when the bridge's handle closes). A process that left the group (``setsid``) is beyond it:
confinement's subreaper covers that.
"""

from __future__ import annotations

import contextlib
import os
import subprocess

SHELL = "/bin/sh"
SCRIPT = (
    'read -r said; [ "$said" = done ] && exit 0; rm -f -- "$2"; [ "$1" = - ] && exit 0; '
    'kill -TERM -"$1" 2>/dev/null || exit 0; sleep 1; kill -KILL -"$1" 2>/dev/null; exit 0'
)
"""The warden's program: ``$1`` is the server's process group (``-``: a supervisor's, which
ends its tree itself), ``$2`` the run's live marker."""
NAME = "roots-bridge-warden"
"""Its ``$0``, what ``ps`` shows beside the script."""


class Warden:
    """The warden of one server's process group."""

    def __init__(self, proc: subprocess.Popen[bytes], fd: int) -> None:
        self._proc = proc
        self._fd: int | None = fd

    @classmethod
    def start(cls, pgid: int | None, marker: str) -> Warden | None:
        """A warden of the process group *pgid* (None: the marker's alone) and of the live
        marker at *marker*; None where none can be started (no shell)."""
        r, w = os.pipe()  # not inheritable: no server started later holds the bridge's end
        try:
            proc = subprocess.Popen(
                [SHELL, "-c", SCRIPT, NAME, "-" if pgid is None else str(pgid), marker],
                stdin=r,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,  # the host's stderr pipe must end with the bridge
                start_new_session=True,  # a host that kills the bridge's group spares it
            )
        except OSError:
            os.close(w)
            return None
        finally:
            os.close(r)
        return cls(proc, w)

    @property
    def pid(self) -> int:
        return self._proc.pid

    def release(self) -> None:
        """The tree is gone: the warden leaves without a signal (no-op after the first)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            os.write(fd, b"done\n")
        os.close(fd)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(0.5)  # it exits at once: reaped, not left a zombie
