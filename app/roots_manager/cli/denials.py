"""``roots-manager denials``: what confined servers were refused, and during which request."""

from __future__ import annotations

import argparse
import re
import signal
import time
from typing import TYPE_CHECKING, Any

from roots_manager.cli.errors import JSON_VERSION, Failure
from roots_manager.cli.text import json_text, print_json, shown
from roots_manager.core.directory.records import EventKind, EventRecord
from roots_manager.core.servers.names import visible

if TYPE_CHECKING:
    from collections.abc import Callable

    from roots_manager.core.store.file import Store

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_since(text: str, option: str = "--since") -> float:
    """Seconds in a length of time written ``30s``, ``10m``, ``2h``, ``1d`` (or plain seconds),
    given as *option*; raises :class:`Failure` (``bad-duration``) otherwise."""
    m = _DURATION.match(text)
    if m is None:
        raise Failure(
            "bad-duration",
            f"{option} {text!r} is not a length of time: write it as 30s, 10m, 2h or 1d",
        )
    return float(m.group(1)) * _UNITS[m.group(2)]


def line(rec: EventRecord) -> str:
    """A denial in one line: when, the server, and the denial's summary with its process."""
    from roots_manager.core.log import denials

    when = denials.shown(rec.get("at") or rec.get("ts", ""))
    return f"{when}  {visible(str(rec.get('server', '')))}  {denials.summary(rec, process=True)}"


class Allowing:
    """Each denial with the command that allows what it refused (``allow_command``), or None
    and why nothing is offered (``not_offered``): the same command the host's log gives."""

    def __init__(self) -> None:
        import os

        from roots_manager.core.confinement.offers import own_folders

        self.home = os.path.expanduser("~")
        self.own = own_folders()  # found once, not for each denial

    def found(self, rec: EventRecord) -> tuple[str | None, str]:
        """The command that allows what *rec* refused, or None and why none is offered."""
        from roots_manager.core.confinement.offers import allow_command

        server = str(rec.get("server", ""))
        return allow_command(server, rec, home=self.home, own=self.own)

    def __call__(self, rec: EventRecord) -> dict[str, object]:
        command, why = self.found(rec)
        return {**rec, "allow_command": command, **({} if command else {"not_offered": why})}

    def told(self, rec: EventRecord) -> str:
        """A denial as the text output says it, made safe to print: its :func:`line`, and
        beneath it the command that allows it, or why none is offered."""
        from roots_manager.core.confinement.offers import allow_words

        return shown(line(rec)) + "\n    " + shown(allow_words(*self.found(rec)))


def cmd_denials(store: Store, args: argparse.Namespace) -> int:
    from roots_manager.core.log.denial_reader import Reader

    since = None if args.since is None else time.time() - parse_since(args.since)
    reader = Reader(store.layout, args.server, since)
    allowing = Allowing()
    if not args.follow:
        found = reader.read()
        if args.json:
            print_json({"version": JSON_VERSION, "denials": [allowing(r) for r in found]})
        else:
            for rec in found:
                print(allowing.told(rec))
        return 0

    def drain() -> None:
        for rec in reader.read():
            said = json_text(allowing(rec), indent=None) if args.json else allowing.told(rec)
            print(said, flush=True)

    return _follow(store, drain)


def _follow(store: Store, drain: Callable[[], None]) -> int:
    """Call *drain* now and at each change of the logs, until interrupted."""
    # see cmd_log: a SIGINT ignored by whoever started this must still end --follow
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        drain()
        from roots_manager.cli.text import say_watch_trouble
        from roots_manager.support.dirwatch import SteadyWatch

        with SteadyWatch([str(store.layout.logs)], on_trouble=say_watch_trouble) as watch:
            drain()
            while watch.wait(0.5, debounce=0.05, settle=0.02) is not None:
                drain()
    except KeyboardInterrupt:
        pass
    return 0


def waiting(store: Store, server: str | None) -> list[tuple[EventRecord, float]]:
    """The refusals whose call waits for the user's answer now, oldest first, each with its
    seconds left (a server set to ask: ``servers ask``)."""
    from roots_manager.core.log.denial_reader import Reader
    from roots_manager.core.log.denials import waits_left
    from roots_manager.core.store.schema import MAX_ASK_SECONDS

    now = time.time()
    found = Reader(store.layout, server, now - MAX_ASK_SECONDS - 5, answers=True).read()
    # in the order the bridge logged them: an answer closes the questions of its path asked
    # before it; one asked again after it (a read answered for once only) is a new question
    asked: list[EventRecord] = []
    for rec in found:
        if "answered" in rec:
            key = (rec.get("server"), rec["answered"])
            asked = [q for q in asked if (q.get("server"), q.get("path")) != key]
        elif rec.get("kind") == EventKind.DENIAL:
            asked.append(rec)
    return [(rec, left) for rec in asked if (left := waits_left(rec, now)) > 0]


def cmd_questions(store: Store, args: argparse.Namespace) -> int:
    if args.follow:
        return _follow_questions(store, args)
    asked = waiting(store, args.server)
    if args.json:
        print_json(
            {
                "version": JSON_VERSION,
                "questions": [
                    {"number": n, "left": round(left, 1), **rec}
                    for n, (rec, left) in enumerate(asked, 1)
                ],
            }
        )
        return 0
    if not asked:
        print(
            "no call waits for an answer (a confined server's read outside its grants waits "
            "while the app or questions --follow runs; servers ask NAME SECONDS|off)"
        )
    for n, (rec, left) in enumerate(asked, 1):
        print(f"{n}  {shown(line(rec))}  ({left:.0f} s left)")
    return 0


