"""The host operations the CLI and the app share: list, wrap, unwrap, undo the last change.

Each file is changed under the record's lock, in this order: read, plan and check the change,
back up the file, write the record, write the file (atomically, refusing if the host changed it
since our read: then the change is planned again from the new text, once), and last make the
wrapped servers known in the store. A failure before the file is written leaves the record as it
was; a file that cannot be read or edited safely is reported, never written.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

from roots_manager.core.hosts import record as hostrecord
from roots_manager.core.hosts.declared import HostServer
from roots_manager.core.hosts.formats import NotEditable, SyntaxProblem
from roots_manager.core.hosts.known import HOSTS, ConfigFile, HostSpec, Platform, discover, host
from roots_manager.core.hosts.record import ChangeRecord, FileChanged
from roots_manager.core.hosts.wrap import (
    Names,
    Outcome,
    Plan,
    Refused,
    plan_unwrap,
    plan_wrap,
    read_servers,
)
from roots_manager.core.paths import Layout
from roots_manager.core.refusal import ModelError
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import now_iso

WRAP = "wrap"
UNWRAP = "unwrap"


@dataclass
class FileReport:
    """A host file as found: its servers, or why it cannot be read."""

    file: ConfigFile
    servers: list[HostServer] = field(default_factory=list)
    error: str | None = None
    line: int | None = None


@dataclass
class FileResult:
    """What a wrap or unwrap did (or, dry, would do) to one file."""

    file: ConfigFile
    outcomes: list[Outcome] = field(default_factory=list)
    diff: str = ""
    written: bool = False
    backup: Path | None = None
    error: str | None = None


ERROR_TEMPLATES: tuple[str, ...] = (
    "no host is called {host!r}; the hosts are {ids}",
    "no server named {names} in these files: {files}",
    "cannot find roots-bridge beside {python}; give its path with --bridge",
    "the bridge must be given by its absolute path, not {path!r}",
)
"""Every message a :class:`HostRefusal` can carry, as a ``str.format`` template."""


class HostRefusal(ModelError):
    """A host operation refused; its template is one of :data:`ERROR_TEMPLATES` here."""


def projects(store: Store) -> list[str]:
    """The folders project files are looked for in: the user's roots."""
    return [r.path for r in store.read().roots]


def report(
    platform: Platform, folders: Collection[str], hosts: tuple[HostSpec, ...] = HOSTS
) -> list[FileReport]:
    """Every host file found, with its servers or its error."""
    out = []
    for file in discover(platform, folders, hosts):
        try:
            out.append(FileReport(file, read_servers(file, hostrecord.read_host_file(file.path))))
        except SyntaxProblem as exc:
            out.append(FileReport(file, error=f"syntax error: {exc.reason}", line=exc.line))
        except (Refused, OSError) as exc:
            out.append(FileReport(file, error=str(exc)))
    return out


def host_files(host_id: str, platform: Platform, folders: Collection[str]) -> list[ConfigFile]:
    """The files of host *host_id* found; refuses an unknown id."""
    spec = host(host_id)
    if spec is None:
        raise HostRefusal(
            "no host is called {host!r}; the hosts are {ids}",
            host=host_id,
            ids=", ".join(h.id for h in HOSTS),
        )
    return discover(platform, folders, (spec,))


def change(
    layout: Layout,
    files: list[ConfigFile],
    wanted: Collection[str] | None,
    action: str,
    *,
    bridge: str = "",
    home: str | None = None,
    dry_run: bool = False,
    before_write: Callable[[ConfigFile], None] | None = None,
    remember: bool = True,
) -> list[FileResult]:
    """Wrap or unwrap the servers *wanted* (None: all) of *files*.

    *before_write* runs between the read and the write of each file (tests make a host write
    the file there). With *remember* false, the change is not added to the list Undo takes from.
    """
    if wanted is not None:
        found = set()
        for file in files:
            try:
                found |= {s.name for s in read_servers(file, hostrecord.read_host_file(file.path))}
            except (SyntaxProblem, Refused, OSError):
                # the file's own result says what is wrong with it, rather than "no server"
                found |= set(wanted)
        missing = sorted(set(wanted) - found)
        if missing:
            raise HostRefusal(
                "no server named {names} in these files: {files}",
                names=", ".join(repr(n) for n in missing),
                files=", ".join(str(f.path) for f in files) or "(none found)",
            )
    results = []
    with hostrecord.locked(layout):
        store = Store(layout)
        for file in files:
            results.append(
                _change_file(
                    layout,
                    store,
                    file,
                    wanted,
                    action,
                    bridge,
                    home,
                    dry_run,
                    before_write,
                    remember,
                )
            )
    return results


