"""The consent commands of ``roots-manager``: ``grant``, ``revoke``, ``servers``, ``effective``,
``notify`` and ``policy``."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from roots_manager.actions import settings
from roots_manager.actions.consent import grant, revoke
from roots_manager.actions.servers import UnknownServer, approve, forget
from roots_manager.cli.errors import EXIT_REFUSED, JSON_VERSION, Failure, error_json, unknown_server
from roots_manager.cli.text import JSON_HELP, print_json, root_json, shown, table
from roots_manager.core.consent.effective import (
    Availability,
    effective,
    visible_roots,
)
from roots_manager.core.directory.layout import Layout
from roots_manager.core.directory.records import EventKind, EventRecord
from roots_manager.core.log import events as ev
from roots_manager.core.runs import live
from roots_manager.core.servers.names import find_by_visible, visible
from roots_manager.core.store.file import Store
from roots_manager.core.store.grants import POLICIES, Scope
from roots_manager.core.store.state import State
from roots_manager.support import cyclic_gc

if TYPE_CHECKING:
    from roots_manager.cli.usage import Subcommands


def cmd_grant(store: Store, args: argparse.Namespace) -> int:
    scope = Scope.WHILE_RUNNING if args.while_running else Scope.ALWAYS
    try:
        done = grant(
            store,
            args.server,
            args.roots,
            scope,
            read_only=args.read_only,
            new=args.new,
            allow_broad=args.allow_broad,
            read_only_inside=args.except_ or (),
            hidden_inside=args.hide or (),
            clear_inside=args.clear_except,
        )
    except UnknownServer as exc:
        raise unknown_server(exc, ["grant", args.server, *args.roots]) from exc
    server = done.server
    if args.json:
        print_json(
            {
                "version": JSON_VERSION,
                "server": server,
                "new_server": done.new_server,
                "scope": scope.value,
                "read_only": args.read_only,
                "roots": [root_json(r) for r in done.roots],
                "added_roots": [root_json(r) for r in done.added],
                "changed": done.changed,
                "runs": done.runs,
                "suspended": done.suspended,
                "read_only_inside": sorted(set(args.except_ or ())),
                "hidden_inside": sorted(set(args.hide or ())),
            }
        )
        return 0
    for root in done.added:
        print(f"added '{shown(root.name)}' as a root: {shown(root.path)} ({root.uri})")
    what = "while it runs" if args.while_running else "always"
    if args.read_only:
        what += ", read-only: enforced only while the server runs confined"
    print(f"granted {visible(server)} {len(done.roots)} root(s) ({what})")
    if not args.read_only:
        from roots_manager.cli.confinement import held_notice

        for line in held_notice([r.real or r.path for r in done.roots]):
            print(line)
    if done.new_server:
        print(
            f"{visible(server)} has not run yet: the grant waits for the first server to start "
            "under that name"
        )
    if args.while_running and not done.runs:
        print("no bridge of this server runs now: the grant lasts for the next one to start")
    if done.suspended:
        print(
            f"note: {visible(server)}'s command line changed since it was approved; its "
            f"grants stay suspended until you run: roots-manager servers approve {visible(server)}"
        )
    return 0


def cmd_revoke(store: Store, args: argparse.Namespace) -> int:
    try:
        done = revoke(store, args.server, args.roots)
    except UnknownServer as exc:
        raise unknown_server(exc, ["revoke", args.server, *args.roots]) from exc
    if args.json:
        print_json(
            {
                "version": JSON_VERSION,
                "server": done.server,
                "roots": [root_json(r) for r in done.roots],
                "revoked": done.revoked,
            }
        )
    elif done.revoked == 0:
        print(
            f"{visible(done.server)} had no grant of "
            f"{'that root' if len(done.roots) == 1 else 'those roots'}; nothing changed"
        )
    else:
        print(f"revoked {done.revoked} grant(s) from {visible(done.server)}")
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
    try:
        srv = approve(store, args.server, args.fingerprint)
    except UnknownServer as exc:
        raise unknown_server(exc, ["servers", "approve", args.server], 2) from exc
    if args.json:
        print_json(
            {
                "version": JSON_VERSION,
                "server": srv.name,
                "command": srv.command,
                "fingerprint": srv.fingerprint,
            }
        )
    else:
        print(f"approved {visible(srv.name)}'s command line: {shown(' '.join(srv.command or []))}")
    return 0


def cmd_servers_remove(store: Store, args: argparse.Namespace) -> int:
    try:
        done = forget(store, args.server)
    except UnknownServer as exc:
        raise unknown_server(exc, ["servers", "remove", args.server], 2) from exc
    if args.json:
        print_json({"version": JSON_VERSION, "server": done.server, "grants_removed": done.grants})
    else:
        print(f"forgot {visible(done.server)} and its grants")
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
        from roots_manager.cli.hosts import watch_effective

        return watch_effective(store, args.server, args.json)
    with cyclic_gc.paused():  # as roots list (cli.main): freed by counts as it returns
        return _effective(store, args)


def _effective(store: Store, args: argparse.Namespace) -> int:
    state = store.read()
    server = find_by_visible(args.server, state.servers) or args.server
    availability = Availability()
    live_runs = live.live_runs(store.layout)
    result = effective(state, server, live_runs=live_runs, availability=availability)
    if args.json:
        print_json(result)
        return 0
    if not result["roots"]:
        print(f"{visible(server)} sees no roots{_why_none(state, server)}")
    # written at once: a print per root was a tenth of the command at 30,000 roots
    sys.stdout.write("".join([f"{shown(r['name'])}\t{r['uri']}\n" for r in result["roots"]]))
    for root in visible_roots(state, args.server, live_runs=live_runs):
        reason = availability.reason(root)
        if reason in ("moved", "too broad"):
            real = os.path.realpath(root.path)
            print(
                f"withheld: {shown(root.name)}\t{shown(root.path)} now leads to {shown(real)} "
                f"({reason})",
                file=sys.stderr,
            )
        elif reason == "not mounted":
            print(
                f"withheld: {shown(root.name)}\t{shown(root.path)} was a file system of its own, "
                "which is not mounted there now (not mounted)",
                file=sys.stderr,
            )
    return 0


NOTIFY_WAIT = 5.0
"""Seconds `notify` waits by default for a bridge to act (bridges look at least every second)."""


Outcome = tuple[live.BridgeMarker, str, str]
"""A bridge asked, the word for what it did, and the sentence that says it."""


def cmd_notify(store: Store, args: argparse.Namespace) -> int:
    layout = store.layout
    markers = live.bridge_markers(layout)
    server = find_by_visible(args.server, {m.server for m in markers}) or args.server
    bridges = [m for m in markers if m.server == server]
    name = visible(server)
    if not bridges:
        raise Failure(
            "not-running",
            f"no bridge of {name} is running; list_changed goes to a running server only",
        )
    live.sweep_list_changed_requests(layout)
    done: list[Outcome] = []
    for m in bridges:
        where = f"{name} (bridge pid {m.pid})"
        if m.mode != "managed":
            done.append((m, "observing", f"{where}: the bridge only observes"))
            continue
        outcome = _ask_and_wait(layout, m, args.wait)
        if outcome is None:
            done.append((m, "no-answer", f"{where}: the bridge did not act within {args.wait:g} s"))
        else:
            said = str(outcome.get("outcome", "unknown"))
            done.append((m, said, f"{where}: {ev.summarize(outcome)}"))
    return _report(args, server, done, ("sent",), "sent", "not-sent")


def _report(
    args: argparse.Namespace,
    server: str,
    done: list[Outcome],
    good: tuple[str, ...],
    count: str,
    code: str,
) -> int:
    """What ``notify`` or ``restart`` asked of each bridge and what it did: one JSON document
    (*count*: how many did one of the *good* things; an error with *code* when not all did),
    or a line each, the others on stderr; exit 0 only when every bridge did."""
    did = sum(1 for _, said, _ in done if said in good)
    if args.json:
        doc: dict[str, Any] = {
            "version": JSON_VERSION,
            "server": server,
            count: did,
            "bridges": [
                {"session": m.run, "pid": m.pid, "mode": m.mode, "outcome": said, "message": text}
                for m, said, text in done
            ],
        }
        if did < len(done):
            left = "; ".join(text for _, said, text in done if said not in good)
            doc = {**doc, **error_json(code, left)}
        print_json(doc)
    else:
        for _, said, text in done:
            if said in good:
                print(text)
            else:
                print(f"roots-manager: {text}", file=sys.stderr)
    return 0 if did == len(done) else EXIT_REFUSED


def _ask_and_wait(
    layout: Layout, m: live.BridgeMarker, wait: float, *, restart: bool = False
) -> EventRecord | None:
    """Ask bridge *m* for a list_changed (or, *restart*, to restart its server); its
    ``list-changed-asked`` event (``server-restarted``, ``restart-failed`` or a
    ``restart-asked`` that did not restart), or None in time."""
    offsets: dict[Path, int] = {}
    for path in ev.run_log_files(layout, m.run):
        with contextlib.suppress(OSError):
            offsets[path] = path.stat().st_size
    ask = live.ask_restart if restart else live.ask_list_changed
    request = ask(layout, m.run, "cli")
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        for path in ev.run_log_files(layout, m.run):
            records, offsets[path] = ev.read_events(path, offsets.get(path, 0))
            for rec in records:
                if _answers(rec, request, restart):
                    return rec
        time.sleep(0.05)
    # not taken in time: withdraw it, unless the bridge is taking it right now
    with contextlib.suppress(OSError):
        (live.take_restart_request if restart else live.take_list_changed_request)(layout, m.run)
    return None


def _answers(rec: EventRecord, request: str, restart: bool) -> bool:
    """Whether *rec* tells how the bridge answered *request*, as far as the command waits."""
    kind = rec.get("kind")
    if not restart:
        return kind == EventKind.LIST_CHANGED_ASKED and rec.get("request") == request
    if kind == EventKind.RESTART_ASKED:
        return rec.get("request") == request and rec.get("outcome") != "restarting"
    if kind == EventKind.SERVER_RESTARTED:
        return rec.get("request") == request
    return kind == EventKind.RESTART_FAILED  # the restart asked for gave up: the run ends


RESTART_WAIT = 30.0
"""Seconds `restart` waits by default for each bridge's restart (it waits for the old server's
requests, up to 3 s, and for the new one to answer the replayed handshake)."""


def cmd_restart(store: Store, args: argparse.Namespace) -> int:
    layout = store.layout
    markers = live.bridge_markers(layout)
    server = find_by_visible(args.server, {m.server for m in markers}) or args.server
    bridges = [m for m in markers if m.server == server]
    name = visible(server)
    if not bridges:
        raise Failure("not-running", f"no bridge of {name} is running; its host starts it")
    live.sweep_list_changed_requests(layout)
    done: list[Outcome] = []
    for m in bridges:
        where = f"{name} (bridge pid {m.pid})"
        outcome = _ask_and_wait(layout, m, args.wait, restart=True)
        if outcome is None:
            done.append((m, "no-answer", f"{where}: the bridge did not act within {args.wait:g} s"))
        elif outcome.get("kind") == EventKind.SERVER_RESTARTED:
            done.append((m, "restarted", f"{where}: {ev.summarize(outcome)}"))
        elif outcome.get("kind") == EventKind.RESTART_FAILED:
            done.append((m, "failed", f"{where}: {ev.summarize(outcome)}"))
        else:
            said = str(outcome.get("outcome", "unknown"))
            done.append((m, said, f"{where}: {ev.summarize(outcome)}"))
    return _report(args, server, done, ("restarted", "under-way"), "restarted", "not-restarted")


def cmd_policy(store: Store, args: argparse.Namespace) -> int:
    """What an unknown server gets: the consent policy, and whether it starts confined."""
    confine_new = None if args.confine_new is None else args.confine_new == "on"
    if args.policy is None and confine_new is None:
        state = store.read()
        policy, new, changed = state.policy, state.confine_new, False
    else:
        done = settings.set_policy(store, args.policy, confine_new)
        policy, new, changed = done.policy, done.confine_new, done.changed
    from roots_manager.sandbox.availability import availability, confines_by_default

    here = confines_by_default()
    if args.json:
        print_json(
            {
                "version": JSON_VERSION,
                "policy": policy,
                "confine_new": new,
                "confines_here": new and here,
                "changed": changed,
            }
        )
        return 0
    if args.policy is None and confine_new is None:
        print(policy)  # the first line alone, as scripts read it
    elif args.policy is not None:
        print(f"policy for unknown servers: {policy}")
    if confine_new is not None:
        print(f"new servers start confined: {'on' if new else 'off'}", end="")
        if new and not here:
            print(f" (not on this machine: {availability().reason})")
        else:
            print(" (servers already known keep their own setting)" if changed else "")
    return 0


def add_commands(sub: Subcommands) -> None:
    """Add ``grant``, ``revoke``, ``servers``, ``effective``, ``notify`` and ``policy`` to the
    subcommands *sub*."""
    g = sub.add_parser("grant", help="let a server see roots")
    g.add_argument("server")
    g.add_argument(
        "roots",
        nargs="+",
        metavar="ROOT",
        help="a root's name, a path or a file:// URI; a folder that is not a root yet is "
        "added as one",
    )
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
    g.add_argument(
        "--new",
        action="store_true",
        help="grant to a server that has not run yet, ahead of its first start (without it, "
        "a name nobody has seen is refused: it is most often a typo)",
    )
    g.add_argument(
        "--allow-broad",
        action="store_true",
        help="a FOLDER that is not a root yet is added as one: allow it to be the file system "
        "root, your home folder or a folder holding it",
    )
    g.add_argument(
        "--except",
        dest="except_",
        action="append",
        metavar="PLACE",
        help="a file or folder inside the root (relative to it) that a confined server may read "
        "but not write, whatever the grant says; again for more",
    )
    g.add_argument(
        "--hide",
        action="append",
        metavar="PLACE",
        help="a file or folder inside the root (relative to it) that a confined server may not "
        "read either (a .env, a secrets folder); again for more",
    )
    g.add_argument(
        "--clear-except",
        action="store_true",
        help="take away the grant's --except and --hide places first",
    )
    g.add_argument("--json", action="store_true", help=JSON_HELP)
    g.set_defaults(func=cmd_grant)
    r = sub.add_parser("revoke", help="stop a server from seeing roots")
    r.add_argument("server")
    r.add_argument("roots", nargs="+", metavar="ROOT")
    r.add_argument("--json", action="store_true", help=JSON_HELP)
    r.set_defaults(func=cmd_revoke)

    servers = sub.add_parser("servers", help="the servers Roots Manager knows")
    ssub = servers.add_subparsers(dest="servers_command", metavar="ACTION", required=True)
    sl = ssub.add_parser("list", help="known servers, their fingerprints and pending consent")
    sl.add_argument("--json", action="store_true", help=JSON_HELP)
    sl.set_defaults(func=cmd_servers_list)
    sa = ssub.add_parser("approve", help="approve a server's changed command line")
    sa.add_argument("server")
    sa.add_argument(
        "--fingerprint",
        metavar="FP",
        help="approve only if the command is still the one with this fingerprint (shown in "
        "full by 'servers list --json')",
    )
    sa.add_argument("--json", action="store_true", help=JSON_HELP)
    sa.set_defaults(func=cmd_servers_approve)
    sr = ssub.add_parser("remove", help="forget a server and its grants")
    sr.add_argument("server")
    sr.add_argument("--json", action="store_true", help=JSON_HELP)
    sr.set_defaults(func=cmd_servers_remove)
    from roots_manager.cli.confinement import add_commands

    add_commands(ssub)
    from roots_manager.cli.learning import add_commands as add_learning_commands

    add_learning_commands(ssub)

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
    nt.add_argument("--json", action="store_true", help=JSON_HELP)
    nt.set_defaults(func=cmd_notify)

    rs = sub.add_parser(
        "restart",
        help="have a running server's bridge stop its server and start it again, behind its "
        "host's back (the host stays connected); its bridge must keep the handshake: confined, "
        "restart on revoke on, or {roots} on its command line",
    )
    rs.add_argument("server")
    rs.add_argument(
        "--wait",
        type=float,
        default=RESTART_WAIT,
        metavar="SECONDS",
        help=f"how long to wait for each bridge's restart (default {RESTART_WAIT:g})",
    )
    rs.add_argument("--json", action="store_true", help=JSON_HELP)
    rs.set_defaults(func=cmd_restart)

    po = sub.add_parser("policy", help="show or set what an unknown server gets")
    po.add_argument("policy", nargs="?", choices=POLICIES)
    po.add_argument(
        "--confine-new",
        choices=("on", "off"),
        help="whether a server first seen from now on starts confined where this machine can "
        "confine (on by default); servers already known keep their setting",
    )
    po.add_argument("--json", action="store_true", help=JSON_HELP)
    po.set_defaults(func=cmd_policy)
