"""The confinement commands of ``roots-manager``: ``servers confine``, ``servers network``,
``servers restart-on-revoke`` and ``servers show``."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from roots_manager.cli.errors import JSON_VERSION, Failure, unknown_server
from roots_manager.cli.text import JSON_HELP, json_text, print_json, shown

if TYPE_CHECKING:
    from roots_manager.cli.usage import Subcommands
    from roots_manager.core.servers.server import Server
    from roots_manager.core.store.file import Store

# What the commands need is imported in them: building the parser, which every call of
# roots-manager does (--version too), must stay cheap.


def _typed(args: argparse.Namespace, *options: str) -> list[str]:
    """The ``servers`` command *args* are, as typed after ``roots-manager`` (for a refusal's
    "did you mean"): its action, the server, the state and the *options* given."""
    argv = ["servers", args.servers_command, args.server]
    if args.state is not None:
        argv.append(args.state)
    for option in options:
        for value in getattr(args, option.replace("-", "_")):
            argv += [f"--{option}", value]
    return argv


def _process_limit(text: str) -> int:
    from roots_manager.core.store.schema import MAX_PROCESS_LIMIT

    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_PROCESS_LIMIT:
        raise argparse.ArgumentTypeError(
            f"not a whole number from 0 (the default) to {MAX_PROCESS_LIMIT:,}: {text!r}"
        )
    return value


def _confined(store: Store, srv: Server) -> bool:
    """Whether *srv* starts confined next time: its setting, or the default's verdict here."""
    if srv.confine is not None:
        return srv.confine
    from roots_manager.actions.confinement import starts_confined

    return starts_confined(store.read(), srv)


def cmd_confine(store: Store, args: argparse.Namespace) -> int:
    from roots_manager.actions.confinement import confine
    from roots_manager.actions.servers import UnknownServer
    from roots_manager.sandbox.availability import availability

    on = None if args.state is None else args.state == "on"
    try:
        srv = confine(
            store,
            args.server,
            on,
            allow_read=args.allow_read,
            allow_write=args.allow_write,
            allow_socket=args.allow_socket,
            forget=args.forget,
            new=args.new,
            max_processes=args.max_processes,
            create=args.create,
        )
    except UnknownServer as exc:
        extra = ("allow-read", "allow-write", "allow-socket", "forget")
        raise unknown_server(exc, _typed(args, *extra), 2) from exc
    found = availability()
    on = _confined(store, srv)
    if args.json:
        print_json(
            {
                "version": JSON_VERSION,
                "server": srv.name,
                "confine": on,
                "confine_decided": srv.confine is not None,
                "allow_read": srv.allow_read,
                "allow_write": srv.allow_write,
                "allow_socket": srv.allow_socket,
                "can_confine": found.available,
                "confinement": found.reason,
            }
        )
        return 0
    name = shown(srv.name)
    undecided = "" if srv.confine is not None else " (the default for a new server)"
    print(f"{name}: confinement {'on' if on else 'off'}{undecided}")
    for label, paths in (
        ("may also read", srv.allow_read),
        ("may also write", srv.allow_write),
        ("may connect to the socket", srv.allow_socket),
    ):
        for path in paths:
            print(f"  {label}: {shown(path)}")
    if on and not found.available:
        print(
            f"note: this machine cannot confine ({found.reason}); a bridge of {name} will "
            "refuse to start the server (exit 126) until it can"
        )
    elif on:
        print("it takes effect when the server next starts")
    for line in held_notice(list(srv.allow_write)):
        print(line)
    return 0


