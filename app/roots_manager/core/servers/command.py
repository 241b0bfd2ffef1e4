"""Server command lines: the demo server's and the bridge's, splitting a typed command line,
and guessing a server's name from one. Plain functions, no Qt: the app's Connect dialog, the CLI
and tests share them."""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Sequence

DEMO_SERVER_NAME = "roots-demo"


def _frozen_program(name: str) -> str:
    """A program shipped next to the app's executable in a frozen bundle."""
    exe = f"{name}.exe" if os.name == "nt" else name
    return os.path.join(os.path.dirname(sys.executable), exe)


def demo_command() -> list[str]:
    """The command line that starts the demo server shipped in the package."""
    if getattr(sys, "frozen", False):
        return [_frozen_program("roots-demo-server")]
    return [sys.executable, "-m", "roots_manager.demo_server"]


def bridge_command(name: str, command: Sequence[str], options: Sequence[str] = ()) -> list[str]:
    """The argv that starts the bridge in front of *command* as server *name*.

    In a frozen bundle the bridge is a separate executable next to the app's; otherwise the
    bridge module runs under the current interpreter, so the app and the bridge always come
    from the same installation.
    """
    if getattr(sys, "frozen", False):
        bridge = [_frozen_program("roots-bridge")]
    else:
        bridge = [sys.executable, "-m", "roots_manager.bridge.main"]
    return [*bridge, "--server", name, *options, "--", *command]


def split_command(text: str) -> list[str]:
    """Split a command line as a POSIX shell would (Windows: keeping backslashes).

    Raises ValueError with a message meant for the user.
    """
    try:
        argv = shlex.split(text, posix=os.name != "nt")
    except ValueError as exc:
        raise ValueError(str(exc)) from exc
    if os.name == "nt":
        argv = [a[1:-1] if len(a) >= 2 and a[0] == a[-1] == '"' else a for a in argv]
    return argv


_RUNNERS = {"npx", "bunx", "pnpx", "uvx", "pipx"}
_INTERPRETERS = {"node", "deno", "bun", "python", "python3", "py"}
_BUILD_DIRS = {"dist", "build", "src", "lib", "bin", ""}


def default_name(command: Sequence[str]) -> str:
    """A server name guessed from a command line: the package or script it runs."""
    if not command:
        return ""
    if list(command) == demo_command():
        return DEMO_SERVER_NAME
    program = os.path.basename(command[0]).lower().removesuffix(".exe")
    args = [a for a in command[1:] if not a.startswith("-")]
    if (program in _RUNNERS or program.startswith("python")) and "-m" in command[1:]:
        module = command[command.index("-m") + 1] if command.index("-m") + 1 < len(command) else ""
        return module.split(".")[-1] or program
    if program in _RUNNERS and args:
        package = args[0]
        # "@scope/name@1.2" -> "name"
        package = package.rsplit("/", 1)[-1]
        return package.split("@")[0] or program
    if (program in _INTERPRETERS or program.startswith("python")) and args:
        parts = [p for p in args[0].replace("\\", "/").split("/") if p]
        stem = os.path.splitext(parts[-1])[0] if parts else program
        if stem in ("index", "main", "server", "__main__"):
            folders = [p for p in parts[:-1] if p not in _BUILD_DIRS]
            return folders[-1] if folders else stem
        return stem
    return program
