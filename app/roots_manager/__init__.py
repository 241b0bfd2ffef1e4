"""Roots Manager: decide which of your folders each MCP server may see, and watch what it does."""

from __future__ import annotations

__version__ = "0.1.0"
"""The version, read from here by the build too (``pyproject.toml``)."""

APP_ID = "io.github.rootsmanager.RootsManager"
"""The reverse-DNS application id, used by the desktop entry, the metainfo and Qt."""
