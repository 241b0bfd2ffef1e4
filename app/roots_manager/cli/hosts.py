"""The host commands of ``roots-manager``: ``hosts list|wrap|unwrap|undo`` and ``effective --watch``.

The ``--json`` outputs are a contract for hosts and scripts (``docs/hosts.md``): each carries
``"version": 1``, and a field is only ever added. Whatever fails under ``--json`` says so on
stdout as well, in an ``"error"`` object (:mod:`roots_manager.cli.errors`), so that a script
reads one document whatever happens.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from roots_manager.cli.errors import EXIT_REFUSED, EXIT_USAGE, JSON_VERSION, Failure, error_json
from roots_manager.cli.text import JSON_HELP, json_text, print_json, shown, table
from roots_manager.core.hosts.known import HOST_IDS, HOSTS, Platform
from roots_manager.core.servers.names import find_by_visible

if TYPE_CHECKING:
    from roots_manager.cli.usage import Subcommands
    from roots_manager.core.hosts.declared import HostServer
    from roots_manager.core.hosts.operations import FileReport, FileResult, UndoResult
    from roots_manager.core.store.file import Store

# What the commands need is imported in them: building the parser, which every call of
# roots-manager does (--version too), must stay cheap.


def _server_json(s: HostServer) -> dict[str, Any]:
    from roots_manager.core.hosts.declared import Transport

    return {
        "name": s.name,
        "table": list(s.container),
        "transport": s.transport.value,
        "wrappable": s.transport is Transport.STDIO,
        "wrapped": s.wrapped is not None,
        "bridge_server": s.wrapped.server if s.wrapped else None,
        "command": s.argv,
        "server_command": s.server_argv,
        "problem": s.problem,
    }


def _file_json(r: FileReport) -> dict[str, Any]:
    return {
        "host": r.file.host.id,
        "label": r.file.host.label,
        "path": str(r.file.path),
        "scope": r.file.scope,
        "project": None if r.file.project is None else str(r.file.project),
        "format": r.file.host.format.value,
        "reloads": r.file.host.reloads,
        "discontinued": r.file.host.discontinued,
        "error": r.error,
        "line": r.line,
        "servers": [_server_json(s) for s in r.servers],
    }


def _status(s: HostServer) -> str:
    from roots_manager.core.hosts.declared import Transport

    if s.wrapped is not None:
        return f"behind the bridge as {s.wrapped.server!r}"
    if s.transport is Transport.STDIO:
        return "not protected"
    return f"not wrappable: {s.problem}"


def cmd_hosts_list(store: Store, args: argparse.Namespace) -> int:
    from roots_manager.core.hosts import operations as hostchanges

    reports = hostchanges.report(Platform.current(), hostchanges.projects(store))
    # every file is listed, and a file that cannot be read makes the exit code say so, for a
    # script that must not take "could not read" for "nothing to protect"
    unread = [f"{r.file.path}: {r.error}" for r in reports if r.error is not None]
    code = EXIT_REFUSED if unread else 0
    if args.json:
        doc: dict[str, Any] = {"version": JSON_VERSION, "files": [_file_json(r) for r in reports]}
        if unread:
            doc["error"] = error_json("unreadable", "; ".join(unread))["error"]
        print_json(doc)
        return code
    if not reports:
        looked = ", ".join(h.shown_id for h in HOSTS)
        print(f"no host configuration found (hosts looked for: {looked})")
        return 0
    rows = []
    for r in reports:
        spec = r.file.host
        gone = "" if spec.discontinued is None else f", discontinued {spec.discontinued}"
        where = f"{spec.id} ({r.file.scope}{gone})"
        if r.error is not None:
            line = f" at line {r.line}" if r.line is not None else ""
            rows.append([where, str(r.file.path), "-", f"cannot be read{line}: {r.error}"])
        elif not r.servers:
            rows.append([where, str(r.file.path), "-", "no servers"])
        for s in r.servers:
            rows.append([where, str(r.file.path), s.name, _status(s)])
    table(rows, ["HOST", "FILE", "SERVER", "STATUS"])
    return code


def _error(r: FileResult) -> str | None:
    """Why *r*'s file was not changed; a full disk or a permission denied in plain words."""
    from roots_manager.support.oserror import explained

    plain = None if r.failure is None else explained(r.failure)
    return r.error if plain is None else f"not changed: {plain}"


def _result_json(r: FileResult) -> dict[str, Any]:
    return {
        "host": r.file.host.id,
        "path": str(r.file.path),
        "written": r.written,
        "backup": None if r.backup is None else str(r.backup),
        "error": _error(r),
        "diff": r.diff,
        "restart_needed": r.written and not r.file.host.reloads,
        "servers": [
            {"name": o.name, "status": o.status, "bridge_server": o.server, "detail": o.detail}
            for o in r.outcomes
        ],
        "notes": r.notes,
    }


