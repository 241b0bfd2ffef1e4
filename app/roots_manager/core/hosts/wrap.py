"""Putting a host's servers behind ``roots-bridge``, and taking them out again exactly.

A wrapped entry starts the absolute path of ``roots-bridge`` with ``--server NAME -- COMMAND
ARGS...``: the original command stays in the entry, every other key stays as it was. Each change
is computed in full first (a :class:`Plan`, which ``--dry-run`` shows as a diff), checked (the
file parsed again must differ from the original in the launch keys of the entries changed only),
then written (:mod:`roots_manager.core.hosts.hostfile`). Unwrapping a JSON entry nobody touched
since puts its original text back, byte for byte; TOML and YAML go back through their round-trip
libraries, which give back the original bytes as well (a file they would not is never edited).
"""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from roots_manager.core.consent.arguments import (
    ROOTS_ARG,
    expand,
    folder_arguments,
    folder_paths,
    with_roots_argument,
)
from roots_manager.core.directory.layout import HOME_ENV
from roots_manager.core.hosts import diff as hostdiff
from roots_manager.core.hosts import formats as hostformats
from roots_manager.core.hosts.declared import HostServer, Transport, servers
from roots_manager.core.hosts.formats import JsonDoc, Location
from roots_manager.core.hosts.known import ConfigFile
from roots_manager.core.hosts.record import HostRecord, WrapRecord
from roots_manager.core.roots.root import find_root, new_root
from roots_manager.core.servers.confusables import look_alike
from roots_manager.core.store.state import State, fingerprint, now_iso, server_name_error
from roots_manager.support.installation import own_executable
from roots_manager.support.refusal import ModelError

BRIDGE_FLAG = "--server"
ABSENT: Any = ...
"""In the launch keys an edit must leave: the key is not there."""


def find_bridge(executable: str | None = None, frozen: bool | None = None) -> str | None:
    """The absolute path of the ``roots-bridge`` that belongs with this installation
    (:func:`~roots_manager.support.installation.own_executable`): a host's ``PATH`` may not hold
    ours, or may lead to another installation, hence the absolute path."""
    return own_executable("roots-bridge", executable, frozen)


@dataclass(frozen=True)
class Outcome:
    """What happened (or would happen) to one server of a file."""

    name: str
    """The host's key for the server."""
    status: str
    """wrapped, unwrapped, already-wrapped, not-wrapped or not-wrappable."""
    server: str | None = None
    """The name the bridge keeps the server's grants under."""
    detail: str = ""


@dataclass
class Plan:
    """A change of one host file, computed and checked, not yet written."""

    file: ConfigFile
    before: bytes
    after: bytes
    outcomes: list[Outcome] = field(default_factory=list)
    records: list[WrapRecord] = field(default_factory=list)
    """Servers wrapped by this change (for wrap) or unwrapped (for unwrap)."""
    missing: list[str] = field(default_factory=list)
    """Servers asked for that the file does not hold."""
    notes: list[str] = field(default_factory=list)
    """What the user should know about the change, one sentence each (a server whose
    arguments are folders, wrapped without ``--roots-args``)."""

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def diff(self) -> str:
        """The change as a unified diff."""
        return hostdiff.unified(
            self.before.decode("utf-8", "replace"),
            self.after.decode("utf-8", "replace"),
            str(self.file.path),
        )


class Refused(ValueError):
    """The file cannot be changed safely; nothing was."""


def _decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused(f"{path} is not UTF-8 text (byte {exc.start})") from exc


def _settings(file: ConfigFile, data: Any) -> dict[str, Any]:
    """*data*, the whole of *file*, if it is a table of settings, as every host's file is, and
    its servers, where there are any, in the shape the host reads: a table (or the list of a
    host that keeps a list). A shape the host does not read is refused by name, rather than
    shown as a file with no servers and "wrapped" as one with nothing to do."""
    if not isinstance(data, dict):
        raise Refused(f"{file.path} holds {_kind(data)} at its top level, not a table of settings")
    at: Any = data
    path: list[str] = []
    for key in (*file.host.servers_in, file.host.servers_key):
        at = at.get(key)
        path.append(key)
        if at is None:
            return data
        if not isinstance(at, dict) and not (file.host.listed and isinstance(at, list)):
            raise Refused(
                f"{file.path}: {'.'.join(path)} holds {_kind(at)}, not the table of servers "
                f"{file.host.label} reads"
            )
    return data


def _kind(data: Any) -> str:
    kinds = (
        (list, "a list"),
        (str, "a string"),
        (bool, "true or false"),
        ((int, float), "a number"),
    )
    return "null" if data is None else next((k for t, k in kinds if isinstance(data, t)), "a value")


