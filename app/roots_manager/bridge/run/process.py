"""The real server as a child process: spawn it, feed it, and stop it the way stdio MCP expects.

Stopping follows the ladder the MCP SDKs use (:mod:`roots_manager.support.stop_ladder`, the
app's for the bridge it hosts too): close the server's stdin, wait, SIGTERM, wait, SIGKILL (2 s
each by default; when the host asked the bridge to end, 0.35 s and 0.4 s: the host waits for
the bridge). The server runs in its own process group so that the ladder also
reaches what it spawned itself (``npx`` starts ``node``, shells start their commands), and a
terminal's Ctrl+C reaches only the bridge, which then stops the server in order. On Windows the
tree is a job object (:mod:`~roots_manager.platform.windows.job`): ``CTRL_BREAK_EVENT`` is the
graceful step, ending the job the last.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from roots_manager.support.stop_ladder import Step, StopLadder

TYPE_CHECKING = False  # not typing's: see roots_manager.bridge.main
if TYPE_CHECKING:
    from roots_manager.bridge.run.warden import Warden

GRACE = 2.0
ASKED_EOF = 0.35
"""Seconds a server that does not read its stdin gets after it closes, when the host asked the
bridge to end (closed its stdin, stopped reading): then SIGTERM, and the tree is killed
:data:`AFTER_SIGNAL` later, so that the bridge ends within a second whatever its server does."""
ASKED_READING = 0.5
"""The same for a server that reads its stdin (nothing the host sent waits unread in the pipe):
it sees the end of its input as it would without the bridge and has half a second to exit on
its own (servers that end with their input do so in milliseconds; one that ignores it, as many
Node servers with a timer do, is signalled, where the SDKs wait 2 s: the bridge still ends
within a second). One still starting (younger than :data:`STARTING`) gets :data:`GRACE` to
answer what it was sent (a one-shot ``echo REQUEST | roots-bridge ...``)."""
STARTING = 1.0
"""Seconds a server counts as starting: one asked to end so soon may not have read yet what the
host sent (a one-shot ``echo REQUEST | roots-bridge ...``), and is given the time to."""
SUPERVISOR_ENDS = 10.0
"""Seconds more a supervisor gets after SIGTERM to end the tree (its own limit) before SIGKILL."""
AFTER_SIGNAL = 0.4
"""Seconds a server's tree gets after the host's first signal (or the bridge's own SIGTERM when
the host asked it to end) before the bridge kills it: a bridge told to stop ends within a
second whatever its server does (the SDKs' ladder sends SIGKILL 2 s after SIGTERM, and a bridge
killed first leaves the tree behind). The supervisor of a confined server keeps the same pace
(:data:`roots_manager.sandbox.supervisor.GRACE`)."""
AFTER_ESCALATION = 0.15
"""Seconds it gets after the host's next signal: a host that escalates kills soon (Claude Code:
SIGINT, SIGTERM 100 ms later, SIGKILL at 500 ms). What is left after the kill is the bridge's
own end (the tree reaped, the run's end logged, the process gone): 250 ms of it, enough on a
loaded machine (with 0.25 s, a bridge on two busy cores was sometimes killed before it ended)."""


class ServerProcess:
    """One spawned server; its pipes are pumped by the bridge, its stderr is the bridge's stderr."""

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        *,
        close_stdin: Callable[[], None],
        supervised: bool = False,
        warden: Warden | None = None,
        unread: Callable[[], int | None] = lambda: None,
        started: float | None = None,
    ) -> None:
        """*started*: when *proc* was started (:func:`time.monotonic`), if not now."""
        self.proc = proc
        self.started = time.monotonic() if started is None else started
        self._unread = unread
        """How many bytes sent to the server wait unread in its stdin (None: not known)."""
        self.exited = asyncio.Event()
        self._close_stdin = close_stdin
        self._forwarded: str | None = None
        """The last signal passed on to the server from the host, by name."""
        self._signals = 0
        self._kill_at: asyncio.TimerHandle | None = None
        self._killed_at_host_pace = False
        self._group_killed = False
        """SIGKILL went to the whole group: nothing of it can still run (its zombies may wait for
        a reaper other than the bridge, and must not be waited for)."""
        self.supervised = supervised
        """The process is a confined server's supervisor: after SIGTERM it ends the server's
        tree itself, and a SIGKILL meanwhile would leave what detached from it running."""
        self._warden = warden
        """What ends the tree if the bridge is killed (an unconfined server's, on POSIX)."""

    def watch(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start watching for the server's exit (it sets :attr:`exited` on *loop*)."""

        def wait() -> None:
            self.proc.wait()
            with contextlib.suppress(RuntimeError):  # the loop is already gone
                loop.call_soon_threadsafe(self.exited.set)

        threading.Thread(target=wait, name="server-exit", daemon=True).start()

    @property
    def forwarded(self) -> str | None:
        """The last signal passed on to the server from the host, by name (None: none)."""
        return self._forwarded

    @property
    def pid(self) -> int | None:
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def close_stdin(self) -> None:
        """Close the server's stdin once what is being written to it has been written."""
        self._close_stdin()

    def forward(self, sig: int, *, sent: bool = False) -> None:
        """Pass a signal the bridge received on to the server's tree (POSIX), and keep to the
        host's pace: the tree is killed before the host could kill the bridge. (*sent*: it
        has gone on to the tree already.)"""
        if self.returncode is None and (sent or self._signal_group(sig)):
            self._forwarded = signal.Signals(sig).name
            if not self.supervised:  # a supervisor ends the tree itself, and outlives the bridge
                self._keep_to_host_pace()

    def _keep_to_host_pace(self) -> None:
        loop = asyncio.get_running_loop()
        when = loop.time() + (AFTER_ESCALATION if self._signals else AFTER_SIGNAL)
        self._signals += 1
        if self._kill_at is not None:
            if self._kill_at.when() <= when:
                return
            self._kill_at.cancel()
        self._kill_at = loop.call_at(when, self._kill_at_host_pace)

    def _kill_at_host_pace(self) -> None:
        if self.returncode is None and not self.exited.is_set():
            self._killed_at_host_pace = True
            self._signal_group(KILL)

    def _signal_group(self, sig: int) -> bool:
        pid = self.pid
        if pid is None:
            return False
        sent = signal_tree(self.proc, sig)
        self._group_killed = self._group_killed or (sent and sig == KILL)
        return sent

    async def _wait_exit(self, timeout: float | None) -> bool:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.exited.wait(), timeout)
        return self.exited.is_set()

    def _ladder(self, grace: float, asked: bool) -> StopLadder:
        """The waits of :meth:`stop`: *grace* after each step, or when the host asked the
        bridge to end and waits for it, :data:`ASKED_READING` after the stdin closes
        (:data:`ASKED_EOF` if the server does not read it, *grace* while it starts) and
        :data:`AFTER_SIGNAL` after SIGTERM; a supervisor gets :data:`SUPERVISOR_ENDS` more
        after SIGTERM to end the tree itself. The kill is waited out."""
        patience = grace
        if asked and time.monotonic() - self.started >= STARTING:
            # known before the close: the pipe goes
            patience = ASKED_READING if self._unread() == 0 else ASKED_EOF
        after_signal = AFTER_SIGNAL if asked else grace
        return StopLadder(patience, after_signal + (SUPERVISOR_ENDS if self.supervised else 0))

    async def stop(self, grace: float = GRACE, *, close: bool = True, asked: bool = False) -> str:
        """Close stdin (unless already done), wait, SIGTERM, wait, SIGKILL, with the waits of
        :meth:`_ladder`; returns which step ended the server. *asked*: the host asked the
        bridge to end, and waits for it."""
        asked = asked and sys.platform != "win32"  # a job's break event is not passed on
        ladder = self._ladder(grace, asked)
        # a signal passed on from the host ends most servers before the first step does
        how = self._forwarded or Step.CLOSE_STDIN.value
        for rung in ladder.rungs:
            if rung.step is Step.CLOSE_STDIN:
                if close:
                    self.close_stdin()
            else:
                how = rung.step.value
                self._signal_group(TERMINATE if rung.step is Step.TERMINATE else KILL)
                grace = AFTER_SIGNAL if asked else grace  # for what it left in its group
            if await self._wait_exit(rung.wait):
                break
        if self._kill_at is not None:
            self._kill_at.cancel()
        await self.reap_group(grace)
        return "SIGKILL, at the host's pace" if self._killed_at_host_pace else how

    def kill_group(self) -> None:
        """End the server and its process group at once (the run is ending mid-restart)."""
        self._signal_group(KILL)
        if self._warden is not None:
            self._warden.release()

    async def reap_group(self, grace: float = GRACE) -> None:
        """Stop what the server left running in its process group after it ended itself."""
        try:
            await self._reap_group(grace)
        finally:
            if self._warden is not None:
                self._warden.release()

    async def _reap_group(self, grace: float) -> None:
        if self.pid is None or self._group_killed or not tree_alive(self.proc):
            return
        self._signal_group(TERMINATE)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while tree_alive(self.proc) and loop.time() < deadline:
            await asyncio.sleep(0.05)
        if tree_alive(self.proc):
            self._signal_group(KILL)
        if sys.platform == "win32":
            from roots_manager.platform.windows import job as wintree

            wintree.release(self.proc.pid)