def cmd_ask(store: Store, args: argparse.Namespace) -> int:
    from roots_manager.actions.confinement import set_ask
    from roots_manager.actions.servers import UnknownServer
    from roots_manager.core.store.schema import MAX_ASK_SECONDS

    named = {"off": 0, "default": None}
    if args.seconds not in named and not (
        args.seconds.isdigit() and 1 <= int(args.seconds) <= MAX_ASK_SECONDS
    ):
        print(
            f"roots-manager: servers ask: give a whole number of seconds from 1 to "
            f"{MAX_ASK_SECONDS}, off or default (not {args.seconds!r})",
            file=sys.stderr,
        )
        return 2
    seconds = named[args.seconds] if args.seconds in named else int(args.seconds)
    try:
        srv = set_ask(store, args.server, seconds, new=args.new)
    except UnknownServer as exc:
        raise unknown_server(exc, _typed(args), 2) from exc
    if args.json:
        print_json({"version": JSON_VERSION, "server": srv.name, "ask_seconds": srv.ask_seconds})
        return 0
    print(f"{shown(srv.name)}: {_asks(srv.ask_seconds)}")
    if srv.asks:
        print(
            "from its next start: grant a folder while the call waits (roots-manager grant, or "
            "Allow in the app) and the call reads it, with no restart"
        )
    return 0


def _asks(seconds: int | None) -> str:
    from roots_manager.core.servers.defaults import ASK_SECONDS_DEFAULT

    if seconds == 0:
        return "a read outside its grants is refused at once (servers ask NAME SECONDS)"
    said = f"{seconds} s" if seconds is not None else f"{ASK_SECONDS_DEFAULT} s (the default)"
    return (
        f"a read outside its grants, made while the host waits for a request and the app or "
        f"questions --follow runs, waits up to {said} for a folder to be granted that holds it"
    )


def cmd_restart_on_revoke(store: Store, args: argparse.Namespace) -> int:
    from roots_manager.actions.confinement import set_restart_on_revoke
    from roots_manager.actions.servers import UnknownServer

    try:
        srv = set_restart_on_revoke(store, args.server, _SETTING[args.state], new=args.new)
    except UnknownServer as exc:
        raise unknown_server(exc, _typed(args), 2) from exc
    if args.json:
        print_json(
            {
                "version": JSON_VERSION,
                "server": srv.name,
                "restart_on_revoke": srv.restarts_on_revoke,
                "restart_on_revoke_set": srv.restart_on_revoke is not None,
            }
        )
        return 0
    name = shown(srv.name)
    on = _confined(store, srv)
    default = " (the default for a server that is " + ("" if on else "not ") + "confined)"
    state_word = "on" if srv.restarts_on_revoke else "off"
    print(
        f"{name}: restart on revoke {state_word}{default if srv.restart_on_revoke is None else ''}"
    )
    if srv.restarts_on_revoke:
        print(
            "from the server's next start on, a revoked folder restarts it behind the host's back"
            + ("; so do new grants, since it is confined" if on else "")
        )
    return 0


_SETTING = {"on": True, "off": False, "default": None}


def cmd_network(store: Store, args: argparse.Namespace) -> int:
    from roots_manager.actions.confinement import set_domains, set_network
    from roots_manager.actions.servers import UnknownServer
    from roots_manager.core.confinement.confined import limited_to, network_state
    from roots_manager.support.domains import DomainError

    if args.state != "domains" and (args.allow or args.remove):
        raise Failure(
            "bad-value", "--allow and --remove go with domains: servers network NAME domains ...", 2
        )
    try:
        if args.state == "domains":
            srv = set_domains(store, args.server, args.allow, args.remove, new=args.new)
        else:
            srv = set_network(store, args.server, args.state == "blocked", new=args.new)
    except UnknownServer as exc:
        raise unknown_server(exc, _typed(args), 2) from exc
    except DomainError as exc:
        raise Failure("bad-value", f"{exc}; nothing was changed", 2) from exc
    network = network_state(srv)
    on = _confined(store, srv)
    if args.json:
        print_json(
            {
                "version": JSON_VERSION,
                "server": srv.name,
                "network": network,
                "network_domains": limited_to(srv),
                "network_domains_kept": list(srv.network_domains),
                "confine": on,
            }
        )
        return 0
    name = shown(srv.name)
    if network == "domains":
        listed = ", ".join(shown(d) for d in srv.network_domains) or "none"
        print(f"{name}: network limited to domains: {listed}")
    else:
        print(f"{name}: network {network}")
    if network != "allowed" and not on:
        print(
            f"note: {name} is not confined, so nothing holds it to this; "
            f"roots-manager servers confine {name} on"
        )
    elif on:
        print("it takes effect when the server next starts (a running one is restarted)")
    return 0