def read_servers(file: ConfigFile, data: bytes) -> list[HostServer]:
    """The server entries of *file*, whose bytes are *data*; raises ``SyntaxProblem``, or
    :class:`Refused` for a file that is not a table of settings."""
    return servers(
        file, _settings(file, hostformats.read(file.host.format, _decode(data, file.path)))
    )


def _get(data: Any, loc: Location) -> Any:
    for key in loc:
        data = data[key]
    return data


Launch = dict[str, Any]
"""The launch keys an entry must have after an edit, and their values (:data:`ABSENT`: none)."""


def _check(
    file: ConfigFile, before: Any, after_text: str, launches: dict[Location, Launch]
) -> None:
    """Refuse unless *after_text* differs from *before* only in the launch keys of *launches*.

    Compared in place rather than on copies with the entries taken out: a copy of Claude Code's
    ``~/.claude.json`` costs seconds.
    """
    after = hostformats.load(file.host.format, after_text).data()
    tree: dict[str | int, Any] = {}
    for loc in launches:
        node = tree
        for key in loc:
            node = node.setdefault(key, {})
    ok = _same_but(before, after, tree)
    for loc, launch in launches.items():
        if not ok:
            break
        old, new = _get(before, loc), _get(after, loc)
        kept = {k: v for k, v in old.items() if k not in launch}
        ok = (
            isinstance(new, dict)
            and {k: v for k, v in new.items() if k not in launch} == kept
            and {k: new[k] for k in launch if k in new}
            == {k: v for k, v in launch.items() if v is not ABSENT}
        )
    if not ok:
        raise Refused(
            f"editing {file.path} would change more than the server's command; nothing was changed"
        )


def _same_but(before: Any, after: Any, skip: dict[str | int, Any]) -> bool:
    """*before* equals *after* but for the values at the ends of the key paths of *skip* (a tree
    of dicts, ``{}`` where a path ends; an index where the path goes through a list): those are
    compared on their own."""
    if not skip:
        return True
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        keys: Any = range(len(before))
    elif isinstance(before, dict) and isinstance(after, dict) and before.keys() == after.keys():
        keys = before
    else:
        return False
    return all(
        _same_but(before[k], after[k], skip[k]) if k in skip else before[k] == after[k]
        for k in keys
    )


@dataclass
class Names:
    """The bridge names in use, so two hosts' servers with one key but two commands get two."""

    state: State
    record: HostRecord
    chosen: dict[str, str] = field(default_factory=dict)
    why: dict[str, str] = field(default_factory=dict)
    """For each name picked in place of the host's own, why the host's was not used."""

    def _taken(self, name: str, fp: str) -> str | None:
        """Why *name* cannot be the bridge name of the command *fp*, or None."""
        srv = self.state.servers.get(name)
        known = srv and (srv.fingerprint or srv.seen_fingerprint)
        if known and known != fp:
            return "another server has that name"
        if any(w.server == name and fingerprint(w.argv) != fp for w in self.record.wrapped):
            return "another server has that name"
        other = look_alike(name, [*self.state.servers, *self.chosen]) if srv is None else None
        if other is not None:
            # a new name that looks like a known one (fѕ beside fs) would be refused: the
            # host's id tells them apart
            return f"it looks like the server {other!r}"
        return "another server has that name" if self.chosen.get(name, fp) != fp else None

    def pick(self, key: str, host_id: str, argv: list[str]) -> str:
        fp = fingerprint(argv)
        name, n = key, 1
        first = None
        while (why := self._taken(name, fp)) is not None:
            first = first or why
            n += 1
            name = f"{key}-{host_id}" if n == 2 else f"{key}-{host_id}-{n - 1}"
        self.chosen[name] = fp
        if first is not None:
            self.why[name] = first
        return name


def _selected(
    plan: Plan, entries: list[HostServer], wanted: Collection[str] | None
) -> list[HostServer]:
    """The entries of *wanted* (None: all); the names not found go into *plan*'s missing."""
    if wanted is None:
        return entries
    names = {e.name for e in entries}
    plan.missing = [name for name in wanted if name not in names]
    return [e for e in entries if e.name in wanted]


