"""The tier of every test: ``unit``, ``e2e`` or ``packaging``, one each (``pytest -m unit``).

- ``unit``: runs in the test's own process, or starts at most a helper that is not ours (a
  ``python -c`` holding a lock, ``ldconfig``, a validator), and takes a second or two at most.
  Qt widgets offscreen are unit tests. The whole tier runs in under two minutes.
- ``e2e``: starts a bridge, a server, the CLI or the app as a real process (or confines one),
  or takes many seconds to kill, race or flood something.
- ``packaging``: builds what users install (the wheels, the .deb) and checks it.

A test gets its tier from the first of: a tier marker on the test itself (``@pytest.mark.e2e``,
or ``pytestmark`` in its module), :data:`TEST_TIER`, :data:`MODULE_TIER`, :data:`DIRECTORY_TIER`.
A test with no tier, or with two, stops the run at collection (see :func:`assign`); so does a
table entry naming a test or a module that no longer exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TIERS = ("unit", "e2e", "packaging")
TESTS = Path(__file__).resolve().parent

# the tier of every test of a directory, unless a table below says otherwise
DIRECTORY_TIER = {
    "actions": "unit",
    "core": "unit",
    "support": "unit",
    # what decides and builds for one OS, run anywhere against stand-ins for its calls
    "platform": "unit",
    # the relay, the mediator, the roots source... in-process (tests/bridge/wire.py's real bridges
    # run from the modules listed below and from tests/e2e)
    "bridge": "unit",
    # widgets offscreen in the test's process; the ones that start a bridge or the app are below
    "gui": "unit",
    # the C observer against the Python one; confining real processes is below
    "sandbox": "unit",
    "e2e": "e2e",
    # the CLI as a process, on a real store (the two in-process modules are below)
    "cli": "e2e",
    # a hostile server confined for real, as root and as a user
    "security": "e2e",
    # the probe run as roots-manager probe against real servers behind a real bridge
    "probe": "e2e",
}

# whole modules whose tier is not their directory's (and every module at the top of tests/)
MODULE_TIER = {
    "test_deb.py": "packaging",
    "test_wheel.py": "packaging",
    # reads the test modules' syntax trees: nothing is built
    "test_portable.py": "unit",
    "test_import_graph.py": "unit",
    # the docs' code map against the tree, and the front ends' syntax trees
    "test_code_map.py": "unit",
    "test_front_ends_act.py": "unit",
    "test_readme.py": "unit",
    # the validators and lrelease on the shipped files, well under a second
    "test_resources.py": "unit",
    # counts steps of our code on 2,000 and 8,000 roots in-process, no timing
    "test_scaling.py": "unit",
    "bridge/run/test_idle_memory.py": "e2e",
    "bridge/run/test_spawn.py": "e2e",
    "core/log/test_events.py": "e2e",
    "gui/connect/test_connect_bridge.py": "e2e",
    "gui/connect/test_connect_host.py": "e2e",
    "gui/probe/test_probe_dialog.py": "e2e",
    "gui/servers/test_bridge_live.py": "e2e",
    "gui/servers/test_confinement_panel.py": "e2e",
    "gui/servers/test_server_trace.py": "e2e",
    "gui/shell/test_app_signals.py": "e2e",
    "gui/shell/test_single_instance.py": "e2e",
    "sandbox/test_landlock.py": "e2e",
    "sandbox/test_observer.py": "e2e",
    # nothing is started: the table the CLI prints, the GUI's command line
    "cli/test_cli_gui.py": "unit",
    "cli/test_cli_table.py": "unit",
}

# single tests (their parameters left out) whose tier is not their module's
TEST_TIER = {
    # the CLI as a process on a store that is broken, unreadable or raced
    "core/store/test_store.py::test_a_shared_or_home_folder_is_never_made_private": "e2e",
    "core/store/test_store.py::test_bad_store_gives_a_clear_error_and_is_kept_byte_for_byte": "e2e",
    "core/store/test_store.py::test_recover_restores_the_last_good_copy_and_keeps_the_bad_one": "e2e",
    "core/store/test_store.py::test_recover_without_a_good_copy_needs_empty": "e2e",
    "core/store/test_store.py::test_the_cli_racing_an_editor_reports_what_happened": "e2e",
    "core/store/test_store.py::test_unreadable_store_gives_a_clear_error_and_is_kept": "e2e",
    # writers in other processes, killed or racing: 13 s and 28 s
    "core/store/test_store.py::test_sigkill_during_saves_never_corrupts_the_store": "e2e",
    "core/store/test_store.py::test_concurrent_writers_lose_no_update": "e2e",
    # the CLI run to show that the panel follows it
    "gui/consent/test_consent_dialog.py::test_a_request_settled_elsewhere_is_withdrawn": "e2e",
    "gui/consent/test_consent_dialog.py::test_pending_requests_survive_closing_the_app": "e2e",
    "gui/roots/test_roots_panel.py::test_changes_made_elsewhere_show_at_once": "e2e",
    "gui/roots/test_roots_panel.py::test_the_app_and_the_cli_call_a_broad_folder_the_same": "e2e",
    "gui/roots/test_roots_panel.py::test_remove_names_the_servers_that_lose_access": "e2e",
    "gui/servers/test_servers_panel.py::test_confining_new_servers_is_a_click_and_follows_the_cli": "e2e",
    "gui/servers/test_servers_panel.py::test_policy_choice_is_saved_and_follows_the_cli": "e2e",
    "gui/servers/test_servers_panel.py::test_the_watcher_catches_up_without_change_notifications": "e2e",
    # a real bridge in front of a server, or the app itself started
    "gui/consent/test_consent_first_use.py::test_the_prompt_counts_down_the_servers_wait_then_says_what_it_was_told": "e2e",
    "gui/log/test_log_model.py::test_panel_shows_a_real_bridge_run": "e2e",
    "gui/shell/test_settings.py::test_the_restart_command_starts_this_program": "e2e",
    "gui/servers/test_server_detail.py::test_a_folder_revoked_without_a_restart_is_still_readable_until_restart_now": "e2e",
}


def _where(item: pytest.Item) -> tuple[str, str]:
    """The item's module relative to tests/ (``core/test_store.py``) and its test without
    parameters (``core/test_store.py::test_x``, classes kept)."""
    module = Path(item.path).resolve().relative_to(TESTS).as_posix()
    test = item.nodeid.split("::", 1)[1].split("[", 1)[0] if "::" in item.nodeid else ""
    return module, f"{module}::{test}"


def tier_of(item: pytest.Item) -> str | tuple[str, ...] | None:
    """The one tier of *item*, None for none, or the tiers it was given twice."""
    marked = tuple(t for t in TIERS if item.get_closest_marker(t) is not None)
    if len(marked) > 1:
        return marked
    if marked:
        return marked[0]
    module, test = _where(item)
    if test in TEST_TIER:
        return TEST_TIER[test]
    if module in MODULE_TIER:
        return MODULE_TIER[module]
    folder = module.split("/", 1)[0] if "/" in module else None
    return DIRECTORY_TIER.get(folder) if folder else None


def stale_entries() -> list[str]:
    """Table entries that name a module that is gone, or a test its module no longer defines: a
    renamed test would otherwise fall back to its module's tier unnoticed."""
    stale = [f"{m} (MODULE_TIER)" for m in MODULE_TIER if not (TESTS / m).is_file()]
    for test in TEST_TIER:
        module, name = test.split("::", 1)
        path = TESTS / module
        defined = path.is_file() and re.search(
            rf"^\s*(async )?def {re.escape(name.rsplit('::', 1)[-1])}\(",
            path.read_text(encoding="utf-8"),
            re.MULTILINE,
        )
        if not defined:
            stale.append(f"{test} (TEST_TIER)")
    return stale


def assign(items: list[pytest.Item]) -> None:
    """Mark every item with its tier, or stop the run saying which tests have none or two."""
    problems = [f"tests/tiers.py names what is not there: {s}" for s in stale_entries()]
    for item in items:
        tier = tier_of(item)
        if tier is None:
            problems.append(f"{item.nodeid}: no tier (add its module to tests/tiers.py)")
        elif isinstance(tier, tuple):
            problems.append(f"{item.nodeid}: more than one tier ({', '.join(tier)})")
        elif item.get_closest_marker(tier) is None:
            item.add_marker(getattr(pytest.mark, tier))
    if problems:
        raise pytest.UsageError(
            "every test needs exactly one tier, unit, e2e or packaging:\n  " + "\n  ".join(problems)
        )
