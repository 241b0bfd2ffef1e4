"""How a ``roots-manager`` command fails: its exit code and, under ``--json``, its error document.

Scripts read one JSON document on stdout whatever happens, so every failure under ``--json`` is
printed as ``{"version": 1, "error": {"code": ..., "message": ...}}``: the message is for people,
the code is for scripts and comes from the small fixed vocabulary :data:`CODES`, written here
once and listed in ``docs/cli-json.md`` (a test holds the two together). A refusal of core is
given its code by its template (:data:`TEMPLATE_CODES`), so the code stays the same when the
English wording of a message is improved.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from roots_manager.cli.exits import EXIT_INTERRUPTED, EXIT_REFUSED, EXIT_STORE, EXIT_USAGE
from roots_manager.core.confinement.learning import ALREADY_LEARNING, CANNOT_CONFINE
from roots_manager.core.roots import uri
from roots_manager.core.roots.root import BROAD_REFUSALS, TOO_LONG
from roots_manager.core.servers.names import visible
from roots_manager.core.store.file import StoreError
from roots_manager.core.store.log_limits import RETENTION_REFUSALS
from roots_manager.core.store.state import LOOK_ALIKE, NAME_REFUSALS, ROOT_NAME_TAKEN
from roots_manager.support import oserror
from roots_manager.support.refusal import Refusal

if TYPE_CHECKING:
    from roots_manager.actions.servers import UnknownServer

JSON_VERSION = 1
"""The version of every ``--json`` shape of ``docs/cli-json.md``; a field is only ever added."""

__all__ = ["EXIT_INTERRUPTED", "EXIT_REFUSED", "EXIT_STORE", "EXIT_USAGE"]

CODES: dict[str, str] = {
    "usage": "the command line is not one roots-manager takes (an unknown command or option, "
    "a missing or bad argument); exit 2",
    "store": "the store cannot be used as it is; the message names the file and the way out; "
    "exit 3",
    "unknown-server": "no server of that name is known",
    "unknown-root": "no root matches what was given",
    "ambiguous-root": "several roots have that name; name one by its path",
    "no-such-folder": "the folder does not exist",
    "not-a-folder": "the path is not a folder",
    "too-broad": "the folder is the file system root, the home folder or holds it (--allow-broad)",
    "already-a-root": "the folder is a root already",
    "name-taken": "another root has that name, or one that looks the same",
    "bad-path": "the path or file:// URI cannot name a root, or is longer than the system allows",
    "bad-name": "a root's or a server's name that cannot be used",
    "bad-value": "a value out of its range or not one of its choices",
    "bad-duration": "a length of time that cannot be read (write 30s, 10m, 2h or 1d)",
    "cannot-confine": "this machine cannot confine a server, and the command needs it to",
    "already-learning": "the server is being learned already, by a process still running",
    "not-pending": "no consent request of that server is pending",
    "not-run-yet": "the server has not run yet, so there is nothing to approve",
    "command-changed": "the server's command line is not the one expected",
    "not-running": "no bridge of that server is running",
    "not-sent": "a running bridge did not send list_changed",
    "not-restarted": "a running bridge did not restart its server",
    "no-question": "no question of that number waits now (roots-manager questions lists them)",
    "unknown-host": "no host has that name",
    "no-such-server": "the host's files declare no server of that name",
    "no-bridge": "roots-bridge cannot be found, or was not given by an absolute path",
    "not-changed": "a host's file could not be changed",
    "unreadable": "a host's file could not be read (hosts list still lists every file)",
    "record": "the record of host changes cannot be read",
    "nothing-to-probe": "no command line of the server to probe: give it, or let it run once",
    "no-probe-table": "too few saved probe tables to compare",
    "io": "a file could not be read or written",
    "interrupted": "interrupted (Ctrl-C); exit 130",
    "refused": "any other refusal; the message says why",
}
"""Every ``error.code`` a ``--json`` command prints, with what it means (exit 1 unless said)."""

TEMPLATE_CODES: dict[str, str] = {
    "several roots are named {ref!r} ({paths}); name one by its path": "ambiguous-root",
    "no root matches {ref!r} (roots-manager roots list shows them)": "unknown-root",
    "cannot add {path}: it does not exist": "no-such-folder",
    TOO_LONG: "bad-path",
    "cannot add {path}: it is not a folder": "not-a-folder",
    **dict.fromkeys(BROAD_REFUSALS, "too-broad"),
    "{path} is already a root, named {name!r}": "already-a-root",
    "no server named {name!r} is known (roots-manager servers list shows them)": "unknown-server",
    "unknown policy {policy!r}; choose one of {choices}": "bad-value",
    "no pending consent request for {ref!r}": "not-pending",
    "server {name!r} has not run yet; there is nothing to approve": "not-run-yet",
    "{given!r} is not a command fingerprint (64 hexadecimal digits; "
    "roots-manager servers list --json shows each server's)": "bad-value",
    "server {name!r} last ran with another command line than the one expected: "
    "{command} (fingerprint {seen}); look at it again before approving": "command-changed",
    "a root's name cannot be empty": "bad-name",
    "a root's name cannot hold control or text-direction characters ({chars})": "bad-name",
    **dict.fromkeys(NAME_REFUSALS.values(), "bad-name"),
    LOOK_ALIKE: "bad-name",
    ROOT_NAME_TAKEN: "name-taken",
    CANNOT_CONFINE: "cannot-confine",
    ALREADY_LEARNING: "already-learning",
    **dict.fromkeys(RETENTION_REFUSALS, "bad-value"),
    **dict.fromkeys(uri.ERROR_TEMPLATES, "bad-path"),
}
"""The code of each refusal of the store and of paths, by its template (a host command's
refusal carries its own code: :data:`roots_manager.core.hosts.operations.ERROR_CODES`)."""


class Failure(Exception):
    """A command's own refusal, with its code, exit code and the fields a script may use."""

    def __init__(
        self, code: str, message: str, exit_code: int = EXIT_REFUSED, **details: Any
    ) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.exit_code = exit_code
        self.details = details


