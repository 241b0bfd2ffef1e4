"""The macOS ``sandbox-exec`` profile (SBPL) for a confined server.

Deny by default; the runtime paths readable and executable; the roots and the writable paths
read and write; read-only grants readable. The network stays open, as on Linux. Untested on a
real Mac: the tests check the generated text only.

SBPL is a Scheme: a path goes in a string literal, where a backslash and a double quote are
escaped, and every byte outside printable ASCII is written as ``\\xHH`` (the profile matches
paths as their UTF-8 bytes, and a control character in a literal would be read as itself).
"""

from __future__ import annotations

import os

from roots_manager.core.confinement.rules import Rules

_HEADER = """(version 1)
(deny default)
(allow process-fork)
(allow signal (target same-sandbox))
(allow sysctl-read)
(allow mach-lookup)
(allow ipc-posix-shm)
(allow network*)
(allow file-read-metadata)
"""


def quote(path: str) -> str:
    """*path* as an SBPL string literal."""
    out = []
    for byte in os.fsencode(path):
        c = chr(byte)
        if c in '"\\':
            out.append("\\" + c)
        elif 0x20 <= byte < 0x7F:
            out.append(c)
        else:
            out.append(f"\\x{byte:02x}")
    return '"' + "".join(out) + '"'


def _filter(path: str) -> str:
    # subpath matches a folder and all beneath it; a file is matched as itself
    kind = "subpath" if os.path.isdir(path) else "literal"
    return f"({kind} {quote(path)})"


def profile(rules: Rules) -> str:
    """The SBPL profile text for *rules*."""
    lines = [_HEADER.rstrip("\n")]
    groups = (
        ("file-read* process-exec", rules.runtime),
        ("file-read-data", rules.listing),
        ("file-read* file-write*", rules.devices),
        ("file-read*", rules.read_only),
        ("file-read* file-write*", rules.read_write),
    )
    for operations, paths in groups:
        for path in paths:
            lines.append(f"(allow {operations} {_filter(path)})")
    return "\n".join(lines) + "\n"