def _not_changed(results: list[FileResult]) -> dict[str, Any] | None:
    """The ``"error"`` of a result document, if a file could not be changed."""
    errors = [e for e in map(_error, results) if e]
    return error_json("not-changed", "; ".join(errors))["error"] if errors else None


def _print_results(results: list[FileResult], args: argparse.Namespace, action: str) -> int:
    if args.json:
        doc = {
            "version": JSON_VERSION,
            "action": action,
            "dry_run": args.dry_run,
            "files": [_result_json(r) for r in results],
        }
        error = _not_changed(results)
        print_json(doc if error is None else {**doc, "error": error})
    else:
        _print_files(results, args.dry_run)
        if not results:
            print("no configuration file of this host was found")
    return EXIT_REFUSED if any(r.error for r in results) else 0


def _print_files(results: list[FileResult], dry_run: bool) -> None:
    for r in results:
        print(f"{shown(str(r.file.path))}:")
        for note in r.notes:
            print(f"  {shown(note)}")
        if dry_run and r.diff:
            print(shown_diff(r.diff), end="")
        for o in r.outcomes:
            name = f" as {o.server!r}" if o.server and o.server != o.name else ""
            detail = f" ({o.detail})" if o.detail else ""
            status = o.status.replace("-", " ")
            if dry_run and o.status in ("wrapped", "unwrapped"):
                status = f"would be {status}"
            print(f"  {shown(o.name)}: {status}{shown(name)}{shown(detail)}")
        if r.error:
            print(f"  {shown(_error(r) or r.error)}")
        elif r.written:
            print(f"  backup of the previous file: {shown(str(r.backup))}")
            if not r.file.host.reloads:
                print(f"  restart {r.file.host.label} to apply")


def shown_diff(diff: str) -> str:
    return "".join(shown(line.rstrip("\n")) + "\n" for line in diff.splitlines())


def _bridge(args: argparse.Namespace) -> str:
    from roots_manager.core.hosts.operations import HostRefusal
    from roots_manager.core.hosts.wrap import find_bridge

    bridge = args.bridge or find_bridge()
    if bridge is None:
        raise HostRefusal(
            "cannot find roots-bridge beside {python}; give its path with --bridge",
            python=sys.executable,
        )
    if not os.path.isabs(bridge):
        raise HostRefusal(
            "the bridge must be given by its absolute path, not {path!r}", path=bridge
        )
    return bridge


def _change(store: Store, args: argparse.Namespace, action: str) -> int:
    from roots_manager.actions import hosts as host_actions
    from roots_manager.core.hosts import operations as hostchanges

    if not args.all and not args.servers:
        raise Failure(
            "usage",
            f"name the servers to {action}, or pass --all (roots-manager hosts list shows them)",
            EXIT_USAGE,
        )
    files = hostchanges.host_files(args.host, Platform.current(), hostchanges.projects(store))
    servers = None if args.all else args.servers
    if action == hostchanges.WRAP:
        results = host_actions.wrap(
            store,
            files,
            servers,
            bridge=_bridge(args),
            dry_run=args.dry_run,
            roots_args=args.roots_args,
        )
    else:
        results = host_actions.unwrap(store, files, servers, dry_run=args.dry_run)
    code = _print_results(results, args, action)
    if action == hostchanges.WRAP and not args.json:
        _say_confined(store, results)
    return code


def _say_confined(store: Store, results: list[FileResult]) -> None:
    """Say which of the servers just wrapped will start confined (new ones, by default)."""
    from roots_manager.actions.confinement import starts_confined

    names = {o.server for r in results if r.written for o in r.outcomes if o.status == "wrapped"}
    state = store.read()
    confined = sorted(
        n for n in names if n in state.servers and starts_confined(state, state.servers[n])
    )
    if confined:
        print(
            f"{', '.join(map(shown, confined))}: start{'s' if len(confined) == 1 else ''} confined "
            "to the folders granted (roots-manager servers confine NAME off: advice only)"
        )


def cmd_hosts_wrap(store: Store, args: argparse.Namespace) -> int:
    from roots_manager.core.hosts.operations import WRAP

    return _change(store, args, WRAP)


def cmd_hosts_unwrap(store: Store, args: argparse.Namespace) -> int:
    from roots_manager.core.hosts.operations import UNWRAP

    return _change(store, args, UNWRAP)


def cmd_hosts_undo(store: Store, args: argparse.Namespace) -> int:
    from roots_manager.actions import hosts as host_actions

    # the bridge is looked for only if the undo wraps again
    undone = host_actions.undo(store, lambda: _bridge(args))
    if args.json:
        print_json(_undo_json(undone))
    elif undone is None:
        print("no host change to undo")
    else:
        _print_files(undone.files, False)
        print(shown(_undo_summary(undone)))
    return 0 if undone is None or undone.done else EXIT_REFUSED


