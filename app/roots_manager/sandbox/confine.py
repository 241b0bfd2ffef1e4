"""The exec wrapper: confine this process to the given rules, then become the server.

Usage::

    python -m roots_manager.sandbox.confine [--read-write P] [--read-only P] [--runtime P]
        [--listing P] [--device P] [--tmpdir P] -- COMMAND [ARGS...]

The bridge starts a confined server through this wrapper rather than confining in a
``preexec_fn``, which can deadlock in a threaded process. On Linux the Landlock rules are applied
to this process, which then ``exec``s the server: the server and everything it starts run under
them. On macOS the wrapper ``exec``s ``sandbox-exec`` with the generated profile.

Exit codes (only before the exec; after it, the server's own): 126 the rules cannot be applied,
127 the command cannot be run, 2 bad usage.
"""

from __future__ import annotations

import os
import sys

from roots_manager.core.bundle import restore_user_environment
from roots_manager.core.rules import Rules

TYPE_CHECKING = False  # not typing's: the exec wrapper must not pay for importing it
if TYPE_CHECKING:
    from collections.abc import Sequence

EXIT_REFUSED = 126
EXIT_CANNOT_RUN = 127
EXIT_USAGE = 2


def _landlock(rules: Rules) -> None:
    # the availability module is not imported: its typing import alone would double the cost
    from roots_manager.sandbox import landlock as ll

    abi = ll.usable_abi()
    why = ll.refusal(abi)
    if why is not None:
        raise OSError(why)
    grouped = (
        (rules.runtime, ll.READ_EXECUTE),
        (rules.listing, ll.READ_DIR),
        (rules.devices, ll.DEVICE),
        (rules.read_only, ll.READ),
        (rules.read_write, ll.READ_WRITE),
    )
    ll.restrict_self([(p, access) for paths, access in grouped for p in paths], abi)


def _resolve(name: str) -> str:
    """*name* looked up in ``PATH`` now, as ``execvp`` would.

    Done before the rules apply: ``os.execvp`` imports ``warnings`` on its way, which the rules
    no longer let this interpreter read once they apply.
    """
    if os.sep in name:
        return name
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(folder or os.curdir, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return name


def main(argv: Sequence[str] | None = None) -> int:
    """Apply the rules and exec the command; returns an exit code only if that fails."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        rules, command = Rules.from_args(args)
    except ValueError as exc:
        print(f"roots-manager confine: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if rules.tmpdir is not None:
        for name in ("TMPDIR", "TMP", "TEMP"):
            os.environ[name] = rules.tmpdir
    executable = _resolve(command[0])
    try:
        if sys.platform == "darwin":
            from roots_manager.sandbox.seatbelt import profile

            executable = "/usr/bin/sandbox-exec"
            command = [executable, "-p", profile(rules), *command]
        else:
            _landlock(rules)
    except OSError as exc:
        print(f"roots-manager confine: the server cannot be confined: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    sys.stdout.flush()
    try:
        # the bundled bridge is the wrapper in a bundle: what it added is not the server's
        restore_user_environment(os.environ)
        os.execv(executable, command)
    except OSError as exc:
        print(f"roots-manager confine: {command[0]}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_CANNOT_RUN


if __name__ == "__main__":
    sys.exit(main())
