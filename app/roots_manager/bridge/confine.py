"""Starting the server confined: the exec wrapper around its command, or a refusal.

Whether to confine is decided before the server starts: ``--confine`` forces it, otherwise the
server's stored setting decides. A bridge asked to confine on a machine that cannot never starts
the server unconfined: it refuses with :data:`EXIT_NOT_CONFINED` and says why.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
from collections.abc import Sequence

from roots_manager.bridge.spawn import spawn

EXIT_NOT_CONFINED = 126
"""The shell's "cannot execute": the server was asked to run confined and cannot be."""
CONFINE_OPTION = "--confine"
_BOOT = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from roots_manager.sandbox.confine import main; sys.exit(main(sys.argv[2:]))"
)
"""The wrapper runs with ``-I -S``: without site, Python starts in a third of the time, and the
package is found through the folder it was imported from here."""


class ConfinementRefused(OSError):
    """The server was to run confined, and cannot: the bridge exits 126 without starting it."""

    exit_code = EXIT_NOT_CONFINED


def forced(options: Sequence[str]) -> bool:
    """Whether *options* (before ``--``) hold ``--confine``, however argparse lets it be shortened."""
    return any(o.startswith("--conf") and CONFINE_OPTION.startswith(o) for o in options)


def _stored_setting(store_path: str, server: str) -> bool | None:
    """The server's stored ``confine`` at a glance (None: the store cannot be read now).

    A glance rather than the checked read, which is only needed, and done, when confining. A
    store that is not a regular file (a FIFO would block the open) or is damaged reads as None.
    """
    try:
        fd = os.open(store_path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return False
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb") as f:
            fd = -1
            doc = json.load(f)
    except (OSError, ValueError, RecursionError):
        return None
    finally:
        if fd >= 0:
            os.close(fd)
    servers = doc.get("servers") if isinstance(doc, dict) else None
    entry = servers.get(server) if isinstance(servers, dict) else None
    return isinstance(entry, dict) and entry.get("confine") is True


def wrapped(command: Sequence[str], server: str, force: bool) -> list[str]:
    """The command line to start: *command*, or the wrapper confining it.

    Raises :class:`ConfinementRefused` when confinement is asked for and cannot be had.
    """
    from roots_manager.core.paths import Layout

    layout = Layout.default()
    stored = _stored_setting(str(layout.store), server)
    if not force and stored is False:
        return list(command)
    from roots_manager.core.confined import rules_for, wants_confinement
    from roots_manager.core.model import fingerprint
    from roots_manager.core.paths import ensure_private_dir
    from roots_manager.core.store import Store, StoreError
    from roots_manager.sandbox.availability import availability

    try:
        state = Store(layout.ensure()).read()
    except (StoreError, OSError) as exc:
        if force:
            raise ConfinementRefused(
                f"the grants to confine the server to cannot be read: {exc}"
            ) from exc
        # the bridge keeps serving over a damaged store, as before confinement existed; it says
        # so rather than confine with rules made from nothing
        print(
            f"roots-bridge: the store cannot be read ({exc}), so whether {server!r} is to run "
            "confined is unknown: it runs unconfined (--confine makes sure)",
            file=sys.stderr,
            flush=True,
        )
        return list(command)
    if not (force or wants_confinement(state, server)):
        return list(command)
    found = availability()
    if not found.available:
        raise ConfinementRefused(
            f"confinement was asked for and {found.reason}; the server is not started unconfined"
        )
    digest = hashlib.sha256(server.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    tmpdir = ensure_private_dir(layout.home / "confined" / digest)
    rules = rules_for(
        state,
        server,
        command,
        fingerprint=fingerprint(command),
        env=os.environ,
        cwd=os.getcwd(),
        tmpdir=str(tmpdir),
    )
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    app_dir = os.path.dirname(package_parent)
    return [sys.executable, "-I", "-S", "-c", _BOOT, app_dir, *rules.to_args(), "--", *command]


def start(command: Sequence[str], server: str, force: bool) -> subprocess.Popen[bytes]:
    """Start the server, confined if asked; raises :class:`OSError` if it cannot start."""
    return spawn(wrapped(command, server, force))
