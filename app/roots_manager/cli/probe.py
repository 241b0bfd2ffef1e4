"""The boundary probe command of ``roots-manager``: ``probe``, its saved tables and comparisons."""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import TYPE_CHECKING, Any

from roots_manager.cli.errors import Failure
from roots_manager.cli.text import JSON_HELP, print_json, shown, table
from roots_manager.core.servers.names import find_by_visible, visible

if TYPE_CHECKING:
    from roots_manager.cli.usage import Subcommands
    from roots_manager.core.probe.reasons import Status
    from roots_manager.core.probe.report import Report
    from roots_manager.core.store.file import Store

# What the commands need is imported in them: building the parser, which every call of
# roots-manager does (--version too), must stay cheap (asyncio and the probe's tables are not).

EXIT_INCOMPLETE = 1


def _command(store: Store, args: argparse.Namespace) -> list[str]:
    command = list(args.command)
    if command and command[0] == "--":
        command = command[1:]
    if command:
        return command
    if args.server is None:
        raise Failure(
            "nothing-to-probe",
            "give the server's command after -- (with {allow} where it takes its folders), "
            "or --server NAME for a server the store knows",
        )
    state = store.read()
    name = find_by_visible(args.server, state.servers) or args.server
    srv = state.server(name)
    if not srv.command:
        raise Failure(
            "nothing-to-probe",
            f"no command line of '{visible(name)}' is known yet: it becomes known when the "
            "server runs behind roots-bridge",
        )
    return list(srv.command)


def _progress(done: int, total: int, row: Any, status: Status) -> None:
    message = status.text
    if total:
        print(f"\r\x1b[K[{done}/{total}] {shown(message)}", end="", file=sys.stderr, flush=True)
    else:
        print(f"\r\x1b[K{shown(message)}", end="", file=sys.stderr, flush=True)


DETAIL_WIDTH = 72


def _cut(text: str) -> str:
    return text if len(text) <= DETAIL_WIDTH else text[: DETAIL_WIDTH - 1] + "…"


def print_report(report: Report) -> None:
    """The report as text: the server, its roots, the matrix, the verdict."""
    from roots_manager.core.probe.plan import KIND_TEXT
    from roots_manager.core.probe.report import CELL_MARK, short, verdict_lines

    version = f" {report.version}" if report.version else ""
    print(f"server: {shown(report.name)}{shown(version)}  ({shown(' '.join(report.command))})")
    allowance = report.allowance or "unknown (no {allow} in the command line)"
    print(f"allowance: {shown(allowance)}")
    if report.protocol:
        print(f"protocol: {shown(report.protocol)}")
    if report.tree:
        print(f"scratch tree (<tree>, removed after the run): {shown(report.tree)}")
    for phase in report.roots:
        uris = ", ".join(short(report, u) for u in phase["uris"])
        print(f"roots {phase['phase']}: {shown(uris) or '(none)'}")
    if report.rows:
        print()
        table(
            [
                [
                    r.tool,
                    r.operation.value,
                    r.target_kind.value,
                    CELL_MARK[r.inside.outcome],
                    CELL_MARK[r.outside.outcome],
                    _cut(short(report, r.outside.detail) if r.conclusive else r.reading),
                ]
                for r in report.rows
            ],
            ["TOOL", "OP", "TARGET", "INSIDE", "OUTSIDE", "OUTSIDE SAID"],
        )
        print()
        seen = dict.fromkeys(r.target_kind for r in report.rows)
        for kind in seen:
            print(f"{kind.value}: {KIND_TEXT[kind]}")
    if report.left_out:
        print()
        for name, why in sorted(report.left_out.items()):
            print(f"not probed: {shown(name)} ({shown(why)})")
    print()
    for line in verdict_lines(report):
        print(shown(line))
    if report.problem:
        print(f"\nproblem: {shown(report.problem)}")
        if report.stderr_tail.strip():
            print("the server's last words (stderr):")
            for line in report.stderr_tail.strip().splitlines()[-10:]:
                print(f"  {shown(line)}")
    print(f"\n{len(report.rows)} rows in {report.seconds:.1f} s")
    if report.log.get("folder"):
        server = report.log.get("server", "")
        print(f"the roots traffic: roots-manager log --server {shown(shlex.quote(server))}")


