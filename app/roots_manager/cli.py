"""The ``roots-manager`` command: the same operations as the desktop app, for scripts and hosts.

Exit codes: 0 done, 1 the operation was refused (the message says why), 2 bad usage,
3 the store cannot be used as it is (the message names the file and the way out),
130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections import Counter
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from roots_manager import __version__
from roots_manager.cli_gui import open_app
from roots_manager.cli_text import print_json, shown, table, utf8_output
from roots_manager.core import events as ev
from roots_manager.core import live
from roots_manager.core.consent import (
    active_grants_by_root,
    effective,
    root_unavailable,
    visible_roots,
)
from roots_manager.core.model import POLICIES, ModelError, Scope, State
from roots_manager.core.names import find_by_visible, visible
from roots_manager.core.paths import Layout
from roots_manager.core.store import Store, StoreError
from roots_manager.core.uri import UriError

EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_STORE = 3
EXIT_INTERRUPTED = 130


def _named(names: Collection[str], ref: str) -> str:
    """The server *ref* names: itself, or the stored name that shows as *ref* (``fs\\u200b``)."""
    return find_by_visible(ref, names) or ref


# ---- roots -------------------------------------------------------------------------------


def cmd_roots_add(store: Store, args: argparse.Namespace) -> int:
    with store.transaction() as state:
        root = state.add_root(args.path, args.name, allow_broad=args.allow_broad)
    print(f"added '{shown(root.name)}': {shown(root.path)} ({root.uri})")
    return 0


def roots_report(state: State, layout: Layout) -> list[dict[str, Any]]:
    """Each root with its availability and the servers it is granted to now."""
    grants = active_grants_by_root(state, live.live_runs(layout))
    out = []
    for r in state.roots:
        reason = root_unavailable(r)
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
    rows = [
        [
            r["name"],
            r["path"],
            "yes" if r["available"] else f"no ({r['unavailable_reason']})",
            ", ".join(
                visible(g["server"])
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


# ---- grants, servers, effective ---------------------------------------------------------


def cmd_grant(store: Store, args: argparse.Namespace) -> int:
    with store.transaction() as state:
        server = _named(state.servers, args.server)
        runs: list[str] = []
        if args.while_running:
            runs = [m.run for m in live.bridge_markers(store.layout) if m.server == server]
        ids = [state.find_root(ref).id for ref in args.roots]
        state.grant(
            server,
            ids,
            Scope.WHILE_RUNNING if args.while_running else Scope.ALWAYS,
            runs,
            read_only=args.read_only,
        )
        suspended = state.servers[server].suspended
    what = "while it runs" if args.while_running else "always"
    if args.read_only:
        what += ", read-only: enforced only while the server runs confined"
    print(f"granted {visible(server)} {len(ids)} root(s) ({what})")
    if args.while_running and not runs:
        print("no bridge of this server runs now: the grant lasts for the next one to start")
    if suspended:
        print(
            f"note: {visible(server)}'s command line changed since it was approved; its "
            f"grants stay suspended until you run: roots-manager servers approve {visible(server)}"
        )
    return 0


def cmd_revoke(store: Store, args: argparse.Namespace) -> int:
    with store.transaction() as state:
        ids = [state.find_root(ref).id for ref in args.roots]
        server = _named(state.servers, args.server)
        state.server(server)  # a mistyped server name is refused, not "revoked" silently
        n = state.revoke(server, ids)
    if n == 0:
        print(
            f"{visible(server)} had no grant of {'that root' if len(ids) == 1 else 'those roots'}; nothing changed"
        )
    else:
        print(f"revoked {n} grant(s) from {visible(server)}")
    return 0


def servers_report(state: State, layout: Layout) -> list[dict[str, Any]]:
    running: dict[str, list[dict[str, Any]]] = {}
    for m in live.bridge_markers(layout):
        running.setdefault(m.server, []).append(
            {
                # the bridge run's id, under the key scripts have read since the first version
                "session": m.run,
                "pid": m.pid,
                "started_at": m.started_at,
                "mode": m.mode,
                "protocol": m.protocol,
                "stale": m.stale,
                "last_roots_list_at": m.last_roots_list_at,
            }
        )
    grants = Counter(g.server for g in state.grants)
    out = []
    for name, s in sorted(state.servers.items()):
        pending = [p for p in state.pending if p.server == name]
        out.append(
            {
                "name": name,
                "fingerprint": s.fingerprint,
                "seen_fingerprint": s.seen_fingerprint,
                "command": s.command,
                "first_seen": s.first_seen,
                "last_seen": s.last_seen,
                "suspended": s.suspended,
                "pending": [
                    {
                        "id": p.id,
                        "reason": p.reason,
                        "command": p.command,
                        "requested_at": p.requested_at,
                    }
                    for p in pending
                ],
                "grants": grants[name],
                "running": running.get(name, []),
            }
        )
    return out


def cmd_servers_list(store: Store, args: argparse.Namespace) -> int:
    report = servers_report(store.read(), store.layout)
    if args.json:
        print_json(report)
        return 0
    if not report:
        print("no servers known yet; a server becomes known when it runs behind roots-bridge")
        return 0
    rows = []
    for s in report:
        status = []
        if s["pending"]:
            status.append(f"consent pending ({s['pending'][0]['reason']})")
        if s["suspended"]:
            status.append("suspended: command changed")
        if s["running"]:
            status.append(f"running ({len(s['running'])})")
        rows.append(
            [
                visible(s["name"]),
                (s["seen_fingerprint"] or s["fingerprint"] or "-")[:12],
                s["first_seen"] or "-",
                s["last_seen"] or "-",
                ", ".join(status) or "-",
            ]
        )
    table(rows, ["NAME", "FINGERPRINT", "FIRST SEEN", "LAST SEEN", "STATUS"])
    return 0


def cmd_servers_approve(store: Store, args: argparse.Namespace) -> int:
    with store.transaction() as state:
        srv = state.approve(_named(state.servers, args.server), args.fingerprint)
    print(f"approved {visible(srv.name)}'s command line: {shown(' '.join(srv.command or []))}")
    return 0


def cmd_servers_remove(store: Store, args: argparse.Namespace) -> int:
    with store.transaction() as state:
        server = _named(state.servers, args.server)
        state.remove_server(server)
    print(f"forgot {visible(server)} and its grants")
    return 0


def _why_none(state: State, server: str) -> str:
    srv = state.servers.get(server)
    if srv is None:
        return f" (no server named '{visible(server)}' is known, and the policy is {state.policy})"
    if srv.suspended:
        return (
            f" (its command line changed; roots-manager servers approve {visible(server)} "
            "lifts the suspension)"
        )
    return ""


def cmd_effective(store: Store, args: argparse.Namespace) -> int:
    if args.watch:
        from roots_manager.cli_hosts import watch_effective

        return watch_effective(store, args.server, args.json)
    state = store.read()
    server = _named(state.servers, args.server)
    result = effective(state, server, live_runs=live.live_runs(store.layout))
    if args.json:
        print_json(result)
        return 0
    if not result["roots"]:
        print(f"{visible(server)} sees no roots{_why_none(state, server)}")
    for r in result["roots"]:
        print(f"{shown(r['name'])}\t{r['uri']}")
    for root in visible_roots(state, args.server, live_runs=live.live_runs(store.layout)):
        reason = root_unavailable(root)
        if reason in ("moved", "too broad"):
            real = os.path.realpath(root.path)
            print(
                f"withheld: {shown(root.name)}\t{shown(root.path)} now leads to {shown(real)} "
                f"({reason})",
                file=sys.stderr,
            )
    return 0


NOTIFY_WAIT = 5.0
"""Seconds `notify` waits by default for a bridge to act (bridges look at least every second)."""


def cmd_notify(store: Store, args: argparse.Namespace) -> int:
    layout = store.layout
    markers = live.bridge_markers(layout)
    server = _named({m.server for m in markers}, args.server)
    bridges = [m for m in markers if m.server == server]
    name = visible(server)
    if not bridges:
        print(
            f"roots-manager: no bridge of {name} is running; "
            "list_changed goes to a running server only",
            file=sys.stderr,
        )
        return EXIT_REFUSED
    live.sweep_list_changed_requests(layout)
    sent = 0
    for m in bridges:
        where = f"{name} (bridge pid {m.pid})"
        if m.mode != "managed":
            print(f"roots-manager: {where}: the bridge only observes", file=sys.stderr)
            continue
        outcome = _ask_and_wait(layout, m, args.wait)
        if outcome is None:
            print(
                f"roots-manager: {where}: the bridge did not act within {args.wait:g} s",
                file=sys.stderr,
            )
        elif outcome.get("outcome") == "sent":
            sent += 1
            print(f"{where}: {ev.summarize(outcome)}")
        else:
            print(f"roots-manager: {where}: {ev.summarize(outcome)}", file=sys.stderr)
    return 0 if sent == len(bridges) else EXIT_REFUSED


def _ask_and_wait(layout: Layout, m: live.BridgeMarker, wait: float) -> dict[str, Any] | None:
    """Ask bridge *m* for a list_changed; its ``list-changed-asked`` event, or None in time."""
    offsets: dict[Path, int] = {}
    for path in ev.run_log_files(layout, m.run):
        with contextlib.suppress(OSError):
            offsets[path] = path.stat().st_size
    request = live.ask_list_changed(layout, m.run, "cli")
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        for path in ev.run_log_files(layout, m.run):
            records, offsets[path] = ev.read_events(path, offsets.get(path, 0))
            for rec in records:
                if rec.get("kind") == ev.LIST_CHANGED_ASKED and rec.get("request") == request:
                    return rec
        time.sleep(0.05)
    # not taken in time: withdraw it, unless the bridge is taking it right now
    with contextlib.suppress(OSError):
        live.take_list_changed_request(layout, m.run)
    return None


def cmd_policy(store: Store, args: argparse.Namespace) -> int:
    if args.policy is None:
        print(store.read().policy)
        return 0
    with store.transaction() as state:
        state.set_policy(args.policy)
    print(f"policy for unknown servers: {args.policy}")
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

    g = sub.add_parser("grant", help="let a server see roots")
    g.add_argument("server")
    g.add_argument("roots", nargs="+", metavar="ROOT")
    g.add_argument(
        "--while-running",
        action="store_true",
        help="only until that server's running bridge ends (default: always)",
    )
    # the flag's first name, kept for the scripts and hosts that pass it
    g.add_argument("--session", dest="while_running", action="store_true", help=argparse.SUPPRESS)
    g.add_argument(
        "--read-only",
        action="store_true",
        help="a confined server may read these roots and write nothing in them",
    )
    g.set_defaults(func=cmd_grant)
    r = sub.add_parser("revoke", help="stop a server from seeing roots")
    r.add_argument("server")
    r.add_argument("roots", nargs="+", metavar="ROOT")
    r.set_defaults(func=cmd_revoke)

    servers = sub.add_parser("servers", help="the servers Roots Manager knows")
    ssub = servers.add_subparsers(dest="servers_command", metavar="ACTION", required=True)
    sl = ssub.add_parser("list", help="known servers, their fingerprints and pending consent")
    sl.add_argument("--json", action="store_true")
    sl.set_defaults(func=cmd_servers_list)
    sa = ssub.add_parser("approve", help="approve a server's changed command line")
    sa.add_argument("server")
    sa.add_argument(
        "--fingerprint",
        metavar="FP",
        help="approve only if the command is still the one with this fingerprint (shown in "
        "full by 'servers list --json')",
    )
    sa.set_defaults(func=cmd_servers_approve)
    sr = ssub.add_parser("remove", help="forget a server and its grants")
    sr.add_argument("server")
    sr.set_defaults(func=cmd_servers_remove)
    from roots_manager.cli_confinement import add_commands

    add_commands(ssub)

    e = sub.add_parser("effective", help="the roots/list answer a server gets now")
    e.add_argument("server")
    e.add_argument("--json", action="store_true", help="the ListRootsResult as JSON")
    e.add_argument(
        "--watch",
        action="store_true",
        help="keep printing: the answer now, then again each time it changes (with --json, "
        "one JSON object per line)",
    )
    e.set_defaults(func=cmd_effective)

    nt = sub.add_parser(
        "notify",
        help="have a running server's bridge send list_changed now, though nothing changed "
        "(to see whether the server asks again)",
    )
    nt.add_argument("server")
    nt.add_argument(
        "--wait",
        type=float,
        default=NOTIFY_WAIT,
        metavar="SECONDS",
        help=f"how long to wait for each bridge to act (default {NOTIFY_WAIT:g})",
    )
    nt.set_defaults(func=cmd_notify)

    po = sub.add_parser("policy", help="show or set what an unknown server gets")
    po.add_argument("policy", nargs="?", choices=POLICIES)
    po.set_defaults(func=cmd_policy)

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

    from roots_manager.cli_log import add_commands as add_log_commands

    add_log_commands(sub)

    from roots_manager.cli_hosts import add_commands as add_hosts_commands

    add_hosts_commands(sub)

    from roots_manager.cli_probe import add_commands as add_probe_commands

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


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