if sys.platform == "win32":
    TERMINATE = signal.CTRL_BREAK_EVENT
    KILL = signal.SIGTERM  # stands for "end the job": see signal_tree
else:
    TERMINATE = signal.SIGTERM
    KILL = signal.SIGKILL


def signal_tree(proc: subprocess.Popen[bytes], sig: int) -> bool:
    """Send *sig* to *proc* and what it started; False if they are gone."""
    try:
        if sys.platform == "win32":
            from roots_manager.platform.windows import job as wintree

            if sig == KILL:
                return wintree.kill(proc.pid) or _quietly_kill(proc)
            if proc.returncode is None:
                proc.send_signal(sig)
            return True
        os.killpg(proc.pid, sig)
        return True
    except (ProcessLookupError, PermissionError, OSError):
        return False


def _quietly_kill(proc: subprocess.Popen[bytes]) -> bool:
    with contextlib.suppress(OSError):
        proc.kill()
    return True


def tree_alive(proc: subprocess.Popen[bytes]) -> bool:
    """Whether *proc* or anything in its process group (its job, on Windows) still runs."""
    if sys.platform == "win32":
        from roots_manager.platform.windows import job as wintree

        return wintree.alive(proc.pid)
    try:
        os.killpg(proc.pid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    if sys.platform == "linux":
        # a group of zombies only waits for its reaper (pid 1 may take seconds): nothing runs
        return _group_runs(proc.pid)
    return True


def _group_runs(pgid: int) -> bool:
    """Whether a process of group *pgid* runs (Linux: not a zombie, read from ``/proc``)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return True
    from roots_manager.platform.linux.procstat import stat_fields

    for name in names:
        fields = stat_fields(name) if name.isdigit() else None
        # state, ppid, pgrp
        if (
            fields
            and len(fields) > 2
            and fields[2] == str(pgid).encode()
            and fields[0] not in (b"Z", b"X")
        ):
            return True
    return False
