"""``roots-bridge``: put in front of a stdio MCP server, answer its ``roots/list`` for any host.

Usage::

    roots-bridge --server NAME [--observe] [--consent-timeout SECONDS] [--log-all] -- COMMAND [ARGS...]

The store and the live marker are in ``$ROOTS_MANAGER_HOME`` (else the per-user directory); the
events go to ``$ROOTS_MANAGER_LOGS`` when it is set (else ``logs`` there). A bridge whose logs
are elsewhere leaves sweeping them to the directory that owns them.

Exit codes: the server's own exit code (128 + N when it died of signal N); 127 when the command
cannot be started; 126 when it was to run confined and cannot be; 2 for bad usage; 1 when the
per-user directory cannot be used.

The server is started before the rest of the bridge is even imported, so that the host waits for
the slower of the two start-ups, not for their sum.
"""

from __future__ import annotations

import subprocess
import sys

TYPE_CHECKING = False  # not typing's: nothing is imported before the server starts that need not be

if TYPE_CHECKING:
    import argparse
    from types import SimpleNamespace

    from roots_manager.bridge.run.confine import Launch
    from roots_manager.bridge.transport.early import EarlyRelay

EXIT_USAGE = 2
EXIT_NO_HOME = 1
DEFAULT_CONSENT_TIMEOUT = 30.0


class EarlySignals:
    """The host's stop signals that come before the run can take them (it still imports).

    Each is passed on to the server's tree at once, as the run does (a host's ladder is quick,
    and a bridge ended by its default action would leave the tree behind), and handed to the
    run, which stops in order and keeps to the host's pace.
    """

    NAMES = ("SIGTERM", "SIGINT", "SIGHUP")

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        import signal

        self.proc = proc
        self.caught: list[int] = []
        for name in self.NAMES:
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), self._caught)

    def _caught(self, sig: int, _frame: object) -> None:
        self.caught.append(sig)
        if sys.platform != "win32":
            import contextlib  # both loaded already, by subprocess
            import os

            with contextlib.suppress(OSError):
                os.killpg(self.proc.pid, sig)


def _width() -> int:
    """The help's width, from the terminal's: left to find it, argparse imports shutil, and
    with it lzma and bz2 (10 ms of every bridge's start, and memory for its life)."""
    import os

    try:
        width = os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError):
        width = 80
    return max(width - 2, 40)


def _formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's help formatter, given the terminal's width (see :func:`_width`)."""
    import argparse

    return argparse.HelpFormatter(prog, width=_width())


def _help_formatter(prog: str) -> argparse.HelpFormatter:
    """:func:`_formatter`, keeping the epilog's lines (the exit codes) as lines."""
    from roots_manager.support.helptext import LinesHelpFormatter

    return LinesHelpFormatter(prog, width=_width())


def _asks_for_help(argv: list[str]) -> bool:
    """Whether *argv* may ask for ``--help`` (or ``--he``, which argparse takes for it)."""
    options = argv[: argv.index("--")] if "--" in argv else argv
    return any(a.startswith(("-h", "--h")) for a in options)