def cmd_probe(store: Store, args: argparse.Namespace) -> int:
    if args.history is not None:
        return _history(store, args)
    if args.compare is not None:
        return _compare(store, args)
    import asyncio

    from roots_manager.core.probe.table import save
    from roots_manager.probe.connection import HANDSHAKE, Timeouts
    from roots_manager.probe.runner import probe

    command = _command(store, args)
    quiet = args.json or not sys.stderr.isatty()
    report = asyncio.run(
        probe(
            command,
            name=args.server,
            timeouts=Timeouts(call=args.timeout),
            progress=None if quiet else _progress,
            logs=store.layout.logs,
            protocol=args.protocol or HANDSHAKE,
        )
    )
    if not quiet:
        print("\r\x1b[K", end="", file=sys.stderr, flush=True)
    if args.json:
        print_json(report.to_json())
    else:
        print_report(report)
    if args.save:
        path = save(store.layout, report)
        print(f"saved: {shown(str(path))}", file=sys.stderr if args.json else sys.stdout)
    return 0 if report.complete else EXIT_INCOMPLETE


def _history(store: Store, args: argparse.Namespace) -> int:
    from roots_manager.core.probe.table import history

    tables = history(store.layout, args.history)
    if args.json:
        print_json(
            [
                {
                    "path": str(t.path),
                    "version": t.report.version,
                    "started_at": t.report.started_at,
                    "complete": t.report.complete,
                    "verdict": {k: f.value for k, f in t.report.verdict.items()},
                }
                for t in tables
            ]
        )
        return 0
    if not tables:
        print(f"no saved probe tables of {visible(args.history)}; run the probe with --save")
        return 0
    rows = []
    for t in tables:
        yes = [k for k, f in t.report.verdict.items() if f.value is True]
        rows.append(
            [t.report.started_at, t.report.version or "-", ", ".join(yes) or "-", t.path.name]
        )
    table(rows, ["STARTED", "VERSION", "FOUND", "FILE"])
    return 0


def _compare(store: Store, args: argparse.Namespace) -> int:
    from roots_manager.core.probe.report import VALUE_WORD
    from roots_manager.core.probe.table import compare, comparison_json, history

    tables = history(store.layout, args.compare)
    if len(tables) < 2:
        raise Failure(
            "no-probe-table",
            f"{visible(args.compare)} has {len(tables)} saved probe table(s); "
            "a comparison needs two (run the probe with --save)",
        )
    result = compare(tables[1].report, tables[0].report)
    if args.json:
        print_json(comparison_json(result))
        return 0
    old, new = result.old, result.new
    print(f"{_version(old)} ({old.started_at}) -> {_version(new)} ({new.started_at})")

    def cells(v: Any) -> str:
        return "(absent)" if v is None else f"{v[0].value} / {v[1].value}"

    if result.rows:
        table(
            [[*ch.key, cells(ch.old), cells(ch.new)] for ch in result.rows],
            ["TOOL", "OP", "TARGET", "BEFORE (INSIDE / OUTSIDE)", "NOW"],
        )
    else:
        print("no row changed its outcome")
    for name, (a, b) in result.verdict.items():
        f = new.verdict.get(name)
        why = f": {shown(f.reason)}" if f is not None else ""
        print(f"{name}: {VALUE_WORD[a]} -> {VALUE_WORD[b]}{why}")
    return 0


def _version(report: Report) -> str:
    return shown(report.version) if report.version else "no version"


def _seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError("the timeout must be a number of seconds above 0")
    return value


def add_commands(sub: Subcommands) -> None:
    """Add ``probe`` to the top-level subcommands."""
    p = sub.add_parser(
        "probe",
        help="find out what a server really does with its roots: a paired inside/outside "
        "matrix over a scratch tree",
        description="Run a server behind a private bridge over a scratch tree, give it a root "
        "strictly narrower than what its command line allows ({allow} in the command is "
        "replaced by the tree's top), call each of its path tools on a target inside the "
        "root and on a partner outside it, and derive the verdict from the pairs.",
    )
    p.add_argument(
        "--server",
        metavar="NAME",
        help="the name the table is kept under; without a command, the command line the "
        "store last saw for this server",
    )
    p.add_argument("--json", action="store_true", help=JSON_HELP)
    p.add_argument("--save", action="store_true", help="keep the table in the per-user directory")
    p.add_argument("--history", metavar="NAME", help="list the saved tables of NAME, newest first")
    p.add_argument(
        "--compare",
        metavar="NAME",
        help="the rows whose outcome changed between NAME's last two tables",
    )
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=10.0,
        metavar="SECONDS",
        help="how long each call may take (default %(default)s)",
    )
    p.add_argument(
        "--protocol",
        choices=("initialize", "2026-07-28"),
        default="initialize",
        help="how to speak to the server: the initialize handshake (it picks a revision up to "
        "2025-11-25; the default), or 2026-07-28 (no list_changed: roots travel with each "
        "request)",
    )
    p.add_argument(
        "command",
        nargs=argparse.REMAINDER,
        metavar="-- COMMAND [ARGS...]",
        help="the server's command line, with {allow} where it takes its folders",
    )
    p.set_defaults(func=cmd_probe)
