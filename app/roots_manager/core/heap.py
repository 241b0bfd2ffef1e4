"""Giving the memory freed after a large piece of work back to the operating system.

Reading a million events, or filtering them by text, allocates tens of megabytes for a short
while. When they are freed, glibc's allocator keeps most of them in its heap for later (a large
block freed raises its threshold for using separate mappings, so the next ones land in the
heap, between blocks still in use), and the resident memory of the app stays that much higher
for as long as it runs. ``malloc_trim`` returns the free pages. Other C libraries (macOS,
Windows, musl) return large blocks on their own, and have no such call.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from collections.abc import Callable

_trim: Callable[[int], int] | None = None
_looked = False


def _malloc_trim() -> Callable[[int], int] | None:
    global _trim, _looked
    if not _looked:
        _looked = True
        if sys.platform.startswith("linux"):
            name = ctypes.util.find_library("c")
            try:
                libc = ctypes.CDLL(name) if name else None
                _trim = getattr(libc, "malloc_trim", None)
            except OSError:
                _trim = None  # not glibc (musl has no malloc_trim)
    return _trim


def give_back() -> bool:
    """Return the free pages of the C heap to the operating system, where the C library can;
    True when it did."""
    trim = _malloc_trim()
    return bool(trim(0)) if trim is not None else False