def error_json(code: str, message: str, **details: Any) -> dict[str, Any]:
    """The document a ``--json`` command prints when it fails."""
    assert code in CODES, code
    return {"version": JSON_VERSION, "error": {"code": code, "message": message, **details}}


def failure_of(exc: BaseException) -> Failure | None:
    """*exc* as a :class:`Failure` with its code and exit code; None if it is not a refusal,
    a store problem, an I/O error or an interruption (a bug: it goes on as a traceback)."""
    if isinstance(exc, Failure):
        return exc
    if isinstance(exc, StoreError):
        return Failure("store", str(exc), EXIT_STORE)
    # the host modules are not loaded for other commands (start-up time); a refusal of
    # theirs can only be met once they are
    hosts = sys.modules.get("roots_manager.core.hosts.operations")
    if hosts is not None and isinstance(exc, hosts.HostRefusal):
        return Failure(exc.code, str(exc))
    if isinstance(exc, Refusal):
        return Failure(TEMPLATE_CODES.get(exc.template, "refused"), str(exc))
    record = sys.modules.get("roots_manager.core.hosts.record")
    if record is not None and isinstance(exc, record.RecordError):
        return Failure("record", str(exc))
    if isinstance(exc, OSError):
        return Failure("io", oserror.message(exc))
    if isinstance(exc, KeyboardInterrupt):
        return Failure("interrupted", "interrupted", EXIT_INTERRUPTED)
    return None


def unknown_server(exc: UnknownServer, argv: Sequence[str], server_at: int = 1) -> Failure:
    """The refusal of a command naming a server nobody has seen: the known names, the commands
    the user may have meant, and, where the command can be done ahead of the server's first
    start, the way to do that.

    *argv* is the command as typed after ``roots-manager`` (its words, its options), with the
    server's name at *server_at*.
    """
    name = visible(exc.name)
    again = ["roots-manager", *map(shlex.quote, argv)]
    at = server_at + 1
    meant = [" ".join([*again[:at], shlex.quote(visible(n)), *again[at + 1 :]]) for n in exc.near]
    message = f"no server named '{name}' has been seen"
    if exc.near:
        message += f"; did you mean {' or '.join(repr(visible(n)) for n in exc.near)}?"
    else:
        message += "."
    if exc.known:
        message += f" The known servers: {', '.join(visible(k) for k in exc.known)}."
    else:
        message += " No server is known yet: one becomes known when it runs behind roots-bridge."
    if not exc.ahead:
        return Failure("unknown-server", message, known=exc.known, did_you_mean=meant)
    verb = "grant" if argv[0] == "grant" else "set"
    message += f" To {verb} it ahead of its first start, pass --new: {' '.join([*again, '--new'])}"
    return Failure(
        "unknown-server",
        message,
        known=exc.known,
        did_you_mean=meant,
        hint=f"--new {verb}s it ahead of its first start",
    )
