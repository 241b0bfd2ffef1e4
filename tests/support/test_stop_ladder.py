"""The stop ladder the bridge and the app share: its steps, in order, with each caller's waits."""

from __future__ import annotations

import pytest

from roots_manager.support.stop_ladder import Rung, Step, StopLadder

CLOSE, TERM, KILL = Step.CLOSE_STDIN, Step.TERMINATE, Step.KILL


@pytest.mark.parametrize(
    ("ladder", "rungs"),
    [
        # the SDKs': 2 s after each step, the kill waited out
        (StopLadder(2.0, 2.0), [Rung(CLOSE, 2.0), Rung(TERM, 2.0), Rung(KILL, None)]),
        # a bridge whose host waits for it, in front of a confined server's supervisor
        (StopLadder(0.35, 10.4), [Rung(CLOSE, 0.35), Rung(TERM, 10.4), Rung(KILL, None)]),
        # the app's, quitting: the kill gets the SIGTERM's grace to show
        (
            StopLadder(5.0, 2.0, kill_wait=2.0),
            [Rung(CLOSE, 5.0), Rung(TERM, 2.0), Rung(KILL, 2.0)],
        ),
        # no polite signal the process can hear: the kill follows the stdin's grace
        (StopLadder(1.0, 3600.0, terminate=False), [Rung(CLOSE, 1.0), Rung(KILL, None)]),
    ],
)
def test_the_steps_come_in_order_each_with_its_wait(ladder: StopLadder, rungs: list[Rung]) -> None:
    assert list(ladder.rungs) == rungs
    # a caller climbing by timer finds the same rungs, one after the other, and then none
    climbed = [ladder.rungs[0]]
    while (following := ladder.after(climbed[-1].step)) is not None:
        climbed.append(following)
    assert climbed == rungs


def test_a_step_the_ladder_does_not_have_is_refused() -> None:
    with pytest.raises(ValueError, match="TERMINATE"):
        StopLadder(1.0, 1.0, terminate=False).after(TERM)
