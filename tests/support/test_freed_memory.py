"""Freed memory goes back to the operating system after a large piece of work."""

from __future__ import annotations

import platform
import sys

import psutil
import pytest

from roots_manager.support import freed_memory


def _rss_mb() -> float:
    return float(psutil.Process().memory_info().rss) / 2**20


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
    reason="malloc_trim is glibc's; other C libraries return large blocks on their own",
)
def test_memory_freed_in_the_heap_is_returned() -> None:
    # Blocks under glibc's threshold for separate mappings come from the heap (as the reads of
    # a big scan do once the threshold has risen), each followed by a small block kept.
    kept: list[bytes] = []
    pins: list[bytes] = []
    block, pin = 64 * 1024, 4096  # names, not literals: a literal b"p" * 4096 is one constant
    for _ in range(2560):  # 160 MiB
        kept.append(b"k" * block)
        pins.append(b"p" * pin)
    assert len({id(p) for p in pins}) == len(pins)
    del kept
    before = _rss_mb()  # freed, but held by the allocator between the pins
    assert freed_memory.give_back()
    after = _rss_mb()
    assert before - after > 50, (before, after)
    assert all(p == b"p" * pin for p in pins)  # what is in use is untouched


def test_giving_back_with_nothing_freed_is_harmless() -> None:
    data = [str(i) for i in range(10_000)]
    freed_memory.give_back()
    assert data[-1] == "9999"
