"""The traffic log commands of ``roots-manager``: ``log`` and ``log-retention``."""

from __future__ import annotations

import argparse
import signal
import time
from typing import TYPE_CHECKING

from roots_manager.cli.errors import JSON_VERSION
from roots_manager.cli.text import JSON_HELP, json_text, print_json, shown
from roots_manager.core.servers.names import visible

if TYPE_CHECKING:
    from roots_manager.cli.usage import Subcommands
    from roots_manager.core.directory.records import EventRecord
    from roots_manager.core.store.file import Store

# What the commands need is imported in them: building the parser, which every call of
# roots-manager does (--version too), must stay cheap.


def _print_event(rec: EventRecord, as_json: bool) -> None:
    if as_json:
        print(json_text(rec, indent=None), flush=True)
        return
    from roots_manager.core.log import events as ev

    rid = "" if rec.get("id") is None else f"#{rec['id']}"
    line = (
        f"{rec.get('ts', '')}  {visible(str(rec.get('server', '')))}  {rec.get('dir', '-')}  "
        f"{rec.get('kind', '')} {rid}  {ev.summarize(rec)}"
    )
    print(shown(line), flush=True)


def cmd_log(store: Store, args: argparse.Namespace) -> int:
    from roots_manager.core.log import events as ev

    offsets: dict[str, int] = {}

    def drain() -> None:
        for path in ev.log_files(store.layout):
            records, offsets[str(path)] = ev.read_events(path, offsets.get(str(path), 0))
            for rec in records:
                server = str(rec.get("server", ""))
                if args.server in (None, server) or visible(server) == args.server:
                    _print_event(rec, args.json)

    if args.follow:
        # Ctrl+C is the only way --follow ends. A process started with SIGINT ignored (a
        # background job of a script, some CI runners and service managers) inherits that,
        # and Python then installs no handler of its own: the interrupt would be lost and
        # the command would follow forever. It is asked for, so it is taken.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        drain()
        if not args.follow:
            return 0
        from roots_manager.cli.text import say_watch_trouble
        from roots_manager.support.dirwatch import SteadyWatch

        with SteadyWatch([str(store.layout.logs)], on_trouble=say_watch_trouble) as watch:
            drain()  # what was written while the watch was being set up
            # the timeout also drains: a safety net for file systems that send no notices
            while watch.wait(0.5, debounce=0.05, settle=0.02) is not None:
                drain()
    except KeyboardInterrupt:
        pass  # Ctrl-C is how --follow is meant to end
    return 0


def _iso(mtime: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(mtime, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


def cmd_log_retention(store: Store, args: argparse.Namespace) -> int:
    from roots_manager.core.log import retention

    changing = args.max_size is not None or args.max_age is not None
    if changing:
        from roots_manager.actions.settings import set_log_retention

        limits = set_log_retention(store, args.max_size, args.max_age)
    else:
        limits = store.read().log_retention
    swept = retention.sweep_logs(store.layout, limits) if changing else None
    files = retention.log_usage(store.layout)
    if args.json:
        print_json(
            {
                "version": JSON_VERSION,
                "max_mib": limits.max_mib,
                "max_days": limits.max_days,
                "changed": changing,
                "removed": [] if swept is None else [str(f.path) for f in swept.removed],
                "removed_bytes": 0 if swept is None else swept.removed_bytes,
                "logs": str(store.layout.logs),
                "files": len(files),
                "bytes": sum(f.size for f in files),
                "oldest_at": _iso(files[0].mtime) if files else None,
            }
        )
        return 0
    size = f"up to {limits.max_mib} MiB in all" if limits.max_mib else "with no size limit"
    age = f"for {limits.max_days} days" if limits.max_days else "with no age limit"
    print(
        f"traffic logs are kept {size}, {age}: the oldest files go first, and a running "
        "bridge's are never removed"
    )
    if swept is not None and swept.removed:
        print(f"removed {len(swept.removed)} file(s) over the limits ({_mib(swept.removed_bytes)})")
    oldest = (
        ", the oldest from " + time.strftime("%Y-%m-%d %H:%M", time.localtime(files[0].mtime))
        if files
        else ""
    )
    print(f"{shown(str(store.layout.logs))} holds {len(files)} file(s), "
          f"{_mib(sum(f.size for f in files))}{oldest}")  # fmt: skip
    return 0


def add_commands(sub: Subcommands) -> None:
    """Add ``log`` and ``log-retention`` to the subcommands *sub*."""
    lg = sub.add_parser("log", help="print the roots traffic the bridges recorded")
    lg.add_argument("--follow", "-f", action="store_true", help="keep printing new events")
    lg.add_argument("--server", help="only this server's events")
    lg.add_argument("--json", action="store_true", help="one JSON object per line (each event)")
    lg.set_defaults(func=cmd_log)

    lr = sub.add_parser(
        "log-retention",
        help="show or set how much traffic log is kept across bridge runs (oldest removed first)",
    )
    lr.add_argument(
        "--max-size", type=int, metavar="MIB", help="the most all logs may take (0: no limit)"
    )
    lr.add_argument(
        "--max-age", type=int, metavar="DAYS", help="how long a log is kept (0: no limit)"
    )
    lr.add_argument("--json", action="store_true", help=JSON_HELP)
    lr.set_defaults(func=cmd_log_retention)
