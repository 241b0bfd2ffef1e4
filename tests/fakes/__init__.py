"""The fake MCP servers and hosts the tests run as real processes, in one place.

Each is a script started by path (``python FAKES/file_tool_server.py``), behind a real bridge or
in front of a real host: what they fake is the other side's behaviour (a puppet driven line by
line, a hostile server that tries every way out, a host that rewrites its file), never the code
under test."""

from __future__ import annotations

from pathlib import Path

FAKES = Path(__file__).resolve().parent
"""This folder: where each fake's script is."""