def plan_wrap(
    file: ConfigFile,
    before: bytes,
    wanted: Collection[str] | None,
    *,
    bridge: str,
    home: str | None,
    names: Names,
    roots_args: bool = False,
) -> Plan:
    """Put the servers *wanted* (None: all) of *file* behind *bridge*.

    *home*, when given, goes into each wrapped entry's environment as ``ROOTS_MANAGER_HOME``.
    With *roots_args*, a server whose arguments are folders
    (:func:`~roots_manager.core.consent.arguments.folder_arguments`) gets ``{roots}`` in their
    place, and its records carry the folders, for the store to make them roots granted to it
    once the file is written; without, the plan's notes say which servers could.
    """
    text = _decode(before, file.path)
    doc = hostformats.load(file.host.format, text)
    data = _settings(file, doc.data())
    plan = Plan(file, before, before)
    launches: dict[Location, Launch] = {}
    for entry in _selected(plan, servers(file, data), wanted):
        if entry.transport is not Transport.STDIO or entry.argv is None:
            plan.outcomes.append(Outcome(entry.name, "not-wrappable", detail=entry.problem or ""))
            continue
        if entry.wrapped is not None:
            plan.outcomes.append(Outcome(entry.name, "already-wrapped", entry.wrapped.server))
            continue
        error = server_name_error(entry.name)
        if error is not None:
            plan.outcomes.append(Outcome(entry.name, "not-wrappable", detail=str(error)))
            continue
        argv, written, why_not = entry.argv, None, ""
        positions = folder_arguments(entry.argv)
        if positions and roots_args:
            why_not = _not_roots(names.state, folder_paths(entry.argv, positions))
            if not why_not:
                argv = with_roots_argument(entry.argv, positions)
                written = [entry.argv[i] for i in positions]
        elif positions:
            shown = ", ".join(entry.argv[i] for i in positions)
            plan.notes.append(
                f"{entry.name!r} takes folders as arguments ({shown}): wrap it with "
                "--roots-args to give it its granted folders instead"
            )
        name = names.pick(entry.name, file.host.id, argv)
        keys, loc = entry.keys, entry.loc
        raw = _get(data, loc)
        entry_before = doc.entry_text(loc) if isinstance(doc, JsonDoc) else None
        launch: Launch
        if keys.args is None:  # the command line is one list: the bridge goes first in it
            if written is not None:
                doc.set_list(loc, keys.command, argv)
            doc.prepend(loc, keys.command, [bridge, BRIDGE_FLAG, name, "--"], keys.command)
            launch = {keys.command: [bridge, BRIDGE_FLAG, name, "--", *argv]}
        else:
            if written is not None:
                doc.set_list(loc, keys.args, argv[1:])
            doc.set_string(loc, keys.command, keys.spelled(bridge))
            doc.prepend(loc, keys.args, [BRIDGE_FLAG, name, "--", argv[0]], keys.command)
            launch = {
                keys.command: keys.spelled(bridge),
                keys.args: [BRIDGE_FLAG, name, "--", *argv],
            }
        env_change = None
        if home is not None and entry.env.get(HOME_ENV) is None:
            env_change = "added" if isinstance(raw.get(keys.env), dict) else "created"
            doc.set_item(loc, keys.env, HOME_ENV, home, keys.args or keys.command)
        launch[keys.env] = (
            {**raw.get(keys.env, {}), HOME_ENV: home} if env_change else raw.get(keys.env, ABSENT)
        )
        launches[loc] = launch
        details = [] if name == entry.name else [f"named {name!r}: {names.why[name]}"]
        if written is not None:
            details.append(f"its folders {', '.join(written)} become {ROOTS_ARG}, granted to it")
        elif why_not:
            details.append(f"its folders stay its arguments: {why_not}")
        plan.outcomes.append(Outcome(entry.name, "wrapped", name, "; ".join(details)))
        plan.records.append(
            WrapRecord(
                host=file.host.id,
                file=str(file.path),
                loc=list(loc),
                name=entry.name,
                server=name,
                argv=argv,
                args_absent=keys.args is not None and keys.args not in raw,
                env=env_change,
                entry_before=entry_before,
                entry_after=doc.entry_text(loc) if isinstance(doc, JsonDoc) else None,
                backup="",
                at=now_iso(),
                original=None if written is None else entry.argv,
                folders=written,
            )
        )
    return _finished(plan, doc, data, launches)


def _not_roots(state: State, folders: list[str]) -> str:
    """Why *folders* cannot all be roots granted to a server (a folder too broad to be a root,
    such as the home folder); empty when they can."""
    for path in folders:
        try:
            find_root(state.roots, path)
            continue
        except ModelError:
            pass
        try:
            new_root(state.roots, path, None, allow_broad=False, added_at="")
        except ModelError as exc:
            return str(exc)
    return ""


def folder_roots(state: State, folders: list[str]) -> list[str]:
    """The ids of the roots of *folders* in *state*, adding those that are not roots yet
    (:func:`_not_roots` said they can be)."""
    ids = []
    for path in map(os.path.abspath, map(os.path.expanduser, folders)):
        try:
            ids.append(find_root(state.roots, path).id)
        except ModelError:
            ids.append(state.add_root(path).id)
    return ids


