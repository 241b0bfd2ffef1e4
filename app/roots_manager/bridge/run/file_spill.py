"""The private files where a bridge run's kept MRTR requests wait past the memory bound.

The protocol keeps the host's recent 2026-07-28 requests in case the server answers one with
``input_required`` (:mod:`roots_manager.bridge.protocol.mrtr`); past
:data:`~roots_manager.bridge.protocol.mrtr.MAX_REMEMBERED_BYTES` the older ones are handed here
(its :class:`~roots_manager.bridge.protocol.mrtr.Spill`), one file each, in a folder private to
the user (``mkdtemp`` makes it 0700) made at the first one and removed with the run.
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path


class FileSpill:
    """Kept requests in files: :meth:`put` gives the file's path back."""

    def __init__(self) -> None:
        self._folder: Path | None = None

    def put(self, line: bytes) -> Path:
        import tempfile  # here: few runs ever spill, and tempfile brings shutil, lzma and bz2

        if self._folder is None:
            import shutil

            self._folder = Path(tempfile.mkdtemp(prefix="roots-bridge-requests-"))
            weakref.finalize(self, shutil.rmtree, self._folder, True)
        fd, name = tempfile.mkstemp(dir=self._folder)
        with os.fdopen(fd, "wb") as f:
            f.write(line)
        return Path(name)

    def take(self, token: object) -> bytes:
        assert isinstance(token, Path)
        line = token.read_bytes()
        token.unlink(missing_ok=True)
        return line

    def drop(self, token: object) -> None:
        assert isinstance(token, Path)
        token.unlink(missing_ok=True)
