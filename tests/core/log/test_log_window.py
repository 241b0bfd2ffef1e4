"""The live log's window over the index: view rows to index rows, its rules, plain Python."""

from __future__ import annotations

import pytest

from roots_manager.core.log.window import Insertion, LogWindow


def test_unfiltered_rows_enter_the_view_as_one_insertion_per_flush() -> None:
    w = LogWindow()
    w.aim(5)  # five rows indexed: nothing to examine without a filter
    assert (w.done, w.left, len(w)) == (5, 0, 0)
    assert w.pending() == Insertion(0, 5)
    assert w.take_pending() == 5 and w.pending() is None
    assert [w.index_row(i) for i in range(6)] == [0, 1, 2, 3, 4, None]
    w.aim(8)
    assert w.pending() == Insertion(5, 3)
    w.take_pending()
    assert list(w.index_rows()) == list(range(8))
    assert w.view_row_of(7) == 7 and w.view_row_of(8) is None

    # cleared: the view starts after what was shown; the index keeps its numbering
    w.restart(8, filtered=False)
    assert len(w) == 0 and w.base == 8
    w.aim(10)
    w.take_pending()
    assert list(w.index_rows()) == [8, 9]
    assert w.view_row_of(9) == 1 and w.view_row_of(3) is None


def test_a_filter_examines_in_slices_and_shows_matches_in_order() -> None:
    w = LogWindow()
    w.aim(100)
    w.restart(0, filtered=True)
    w.aim(100)
    assert w.left == 100 and w.progress == 0.0
    w.examined(40, [3, 17, 39])
    assert w.progress == 0.4 and w.pending() == Insertion(0, 3)
    w.take_pending()
    w.examined(100, [40, 99])
    assert w.pending() == Insertion(3, 2)
    w.take_pending()
    assert list(w.index_rows()) == [3, 17, 39, 40, 99]
    assert w.view_row_of(40) == 3 and w.view_row_of(41) is None
    assert w.progress == 1.0 and w.left == 0


def test_the_rules_are_asserted() -> None:
    w = LogWindow()
    w.aim(10)
    with pytest.raises(AssertionError):
        w.examined(5, [1])  # only a filter examines
    w.restart(0, filtered=True)
    w.aim(10)
    with pytest.raises(AssertionError):
        w.examined(20, [])  # past the target
    w.examined(5, [4])
    with pytest.raises(AssertionError):
        w.examined(8, [2])  # a match before one already found
    w2 = LogWindow()
    w2.aim(10)
    w2.restart(0, filtered=True)
    w2.aim(10)
    with pytest.raises(AssertionError):
        w2.examined(5, [7])  # a match beyond what was examined
    w3 = LogWindow()
    w3.aim(3)
    w3.aim(1)  # the target never moves back
    assert w3.target == 3
