"""Markers of what is running now: one file per live bridge run, one for the desktop app.

A marker holds the process id and its start time, so a marker left behind by a process that
was killed is recognised as dead (the id may have been reused by another process since).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, cast

from roots_manager.core.directory.file_key import file_key
from roots_manager.core.directory.layout import Layout
from roots_manager.core.directory.records import (
    AllowRequestRecord,
    AnswererMarkerRecord,
    AnswerRecord,
    AppMarkerRecord,
    BridgeMarkerRecord,
    LearningMarkerRecord,
    RunRequestRecord,
)
from roots_manager.core.runs import run_id
from roots_manager.core.store.file import MAX_STORE_BYTES, json_bytes, write_atomic
from roots_manager.support import statefile

APP_MARKER = "app.json"


def process_start_time(pid: int) -> float | None:
    """The start time of process *pid*, or None if it does not exist (or has ended and waits
    to be reaped: a zombie runs nothing).

    On Linux it is read from ``/proc`` as psutil computes it (the boot time plus the process's
    start in clock ticks), to the same value: a marker written here is checked by the app and
    the CLI, of this version or another. psutil, which every other system needs, would stay
    loaded in each bridge for this one call (2.6 MiB of its memory).
    """
    if sys.platform == "linux":
        return _linux_start_time(pid)
    import psutil

    try:
        return float(psutil.Process(pid).create_time())
    except (psutil.Error, OSError):
        return None


_BOOT_TIME: list[float] = []


def _linux_start_time(pid: int) -> float | None:
    from roots_manager.platform.linux.procstat import stat_fields

    fields = stat_fields(pid)
    if fields is None or fields[:1] in ([b"Z"], [b"X"]):
        return None  # gone, or a zombie: it has ended, whoever has not reaped it yet
    try:
        if not _BOOT_TIME:
            with open("/proc/stat", "rb") as f:
                btime = next(line for line in f if line.startswith(b"btime "))
            _BOOT_TIME.append(float(btime.split()[1]))
        ticks = int(fields[19])  # field 22 of the line, starttime
    except (OSError, StopIteration, ValueError, IndexError):
        return None
    if sys.platform != "linux":  # not reached: for the type checkers of other systems
        return None
    return _BOOT_TIME[0] + ticks / int(os.sysconf("SC_CLK_TCK"))


def _alive(pid: int, started: float | None) -> bool:
    now = process_start_time(pid)
    if now is None:
        return False
    return started is None or abs(now - started) < 1.0


# The marker file names the bridge run "session": the desktop app and the CLI of an older
# version read the markers of a newer bridge, and the other way round.
_RUN_KEY = "session"


@dataclass
class BridgeMarker:
    """What a running bridge tells the desktop app about itself."""

    run: str
    server: str
    pid: int
    started_at: str
    command: list[str]
    mode: str = "managed"
    protocol: str | None = None
    log_file: str | None = None
    server_pid: int | None = None
    last_roots_list_at: str | None = None
    last_list_changed_at: str | None = None
    stale: bool = False
    """True when a list_changed was sent and the server has not asked roots/list since."""
    confined: bool = False
    """The server runs confined to its grants (Landlock)."""
    restartable: bool = False
    """The bridge can restart the server behind the host's back: when the user asks (Restart
    now, ``roots-manager restart``), and on a consent change if restart on revoke was on when it
    started (a confined server always can when asked)."""
    restarts: int = 0
    """How many times the bridge has restarted the server so far."""
    reachable: list[str] | None = None
    """The granted folders the confined server's kernel rules let it reach now (read, or read
    and write), as they were at its start or last restart; None: unconfined, or not told (an
    older bridge). A folder revoked since stays reachable until the server restarts."""
    process_started: float | None = field(default=None)

    @property
    def alive(self) -> bool:
        return _alive(self.pid, self.process_started)


_FIELDS = frozenset(f.name for f in fields(BridgeMarker)) - {"run"}


def bridge_marker_path(layout: Layout, run: str) -> Path:
    """Where the live marker of bridge run *run* is kept."""
    return layout.live / run_id.marker_name(run)


def write_bridge_marker(layout: Layout, marker: BridgeMarker) -> None:
    """Create or update the marker of a live bridge run."""
    if marker.process_started is None:
        marker.process_started = process_start_time(marker.pid)
    kept = asdict(marker)
    kept[_RUN_KEY] = kept.pop("run")
    doc = cast(BridgeMarkerRecord, kept)
    write_atomic(bridge_marker_path(layout, marker.run), json_bytes(doc))


def remove_bridge_marker(layout: Layout, run: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        statefile.retrying(bridge_marker_path(layout, run).unlink)


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        # a marker is far smaller than the store; a pipe or a device in its place is not read
        doc = json.loads(statefile.read_regular(path, MAX_STORE_BYTES))
    except (OSError, ValueError, RecursionError):
        return None
    return doc if isinstance(doc, dict) else None


def bridge_markers(layout: Layout, *, include_dead: bool = False) -> list[BridgeMarker]:
    """The markers of bridge runs, live ones only unless *include_dead*."""
    found = []
    try:
        paths = sorted(layout.live.glob("bridge-*.json"))
    except OSError:
        return []
    for p in paths:
        doc = _read_json(p)
        if doc is None:
            continue
        try:
            run = doc.pop(_RUN_KEY, None)
            # a newer bridge's fields are left out, not a reason to miss the bridge
            m = BridgeMarker(run=run, **{k: v for k, v in doc.items() if k in _FIELDS})
        except TypeError:
            continue
        if not isinstance(m.run, str) or not _RUN_ID.fullmatch(m.run):
            continue  # not written by a bridge: its run names no file of ours
        if include_dead or m.alive:
            found.append(m)
    return found


def live_runs(layout: Layout) -> set[str]:
    """The ids of the bridge runs running now."""
    return {m.run for m in bridge_markers(layout)}


def write_app_marker(layout: Layout, pid: int | None = None) -> None:
    """Announce that the desktop app runs (bridges then wait for the user's consent)."""
    pid = pid or os.getpid()
    doc: AppMarkerRecord = {"pid": pid, "process_started": process_start_time(pid)}
    write_atomic(layout.live / APP_MARKER, json.dumps(doc).encode("utf-8"))


def remove_app_marker(layout: Layout) -> None:
    with contextlib.suppress(FileNotFoundError):
        statefile.retrying((layout.live / APP_MARKER).unlink)


def app_running(layout: Layout) -> bool:
    """Whether the desktop app is running now."""
    return _marked_alive(layout.live / APP_MARKER)


def _marked_alive(path: Path) -> bool:
    doc = _read_json(path)
    if not doc or not isinstance(doc.get("pid"), int):
        return False
    return _alive(doc["pid"], doc.get("process_started"))


# ---- someone to answer -------------------------------------------------------------------------
#
# A confined server's read outside its grants made for a host's request waits for the user's
# answer only while someone can give it: the app (its marker above), or a process that follows
# the questions (``roots-manager questions --follow``), which says so with a marker of its own.

ANSWERER_PREFIX = "answerer-"


@contextlib.contextmanager
def answering(layout: Layout) -> Iterator[None]:
    """Mark this process as one that answers questions while the block runs."""
    pid = os.getpid()
    path = layout.live / f"{ANSWERER_PREFIX}{pid}.json"
    doc: AnswererMarkerRecord = {"pid": pid, "process_started": process_start_time(pid)}
    write_atomic(path, json.dumps(doc).encode("utf-8"))
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()


def answerer_present(layout: Layout) -> bool:
    """Whether someone can answer a question now: the app runs, or a process that follows
    the questions (:func:`answering`)."""
    if app_running(layout):
        return True
    try:
        names = [e.name for e in os.scandir(layout.live) if e.name.startswith(ANSWERER_PREFIX)]
    except OSError:
        return False
    present = False
    for name in names:
        doc = _read_json(layout.live / name)
        if doc is None or not isinstance(doc.get("pid"), int):
            continue  # being written, or not ours
        if _alive(doc["pid"], doc.get("process_started")):
            present = True
        else:  # its process was killed: nobody answers there
            with contextlib.suppress(OSError):
                (layout.live / name).unlink()
    return present


# ---- learning under way ------------------------------------------------------------------------
#
# ``servers learn`` (or the app's Learn...) turns a server's confinement on for a while and puts it
# back when nothing is accepted. The marker says so while it lasts, so that a learn that dies
# before it can put anything back (SIGKILL, a crash, a reboot) is known for what it did: the next
# learning of that server puts back what the dead one changed, and ``servers show`` says so.


@dataclass(frozen=True)
class LearningMarker:
    """A learning of *server* under way, or one that ended without finishing."""

    server: str
    pid: int
    process_started: float | None
    started: float
    """When learning started (seconds since the epoch)."""
    before: bool | None
    """The server's confinement setting before learning turned it on (None: not decided)."""

    @property
    def alive(self) -> bool:
        """Whether the process learning is still running (else it ended without finishing)."""
        return _alive(self.pid, self.process_started)


def _learning_path(layout: Layout, server: str) -> Path:
    return layout.live / f"learning-{file_key(server)}.json"


def write_learning_marker(layout: Layout, server: str, started: float, before: bool | None) -> None:
    """Note that this process is learning *server*, which was *before* until it started."""
    pid = os.getpid()
    doc: LearningMarkerRecord = {
        "server": server,
        "pid": pid,
        "process_started": process_start_time(pid),
        "started": started,
        "before": before,
    }
    write_atomic(_learning_path(layout, server), json_bytes(doc))


def learning_marker(layout: Layout, server: str) -> LearningMarker | None:
    """The marker of a learning of *server*, alive or not; None when there is none (or it cannot
    be read: then nothing is known to put back)."""
    doc = _read_json(_learning_path(layout, server))
    if doc is None or doc.get("server") != server or not isinstance(doc.get("pid"), int):
        return None
    started, before = doc.get("started"), doc.get("before")
    process_started = doc.get("process_started")
    return LearningMarker(
        server,
        doc["pid"],
        float(process_started) if isinstance(process_started, (int, float)) else None,
        float(started) if isinstance(started, (int, float)) else 0.0,
        before if isinstance(before, bool) else None,
    )


def remove_learning_marker(layout: Layout, server: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        statefile.retrying(_learning_path(layout, server).unlink)


# ---- asking a running bridge to send list_changed, or to restart its server ------------------
#
# A request is a file next to the store, where every bridge already watches for saves (the live
# directory changes with every answer of every bridge, so bridges do not watch it). The bridge of
# that run takes the request (reads and deletes it) and logs what it did. A bridge started by a
# host the app does not know is reached this way as well as one the app started.

_NOTIFY_PREFIX = "notify-"
_RESTART_PREFIX = "restart-"
_DENY_PREFIX = "deny-"
_ALLOW_PREFIX = "allow-"
_PREFIXES = (_NOTIFY_PREFIX, _RESTART_PREFIX, _DENY_PREFIX, _ALLOW_PREFIX)
_RUN_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z._-]{0,63}")


def _request_name(prefix: str, run: str) -> str:
    if not _RUN_ID.fullmatch(run):
        raise ValueError(f"not a bridge run id: {run!r}")
    return f"{prefix}{run}.json"


def list_changed_request_name(run: str) -> str:
    """The name of the file that asks the bridge of *run* for a list_changed."""
    return _request_name(_NOTIFY_PREFIX, run)


def restart_request_name(run: str) -> str:
    """The name of the file that asks the bridge of *run* to restart its server."""
    return _request_name(_RESTART_PREFIX, run)


def _ask(layout: Layout, name: str, by: str) -> str:
    request = os.urandom(4).hex()
    doc: RunRequestRecord = {"by": by, "id": request}
    write_atomic(layout.home / name, json.dumps(doc).encode("utf-8"))
    return request


def _take(layout: Layout, name: str) -> dict[str, Any] | None:
    path = layout.home / name
    doc = _read_json(path)
    try:
        path.unlink()
    except FileNotFoundError:
        return None  # none, or another reader took it first
    return doc if doc is not None else {}


def ask_list_changed(layout: Layout, run: str, by: str) -> str:
    """Ask the bridge of *run* to send ``list_changed`` now, though nothing changed.

    *by* says who asked (``cli``, ``app``), for the bridge's log. Returns the request's id, which
    the bridge's ``list-changed-asked`` event carries.
    """
    return _ask(layout, list_changed_request_name(run), by)


def take_list_changed_request(layout: Layout, run: str) -> dict[str, Any] | None:
    """The request waiting for *run*, removed as it is taken; None if there is none."""
    return _take(layout, list_changed_request_name(run))


def ask_restart(layout: Layout, run: str, by: str) -> str:
    """Ask the bridge of *run* to stop its server and start it again, behind the host's back
    (the host's handshake replayed, as a revocation's restart does).

    *by* says who asked (``cli``, ``app``). Returns the request's id, which the bridge's
    ``restart-asked`` event carries. Only a bridge whose marker says ``restartable`` can.
    """
    return _ask(layout, restart_request_name(run), by)


def take_restart_request(layout: Layout, run: str) -> dict[str, Any] | None:
    """The restart asked of *run*, removed as it is taken; None if there is none."""
    return _take(layout, restart_request_name(run))


def deny_request_name(run: str) -> str:
    """The name of the file that asks the bridge of *run* to refuse the reads waiting for the
    user's answer (:mod:`roots_manager.sandbox.asking`)."""
    return _request_name(_DENY_PREFIX, run)


def ask_deny(layout: Layout, run: str, by: str) -> str:
    """Ask the bridge of *run* to refuse its server's reads waiting for an answer now, and
    not to ask again for their folders in this run; returns the request's id."""
    return _ask(layout, deny_request_name(run), by)


def take_deny_request(layout: Layout, run: str) -> dict[str, Any] | None:
    """The denial asked of *run*, removed as it is taken; None if there is none."""
    return _take(layout, deny_request_name(run))


ONCE = "once"
"""An answer for the reads waiting now only (:func:`ask_allow`)."""
RUN = "run"
"""An answer for the rest of the server's run (:func:`ask_allow`)."""


def allow_request_name(run: str) -> str:
    """The name of the file that asks the bridge of *run* to serve reads without a grant."""
    return _request_name(_ALLOW_PREFIX, run)


def ask_allow(
    layout: Layout, run: str, path: str, duration: str, by: str, *, domain: bool = False
) -> str:
    """Ask the bridge of *run* to have its server's reads of *path* (a folder or a file) served
    by the supervisor, as a folder granted while it runs is, but with nothing saved: the reads
    waiting for an answer now only (*duration* :data:`ONCE`), or every read there until the
    server ends (:data:`RUN`); with *domain*, *path* is a domain its proxy connects to, for the
    connections waiting now or until the server ends. Returns the request's id.

    Answers given one after another before the bridge takes them are all kept: each is added
    to the file under the store's lock, which every writer of a request takes."""
    if duration not in (ONCE, RUN):
        raise ValueError(f"not a duration for an answer: {duration!r}")
    from roots_manager.core.store.file import LOCK_TIMEOUT
    from roots_manager.support.lockfile import LockFile

    request = os.urandom(4).hex()
    target = layout.home / allow_request_name(run)
    lock = LockFile(layout.store_lock, LOCK_TIMEOUT, mode=0o600)
    lock.acquire()
    try:
        found = (_read_json(target) or {}).get("allow")
        kept = [e for e in found if isinstance(e, dict)] if isinstance(found, list) else []
        entries = cast("list[AnswerRecord]", kept)
        answer: AnswerRecord = {"by": by, "id": request}
        answer["domain" if domain else "path"] = path
        answer["for"] = cast("Literal['once', 'run']", duration)
        entries.append(answer)
        doc: AllowRequestRecord = {"allow": entries}
        write_atomic(target, json.dumps(doc).encode("utf-8"))
    finally:
        lock.release()
    return request


def take_allow_request(layout: Layout, run: str) -> list[dict[str, str]]:
    """The answers asked of *run* (:func:`ask_allow`), removed as they are taken; each has a
    ``path`` (or a ``domain``), its duration (``for``), who asked (``by``) and the request's
    ``id``."""
    from roots_manager.support.domains import DomainError, pattern

    doc = _take(layout, allow_request_name(run))
    found = (doc or {}).get("allow")
    if not isinstance(found, list):
        return []
    out = []
    for e in found:
        if not isinstance(e, dict) or e.get("for") not in (ONCE, RUN):
            continue
        if isinstance(e.get("path"), str) and os.path.isabs(e["path"]):
            key = "path"
        elif isinstance(e.get("domain"), str):
            try:
                if pattern(e["domain"]) != e["domain"]:
                    continue
            except DomainError:
                continue
            key = "domain"
        else:
            continue
        out.append({k: str(e.get(k, "?")) for k in (key, "for", "by", "id")})
    return out


def sweep_list_changed_requests(layout: Layout) -> int:
    """Delete requests (for a list_changed or a restart) whose bridge is no longer running;
    returns how many."""
    runs = live_runs(layout)
    running = {_request_name(p, s) for s in runs for p in _PREFIXES}
    n = 0
    try:
        found = [path for p in _PREFIXES for path in layout.home.glob(f"{p}*.json")]
    except OSError:
        return 0
    for path in found:
        if path.name not in running:
            with contextlib.suppress(OSError):
                path.unlink()
                n += 1
    return n
