"""The environment a server gets when Roots Manager runs from a bundle (PyInstaller).

A bundle sets ``LD_LIBRARY_PATH`` (``DYLD_LIBRARY_PATH`` on macOS) to its own folder, keeping the
user's in ``..._ORIG``, and adds ``_PYI_*`` variables. Passed on to a server, they make ``node``
load the bundle's older ``libstdc++`` ("GLIBCXX not found"). Kept free of heavy imports: the
exec wrapper of confined servers uses it too, on every start.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's: the exec wrapper must not pay for importing it
if TYPE_CHECKING:
    from collections.abc import MutableMapping


def restore_user_environment(env: MutableMapping[str, str]) -> bool:
    """Undo in *env* what a bundle added, if this process is one; True if it is."""
    if not getattr(sys, "frozen", False):
        return False
    for name in ("LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH"):
        original = env.pop(name + "_ORIG", None)
        env.pop(name, None)
        if original is not None:
            env[name] = original
    for name in [n for n in env if n.startswith("_PYI_") or n == "_MEIPASS2"]:
        del env[name]
    return True
