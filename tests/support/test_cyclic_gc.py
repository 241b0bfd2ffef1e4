"""The cyclic collector paused over a pass of many roots, and always set back as it was."""

from __future__ import annotations

import gc

import pytest

from roots_manager.core.store.file import Store, StoreUnreadable
from roots_manager.support import cyclic_gc


def test_the_collector_is_off_within_and_as_it_was_after() -> None:
    assert gc.isenabled()
    with cyclic_gc.paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), cyclic_gc.paused():
        raise ValueError("a failed pass")
    assert gc.isenabled()
    gc.disable()  # turned off by the program itself: left off
    try:
        with cyclic_gc.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_reading_a_store_good_or_damaged_leaves_the_collector_on(store: Store) -> None:
    with store.transaction() as state:
        state.policy = "deny"
    assert store.read().policy == "deny" and gc.isenabled()
    store.path.write_text('{"schema": 1, "roots": [', encoding="utf-8")
    with pytest.raises(StoreUnreadable):
        store.read()
    assert gc.isenabled()
