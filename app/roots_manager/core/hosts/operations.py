"""The host operations the CLI and the app share: list, wrap, unwrap, undo the last change.

Each file is changed under the record's lock, in this order: read, plan and check the change,
make sure the file and its folder take a write, back up the file, write the record, write the
file (atomically, refusing if the host changed it since our read: then the change is planned
again from the new text, once), and last make the wrapped servers known in the store. A failure
before the file is written leaves the record as it was and no backup; a file that cannot be read
or edited safely is reported, never written.

One command (or click) is one step, however many files it changes, and Undo takes back the last
step whole: what a hand edit has taken away since is said and passed over, so that the next Undo
goes on from there.
"""

from __future__ import annotations

import contextlib
import functools
import os
import uuid
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

from roots_manager.core.consent.arguments import HOST_MARKS
from roots_manager.core.directory.layout import Layout
from roots_manager.core.hosts import hostfile
from roots_manager.core.hosts import record as hostrecord
from roots_manager.core.hosts.declared import HostServer
from roots_manager.core.hosts.formats import NotEditable, SyntaxProblem
from roots_manager.core.hosts.hostfile import FileChanged
from roots_manager.core.hosts.known import HOSTS, ConfigFile, HostSpec, Platform, discover, host
from roots_manager.core.hosts.record import ChangeStep, FileChange
from roots_manager.core.hosts.wrap import (
    Names,
    Outcome,
    Plan,
    Refused,
    folder_roots,
    plan_unwrap,
    plan_wrap,
    read_servers,
)
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import now_iso
from roots_manager.support.refusal import ModelError

WRAP = "wrap"
UNWRAP = "unwrap"
HOST_VARIABLES = HOST_MARKS
"""How hosts mark the parts of a command they fill in before they start it."""
CHANGED = frozenset({"wrapped", "unwrapped"})
"""The outcomes that change the file."""


@dataclass
class FileReport:
    """A host file as found: its servers, or why it cannot be read."""

    file: ConfigFile
    servers: list[HostServer] = field(default_factory=list)
    error: str | None = None
    line: int | None = None


@dataclass
class FileResult:
    """What a wrap, an unwrap or an undo did (or, dry, would do) to one file."""

    file: ConfigFile
    outcomes: list[Outcome] = field(default_factory=list)
    diff: str = ""
    written: bool = False
    backup: Path | None = None
    error: str | None = None
    failure: OSError | None = None
    """The system's error behind :attr:`error`, if one is (a full disk, a permission denied),
    for a front end that words it its own way."""
    notes: list[str] = field(default_factory=list)
    """What the user should know, one sentence for each: what Undo found already gone, a
    server whose arguments are folders that ``--roots-args`` would give its grants."""


@dataclass
class UndoResult:
    """What Undo did with the last step: the result for each of its files."""

    step: ChangeStep
    files: list[FileResult]
    done: bool
    """The step left the record: all of it taken back, or gone. When not, the files that could
    not be changed (each result's error says why) stay in it for the next Undo."""

    @property
    def restored(self) -> list[Path]:
        """The files written back."""
        return [r.file.path for r in self.files if r.written]


ERROR_CODES: dict[str, str] = {
    "no host is called {host!r}; the hosts are {ids}": "unknown-host",
    "no server named {names} in these files: {files}": "no-such-server",
    "cannot find roots-bridge beside {python}; give its path with --bridge": "no-bridge",
    "the bridge must be given by its absolute path, not {path!r}": "no-bridge",
}
"""Every message a :class:`HostRefusal` can carry (a ``str.format`` template), with the code
``--json`` gives it."""

ERROR_TEMPLATES: tuple[str, ...] = tuple(ERROR_CODES)
"""Every message a :class:`HostRefusal` can carry, as a ``str.format`` template."""


class HostRefusal(ModelError):
    """A host operation refused; its template is one of :data:`ERROR_TEMPLATES` here."""

    @property
    def code(self) -> str:
        """What was refused, in a word for scripts (a value of :data:`ERROR_CODES`)."""
        return ERROR_CODES[self.template]


