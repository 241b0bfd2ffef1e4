"""How the probe reaches a server: through ``roots-bridge``, with the run's private directory."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import anyio
from mcp import StdioServerParameters
from mcp.shared.exceptions import MCPError

from roots_manager.core.directory.layout import HOME_ENV, LOGS_ENV, Layout

ALLOW = "{allow}"
"""Where the server's command line takes its folders: replaced by the scratch tree's top."""

CLOSED = (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream)
"""What the SDK's streams raise once the bridge has gone."""


def bridge_program() -> list[str]:
    """How to start ``roots-bridge``: the executable next to the app's in a frozen bundle (as
    the app's Connect dialog does), else this Python's module."""
    if getattr(sys, "frozen", False):
        exe = "roots-bridge" + (".exe" if os.name == "nt" else "")
        return [os.path.join(os.path.dirname(sys.executable), exe)]
    return [sys.executable, "-m", "roots_manager.bridge"]


def leaf(exc: BaseException) -> BaseException:
    """The first real error inside task groups' wrappers."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def said(exc: BaseException) -> str:
    """What went wrong, in a line: the first real error's message."""
    exc = leaf(exc)
    if isinstance(exc, MCPError):
        return exc.message
    return str(exc) or type(exc).__name__


def server_params(
    command: Sequence[str], top: Path, layout: Layout, name: str
) -> StdioServerParameters:
    """The bridge in front of *command* (``{allow}`` replaced by *top*), its store and logs
    where *layout* says."""
    argv = [a.replace(ALLOW, str(top)) for a in command]
    env = dict(os.environ)
    env[HOME_ENV] = str(layout.home)
    env.pop(LOGS_ENV, None)
    if layout.log_dir is not None:
        env[LOGS_ENV] = str(layout.log_dir)
    bridge = bridge_program()
    return StdioServerParameters(
        command=bridge[0], args=[*bridge[1:], "--server", name, "--", *argv], env=env
    )


def stderr_tail(path: Path, chars: int = 2000) -> str:
    """The end of what the server (and its bridge) wrote on stderr: its last words."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return text[-chars:]


@dataclass(frozen=True)
class Timeouts:
    """How long the probe waits, in seconds."""

    start: float = 60.0
    """For the server to answer ``initialize`` (``npx`` may download it first)."""
    call: float = 10.0
    """For each call."""
    first_ask: float = 3.0
    """For the server's own ``roots/list`` after ``initialized`` (some ask only later)."""
    reask: float = 5.0
    """For the server to ask again after ``list_changed``."""
    settle: float = 0.3
    """After the bridge answered, for the server to apply the roots it was given."""


MODERN = "2026-07-28"
HANDSHAKE = "initialize"
PROTOCOLS = (HANDSHAKE, MODERN)
"""How the probe speaks to the server: the ``initialize`` handshake (the server picks a revision
up to 2025-11-25), or 2026-07-28 (``server/discover``, roots with each request)."""