def _undo_json(undone: UndoResult | None) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "version": JSON_VERSION,
        "action": "undo",
        "dry_run": False,
        "undone": None,
        "restored": [],
        "files": [],
    }
    if undone is None:
        return doc
    step = undone.step
    doc["undone"] = {"action": step.action, "at": step.at, "done": undone.done}
    doc["restored"] = [str(p) for p in undone.restored]
    doc["files"] = [_result_json(r) for r in undone.files]
    error = _not_changed(undone.files)
    return doc if error is None else {**doc, "error": error}


def _undo_summary(undone: UndoResult) -> str:
    what = f"the {undone.step.action} of {undone.step.at}"
    restored = ", ".join(str(p) for p in undone.restored)
    if not undone.done:
        return (
            f"{what} is not all taken back: run roots-manager hosts undo again once the files "
            "above can be changed" + (f" (restored: {restored})" if restored else "")
        )
    if not restored:
        return f"took back {what}: nothing was left to restore"
    return f"took back {what}: restored {restored}"


def watch_effective(store: Store, server_ref: str, as_json: bool) -> int:
    """Print *server*'s ``roots/list`` answer now, then again each time it changes."""
    from roots_manager.cli.text import say_watch_trouble
    from roots_manager.core.consent.effective import ListRootsResult, effective
    from roots_manager.core.runs import live
    from roots_manager.support.dirwatch import SteadyWatch

    layout = store.layout
    last: ListRootsResult | None = None

    def emit() -> None:
        nonlocal last
        state = store.read()
        server = find_by_visible(server_ref, state.servers) or server_ref
        result = effective(state, server, live_runs=live.live_runs(layout))
        if result == last:
            return  # coalesced: a save that changed nothing for this server prints nothing
        last = result
        if as_json:
            print(json_text(result, indent=None), flush=True)
        else:
            lines = [f"{shown(r['name'])}\t{r['uri']}" for r in result["roots"]]
            print("\n".join(lines or ["(no roots)"]) + "\n", flush=True)

    try:
        emit()
        # the store is replaced by rename, so its folder is watched; the markers of running
        # bridges decide while-running grants; the timeout catches a bridge that died unannounced
        with SteadyWatch(
            [str(layout.home), str(layout.live)], on_trouble=say_watch_trouble
        ) as watch:
            emit()  # a change made while the watch was being set up
            while watch.wait(1.0, debounce=0.05, settle=0.02) is not None:
                emit()
    except KeyboardInterrupt:
        return 0
    return 0


def add_commands(sub: Subcommands) -> None:
    """Add ``hosts`` to the subcommands *sub*."""
    hosts = sub.add_parser(
        "hosts", help="the MCP hosts on this machine: put their servers behind the bridge"
    )
    hsub = hosts.add_subparsers(dest="hosts_command", metavar="ACTION", required=True)
    ls = hsub.add_parser("list", help="hosts found, their files and servers, which are protected")
    ls.add_argument("--json", action="store_true", help=JSON_HELP)
    ls.set_defaults(func=cmd_hosts_list)
    for action, func, text in (
        ("wrap", cmd_hosts_wrap, "put servers of a host behind roots-bridge"),
        ("unwrap", cmd_hosts_unwrap, "give servers of a host their own command back"),
    ):
        p = hsub.add_parser(action, help=text)
        p.add_argument("host", choices=HOST_IDS, metavar="HOST", help=", ".join(HOST_IDS))
        p.add_argument("servers", nargs="*", metavar="SERVER", help="the host's names for them")
        p.add_argument("--all", action="store_true", help="every server of the host")
        p.add_argument("--dry-run", action="store_true", help="show the change, write nothing")
        p.add_argument("--json", action="store_true", help=JSON_HELP)
        if action == "wrap":
            p.add_argument(
                "--bridge",
                metavar="PATH",
                help="the roots-bridge to use (default: the one installed with this command)",
            )
            p.add_argument(
                "--roots-args",
                action="store_true",
                help="a server whose arguments are folders gets {roots} in their place (its "
                "granted folders, at each start) and those folders become roots granted to it",
            )
        p.set_defaults(func=func, bridge=None, roots_args=False)
    u = hsub.add_parser("undo", help="take back the last wrap or unwrap")
    u.add_argument("--json", action="store_true", help=JSON_HELP)
    u.add_argument("--bridge", metavar="PATH", help="the roots-bridge to use to wrap again")
    u.set_defaults(func=cmd_hosts_undo, dry_run=False)
