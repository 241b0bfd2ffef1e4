"""Whether a path lies in a folder: compared by whole components, the one such test.

Every "is this path in that folder" of the package is :func:`inside`, from the store's grants to
the sandbox's rules and the folder watch. Pure standard library and no imports of the package,
light enough for the bridge's start and the exec wrapper.
"""

from __future__ import annotations

import os


def inside(path: str, folder: str) -> bool:
    """Whether *path* is *folder* or lies beneath it (both absolute and normalised): compared
    by whole components, so that ``/srv/data2`` is not inside ``/srv/data``."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)