@dataclass(frozen=True)
class _Edit:
    """How each file of one operation is changed."""

    action: str
    bridge: str
    home: str | None
    dry_run: bool = False
    before_write: Callable[[ConfigFile], None] | None = None
    before_rename: Callable[[ConfigFile], None] | None = None
    step: ChangeStep | None = None
    """The step the files written are added to; None: Undo is not to take them back."""
    undoing: bool = False
    """A server asked for that is gone is said in the result's notes."""
    roots_args: bool = False
    """Folders given as arguments become ``{roots}`` and roots granted to the server."""


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
            out.append(FileReport(file, read_servers(file, hostfile.read_host_file(file.path))))
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
    before_rename: Callable[[ConfigFile], None] | None = None,
    remember: bool = True,
    step: ChangeStep | None = None,
    roots_args: bool = False,
) -> list[FileResult]:
    """Wrap or unwrap the servers *wanted* (None: all) of *files*, as one step for Undo.

    *before_write* runs between the read and the write of each file, *before_rename* between
    the last look at it and its rename (tests make a host write the file there). With
    *remember* false, the change is not added to the steps Undo takes back; with a *step* of
    :func:`new_step`, it joins the changes made with that step before (the servers chosen in each
    of several files, taken back together). With *roots_args* (wrap), a server whose arguments
    are folders gets ``{roots}`` in their place, and the folders become roots granted to it.
    """
    if step is None and remember:
        step = new_step(action)
    edit = _Edit(
        action, bridge, home, dry_run, before_write, before_rename, step, roots_args=roots_args
    )
    with hostrecord.locked(layout):
        store = Store(layout)
        # every file is planned before any is written: a name in none of them refuses all; the
        # plans share the names picked, so that two commands under one key get two here too
        names = None
        if action == WRAP:
            with contextlib.suppress(hostrecord.RecordError):  # each file's result says so
                names = Names(store.read(), hostrecord.load(layout))
        plans = [_planned(layout, store, file, wanted, edit, names) for file in files]
        if wanted is not None:
            found = set()
            for plan in plans:
                # a file that cannot be read says so in its result, rather than "no server"
                missing = plan.missing if isinstance(plan, Plan) else []
                found |= set(wanted) - set(missing)
            if set(wanted) - found:
                raise HostRefusal(
                    "no server named {names} in these files: {files}",
                    names=", ".join(repr(n) for n in sorted(set(wanted) - found)),
                    files=", ".join(str(f.path) for f in files) or "(none found)",
                )
        return [
            _change_file(layout, store, file, wanted, edit, plan)
            for file, plan in zip(files, plans, strict=True)
        ]


def new_step(action: str) -> ChangeStep:
    """A new step for Undo, for :func:`change` to record *action* (WRAP or UNWRAP) in."""
    return ChangeStep(uuid.uuid4().hex[:12], now_iso(), action)


def _planned(
    layout: Layout,
    store: Store,
    file: ConfigFile,
    wanted: Collection[str] | None,
    edit: _Edit,
    names: Names | None = None,
) -> Plan | FileResult:
    """The change of *file*, planned; or the result that says why it cannot be."""
    try:
        data = hostfile.read_host_file(file.path)
        record = hostrecord.load(layout)
        if edit.action == WRAP:
            names = names or Names(store.read(), record)
            return plan_wrap(
                file,
                data,
                wanted,
                bridge=edit.bridge,
                home=edit.home,
                names=names,
                roots_args=edit.roots_args,
            )
        return plan_unwrap(file, data, wanted, record)
    except SyntaxProblem as exc:
        return FileResult(file, error=f"not changed: syntax error: {exc}")
    except (NotEditable, Refused, OSError) as exc:
        failure = exc if isinstance(exc, OSError) else None
        return FileResult(file, error=f"not changed: {exc}", failure=failure)


