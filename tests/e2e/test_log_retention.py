"""Traffic logs across bridge runs: a real bridge start and ``log-retention`` keep them in bounds."""

from __future__ import annotations

import os
import subprocess
import sys

from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.file import Store
from tests.bridge.wire import bridge_argv
from tests.conftest import run_cli
from tests.logruns import WAIT, names, past_run, remaining, running
from tests.polling import wait_for


def test_a_bridge_start_removes_old_runs_but_never_a_running_bridges_log(layout: Layout) -> None:
    with Store(layout).transaction() as state:
        state.set_log_retention(max_mib=20, max_days=30)
    too_old = past_run(layout, "20250101T000000-old00001", 1, days_ago=60)
    over_the_cap = past_run(layout, "20260101T000000-run00001", 8, days_ago=9, parts=2)
    kept = past_run(layout, "20260102T000000-run00002", 8, days_ago=8, parts=2)
    # a bridge running now (its marker names a live process) with the oldest, largest log
    busy = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                            stdin=subprocess.PIPE)  # fmt: skip
    try:
        running(layout, "20240101T000000-busy0001", pid=busy.pid)
        busy_files = past_run(layout, "20240101T000000-busy0001", 8, days_ago=400, parts=4)
        server = [sys.executable, "-c", "import sys; sys.stdin.buffer.read()"]
        bridge = subprocess.Popen(bridge_argv("fs", server), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
        try:
            gone = names(too_old + over_the_cap)
            wait_for(
                lambda: not gone & remaining(layout),
                "the bridge never swept the logs",
                timeout=WAIT,
            )
            own = remaining(layout) - names(kept + busy_files)
            assert len(own) == 1 and next(iter(own)).endswith("-0000.jsonl"), own
        finally:
            bridge.communicate(timeout=WAIT)  # closes its stdin: the host has gone
    finally:
        assert busy.stdin is not None
        busy.stdin.close()
        busy.wait(WAIT)
    # 8 MiB of the running bridge + 8 MiB kept + this bridge's few bytes: within 20 MiB
    assert names(kept + busy_files) <= remaining(layout)


def test_log_retention_shows_sets_and_applies_the_limits(layout: Layout) -> None:
    shown = run_cli("log-retention").stdout
    assert "up to 256 MiB in all, for 30 days" in shown and "holds 0 file(s)" in shown
    old = past_run(layout, "20260101T000000-run00001", 3, days_ago=20)
    new = past_run(layout, "20260105T000000-run00002", 3, days_ago=2)
    out = run_cli("log-retention", "--max-age", "10").stdout
    assert "up to 256 MiB in all, for 10 days" in out
    assert "removed 1 file(s) over the limits (3.0 MiB)" in out
    assert remaining(layout) == names(new) and Store(layout).read().log_retention.max_days == 10
    out = run_cli("log-retention", "--max-size", "0", "--max-age", "0").stdout
    assert "with no size limit, with no age limit" in out and "over the limits" not in out
    refused = run_cli("log-retention", "--max-size", "-5", check=False)
    assert refused.returncode == 1 and "from 0 (no limit) to 1048576, not -5" in refused.stderr
    assert Store(layout).read().log_retention.max_mib == 0
    assert old[0].name not in run_cli("log-retention").stdout


def test_a_bridge_logging_elsewhere_writes_there_and_sweeps_nothing(
    layout: Layout, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    # as the probe runs one: its own store (with tight limits) and the user's log folder
    private = Layout(tmp_path / "private").ensure()
    with Store(private).transaction() as state:
        state.set_log_retention(max_mib=1, max_days=1)
    old = past_run(layout, "20250101T000000-old00001", 2, days_ago=60)
    env = {
        **os.environ,
        "ROOTS_MANAGER_HOME": str(private.home),
        "ROOTS_MANAGER_LOGS": str(layout.logs),
    }
    server = [sys.executable, "-c", "import sys; sys.stdin.buffer.read()"]
    bridge = subprocess.Popen(bridge_argv("probe:fs", server), stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)  # fmt: skip
    try:
        wait_for(lambda: len(remaining(layout)) == 2, "the bridge never logged", timeout=WAIT)
        # its marker is where its store is, not where the app looks
        wait_for(lambda: list(private.live.glob("bridge-*.json")), "no marker", timeout=WAIT)
        assert not list(layout.live.glob("bridge-*.json"))
    finally:
        bridge.communicate(timeout=WAIT)
    # the old run is over the private store's limits, but those are not the log folder's
    assert names(old) <= remaining(layout)
    assert not list(private.logs.glob("*.jsonl"))
    events = [e for e in run_cli("log", "--json").stdout.splitlines() if '"probe:fs"' in e]
    assert '"session-start"' in events[0] and '"session-end"' in events[-1]
