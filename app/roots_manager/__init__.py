"""Roots Manager: decide which of your folders each MCP server may see, and watch what it does."""

from __future__ import annotations

APP_ID = "io.github.rootsmanager.RootsManager"
"""The reverse-DNS application id, used by the desktop entry, the metainfo and Qt."""


def __getattr__(name: str) -> str:
    # Looked up on first use: importlib.metadata costs tens of milliseconds, and the bridge,
    # which imports this package, should start the server as early as it can.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("roots-manager")
        except PackageNotFoundError:  # pragma: no cover - a source tree that is not installed
            return "0.0.0"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
