"""The front ends change the store and the hosts' files only through the use cases
(:mod:`roots_manager.actions`).

A change made in a view or a command around them decides on its own what the use case decides
(which server a name means, which runs a while-running grant lasts for, what a broad folder
is, which per-user directory a wrapped server is told of), and decides it differently. The
import contract keeps the consent rules out of reach; this keeps the store's own transaction,
its state's changing methods and the edit of a host's file out of the app and the command
line."""

from __future__ import annotations

import ast
from pathlib import Path

import roots_manager

PACKAGE = Path(roots_manager.__file__).parent
FRONT_ENDS = ("gui", "cli")
CHANGES = {
    "transaction",
    "add_root",
    "rename_root",
    "remove_root",
    "grant",
    "revoke",
    "set_inside",
    "set_policy",
    "set_log_retention",
    "remove_server",
    "decide",
    "approve",
    # a host's file (roots_manager.core.hosts.operations): wrap and unwrap, and Undo
    "change",
    "undo_last",
}
"""The store's transaction, the methods of its state that change it, and the edits of a host's
file."""


def changes_in(path: Path, base: Path = PACKAGE) -> list[str]:
    """Each call in *path* of an attribute named in :data:`CHANGES` (or import of one by its
    name), and each assignment to an attribute of the state (``state.confine_new = ...``) or
    ``setattr`` on one."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # a use case called through its module (consent.grant, setting_actions.set_policy) is the way
    use_cases = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "roots_manager.actions"
        for alias in node.names
    }
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in CHANGES
            and getattr(node.func.value, "id", None) not in use_cases
        ):
            found.append((node.lineno, f".{node.func.attr}("))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "setattr":
            found.append((node.lineno, "setattr("))
        elif isinstance(node, ast.ImportFrom) and not (node.module or "").startswith(
            "roots_manager.actions"
        ):
            found += [(node.lineno, f"import {a.name}") for a in node.names if a.name in CHANGES]
        elif isinstance(node, ast.Assign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Attribute) and getattr(t.value, "id", None) in ("state", "s"):
                    found.append((node.lineno, f"state.{t.attr} ="))
    where = path.relative_to(base)
    return [f"{where}:{line}: {what}" for line, what in sorted(found)]


def test_the_app_and_the_command_line_change_the_store_only_through_the_use_cases() -> None:
    found = [
        change
        for front in FRONT_ENDS
        for path in sorted((PACKAGE / front).rglob("*.py"))
        for change in changes_in(path)
    ]
    assert found == [], "\n".join(found)


def test_the_check_finds_a_change_made_around_the_use_cases(tmp_path: Path) -> None:
    view = tmp_path / "a_view_that_edits.py"
    view.write_text(
        "from roots_manager.actions import consent\n"
        "def chosen(watcher, on):\n"
        "    watcher.act(lambda store: consent.grant(store, 'fs', ['/x'], None))\n"
        "    with watcher.store.transaction() as state:\n"
        "        state.confine_new = on\n"
        "        state.add_root('/x')\n"
        "    watcher.act(lambda s: setattr(s, 'policy', 'ask'))\n"
        "from roots_manager.actions import hosts as host_actions\n"
        "from roots_manager.core.hosts import operations as hostchanges\n"
        "from roots_manager.core.hosts.operations import undo_last\n"
        "def protect(store, files):\n"
        "    host_actions.wrap(store, files, None, bridge='/bin/roots-bridge')\n"
        "    hostchanges.change(store.layout, files, None, 'wrap', bridge='/bin/roots-bridge')\n",
        encoding="utf-8",
    )
    assert [c.split(": ", 1)[1] for c in changes_in(view, tmp_path)] == [
        ".transaction(",
        "state.confine_new =",
        ".add_root(",
        "setattr(",
        "import undo_last",
        ".change(",
    ]
