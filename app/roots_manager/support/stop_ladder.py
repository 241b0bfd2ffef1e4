"""How a stdio process is stopped: close its stdin, wait, ask it to end, wait, kill it.

This is the shutdown the MCP stdio transport gives a server (the SDKs wait 2 s after each
step). The bridge stops its server this way and the app stops the bridge it hosts this way,
each with waits of its own: the bridge's are short when the host waits for it, the app's
longer since the bridge's own ladder runs inside its first wait. The ladder is the steps and
the waits only; each caller carries a step out with what it has (signals to a process group on
an event loop, a ``QProcess`` and its timer) and climbs to the next when the process has not
ended within the wait.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Step(Enum):
    """One step of the ladder, named as a stop's log says which ended the process."""

    CLOSE_STDIN = "stdin closed"
    TERMINATE = "SIGTERM"
    """A polite signal: ``SIGTERM``, or a console's break event on Windows."""
    KILL = "SIGKILL"


@dataclass(frozen=True)
class Rung:
    """A step, and how long to wait for the process to end after it before the next."""

    step: Step
    wait: float | None
    """Seconds (None: until it ends)."""


@dataclass(frozen=True)
class StopLadder:
    """The steps that stop a process and the seconds waited after each."""

    stdin_grace: float
    """After its stdin is closed."""
    term_grace: float
    """After the polite signal."""
    kill_wait: float | None = None
    """After the kill (None: until it ends)."""
    terminate: bool = True
    """Whether the polite signal is a step: without it, the kill follows the stdin's grace (a
    signal the process cannot hear would only delay the kill)."""

    @property
    def rungs(self) -> tuple[Rung, ...]:
        """The steps in order, each with its wait."""
        polite = (Rung(Step.TERMINATE, self.term_grace),) if self.terminate else ()
        return (Rung(Step.CLOSE_STDIN, self.stdin_grace), *polite, Rung(Step.KILL, self.kill_wait))

    def after(self, step: Step) -> Rung | None:
        """The rung to climb to when the process has not ended within *step*'s wait (None:
        *step* was the last)."""
        steps = [r.step for r in self.rungs]
        if step not in steps:
            raise ValueError(f"{step.name} is not a step of this ladder")
        at = steps.index(step) + 1
        return self.rungs[at] if at < len(steps) else None
