"""Fixtures of the app shell's tests (defined in shell_support, shared by every GUI test)."""

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from roots_manager.gui.common.resources import install_translators
from tests.gui.shell_support import controller, watcher

__all__ = ["controller", "english", "watcher"]


@pytest.fixture(autouse=True, scope="session")
def english(qapp: QApplication) -> Iterator[None]:
    """English as the app shows it: the source text with its plural forms (see main())."""
    installed = install_translators(qapp, "en")
    yield
    for t in installed:
        qapp.removeTranslator(t)