def show(store: Store, name: str) -> dict[str, Any]:
    """The ``servers show`` report of server *name*."""
    from roots_manager.core.confinement.confined import report
    from roots_manager.core.hosts.known import Platform, protected_places
    from roots_manager.core.runs import live
    from roots_manager.sandbox.availability import availability, confines_by_default, protections

    found = availability()
    out = report(
        store.read(),
        name,
        can_confine=found.available,
        why=found.reason,
        by_default=confines_by_default(),
        hosts=protected_places(Platform.current()),
    )
    out["protections"] = [p._asdict() for p in protections(found)]
    if found.available and found.mechanism == "landlock":
        out["protections"].append(_places_protection())
    out["mechanism"] = found.mechanism
    out["tested"] = found.tested
    out["running"] = [
        {
            "session": m.run,  # the bridge run's id, under the key it has always had
            "bridge_pid": m.pid,
            "server_pid": m.server_pid,
            "confined": m.confined,
            "restartable": m.restartable,
            "restarts": m.restarts,
        }
        for m in live.bridge_markers(store.layout)
        if m.server == name
    ]
    mark = live.learning_marker(store.layout, out["name"])
    out["learning"] = (
        None
        if mark is None
        else {
            "pid": mark.pid,
            "started": _iso(mark.started),
            "running": mark.alive,
            "before": mark.before,
        }
    )
    return out


def _iso(seconds: float) -> str:
    import datetime

    return datetime.datetime.fromtimestamp(seconds, datetime.UTC).isoformat(timespec="seconds")


def _places_protection() -> dict[str, Any]:
    """How the places held inside a grant are held on this machine (a mount namespace of the
    server's own), or why they cannot be (then a grant holding one is read-only)."""
    why: str | None = "they are held on Linux only"
    if sys.platform == "linux":  # shown where Landlock confines
        from roots_manager.sandbox.mounts import namespace_refusal

        why = namespace_refusal()
    return {
        "name": "places inside the grants",
        "enforced": why is None,
        "detail": "the store, shell start files, host settings, git hooks and the like inside "
        "a writable grant are read-only mounts in the server's own mount namespace; secrets "
        "are covered"
        if why is None
        else f"no mount namespace can be made here ({why}): a writable grant holding such a "
        "place is read-only for the server",
    }


def held_notice(folders: list[str]) -> list[str]:
    """What a confined server writing *folders* still may not touch there, in lines to print
    after a grant, an ``--allow-write`` or a broad root (empty: nothing held in them)."""
    import os

    from roots_manager.core.confinement.protected import (
        GUARDED,
        HIDDEN,
        READ_ONLY,
        protections,
    )
    from roots_manager.core.hosts.known import Platform, protected_places

    held = protections(folders, env=os.environ, hosts=protected_places(Platform.current()))
    kept = [p for p in held if p.access == READ_ONLY]
    hidden = [p for p in held if p.access == HIDDEN]
    absent = [p for p in held if p.access in GUARDED]
    if not kept and not hidden and not absent:
        return []
    out = [
        f"note: a confined server writing {', '.join(shown(f) for f in folders)} can change "
        "every other file in it; these stay read-only for it (what runs later, or confines it):"
    ]
    out += [f"  {shown(p.path)}" for p in kept]
    if hidden:
        out.append("and these stay unreadable (secrets):")
        out += [f"  {shown(p.path)}" for p in hidden]
    if absent:
        out.append(
            f"and {len(absent)} such places not there now (or links standing for one) may not "
            "be made by it: servers show NAME lists them"
        )
    return out


_HELD_LABELS = (  # the layered caches are said with what is derived from the command line
    ("read-only", "read only inside its grants, whatever was granted"),
    ("hidden", "hidden inside its grants (secrets)"),
    ("link kept", "links that stand for a protected place: never replaced, where they lead held"),
    ("not made", "not there now, and never made by it (no call of its makes such a name)"),
    ("pinned", "writable, but never renamed away (on the way to a protected place)"),
)


