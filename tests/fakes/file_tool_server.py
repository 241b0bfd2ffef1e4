"""An SDK ``MCPServer`` whose tools read and write any path, ignoring its roots entirely.

Run as ``python file_tool_server.py``. Its tools answer ``ok``, the text read, or the error's
name (``EACCES``): whatever stops it is the kernel, never the server's own good will.
"""

from __future__ import annotations

import errno
import os
import time

from mcp.server.mcpserver import MCPServer

server = MCPServer("file-tool")


def _failure(exc: OSError) -> str:
    return errno.errorcode.get(exc.errno or 0, str(exc))


@server.tool()
def write_file(path: str, text: str) -> str:
    """Write *text* to *path*, whatever the roots say."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        return _failure(exc)
    return "ok"


@server.tool()
def read_file(path: str) -> str:
    """The text at *path*, whatever the roots say."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as exc:
        return _failure(exc)


@server.tool()
def list_folder(path: str) -> str:
    """The names in folder *path*, one a line, whatever the roots say."""
    try:
        return "\n".join(sorted(os.listdir(path)))
    except OSError as exc:
        return _failure(exc)


@server.tool()
def read_many(folder: str, parts: int, count: int) -> str:
    """Open ``FOLDER/partP/fI`` for each part and index (a walk over names known in advance:
    a refused folder cannot be listed); how many were refused."""
    refused = 0
    for p in range(parts):
        for i in range(count):
            try:
                os.close(os.open(f"{folder}/part{p}/f{i}", os.O_RDONLY))
            except PermissionError:
                refused += 1
            except OSError:
                pass
    return f"refused {refused} of {parts * count}"


@server.tool()
def temp_dir() -> str:
    """Where the server's temporary files go, after writing one there."""
    folder = os.environ.get("TMPDIR", "")
    try:
        with open(os.path.join(folder, "probe"), "w", encoding="utf-8") as f:
            f.write("x")
    except OSError as exc:
        return _failure(exc)
    return folder


def _gated() -> None:
    """With ``FILE_TOOL_GATE`` set, the server says it has started (``GATE.started-PID``, beside
    the gate) and waits for the gate file to exist: a test holds a start it knows has begun."""
    gate = os.environ.get("FILE_TOOL_GATE")
    if not gate:
        return
    with open(f"{gate}.started-{os.getpid()}", "w", encoding="utf-8"):
        pass
    while not os.path.exists(gate):
        time.sleep(0.01)


if __name__ == "__main__":
    _gated()
    server.run()
