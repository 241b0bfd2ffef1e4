"""Which rows of the log index the live log shows: the window a view's rows map into.

The live log shows index rows from ``base`` on (rows before it were cleared from the view).
Unfiltered, the view is the contiguous range ``[base, shown)``. Filtered, the view is the list
``rows`` of matching index rows. A filter examines index rows in order up to ``target`` (every
indexed row, or only those known when the view was paused); ``done`` is how far it has come,
and ``found`` holds matches examined but not yet in the view. New rows reach the view only
through :meth:`take_pending` (one insertion per flush), so the Qt model can announce them.

The rules, asserted after every change (cheaply: ends of arrays, not every element):

- ``0 <= base <= done <= target``;
- unfiltered: ``base <= shown <= done``, and nothing is ``found``;
- filtered: ``rows`` then ``found`` are increasing index rows in ``[base, done)``, every row in
  ``found`` after every row in ``rows``.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Insertion:
    """Rows about to enter the view: *count* of them at view row *first*."""

    first: int
    count: int


class LogWindow:
    """The mapping between the live log's view rows and the log index's rows."""

    def __init__(self) -> None:
        self.base = 0
        self.shown = 0
        self.done = 0
        self.target = 0
        self.rows: array[int] | None = None
        self.found: array[int] = array("Q")
        self.check()

    # ---- the rules ------------------------------------------------------------------------

    def check(self) -> None:
        """Assert the window's rules (see the module's docstring)."""
        assert 0 <= self.base <= self.done <= self.target, (self.base, self.done, self.target)
        if self.rows is None:
            assert self.base <= self.shown <= self.done, (self.base, self.shown, self.done)
            assert not self.found
            return
        for part in (self.rows, self.found):
            if part:
                assert self.base <= part[0] and part[-1] < self.done, (part[0], part[-1])
        if self.rows and self.found:
            assert self.rows[-1] < self.found[0]

    # ---- reading ----------------------------------------------------------------------------

    @property
    def filtered(self) -> bool:
        return self.rows is not None

    def __len__(self) -> int:
        """How many rows the view shows."""
        return len(self.rows) if self.rows is not None else self.shown - self.base

    def index_row(self, view_row: int) -> int | None:
        """The index row at *view_row*, None when the view has no such row."""
        if not 0 <= view_row < len(self):
            return None
        return self.rows[view_row] if self.rows is not None else self.base + view_row

    def view_row_of(self, index_row: int) -> int | None:
        """The view row showing *index_row*, None when it is not shown."""
        if self.rows is None:
            view_row = index_row - self.base
            return view_row if 0 <= view_row < self.shown - self.base else None
        lo, hi = 0, len(self.rows)  # the rows are increasing: a binary search
        while lo < hi:
            mid = (lo + hi) // 2
            if self.rows[mid] < index_row:
                lo = mid + 1
            else:
                hi = mid
        return lo if lo < len(self.rows) and self.rows[lo] == index_row else None

    def index_rows(self) -> Iterator[int]:
        """The index rows shown, top to bottom."""
        return iter(self.rows) if self.rows is not None else iter(range(self.base, self.shown))

    @property
    def left(self) -> int:
        """Index rows still to examine before the target is reached."""
        return self.target - self.done

    @property
    def progress(self) -> float:
        """How far the examination has gone from the base to the target, 0.0 to 1.0."""
        span = self.target - self.base
        return 1.0 if span <= 0 else min(max((self.done - self.base) / span, 0.0), 1.0)

    # ---- changing ---------------------------------------------------------------------------

    def restart(self, base: int, *, filtered: bool) -> None:
        """Empty the view and start again from index row *base*."""
        self.target = max(self.target, base)
        self.base = self.done = self.shown = base
        self.rows = array("Q") if filtered else None
        self.found = array("Q")
        self.check()

    def aim(self, target: int) -> None:
        """Examine up to index row *target* (never back); unfiltered, that is at once."""
        self.target = max(target, self.done)
        if self.rows is None:
            self.done = self.target
        self.check()

    def examined(self, stop: int, matches: Iterable[int]) -> None:
        """The rows up to *stop* were examined; *matches* are those that pass the filter."""
        assert self.rows is not None, "only a filter examines rows"
        assert self.done <= stop <= self.target, (self.done, stop, self.target)
        new = array("Q", matches)
        # matches come from the rows just examined, in order: so the view stays in index order
        assert not new or (self.done <= new[0] and new[-1] < stop), (self.done, stop)
        self.found.extend(new)
        self.done = stop
        self.check()

    def pending(self) -> Insertion | None:
        """The rows waiting to enter the view, if any (see :meth:`take_pending`)."""
        if self.rows is None:
            added = self.done - self.shown
            return Insertion(self.shown - self.base, added) if added > 0 else None
        return Insertion(len(self.rows), len(self.found)) if self.found else None

    def take_pending(self) -> int:
        """Put the waiting rows into the view; returns how many."""
        if self.rows is None:
            added = self.done - self.shown
            self.shown = self.done
        else:
            added = len(self.found)
            self.rows.extend(self.found)
            self.found = array("Q")
        self.check()
        return added
