"""Linux (glibc): one malloc arena for a process whose threads take turns anyway, and what it
freed given back to the system once it is idle.

glibc gives each thread that allocates an arena of its own, so that threads allocating at once
do not wait for each other; each arena keeps the pages it once used. A bridge's threads (the
event loop and one relay per direction) mostly take turns under Python's interpreter lock, and
the relays allocate little, so the extra arenas buy nothing and cost an idle bridge about
0.2 MiB (``bench/bench_idle.py``, fifty bridges at a time). ``mallopt(M_ARENA_MAX, 1)``, made
before the threads start, keeps them all in the main arena. Where the C library is not glibc,
or the call fails, nothing changes.
"""

from __future__ import annotations

import ctypes

M_ARENA_MAX = -8
"""glibc's ``mallopt`` parameter for the most arenas a process may have."""


def one_arena() -> bool:
    """Ask glibc for one malloc arena for the whole process; whether it agreed."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt to speak of)
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, 1))


def trim() -> bool:
    """Give the pages malloc holds free back to the system (``malloc_trim(0)``): a bridge that
    has read the store again after a change keeps what the reading freed otherwise, for as long
    as it idles. Whether anything was given back (False where the C library has no such call)."""
    try:
        malloc_trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return False
    malloc_trim.argtypes = [ctypes.c_size_t]
    malloc_trim.restype = ctypes.c_int
    return bool(malloc_trim(0))