def _finished(plan: Plan, doc: Any, data: Any, launches: dict[Location, Launch]) -> Plan:
    """*plan* with the text of *doc*, checked against *data*, the document as read."""
    if launches:
        after = doc.dump()
        _check(plan.file, data, after, launches)
        plan.after = after.encode("utf-8")
    return plan


def plan_unwrap(
    file: ConfigFile, before: bytes, wanted: Collection[str] | None, record: HostRecord
) -> Plan:
    """Give the servers *wanted* (None: all) of *file* back their own command lines."""
    text = _decode(before, file.path)
    doc = hostformats.load(file.host.format, text)
    data = _settings(file, doc.data())
    plan = Plan(file, before, before)
    launches: dict[Location, Launch] = {}
    for entry in _selected(plan, servers(file, data), wanted):
        wrapped = entry.wrapped
        if wrapped is None:
            status = "not-wrapped" if entry.transport is Transport.STDIO else "not-wrappable"
            plan.outcomes.append(Outcome(entry.name, status, detail=entry.problem or ""))
            continue
        keys, loc = entry.keys, entry.loc
        rec = record.find(file.path, loc)
        raw = _get(data, loc)
        detail = ""
        if rec and rec.entry_after is not None and isinstance(doc, JsonDoc):
            exact = doc.entry_text(loc) == rec.entry_after
        else:
            exact = False
        if exact and rec and rec.entry_before is not None and isinstance(doc, JsonDoc):
            doc.replace_entry(loc, rec.entry_before)
        else:
            restored = _restored(wrapped.original, rec)
            if keys.args is None:
                doc.drop(loc, keys.command, wrapped.prefix, False)
                if restored != wrapped.original:
                    doc.set_list(loc, keys.command, restored)
            else:
                args_absent = bool(rec and rec.args_absent)
                doc.drop(loc, keys.args, wrapped.prefix, args_absent)
                if restored != wrapped.original:
                    doc.set_list(loc, keys.args, restored[1:])
                doc.set_string(loc, keys.command, keys.spelled(restored[0]))
            env = raw.get(keys.env)
            if rec and rec.env and isinstance(env, dict) and HOME_ENV in env:
                doc.del_item(loc, keys.env, HOME_ENV, rec.env == "created")
            elif rec is None and isinstance(env, dict) and HOME_ENV in env:
                # no record says whether the wrap put it there; it is the bridge's setting, so
                # it goes with the bridge, and the user is told its value to put it back
                doc.del_item(loc, keys.env, HOME_ENV, True)
                detail = (
                    f"no record of its wrap was found: its env's {HOME_ENV}={env[HOME_ENV]}, "
                    "which only the bridge reads, is taken away"
                )
        launches[loc] = _unwrapped_launch(entry, raw, rec)
        plan.outcomes.append(Outcome(entry.name, "unwrapped", wrapped.server, detail))
        if rec is not None:
            plan.records.append(rec)
    return _finished(plan, doc, data, launches)


def _restored(original: list[str], rec: WrapRecord | None) -> list[str]:
    """The server's own command line from *original*, the one behind the bridge: with the
    folders ``--roots-args`` took out put back (where they stood, when nobody changed it)."""
    if rec is None or rec.folders is None or ROOTS_ARG not in original:
        return original
    if rec.original is not None and original == rec.argv:
        return rec.original
    return expand(original, rec.folders)


def _unwrapped_launch(entry: HostServer, raw: Any, rec: WrapRecord | None) -> Launch:
    assert entry.wrapped is not None
    keys, original = entry.keys, _restored(entry.wrapped.original, rec)
    launch: Launch
    if keys.args is None:
        launch = {keys.command: original}
    else:
        args: Any = original[1:]
        if rec and rec.args_absent and not args:
            args = ABSENT
        launch = {keys.command: keys.spelled(original[0]), keys.args: args}
    env: Any = raw.get(keys.env, ABSENT)
    if (rec is None or rec.env) and isinstance(env, dict) and HOME_ENV in env:
        env = {k: v for k, v in env.items() if k != HOME_ENV}
        if (rec is None or rec.env == "created") and not env:
            env = ABSENT
    launch[keys.env] = env
    return launch


def home_for_hosts(home: Path, default: Path) -> str | None:
    """``ROOTS_MANAGER_HOME`` for wrapped entries: the per-user directory if not the default.

    Hosts start servers with a reduced environment; the bridge must use the directory the app
    uses.
    """
    if os.path.realpath(home) == os.path.realpath(default):
        return None
    return str(home)