def build_parser(help_shown: bool = True) -> argparse.ArgumentParser:
    """The command line of ``roots-bridge`` (the man page is made from it, too).

    Only *help_shown* loads the formatter that keeps the exit codes a list: every bridge
    builds the parser as it starts, and most never show their help.
    126 and 127 are written out, not imported from the run's modules: those load json and
    hashlib, which ``roots-bridge --version`` need not pay for (a test keeps the numbers equal).
    """
    import argparse

    from roots_manager import __version__

    p = argparse.ArgumentParser(
        prog="roots-bridge",
        formatter_class=_help_formatter if help_shown else _formatter,
        description="Run a stdio MCP server behind Roots Manager: the bridge answers the "
        "server's roots/list with the folders you granted it and tells it when they change.",
        epilog="Example: roots-bridge --server fs -- npx -y @modelcontextprotocol/server-filesystem\n"
        "Environment: ROOTS_MANAGER_HOME (the store and live markers), ROOTS_MANAGER_LOGS "
        "(where the events go, if not the logs folder there), ROOTS_MANAGER_DEBUG=1 (say on "
        "stderr what the bridge does: the store it opens, the files it writes).\n"
        "exit codes:\n"
        "  N    the server's own exit code; 128 + N when it died of signal N\n"
        f"  {EXIT_NO_HOME:<3}  the Roots Manager directory cannot be used (the message says why)\n"
        f"  {EXIT_USAGE:<3}  bad usage: an unknown option, no --server, or no command after --\n"
        "  126  the server was to run confined and this machine cannot "
        "confine it\n"
        "  127  the server's command cannot be started (not found, not "
        "executable)",
    )
    p.add_argument(
        "--server",
        required=True,
        metavar="NAME",
        help="the name the grants are kept under (one per server you configure)",
    )
    p.add_argument(
        "--observe",
        action="store_true",
        help="answer nothing and inject nothing: relay and log the roots traffic only",
    )
    p.add_argument(
        "--consent-timeout",
        type=float,
        default=DEFAULT_CONSENT_TIMEOUT,
        metavar="SECONDS",
        help="how long to wait for your decision on a new server while the desktop "
        "app runs (default: %(default)s)",
    )
    p.add_argument(
        "--log-all",
        action="store_true",
        help="also log every other message (method and id), not only roots traffic",
    )
    p.add_argument(
        "--confine",
        action="store_true",
        help="run the server confined to the folders granted to it (Linux Landlock), whatever "
        "its stored setting; refuse to start it (exit 126) if this machine cannot",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    p.add_argument(
        "command",
        nargs=argparse.REMAINDER,
        metavar="-- COMMAND [ARGS...]",
        help="the server's command line",
    )
    return p


def _early_command(argv: list[str]) -> list[str] | None:
    """The server's command if the options before ``--`` plainly ask to run one."""
    if "--" not in argv:
        return None
    cut = argv.index("--")
    options, command = argv[:cut], argv[cut + 1 :]
    if (
        not command
        or "--server" not in options[:-1]
        or {"-h", "--help", "--version"} & set(options)
    ):
        return None
    return command


LEFT_OUT = ("ssl", "_hashlib", "bz2", "lzma")
"""Modules a bridge process never needs, left out of it: asyncio imports ``ssl``, and ``hashlib``
and ``hmac`` (through the store's lock and ``secrets``) import ``_hashlib``, each only in case it
is wanted and each getting on without it; together they load OpenSSL's libraries, about 5 MiB
of a bridge's peak memory. ``shutil``, which ``platformdirs`` brings through ``tempfile``, loads
``bz2`` and ``lzma`` for archives the bridge never makes (0.3 MiB). The bridge opens no network connection, hashes nothing that Python's
own ``hashlib`` implementations cannot, and watches the store through inotify
(:mod:`roots_manager.support.dirwatch`), without watchfiles and the anyio it imports."""


def leave_out_unused_modules() -> None:
    """Make :data:`LEFT_OUT` unimportable in this process (for the bridge's own process only:
    they stay importable for whatever imported them already)."""
    for name in LEFT_OUT:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    """The ``roots-bridge`` command (*argv* given: called from inside another program, whose
    modules are left alone)."""
    argv_given = argv is not None  # then the process's signals are the caller's, not ours
    if argv is None:
        leave_out_unused_modules()
    argv = list(sys.argv[1:] if argv is None else argv)
    early = _early_command(argv)
    proc: subprocess.Popen[bytes] | None = None
    launch: Launch | None = None
    failure: OSError | None = None
    early_signals: EarlySignals | None = None
    from roots_manager.core.runs.run_id import new_run_id

    run_id = new_run_id()  # before the server starts: its warden keeps the run's live marker
    if early is not None:
        from roots_manager.bridge.run.confine import forced, start

        options = argv[: argv.index("--")]
        try:
            proc, launch = start(
                early, options[options.index("--server") + 1], forced(options), run_id=run_id
            )
            early_signals = None if argv_given else EarlySignals(proc)
        except OSError as exc:
            failure = exc
    parser = build_parser(_asks_for_help(argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        if proc is not None:
            _discard(proc)
        return int(exc.code or 0)
    command = list(args.command)
    if command and command[0] == "--":
        command = command[1:]
    early_relay: EarlyRelay | None = None
    if proc is not None and not argv_given:
        # before the checks below, which load the store's model: their verdict is awaited only
        # by the server's answer to the host (a bridge that refuses to run ends its server)
        _one_arena()
        early_relay = _relay_early(proc, args.observe)
    from roots_manager.core.servers.names import check_server_name

    problem = None
    if not command:
        problem = "give the server's command after --"
    elif check_server_name(args.server) is not None:
        # the store's model says why (loaded for that alone: the answer waits for this check)
        from roots_manager.core.store.state import server_name_error

        problem = str(server_name_error(args.server))
    elif args.consent_timeout < 0:
        problem = "--consent-timeout cannot be negative"
    if problem:
        if proc is not None:
            _discard(proc)
        parser.print_usage(sys.stderr)
        print(f"roots-bridge: {problem}", file=sys.stderr)
        return EXIT_USAGE
    del parser
    parsed: argparse.Namespace | SimpleNamespace = args if argv_given else _forget_parser(args)
    del args
    if early_relay is None and not argv_given:
        _one_arena()
    if proc is None and failure is None:
        from roots_manager.bridge.run.confine import start

        try:
            proc, launch = start(command, parsed.server, parsed.confine, run_id=run_id)
            early_signals = None if argv_given else EarlySignals(proc)
        except OSError as exc:
            failure = exc
        if not argv_given:
            early_relay = _relay_early(proc, parsed.observe)
    if early_relay is not None:
        early_relay.confirm()
    return _run(parsed, command, proc, launch, failure, early_signals, run_id, early_relay)


def _one_arena() -> None:
    """One malloc arena for the bridge's threads, asked for before any starts (Linux, glibc:
    :mod:`roots_manager.platform.linux.malloc`); our own process only."""
    if sys.platform == "linux":
        from roots_manager.platform.linux.malloc import one_arena

        one_arena()


def _relay_early(proc: subprocess.Popen[bytes] | None, observe: bool) -> EarlyRelay | None:
    """Relay the host's ``initialize`` and the server's answer while the rest of the bridge
    loads (:mod:`roots_manager.bridge.transport.early`): what the host waits for at each start
    waits for the server alone, not for the bridge's load too. POSIX, our own process only."""
    if proc is None or proc.stdin is None or proc.stdout is None or sys.platform == "win32":
        return None
    from roots_manager.bridge.transport.early import EarlyRelay, relayable

    if not relayable(0):
        return None

    relay = EarlyRelay(0, proc.stdin.fileno(), proc.stdout.fileno(), 1, observe=observe)
    relay.start()
    return relay


PARSER_ONLY = ("argparse", "gettext")
"""Modules a bridge needs only to read its command line: argparse, and the gettext it brings."""


def _forget_parser(args: argparse.Namespace) -> SimpleNamespace:
    """*args* as a plain namespace, and :data:`PARSER_ONLY` let go of: a bridge lives for hours
    and reads its command line once, and argparse's classes and functions are 0.6 MiB of an
    idle bridge's memory (``bench/bench_idle.py``). Nothing of argparse is kept (its
    ``Namespace`` would keep the whole module alive), and the collection that frees the
    module's cycles comes before :func:`gc.freeze` keeps what is left for the bridge's life.
    Re-imported, should anything ask for it again."""
    from types import SimpleNamespace

    plain = SimpleNamespace(**vars(args))
    for name in PARSER_ONLY:
        sys.modules.pop(name, None)
    return plain


def _discard(proc: subprocess.Popen[bytes]) -> None:
    from roots_manager.bridge.run.process import KILL, signal_tree

    signal_tree(proc, KILL)
    proc.wait()


def _run(
    args: argparse.Namespace | SimpleNamespace,
    command: list[str],
    proc: subprocess.Popen[bytes] | None,
    launch: Launch | None,
    failure: OSError | None,
    early_signals: EarlySignals | None = None,
    run_id: str | None = None,
    early_relay: EarlyRelay | None = None,
) -> int:
    import asyncio
    import gc

    from roots_manager.bridge.run.runner import Bridge
    from roots_manager.support import oserror, trace

    if trace.asked_by_environment():  # after the server's start: it never waits for this
        trace.switch("roots-bridge", True)

    # what is loaded by now lives as long as the bridge: kept out of the collector's full
    # passes, so that one never pauses a roots/list answer to walk every module again; what
    # is garbage by now (the command line's parser) is freed first, not kept with it
    gc.collect()
    gc.freeze()

    async def run() -> int:
        try:
            bridge = Bridge(
                args.server,
                command,
                proc,
                observe=args.observe,
                consent_timeout=args.consent_timeout,
                log_all=args.log_all,
                launch=launch,
                confine=args.confine,
                run_id=run_id,
                early_relay=early_relay,
            )
        except OSError as exc:
            # without its directory the bridge can neither answer nor record: say so, and
            # leave no server behind
            if proc is not None:
                _discard(proc)
            print(
                f"roots-bridge: the Roots Manager directory cannot be used: {oserror.message(exc)}",
                file=sys.stderr,
            )
            return EXIT_NO_HOME
        if failure is not None or proc is None:
            return bridge.cannot_start(failure or OSError("cannot start"))
        return await bridge.run(early_signals.caught if early_signals is not None else ())

    return asyncio.run(run())


if __name__ == "__main__":
    sys.exit(main())
