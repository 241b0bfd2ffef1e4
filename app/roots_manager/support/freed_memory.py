"""Giving the memory freed after a large piece of work back to the operating system.

Reading a million events, or filtering them by text, allocates tens of megabytes for a short
while. When they are freed, glibc's allocator keeps most of them in its heap for later (a large
block freed raises its threshold for using separate mappings, so the next ones land in the
heap, between blocks still in use), and the resident memory of the app stays that much higher
for as long as it runs. ``malloc_trim`` returns the free pages. Other C libraries (macOS,
Windows, musl) return large blocks on their own, and have no such call.
"""

from __future__ import annotations

import sys


def give_back() -> bool:
    """Return the free pages of the C heap to the operating system, where the C library can
    (glibc's ``malloc_trim``, :func:`roots_manager.platform.linux.malloc.trim`); True when it
    did."""
    if not sys.platform.startswith("linux"):
        return False
    from roots_manager.platform.linux import malloc

    return malloc.trim()
