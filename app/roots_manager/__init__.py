"""Roots Manager: decide which of your folders each MCP server may see, and watch what it does."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("roots-manager")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0.0.0"

APP_ID = "io.github.rootsmanager.RootsManager"
"""The reverse-DNS application id, used by the desktop entry, the metainfo and Qt."""