def cmd_show(store: Store, args: argparse.Namespace) -> int:
    out = show(store, args.server)
    if args.json:
        print(json_text(out))
        return 0
    undecided = "" if out["confine_decided"] else " (the default for a new server)"
    print(f"{shown(out['name'])}: confinement {'on' if out['confine'] else 'off'}{undecided}")
    print(f"  {out['means']}")
    for label, key in (
        ("read and write", "read_write"),
        ("read only", "read_only"),
        ("also read", "allow_read"),
        ("also write", "allow_write"),
        ("may connect to the socket", "allow_socket"),
    ):
        for path in out[key]:
            print(f"  {label}: {shown(path)}")
    for path in out["own_files"]:
        print(
            f"  read and write, with the SQLite files beside it (named on its command line): "
            f"{shown(path)}"
        )
    for d in out["derived"]:
        how = {
            "layered": "read and write, in a layer of its own",
            "read-only": "read only",
            "refused": "not given",
            "socket": "may connect to the socket",
        }[d["access"]]
        print(f"  {how} (from its command line): {shown(d['path'])}: {d['why']}")
    for path in out["missing_extra"]:
        print(f"  missing now (skipped at start): {shown(path)}")
    for access, label in _HELD_LABELS:
        held = [p for p in out["protected"] if p["access"] == access]
        if held:
            print(f"  {label}:")
        for p in held:
            print(f"    {shown(p['path'])}: {p['why']}")
    from roots_manager.core.confinement.protected import FOLDERS_LOOKED, REPOSITORY_DEPTH

    for folder in out["repositories_searched_in_part"]:
        print(
            f"  repositories looked for in {shown(folder)} only to {REPOSITORY_DEPTH} folders "
            f"down and in its first {FOLDERS_LOOKED:,} folders: the .git/hooks and .git/config "
            "of the others are kept by the supervisor, which makes each write, new name and "
            "removal of the server's there itself (about 0.25 ms each)"
        )
    for m in out["mounted"]:
        print(
            f"  granted with its folder, a mounted file system: {shown(m['path'])} "
            f"({shown(m['type'])}, {shown(m['source'])})"
        )
    if out["network"] == "domains":
        listed = ", ".join(shown(d) for d in out["network_domains"]) or "none"
        print(f"  network: only through the proxy, to {listed}")
        for found in out["network_derived"]:
            print(f"  network: also {shown(found['domain'])} ({shown(found['why'])})")
    else:
        print(f"  network: {out['network']}")
    default = "" if out["max_processes_set"] else " (default)"
    print(f"  processes at once: at most {out['max_processes']:,}{default}")
    restart = "on" if out["restart_on_revoke"] else "off"
    print(f"  restart on revoke: {restart}{'' if out['restart_on_revoke_set'] else ' (default)'}")
    print(f"  asks: {_asks(out['ask_seconds'])}")
    if out["changes"]:
        print(f"  {out['changes']}")
    for run in out["running"]:
        how = "confined" if run["confined"] else "not confined"
        again = "may be restarted" if run["restartable"] else "is not restarted"
        print(
            f"  running: server pid {run['server_pid']} ({how}; {again}; "
            f"restarted {run['restarts']} time{'' if run['restarts'] == 1 else 's'})"
        )
    learning = out["learning"]
    if learning is not None and learning["running"]:
        print(f"  being learned since {learning['started']}, by process {learning['pid']}")
    elif learning is not None and learning["before"] is not True:  # else nothing to put back
        before = {False: "off", None: "the default"}[learning["before"]]
        print(
            f"  learning started {learning['started']} ended without finishing, and left "
            f"confinement on (it was {before}); servers learn puts it back when nothing is "
            "accepted"
        )
    can = "yes" if out["can_confine"] else "no"
    untested = "" if out["tested"] else " (untested)"
    print(f"this machine can confine: {can}{untested}: {out['confinement']}")
    held = [p for p in out["protections"] if p["enforced"]]
    missing = [p for p in out["protections"] if not p["enforced"]]
    if held:
        print("what the kernel holds a confined server to here:")
        for p in held:
            print(f"  {p['name']}: {p['detail']}")
    if missing:
        print("what it does not:")
        for p in missing:
            print(f"  {p['name']}: {p['detail']}")
    return 0