def _change_file(
    layout: Layout,
    store: Store,
    file: ConfigFile,
    wanted: Collection[str] | None,
    edit: _Edit,
    planned: Plan | FileResult | None = None,
) -> FileResult:
    """Write the change of *file*, *planned* already (or not yet)."""
    result = FileResult(file)
    for attempt in (1, 2):
        plan = _planned(layout, store, file, wanted, edit) if planned is None else planned
        planned = None  # a second try plans again, from what the host wrote
        if isinstance(plan, FileResult):
            return plan
        result.outcomes = plan.outcomes
        result.notes = list(plan.notes)
        if edit.undoing:
            result.notes += [
                f"{name!r} is no longer in {file.path}: nothing of it to take back"
                for name in plan.missing
            ]
        if edit.dry_run or not plan.changed:
            result.diff = plan.diff()
            return result
        if edit.before_write is not None:
            edit.before_write(file)
        try:
            result.backup = _write(layout, plan, edit)
        except FileChanged:
            if attempt == 1:
                continue
            result.error = (
                f"not changed: {file.path} kept changing while it was being edited (is "
                f"{file.host.label} writing it?); try again"
            )
        except OSError as exc:
            result.error = f"not changed: {exc}"
            result.failure = exc
        break
    if result.error is not None:
        # nothing was written: no server is said to be wrapped or unwrapped
        result.outcomes = [o for o in result.outcomes if o.status not in CHANGED]
        return result
    assert isinstance(plan, Plan)
    result.written = True
    result.diff = plan.diff()
    if edit.action == WRAP:
        with store.transaction() as state:
            for rec in plan.records:
                # a host expands ${...} (opencode {env:...}) before it starts the command: the
                # fingerprint of the text in the file would never match the one that runs
                known = None if any(m in a for a in rec.argv for m in HOST_VARIABLES) else rec.argv
                state.expect_server(rec.server, known)
                if rec.folders:
                    # the folders it had as arguments: it loses none of them
                    state.grant(rec.server, folder_roots(state, rec.folders))
    return result


def _write(layout: Layout, plan: Plan, edit: _Edit) -> Path:
    """Back up, record, write; the record goes back as it was, and the backup goes, if the
    write fails."""
    file = plan.file
    hostfile.check_writable(file.path)  # before the backup: a refusal leaves nothing behind
    previous = hostrecord.load(layout)
    record = hostrecord.load(layout)
    backup = hostrecord.backup(layout, file.host.id, file.path, plan.before)
    try:
        for rec in plan.records:
            record.forget(file.path, tuple(rec.loc))
            if edit.action == WRAP:
                rec.backup = str(backup)
                record.wrapped.append(rec)
        if edit.step is not None:
            changed = [o.name for o in plan.outcomes if o.status in CHANGED]
            project = None if file.project is None else str(file.project)
            change = FileChange(file.host.id, str(file.path), project, changed, str(backup))
            record.add(edit.step, change)
        hostrecord.save(layout, record)
        hook = None if edit.before_rename is None else functools.partial(edit.before_rename, file)
        hostfile.write_host_file(file.path, plan.after, plan.before, before_rename=hook)
    except BaseException:
        with contextlib.suppress(OSError):
            backup.unlink()
        hostrecord.save(layout, previous)
        raise
    return backup


def last_change(layout: Layout) -> ChangeStep | None:
    """The step Undo would take back, if any."""
    changes = hostrecord.load(layout).changes
    return changes[-1] if changes else None


def undo_last(layout: Layout, *, bridge: str, home: str | None) -> UndoResult | None:
    """Take back the last step: unwrap what it wrapped, wrap what it unwrapped, in every file.

    A file or a server gone since is said (:attr:`FileResult.notes`) and counts as taken back;
    a file that cannot be changed now stays in the step, which Undo then comes back to.
    """
    with hostrecord.locked(layout):
        changes = hostrecord.load(layout).changes
        if not changes:
            return None
        step = changes[-1]
        store = Store(layout)
        edit = _Edit(UNWRAP if step.action == WRAP else WRAP, bridge, home, undoing=True)
        results = [_undo_file(layout, store, change, edit) for change in step.files]
        left = [c for c, r in zip(step.files, results, strict=True) if r.error is not None]
        record = hostrecord.load(layout)  # as the changes above left it
        for i, kept in enumerate(record.changes):
            if kept.id == step.id:
                if left:
                    kept.files = left
                else:
                    del record.changes[i]
                break
        hostrecord.save(layout, record)
    return UndoResult(step, results, done=not left)


def _undo_file(layout: Layout, store: Store, change: FileChange, edit: _Edit) -> FileResult:
    spec = host(change.host)
    assert spec is not None, change.host
    path = Path(change.file)
    file = ConfigFile(spec, path, None if change.project is None else Path(change.project))
    if not os.path.lexists(path):
        return FileResult(file, notes=[f"{path} no longer exists: nothing of it to take back"])
    return _change_file(layout, store, file, change.servers, edit)
