"""Fixtures of the app shell's tests (defined in shell_support, shared by every GUI test)."""

from tests.gui.shell_support import controller, watcher

__all__ = ["controller", "watcher"]
