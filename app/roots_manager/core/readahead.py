"""Reading many events' lines back from a log index, a chunk of each file at a time.

Rows of one file come in file order, so one read of a few MiB serves the lines of the rows that
follow; a window per file is kept (runs written side by side interleave their rows), the least
recently used dropped first. Used by the text search and by the timeline's pairing, which read
back many lines in a row where :meth:`~roots_manager.core.logindex.LogIndex.line` would seek
and read once per line.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from roots_manager.core.logindex import LogIndex


class ReadAhead:
    """The lines of rows of a `LogIndex`, read through windows of its files."""

    MAX_WINDOWS = 8  # interleaved runs need one window each; a few suffice

    def __init__(self, index: LogIndex, *, lower: bool = False) -> None:
        self.index = index
        self.lower = lower
        """Lower-case the windows (what a case-insensitive search compares)."""
        self._windows: OrderedDict[int, tuple[bytes, int]] = OrderedDict()

    def forget(self) -> None:
        """Drop the windows read so far (the next rows read what they need afresh)."""
        self._windows.clear()

    def line(self, row: int) -> bytes:
        """The line of *row*; shorter than its length in the index if its file was cut, empty
        if the file is gone."""
        ix = self.index
        no, off, n = ix.file_no[row], ix.offset[row], ix.length[row]
        windows = self._windows
        window = windows.get(no)
        if window is None or not (window[1] <= off and off + n <= window[1] + len(window[0])):
            data = ix.read_at(no, off, n)
            window = (data.lower() if self.lower else data, off)
            windows[no] = window
            while len(windows) > self.MAX_WINDOWS:
                windows.popitem(last=False)
        elif len(windows) > 1:
            windows.move_to_end(no)
        lo = off - window[1]
        return window[0][lo : lo + n]