def _plan(
    layout: Layout,
    store: Store,
    file: ConfigFile,
    wanted: Collection[str] | None,
    action: str,
    bridge: str,
    home: str | None,
) -> Plan:
    data = hostrecord.read_host_file(file.path)
    record = hostrecord.load(layout)
    if action == WRAP:
        names = Names(store.read(), record)
        return plan_wrap(file, data, wanted, bridge=bridge, home=home, names=names)
    return plan_unwrap(file, data, wanted, record)


def _change_file(
    layout: Layout,
    store: Store,
    file: ConfigFile,
    wanted: Collection[str] | None,
    action: str,
    bridge: str,
    home: str | None,
    dry_run: bool,
    before_write: Callable[[ConfigFile], None] | None,
    remember: bool,
) -> FileResult:
    result = FileResult(file)
    for attempt in (1, 2):
        try:
            plan = _plan(layout, store, file, wanted, action, bridge, home)
        except SyntaxProblem as exc:
            result.error = f"not changed: syntax error: {exc}"
            return result
        except (NotEditable, Refused, OSError) as exc:
            result.error = f"not changed: {exc}"
            return result
        result.outcomes, result.diff = plan.outcomes, plan.diff()
        if dry_run or not plan.changed:
            return result
        if before_write is not None:
            before_write(file)
        try:
            result.backup = _write(layout, plan, action, remember)
        except FileChanged:
            if attempt == 2:
                result.error = (
                    f"not changed: {file.path} kept changing while it was being edited (is "
                    f"{file.host.label} writing it?); try again"
                )
                return result
            continue
        result.written = True
        break
    if action == WRAP:
        with store.transaction() as state:
            for rec in plan.records:
                # a host expands ${...} before it starts the command: the fingerprint of the
                # text in the file would never match the one that runs
                known = None if any("${" in arg for arg in rec.argv) else rec.argv
                state.expect_server(rec.server, known)
    return result


def _write(layout: Layout, plan: Plan, action: str, remember: bool) -> Path:
    """Back up, record, write; the record goes back as it was if the write fails."""
    file = plan.file
    previous = hostrecord.load(layout)
    record = hostrecord.load(layout)
    backup = hostrecord.backup(layout, file.host.id, file.path, plan.before)
    for rec in plan.records:
        record.forget(file.path, tuple(rec.loc))
        if action == WRAP:
            rec.backup = str(backup)
            record.wrapped.append(rec)
    if remember:
        record.changes.append(
            ChangeRecord(
                id=uuid.uuid4().hex[:12],
                at=now_iso(),
                action=action,
                host=file.host.id,
                file=str(file.path),
                project=None if file.project is None else str(file.project),
                servers=[o.name for o in plan.outcomes if o.status in ("wrapped", "unwrapped")],
                backup=str(backup),
            )
        )
    del record.changes[: -hostrecord.CHANGES_KEPT]
    hostrecord.save(layout, record)
    try:
        hostrecord.write_host_file(file.path, plan.after, plan.before)
    except BaseException:
        hostrecord.save(layout, previous)
        raise
    return backup


def last_change(layout: Layout) -> ChangeRecord | None:
    """The change Undo would take back, if any."""
    changes = hostrecord.load(layout).changes
    return changes[-1] if changes else None


def undo_last(layout: Layout, *, bridge: str, home: str | None) -> FileResult | None:
    """Take back the last change: unwrap what it wrapped, wrap what it unwrapped."""
    last = last_change(layout)
    if last is None:
        return None
    spec = host(last.host)
    assert spec is not None
    file = ConfigFile(spec, Path(last.file), None if last.project is None else Path(last.project))
    inverse = UNWRAP if last.action == WRAP else WRAP
    [result] = change(
        layout, [file], last.servers, inverse, bridge=bridge, home=home, remember=False
    )
    if result.error is None:
        with hostrecord.locked(layout):
            record = hostrecord.load(layout)
            record.changes = [c for c in record.changes if c.id != last.id]
            hostrecord.save(layout, record)
    return result
