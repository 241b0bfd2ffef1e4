"""Saved probe tables: one file per run, kept by server name and reported version, compared.

The tables live in the per-user directory under ``probes/<server>/``, each named for when the
run started and the version the server reported (``20261130T174100Z--0.6.2.json``), so that
the folder lists them in order and a glance tells which version each one saw. Re-running the
probe after an upgrade and comparing the last two tables shows the rows whose outcome moved.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from roots_manager.core.directory.layout import Layout, ensure_private_dir
from roots_manager.core.probe.report import Report
from roots_manager.core.probe.verdict import VERDICT_NAMES, Outcome, Row
from roots_manager.core.store.file import json_bytes

_STAMP = re.compile(r"^(\d{8}T\d{6}Z)(?:-(\d+))?--")


def folder_name(name: str) -> str:
    """A file-system-safe, reversible spelling of a server name."""
    spelled = quote(name, safe="-_")
    # a leading dot would hide the folder, or make it "." or ".."
    return "%2E" + spelled[1:] if spelled.startswith(".") else spelled or "%00"


def table_folder(layout: Layout, name: str) -> Path:
    """Where the tables of server *name* are kept."""
    return layout.probes / folder_name(name)


def _stamp(started_at: str) -> str:
    try:
        when = datetime.fromisoformat(started_at)
    except ValueError:
        when = datetime.now(UTC)
    return when.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def save(layout: Layout, report: Report) -> Path:
    """Keep *report* as a new table of its server; returns the file written."""
    ensure_private_dir(layout.home)
    ensure_private_dir(layout.probes)
    folder = ensure_private_dir(table_folder(layout, report.name))
    version = quote(report.version or "unknown", safe="-_.+")
    stamp = _stamp(report.started_at)
    data = json_bytes(report.to_json(), indent=2) + b"\n"
    for n in range(1000):
        target = folder / f"{stamp}{'' if n == 0 else f'-{n}'}--{version}.json"
        if target.exists():
            continue
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".probe-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.link(tmp, target)  # fails if another run took the name meanwhile
        except FileExistsError:
            continue
        finally:
            os.unlink(tmp)
        return target
    raise OSError(f"too many probe tables for one second in {folder}")


@dataclass(frozen=True)
class SavedTable:
    """One saved run, read back."""

    path: Path
    report: Report


def history(layout: Layout, name: str) -> list[SavedTable]:
    """The saved tables of server *name*, newest first (unreadable files are skipped)."""
    folder = table_folder(layout, name)
    try:
        files = [p for p in folder.iterdir() if p.suffix == ".json" and _STAMP.match(p.name)]
    except OSError:
        return []

    def order(p: Path) -> tuple[str, int]:
        m = _STAMP.match(p.name)
        assert m is not None
        return (m.group(1), int(m.group(2) or 0))

    out = []
    for path in sorted(files, key=order, reverse=True):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            out.append(SavedTable(path, Report.from_json(doc)))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return out


@dataclass(frozen=True)
class RowChange:
    """A row whose outcome differs between two runs (None: the row is in one run only)."""

    key: tuple[str, str, str]
    old: tuple[Outcome, Outcome] | None
    new: tuple[Outcome, Outcome] | None


@dataclass(frozen=True)
class Comparison:
    """What moved between an older and a newer table of the same server."""

    old: Report
    new: Report
    rows: list[RowChange]
    verdict: dict[str, tuple[bool | None, bool | None]]
    """The verdict lines whose value changed: name -> (old, new)."""


def _cells(row: Row) -> tuple[Outcome, Outcome]:
    return (row.inside.outcome, row.outside.outcome)


def compare(old: Report, new: Report) -> Comparison:
    """The rows whose outcome changed from *old* to *new*, and the verdict lines that moved."""
    before = {r.key(): r for r in old.rows}
    after = {r.key(): r for r in new.rows}
    changes = []
    for key in list(before) + [k for k in after if k not in before]:
        a = _cells(before[key]) if key in before else None
        b = _cells(after[key]) if key in after else None
        if a != b:
            changes.append(RowChange(key, a, b))
    moved = {}
    for name in VERDICT_NAMES:
        a_f, b_f = old.verdict.get(name), new.verdict.get(name)
        a_v = None if a_f is None else a_f.value
        b_v = None if b_f is None else b_f.value
        if a_v != b_v:
            moved[name] = (a_v, b_v)
    return Comparison(old, new, changes, moved)


def comparison_json(c: Comparison) -> dict[str, object]:
    """A comparison as the ``--compare --json`` document."""

    def cells(v: tuple[Outcome, Outcome] | None) -> dict[str, str] | None:
        return None if v is None else {"inside": v[0].value, "outside": v[1].value}

    return {
        "old": {"version": c.old.version, "started_at": c.old.started_at},
        "new": {"version": c.new.version, "started_at": c.new.started_at},
        "rows": [
            {
                "tool": ch.key[0],
                "operation": ch.key[1],
                "target_kind": ch.key[2],
                "old": cells(ch.old),
                "new": cells(ch.new),
            }
            for ch in c.rows
        ],
        "verdict": {k: {"old": a, "new": b} for k, (a, b) in c.verdict.items()},
    }
