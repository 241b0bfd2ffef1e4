"""Passes over every root, without Python's cyclic garbage collector running meanwhile.

Reading a store, computing an answer or a table makes hundreds of thousands of objects at
30,000 roots (dictionaries, dataclasses, ``stat`` results) and none of them in a cycle: each is
freed by its count of references. Making them sets the cyclic collector off again and again,
each time over a larger heap, for nothing: a third of ``roots list``'s table of 30,000 roots
(0.45 s -> 0.30 s), a tenth of reading the store (``bench/bench_scale.py``).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """No cyclic collection within the block; set back as it was after it.

    The collector is one for the process: another thread that paused it too may find it on
    again before its own block ends, and only loses the time it would have saved.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
