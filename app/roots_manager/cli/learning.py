"""``roots-manager servers learn``: run a server confined for a while, and propose the grants that
would have allowed what it was refused."""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import sys
import time
from typing import TYPE_CHECKING

from roots_manager.cli.text import JSON_HELP, print_json, shown

if TYPE_CHECKING:
    from roots_manager.actions.learning import Learned, Learning
    from roots_manager.cli.usage import Subcommands
    from roots_manager.core.confinement.learning import Proposal, Proposed
    from roots_manager.core.store.file import Store

POLL = 0.5
"""How often the refusals so far are read while learning (seconds)."""
SETTLE = 0.3
"""How long the last refusals get to reach the log after learning ends (seconds)."""


def _length(seconds: float) -> str:
    whole = max(0, round(seconds))
    if whole >= 3600:
        return f"{whole // 3600}h {whole % 3600 // 60:02d}m {whole % 60:02d}s"
    if whole >= 60:
        return f"{whole // 60}m {whole % 60:02d}s"
    return f"{whole}s"


def _wait(store: Store, learning: Learning, seconds: float) -> bool:
    """Wait *seconds* (or until Ctrl-C or SIGTERM), telling the time left and the refusals so far on
    stderr; whether it was cut short."""
    tty = sys.stderr.isatty()
    deadline = time.monotonic() + seconds
    told = -1
    # see cmd_log: a SIGINT ignored by whoever started this must still end the wait; and a
    # SIGTERM ends it as Ctrl-C does, so that a confinement learning turned on is turned off
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        while (left := deadline - time.monotonic()) > 0:
            n = learning.collect(store)
            if tty:
                print(
                    f"\r{_length(left)} left, {n} refused so far ",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
            elif n != told:
                print(f"{_length(left)} left, {n} refused so far", file=sys.stderr, flush=True)
            told = n
            time.sleep(min(POLL, left))
    except KeyboardInterrupt:
        return True
    finally:
        if tty:
            print(file=sys.stderr, flush=True)
    return False


def cmd_learn(store: Store, args: argparse.Namespace) -> int:
    from roots_manager.actions import learning as learn
    from roots_manager.actions.servers import UnknownServer
    from roots_manager.cli.denials import parse_since
    from roots_manager.cli.errors import EXIT_USAGE, Failure, unknown_server

    seconds = parse_since(args.duration, "--for")
    if seconds <= 0:
        raise Failure("bad-duration", f"--for {args.duration!r} is no time at all: write 10m")
    if args.skip and not args.accept:
        raise Failure(
            "usage",
            "--skip leaves a path out of what --accept grants: give --accept too",
            EXIT_USAGE,
        )
    try:
        learning = learn.start(store, args.server)
    except UnknownServer as exc:
        raise unknown_server(
            exc, ["servers", "learn", args.server, "--for", args.duration], 2
        ) from exc
    name = shown(learning.server)
    how = (
        "its confinement is on until learning ends (a running server is restarted confined; "
        "one started later starts confined)"
        if learning.turned_on
        else "it is confined already"
    )
    print(
        f"learning what {name} is refused for {_length(seconds)}: {how}; Ctrl-C ends it early",
        file=sys.stderr,
        flush=True,
    )
    if learning.unconfined_runs:
        print(
            f"note: {name} is running unconfined now, and its bridge cannot restart it "
            "confined: it is learned from its next start (have its host start it again; "
            f"roots-manager servers restart-on-revoke {shown(shlex.quote(learning.server))} on "
            "lets a bridge restart it from then on)",
            file=sys.stderr,
            flush=True,
        )
    started = time.monotonic()
    cut = _wait(store, learning, seconds)
    time.sleep(SETTLE)
    learning.collect(store)
    proposed = learn.proposal(store, learning)
    skip = {(p, _skipped(p, g)) for p in args.skip for g in proposed.grants}
    skipped = {g.path for p, g in skip if g is not None}
    for path in sorted(set(args.skip) - {p for p, g in skip if g is not None}):
        print(f"note: --skip {shown(path)}: not proposed", file=sys.stderr)
    accepted = [g for g in proposed.grants if g.path not in skipped] if args.accept else []
    done = learn.finish(store, learning, accepted)
    lasted = time.monotonic() - started
    if args.json:
        from roots_manager.cli.errors import JSON_VERSION

        print_json(
            {
                "version": JSON_VERSION,
                "server": learning.server,
                "seconds": round(lasted, 3),
                "interrupted": cut,
                "turned_on": learning.turned_on,
                **proposed.as_json(),
                "accepted": [g.path for g in done.granted],
                "confine": done.confined,
                "restored": done.restored,
            }
        )
        return 0
    _print(learning.server, proposed, done, lasted, cut)
    return 0


def _skipped(text: str, g: Proposed) -> Proposed | None:
    """*g*, when ``--skip`` *text* names it: a path (relative to here), or a domain."""
    if g.kind.value == "domain":
        from roots_manager.support.domains import DomainError, pattern

        try:
            return g if pattern(text) == g.path else None
        except DomainError:
            return None
    return g if os.path.normpath(os.path.abspath(text)) == g.path else None


def _grant_line(server: str, g: Proposed) -> str:
    """The command that makes grant *g* by hand."""
    who = shlex.quote(server)
    if g.kind.value == "domain":
        return f"roots-manager servers network {who} domains --allow {shlex.quote(g.path)}"
    if g.kind.value == "folder":
        return f"roots-manager grant {who} {shlex.quote(g.path)}" + (
            " --read-only" if g.read_only else ""
        )
    option = "--allow-read" if g.read_only else "--allow-write"
    made = " --create" if g.kind.value == "create" else ""
    return f"roots-manager servers confine {who} on {option} {shlex.quote(g.path)}{made}"


def _print(server: str, proposed: Proposal, done: Learned, lasted: float, cut: bool) -> None:
    name = shown(server)
    ended = " (ended early)" if cut else ""
    print(
        f"{name} was refused {proposed.refusals} time{'s' if proposed.refusals != 1 else ''} "
        f"in {_length(lasted)}{ended}"
    )
    if not proposed.refusals:
        print("nothing to propose: was the server used while learning? (its host starts it)")
    if proposed.grants:
        print("accepted and granted:" if done.granted else "proposed grants:")
    for g in proposed.grants:
        what = "read only " if g.read_only else "read+write"
        if g.kind.value == "domain":
            what = "network   "
        kind = {"file": "file", "create": "make", "domain": "domain"}.get(g.kind.value, "    ")
        mark = "" if not done.granted or g in done.granted else "  (skipped)"
        print(
            f"  {what} {kind} {shown(g.path)}  ({', '.join(g.operations)}: "
            f"{g.refusals} refused){mark}"
        )
    if proposed.left_out:
        print("left out (grant them by hand if you mean to):")
    for x in proposed.left_out:
        print(f"  {shown(x.path)}  {', '.join(x.operations)}: {x.reason}")
    if proposed.grants and not done.granted:
        print("to accept them all: the same command with --accept; or some, by hand:")
        for g in proposed.grants:
            print(f"  {shown(_grant_line(server, g))}")
    if done.restored:
        print(
            f"confinement of {name} is off again, as before learning "
            f"(roots-manager servers confine {shown(shlex.quote(server))} on keeps it on)"
        )
    elif done.granted:
        print(f"{name} stays confined; a running one is restarted with its new grants")


def add_commands(servers: Subcommands) -> None:
    """Add ``learn`` to the ``servers`` subcommands."""
    lr = servers.add_parser(
        "learn",
        help="run a server confined for a while and propose the smallest grants that would "
        "have allowed what it was refused (never /, the home folder or secrets; a domain its "
        "proxy refused, as a domain to allow)",
    )
    lr.add_argument("server")
    lr.add_argument(
        "--for",
        dest="duration",
        required=True,
        metavar="TIME",
        help="how long to learn (30s, 10m, 2h); Ctrl-C ends it early",
    )
    lr.add_argument("--accept", action="store_true", help="grant what is proposed at the end")
    lr.add_argument(
        "--skip",
        action="append",
        default=[],
        metavar="PATH",
        help="with --accept, leave this proposed path (or domain) out",
    )
    lr.add_argument("--json", action="store_true", help=JSON_HELP)
    lr.set_defaults(func=cmd_learn)
