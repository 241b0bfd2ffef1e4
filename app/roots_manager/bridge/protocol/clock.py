"""The protocol's clocks: the time is one of its inputs, given by the run layer.

The protocol never reads a clock itself (it imports no :mod:`time`): what a wait or a figure in
the log needs is asked of the :class:`Clock` the run gives it
(:data:`roots_manager.bridge.run.clock.SYSTEM`), and a test gives one whose numbers it chooses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Clock:
    """Where the protocol's times come from: each a function of no argument giving seconds."""

    monotonic: Callable[[], float]
    """Seconds that only go forward, for the waits (:func:`time.monotonic`)."""
    wall: Callable[[], float]
    """Seconds since the epoch, the clock of the log and of a refusal (:func:`time.time`)."""
    perf: Callable[[], float]
    """The finest seconds there are, for how long the bridge took (:func:`time.perf_counter`)."""