def _follow_questions(store: Store, args: argparse.Namespace) -> int:
    """Print each question as it is asked (with ``--json``, one per line), until interrupted;
    the numbers are those ``answer`` takes at that moment."""
    told: set[tuple[object, object, object]] = set()

    def drain() -> None:
        for n, (rec, left) in enumerate(waiting(store, args.server), 1):
            key = (rec.get("server"), rec.get("path"), rec.get("ts"))
            if key in told:
                continue
            told.add(key)
            if args.json:
                doc = {"number": n, "left": round(left, 1), **rec}
                print(json_text(doc, indent=None), flush=True)
            else:
                print(f"{n}  {shown(line(rec))}  ({left:.0f} s left)", flush=True)

    from roots_manager.core.runs.live import answering

    # while this follows, a confined server's read made for a host's request waits for an answer
    with answering(store.layout):
        return _follow(store, drain)


ANSWERS = ("allow-folder", "read-only", "allow-file", "allow-domain", "deny")
DURATIONS = ("always", "run", "once")


def cmd_answer(store: Store, args: argparse.Namespace) -> int:
    from roots_manager.actions.refusals import allow, allow_waiting, deny_waiting
    from roots_manager.core.confinement.offers import Offer

    asked = waiting(store, args.server)
    if not 1 <= args.number <= len(asked):
        raise Failure(
            "no-question",
            f"no question number {args.number} waits now ({len(asked)} do: "
            "roots-manager questions lists them)",
        )
    rec, _ = asked[args.number - 1]
    server = str(rec.get("server", ""))
    if args.answer == "deny":
        denied = deny_waiting(store.layout, server, "cli")
        if args.json:
            print_json(
                {"version": JSON_VERSION, "server": server, "answer": "deny", "runs": denied}
            )
        else:
            print(f"{visible(server)}: its reads waiting are refused ({len(denied)} run(s) asked)")
        return 0
    offer = {
        "allow-folder": Offer.FOLDER,
        "read-only": Offer.READ_ONLY,
        "allow-file": Offer.FILE,
        "allow-domain": Offer.DOMAIN,
    }
    runs: list[str] | None = None
    if args.duration == "always":
        done = allow(store, rec, offer[args.answer])
    else:
        done, runs = allow_waiting(store.layout, rec, offer[args.answer], args.duration, "cli")
        if not runs:
            raise Failure("not-running", f"no bridge of {visible(server)} is running now")
    if args.json:
        doc: dict[str, Any] = {
            "version": JSON_VERSION,
            "server": server,
            "answer": args.answer,
            "for": args.duration,
            "granted": done.target,
        }
        if runs is not None:
            doc["runs"] = runs
        print_json(doc)
        return 0
    until = {
        "always": "granted, the call waiting reaches it"
        if offer[args.answer] is Offer.DOMAIN
        else "granted, the call waiting reads it",
        "run": "read until the server ends (nothing saved)",
        "once": "the reads waiting now read it (nothing saved)",
    }[args.duration]
    print(f"{visible(server)}: {args.answer} {shown(done.target)}: {until}")
    return 0


def add_commands(sub: Any) -> None:
    """Add ``denials``, ``questions`` and ``answer`` to the subcommands *sub*."""
    d = sub.add_parser(
        "denials",
        help="what confined servers were refused (path, operation, process) and during which "
        "request of the host",
    )
    d.add_argument("--server", help="only this server's denials")
    d.add_argument(
        "--since", metavar="TIME", help="only the last TIME (30s, 10m, 2h, 1d; default: all kept)"
    )
    d.add_argument("--follow", "-f", action="store_true", help="keep printing new denials")
    d.add_argument(
        "--json",
        action="store_true",
        help="one JSON document (docs/cli-json.md); with --follow, one event per line",
    )
    d.set_defaults(func=cmd_denials)
    q = sub.add_parser(
        "questions",
        help="the reads of confined servers that wait for your answer now (servers ask)",
    )
    q.add_argument("--server", help="only this server's questions")
    q.add_argument(
        "--follow", "-f", action="store_true", help="keep printing questions as they are asked"
    )
    q.add_argument(
        "--json",
        action="store_true",
        help="one JSON document (docs/cli-json.md); with --follow, one question per line",
    )
    q.set_defaults(func=cmd_questions)
    a = sub.add_parser(
        "answer",
        help="answer a question of roots-manager questions: allow its folder (read-only), its "
        "file, its domain (a connection), or deny every read and connection of its server "
        "waiting",
    )
    a.add_argument("number", type=int, help="the question's number, as questions lists it")
    a.add_argument("answer", choices=ANSWERS)
    a.add_argument(
        "--for",
        dest="duration",
        choices=DURATIONS,
        default="always",
        help="always (the default: a grant, saved, which the next start gets), run (until the "
        "server ends, nothing saved), once (the reads waiting now only, nothing saved)",
    )
    a.add_argument("--server", help="number the questions of this server only")
    a.add_argument("--json", action="store_true", help="one JSON document (docs/cli-json.md)")
    a.set_defaults(func=cmd_answer)
