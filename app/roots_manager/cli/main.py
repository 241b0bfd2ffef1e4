"""The ``roots-manager`` command: the same operations as the desktop app, for scripts and hosts.

Exit codes: 0 done, 1 the operation was refused (the message says why), 2 bad usage,
3 the store cannot be used as it is (the message names the file and the way out),
130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from roots_manager import __version__
from roots_manager.cli.gui import open_app
from roots_manager.cli.text import print_json, shown, table, utf8_output
from roots_manager.core import live
from roots_manager.core.consent.effective import Availability, active_grants_by_root
from roots_manager.core.names import visible
from roots_manager.core.paths import Layout
from roots_manager.core.refusal import ModelError
from roots_manager.core.store.file import Store, StoreError
from roots_manager.core.store.grants import Scope
from roots_manager.core.store.state import State
from roots_manager.core.uri import UriError

EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_STORE = 3
EXIT_INTERRUPTED = 130


# ---- roots -------------------------------------------------------------------------------


def cmd_roots_add(store: Store, args: argparse.Namespace) -> int:
    with store.transaction() as state:
        root = state.add_root(args.path, args.name, allow_broad=args.allow_broad)
    print(f"added '{shown(root.name)}': {shown(root.path)} ({root.uri})")
    return 0


def roots_report(state: State, layout: Layout) -> list[dict[str, Any]]:
    """Each root with its availability and the servers it is granted to now."""
    grants = active_grants_by_root(state, live.live_runs(layout))
    availability = Availability()
    out = []
    for r in state.roots:
        reason = availability.reason(r)
        granted = [{"server": g.server, "scope": g.scope} for g in grants.get(r.id, ())]
        out.append(
            {
                "id": r.id,
                "name": r.name,
                "path": r.path,
                "uri": r.uri,
                "available": reason is None,
                "unavailable_reason": reason,
                "added_at": r.added_at,
                "granted_to": granted,
            }
        )
    return out


def cmd_roots_list(store: Store, args: argparse.Namespace) -> int:
    state = store.read()
    report = roots_report(state, store.layout)
    if args.json:
        print_json(report)
        return 0
    if not report:
        print("no roots yet; add one with: roots-manager roots add FOLDER")
        return 0
    # a few servers hold the grants of many roots: each name is made visible once
    names = {s: visible(s) for s in {g["server"] for r in report for g in r["granted_to"]}}
    rows = [
        [
            r["name"],
            r["path"],
            "yes" if r["available"] else f"no ({r['unavailable_reason']})",
            ", ".join(
                names[g["server"]]
                + (" (while running)" if g["scope"] == Scope.WHILE_RUNNING else "")
                for g in r["granted_to"]
            )
            or "-",
            r["uri"],
        ]
        for r in report
    ]
    table(rows, ["NAME", "PATH", "AVAILABLE", "GRANTED TO", "URI"])
    if state.policy == "allow-all":
        print("policy allow-all: every server sees every available root, granted or not")
    return 0


def cmd_roots_rename(store: Store, args: argparse.Namespace) -> int:
    with store.transaction() as state:
        root = state.rename_root(args.root, args.name)
    print(f"renamed {shown(root.path)} to '{shown(root.name)}'")
    return 0


def cmd_roots_remove(store: Store, args: argparse.Namespace) -> int:
    with store.transaction() as state:
        root, losing = state.remove_root(args.root)
    print(f"removed '{shown(root.name)}' ({shown(root.path)})")
    if losing:
        print(f"servers that lost access: {shown(', '.join(losing))}")
    return 0


# ---- store ---------------------------------------------------------------------------------


def cmd_store_check(store: Store, args: argparse.Namespace) -> int:
    report = store.check()
    print(shown(report.message))
    print("last good copy: " + ("present" if report.backup_ok else "none"))
    return 0 if report.ok else EXIT_STORE


def cmd_store_recover(store: Store, args: argparse.Namespace) -> int:
    _, message = store.recover(empty=args.empty)
    print(shown(message))
    return 0


# ---- the rest ------------------------------------------------------------------------------


HELP_ONLY = ("-h", "--help", "--version")
"""Options of the command line itself, not of the desktop app."""


def cmd_bridge(argv: Sequence[str]) -> int:
    from roots_manager.bridge.main import main as bridge_main

    return bridge_main(list(argv))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="roots-manager",
        description="Decide which folders each MCP server may see, and watch what it does. "
        "With no command, opens the desktop app. Roots tell a server where to look; "
        "they are not an access control.",
    )
    p.add_argument("--version", action="version", version=f"roots-manager {__version__}")
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
    a.set_defaults(func=cmd_roots_add)
    ls = rsub.add_parser("list", help="list the roots, whether available, and granted to whom")
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=cmd_roots_list)
    rn = rsub.add_parser("rename", help="rename a root")
    rn.add_argument("root", help="a path, a file:// URI or a root's name")
    rn.add_argument("name")
    rn.set_defaults(func=cmd_roots_rename)
    rm = rsub.add_parser("remove", help="remove a root and every grant of it")
    rm.add_argument("root", help="a path, a file:// URI or a root's name")
    rm.set_defaults(func=cmd_roots_remove)

    from roots_manager.cli.consent import add_commands as add_consent_commands

    add_consent_commands(sub)

    st = sub.add_parser("store", help="verify or repair the store file")
    stsub = st.add_subparsers(dest="store_command", metavar="ACTION", required=True)
    sc = stsub.add_parser("check", help="verify the store")
    sc.set_defaults(func=cmd_store_check)
    sv = stsub.add_parser("recover", help="restore the last good copy; the bad file is kept aside")
    sv.add_argument(
        "--empty",
        action="store_true",
        help="with no good copy, keep the bad file aside and start empty",
    )
    sv.set_defaults(func=cmd_store_recover)

    from roots_manager.cli.log import add_commands as add_log_commands

    add_log_commands(sub)

    from roots_manager.cli.hosts import add_commands as add_hosts_commands

    add_hosts_commands(sub)

    from roots_manager.cli.probe import add_commands as add_probe_commands

    add_probe_commands(sub)

    sub.add_parser("bridge", help="run the stdio bridge (the same as roots-bridge)", add_help=False)
    gui = sub.add_parser(
        "gui",
        help="open the desktop app (the default)",
        description="Open the desktop app. Qt's own options (-platform, -style ...) are "
        "passed on to Qt.",
    )
    add_app_options(gui)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
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
            parser.error(f"unrecognized arguments: {' '.join(unknown)}")  # usage, exit 2
        return open_app(app_argv)
    args = parser.parse_args(argv)
    utf8_output()
    try:
        store = Store(Layout.default())
        code = int(args.func(store, args))
        sys.stdout.flush()  # here, so that a closed pipe is met inside this try
        return code
    except StoreError as exc:
        print(f"roots-manager: {shown(str(exc))}", file=sys.stderr)
        return EXIT_STORE
    except (ModelError, UriError) as exc:
        print(f"roots-manager: {shown(str(exc))}", file=sys.stderr)
        return EXIT_REFUSED
    except BrokenPipeError:
        # the reader (head, a pager) has had enough: stop quietly, as cat or grep would;
        # os._exit skips the final flush that would hit the closed pipe again
        os._exit(0)
    except KeyboardInterrupt:
        print("roots-manager: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as exc:
        print(f"roots-manager: {shown(str(exc))}", file=sys.stderr)
        return EXIT_REFUSED
