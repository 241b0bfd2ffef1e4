"""The run's files where kept MRTR requests wait past the memory bound: private, and gone."""

from __future__ import annotations

import gc
import stat
import sys

from roots_manager.bridge.run.file_spill import FileSpill


def test_kept_requests_wait_in_private_files_that_go_with_the_spill() -> None:
    spill = FileSpill()
    first, second = spill.put(b"one\n"), spill.put(b"two\n")
    folder = first.parent
    assert second.parent == folder and first != second
    if sys.platform != "win32":
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert spill.take(first) == b"one\n" and not first.exists()
    spill.drop(second)
    assert not second.exists()
    spill.put(b"three\n")
    del spill
    gc.collect()
    assert not folder.exists()