_NEW_HELP = (
    "set it for a server that has not run yet, ahead of its first start (without it, a name "
    "nobody has seen is refused: it is most often a typo)"
)


def add_commands(servers: Subcommands) -> None:
    """Add ``confine`` and ``show`` to the ``servers`` subcommands."""
    c = servers.add_parser(
        "confine",
        help="run a server confined to its grants (Linux Landlock), or not; extra paths",
    )
    c.add_argument("server")
    c.add_argument("state", nargs="?", choices=("on", "off"), help="on or off (default: unchanged)")
    c.add_argument(
        "--allow-read", action="append", default=[], metavar="PATH", help="also readable"
    )
    c.add_argument(
        "--allow-write", action="append", default=[], metavar="PATH", help="also writable"
    )
    c.add_argument(
        "--create",
        action="store_true",
        help="make the folders of --allow-write that are not there yet (a server's own state "
        "folder, such as ~/.serena), private to you",
    )
    c.add_argument(
        "--allow-socket",
        action="append",
        default=[],
        metavar="PATH",
        help="a Unix socket it may connect to (every other one is refused)",
    )
    c.add_argument(
        "--forget", action="append", default=[], metavar="PATH", help="drop an extra path"
    )
    c.add_argument(
        "--max-processes",
        type=_process_limit,
        metavar="N",
        help="the most processes its tree may hold at once; a fork past it fails (0: the "
        "default, 1,024)",
    )
    c.add_argument("--new", action="store_true", help=_NEW_HELP)
    c.add_argument("--json", action="store_true", help=JSON_HELP)
    c.set_defaults(func=cmd_confine)
    r = servers.add_parser(
        "restart-on-revoke",
        help="restart a server behind the host's back when a folder it was told is revoked "
        "(default: on for confined servers)",
    )
    r.add_argument("server")
    r.add_argument("state", choices=tuple(_SETTING))
    r.add_argument("--new", action="store_true", help=_NEW_HELP)
    r.add_argument("--json", action="store_true", help=JSON_HELP)
    r.set_defaults(func=cmd_restart_on_revoke)
    a = servers.add_parser(
        "ask",
        help="how long a confined server's read outside its grants waits for your answer while "
        "the host waits and the app or questions --follow runs (grant a folder meanwhile: the "
        "read goes through, no restart), or off: refused at once",
    )
    a.add_argument("server")
    a.add_argument("seconds", help="how long a read waits, 1 to 600 (default: 30), off, or default")
    a.add_argument("--new", action="store_true", help=_NEW_HELP)
    a.add_argument("--json", action="store_true", help=JSON_HELP)
    a.set_defaults(func=cmd_ask)
    n = servers.add_parser(
        "network",
        help="let a confined server open network connections (allowed, the default), none "
        "(blocked: no TCP, UDP or raw socket), or only to some domains, through Roots "
        "Manager's proxy (domains --allow api.github.com --allow '*.npmjs.org')",
    )
    n.add_argument("server")
    n.add_argument("state", choices=("allowed", "blocked", "domains"))
    n.add_argument(
        "--allow",
        action="append",
        default=[],
        metavar="DOMAIN",
        help="with domains: a name (api.github.com), every name beneath one (*.npmjs.org), or "
        "an address; again for more",
    )
    n.add_argument(
        "--remove",
        action="append",
        default=[],
        metavar="DOMAIN",
        help="with domains: one to take away",
    )
    n.add_argument("--new", action="store_true", help=_NEW_HELP)
    n.add_argument("--json", action="store_true", help=JSON_HELP)
    n.set_defaults(func=cmd_network)
    s = servers.add_parser(
        "show",
        help="a server's confinement, what it may read and write, and whether this "
        "machine can confine",
    )
    s.add_argument("server")
    s.add_argument("--json", action="store_true", help=JSON_HELP)
    s.set_defaults(func=cmd_show)
