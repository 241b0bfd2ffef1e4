"""The ``roots-manager`` command: the same operations as the desktop app, for scripts and hosts.

Exit codes: 0 done, 1 the operation was refused (the message says why), 2 bad usage,
3 the store cannot be used as it is (the message names the file and the way out),
130 interrupted (Ctrl-C): :mod:`roots_manager.cli.exits`, listed at the end of ``--help``. With
``--json``, which every command that reports or changes something takes, the result is one JSON
object on stdout, and so is a failure (``docs/cli-json.md``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from roots_manager import __version__
from roots_manager.actions import roots as root_actions
from roots_manager.cli.errors import (
    JSON_VERSION,
    Failure,
    error_json,
    failure_of,
)
from roots_manager.cli.exits import EPILOG, EXIT_STORE
from roots_manager.cli.gui import open_app
from roots_manager.cli.text import JSON_HELP, print_json, root_json, shown, table, utf8_output
from roots_manager.cli.usage import Parser
from roots_manager.core.consent.effective import Availability, active_grants_by_root
from roots_manager.core.directory.layout import Layout
from roots_manager.core.roots.root import broad_reason
from roots_manager.core.runs import live
from roots_manager.core.servers.names import visible
from roots_manager.core.store.file import Store, StoreError
from roots_manager.core.store.grants import Scope
from roots_manager.core.store.state import State
from roots_manager.support import cyclic_gc, trace
from roots_manager.support.helptext import LinesHelpFormatter
from roots_manager.support.refusal import Refusal

# ---- roots -------------------------------------------------------------------------------


def cmd_roots_add(store: Store, args: argparse.Namespace) -> int:
    root = root_actions.add(store, args.path, args.name, allow_broad=args.allow_broad)
    if args.json:
        print_json({"version": JSON_VERSION, "root": root_json(root)})
    else:
        print(f"added '{shown(root.name)}': {shown(root.path)} ({root.uri})")
        reason = broad_reason(root.path) if args.allow_broad else None
        if reason is not None:
            print(
                f"note: {reason}. A confined server granted it for writing could "
                "rewrite any file of yours but the places Roots Manager holds read-only (its own "
                "store, shell start files, the hosts' settings, autostart, ~/.local/bin, git hooks: "
                "`roots-manager servers show NAME` lists them), and read any but the secrets it "
                "hides (~/.ssh, ~/.gnupg)"
            )
    return 0


def roots_report(state: State, layout: Layout) -> list[dict[str, Any]]:
    """Each root with its availability and the servers it is granted to now.

    Roots granted to the same servers share one ``granted_to`` list (30,000 roots are granted
    to a few servers): the report is for reading, not for changing."""
    grants = active_grants_by_root(state, live.live_runs(layout))
    availability = Availability()
    shared: dict[tuple[tuple[str, Scope], ...], list[dict[str, str]]] = {(): []}
    with cyclic_gc.paused():  # a row per root, none in a cycle (see support.cyclic_gc)
        rows = []
        looks = availability.looks(state.roots)  # the folders looked at in one call
        for r, (reason, _) in zip(state.roots, looks, strict=True):
            key = tuple([(g.server, g.scope) for g in grants.get(r.id, ())])
            granted_to = shared.get(key)
            if granted_to is None:
                granted_to = shared[key] = [{"server": s, "scope": c} for s, c in key]
            row = root_json(r, reason)  # a new object: given its grantees
            row["granted_to"] = granted_to
            rows.append(row)
        return rows


def cmd_roots_list(store: Store, args: argparse.Namespace) -> int:
    # its objects freed by their counts as it returns: the cyclic collector never walks the
    # state of 30,000 roots, which each pass's end (reading, the report, the JSON) set it to
    with cyclic_gc.paused():
        return _roots_list(store, args)


def _roots_list(store: Store, args: argparse.Namespace) -> int:
    state = store.read()
    report = roots_report(state, store.layout)
    if args.json:
        print_json(report)
        return 0
    if not report:
        print("no roots yet; add one with: roots-manager roots add FOLDER")
        return 0
    # roots granted to the same servers share their list (roots_report): each list's column
    # is made once, each server's name made visible once
    said: dict[int, str] = {}
    names: dict[str, str] = {}

    def granted(to: list[dict[str, str]]) -> str:
        text = said.get(id(to))
        if text is None:
            for g in to:
                if g["server"] not in names:
                    names[g["server"]] = visible(g["server"])
            text = said[id(to)] = (
                ", ".join(
                    names[g["server"]]
                    + (" (while running)" if g["scope"] == Scope.WHILE_RUNNING else "")
                    for g in to
                )
                or "-"
            )
        return text

    with cyclic_gc.paused():
        rows = [
            [
                r["name"],
                r["path"],
                "yes" if r["available"] else f"no ({r['unavailable_reason']})",
                granted(r["granted_to"]),
                r["uri"],
            ]
            for r in report
        ]
    table(rows, ["NAME", "PATH", "AVAILABLE", "GRANTED TO", "URI"])
    if state.policy == "allow-all":
        print("policy allow-all: every server sees every available root, granted or not")
    return 0


def cmd_roots_rename(store: Store, args: argparse.Namespace) -> int:
    done = root_actions.rename(store, args.root, args.name)
    root = done.root
    if args.json:
        print_json({"version": JSON_VERSION, "root": root_json(root), "old_name": done.before})
    else:
        print(f"renamed {shown(root.path)} to '{shown(root.name)}'")
    return 0


def cmd_roots_remove(store: Store, args: argparse.Namespace) -> int:
    removed = root_actions.remove(store, args.root)
    root, losing = removed.root, removed.losing
    if args.json:
        print_json({"version": JSON_VERSION, "root": root_json(root), "lost_access": losing})
        return 0
    print(f"removed '{shown(root.name)}' ({shown(root.path)})")
    if losing:
        print(f"servers that lost access: {shown(', '.join(losing))}")
    return 0


# ---- store ---------------------------------------------------------------------------------


def cmd_store_check(store: Store, args: argparse.Namespace) -> int:
    report = store.check()
    if args.json:
        doc = {
            "version": JSON_VERSION,
            "path": str(store.path),
            "ok": report.ok,
            "message": report.message,
            "backup_ok": report.backup_ok,
        }
        # a damaged store is the report, and a failure: it carries the error too
        print_json(doc if report.ok else {**doc, **error_json("store", report.message)})
    else:
        print(shown(report.message))
        print("last good copy: " + ("present" if report.backup_ok else "none"))
    return 0 if report.ok else EXIT_STORE


def cmd_store_recover(store: Store, args: argparse.Namespace) -> int:
    moved, message = store.recover(empty=args.empty)
    if args.json:
        doc = {
            "version": JSON_VERSION,
            "path": str(store.path),
            "recovered": moved is not None,
            "damaged_kept_at": None if moved is None else str(moved),
            "message": message,
        }
        print_json(doc)
    else:
        print(shown(message))
    return 0


# ---- the rest ------------------------------------------------------------------------------


HELP_ONLY = ("-h", "--help", "--version")
"""Options of the command line itself, not of the desktop app."""
VERBOSE = ("-v", "--verbose")
VERBOSE_HELP = (
    "say on stderr what the command does: the store it opens, the lock, each file it reads "
    f"or writes (as {trace.ENV}=1 does)"
)


def cmd_bridge(argv: Sequence[str]) -> int:
    from roots_manager.bridge.main import main as bridge_main

    return bridge_main(list(argv))


def build_parser() -> Parser:
    p = Parser(
        top=True,
        prog="roots-manager",
        description="Decide which folders each MCP server may see, and watch what it does. "
        "With no command, opens the desktop app. Roots tell a server where to look; "
        "they are not an access control.",
        epilog=EPILOG,
        formatter_class=LinesHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"roots-manager {__version__}")
    p.add_argument(*VERBOSE, action="store_true", help=VERBOSE_HELP)
    from roots_manager.gui.options import add_app_options  # Qt-free: no Qt loads here

    add_app_options(p)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    roots = sub.add_parser("roots", help="the list of workspace folders")
    rsub = roots.add_subparsers(dest="roots_command", metavar="ACTION", required=True)
    a = rsub.add_parser("add", help="add a folder as a root")
    a.add_argument("path", metavar="FOLDER", help="a path or a file:// URI")
    a.add_argument("--name", help="a name to show (default: the folder's name)")
    a.add_argument(
        "--allow-broad",
        action="store_true",
        help="allow the file system root, your home folder or a folder holding it",
    )
    a.add_argument("--json", action="store_true", help=JSON_HELP)
    a.set_defaults(func=cmd_roots_add)
    ls = rsub.add_parser("list", help="list the roots, whether available, and granted to whom")
    ls.add_argument("--json", action="store_true", help=JSON_HELP)
    ls.set_defaults(func=cmd_roots_list)
    rn = rsub.add_parser("rename", help="rename a root")
    rn.add_argument("root", help="a path, a file:// URI or a root's name")
    rn.add_argument("name")
    rn.add_argument("--json", action="store_true", help=JSON_HELP)
    rn.set_defaults(func=cmd_roots_rename)
    rm = rsub.add_parser("remove", help="remove a root and every grant of it")
    rm.add_argument("root", help="a path, a file:// URI or a root's name")
    rm.add_argument("--json", action="store_true", help=JSON_HELP)
    rm.set_defaults(func=cmd_roots_remove)

    from roots_manager.cli.consent import add_commands as add_consent_commands

    add_consent_commands(sub)

    st = sub.add_parser("store", help="verify or repair the store file")
    stsub = st.add_subparsers(dest="store_command", metavar="ACTION", required=True)
    sc = stsub.add_parser("check", help="verify the store")
    sc.add_argument("--json", action="store_true", help=JSON_HELP)
    sc.set_defaults(func=cmd_store_check)
    sv = stsub.add_parser("recover", help="restore the last good copy; the bad file is kept aside")
    sv.add_argument(
        "--empty",
        action="store_true",
        help="with no good copy, keep the bad file aside and start empty",
    )
    sv.add_argument("--json", action="store_true", help=JSON_HELP)
    sv.set_defaults(func=cmd_store_recover)

    from roots_manager.cli.log import add_commands as add_log_commands

    add_log_commands(sub)

    from roots_manager.cli.denials import add_commands as add_denials_commands

    add_denials_commands(sub)

    from roots_manager.cli.hosts import add_commands as add_hosts_commands

    add_hosts_commands(sub)

    from roots_manager.cli.probe import add_commands as add_probe_commands

    add_probe_commands(sub)

    from roots_manager.cli.desktop import add_commands as add_desktop_commands

    add_desktop_commands(sub)

    sub.add_parser("bridge", help="run the stdio bridge (the same as roots-bridge)", add_help=False)
    gui = sub.add_parser(
        "gui",
        help="open the desktop app (the default)",
        description="Open the desktop app. Qt's own options (-platform, -style ...) are "
        "passed on to Qt.",
    )
    add_app_options(gui)
    from roots_manager.cli.completion import add_command as add_completion_command

    add_completion_command(sub, p)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    verbose = bool(argv) and argv[0] in VERBOSE  # before the command, as the help shows it
    argv = argv[1:] if verbose else argv
    trace.switch("roots-manager", verbose or trace.asked_by_environment())
    if argv and argv[0] == "bridge":
        return cmd_bridge(argv[1:])
    parser = build_parser()
    if not argv or argv[0] == "gui" or (argv[0].startswith("-") and argv[0] not in HELP_ONLY):
        # no command, or only options such as --demo: the desktop app, unless an option is
        # one nobody takes (a typo must not open a window)
        app_argv = argv[1:] if argv and argv[0] == "gui" else argv
        if any(a in ("-h", "--help") for a in app_argv):
            parser.parse_args(["gui", "--help"])  # prints the app's options and exits
        from roots_manager.gui.options import parse_app_options

        unknown = parse_app_options(app_argv).unknown
        if unknown:
            parser.refuse(argv, f"unrecognized arguments: {' '.join(unknown)}")  # exit 2
        return open_app(app_argv)
    args = parser.parse_args(argv)
    utf8_output()
    if hasattr(args, "without_store"):  # completion: made from the parser alone
        return int(args.without_store(args))
    try:
        return run(args)
    except BrokenPipeError:
        # the reader (head, a pager) has had enough: stop quietly, as cat or grep would;
        # os._exit skips the final flush that would hit the closed pipe again
        os._exit(0)


def run(args: argparse.Namespace) -> int:
    """Run the command *args* names; its exit code. A failure is printed as the command line
    prints it: one sentence on stderr, or with ``--json`` one error document on stdout."""
    try:
        code = int(args.func(Store(Layout.default()), args))
        sys.stdout.flush()  # here, so that a closed pipe is met inside the caller's try
        return code
    except BrokenPipeError:
        raise
    except (StoreError, Refusal, Failure, OSError, KeyboardInterrupt) as exc:
        failure = failure_of(exc)
        assert failure is not None  # each of these has its code
        if getattr(args, "json", False):
            print_json(error_json(failure.code, failure.message, **failure.details))
        else:
            print(f"roots-manager: {shown(failure.message)}", file=sys.stderr)
        sys.stdout.flush()
        return failure.exit_code
