"""``roots-manager log``: printing, filtering and following the bridges' event files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from tests.conftest import run_cli


def _write(layout: Layout, run: str, server: str, n: int, **extra: object) -> None:
    w = ev.EventWriter(layout, run)
    for i in range(n):
        w.write(
            ev.event(
                ev.ROOTS_ANSWERED,
                server,
                run,
                dir=ev.BRIDGE_TO_SERVER,
                id=i,
                uris=[f"file:///p/{i}"],
                **extra,
            )
        )
    w.close()


def test_log_prints_filters_and_emits_json(layout: Layout) -> None:
    _write(layout, "20261129T120000-aaaa", "fs", 3)
    _write(layout, "20261129T120001-bbbb", "git", 2)
    lines = run_cli("log", "--json").stdout.splitlines()
    recs = [json.loads(line) for line in lines]
    assert [(r["server"], r["id"]) for r in recs] == [
        ("fs", 0),
        ("fs", 1),
        ("fs", 2),
        ("git", 0),
        ("git", 1),
    ]
    only = [
        json.loads(line) for line in run_cli("log", "--json", "--server", "git").stdout.splitlines()
    ]
    assert {r["server"] for r in only} == {"git"} and len(only) == 2
    human = run_cli("log").stdout
    assert "roots-list-answered #1  1 root: /p/1" in human


def test_rotated_parts_are_read_in_order(layout: Layout) -> None:
    w = ev.EventWriter(layout, "s1", max_bytes=400, keep_parts=100)
    for i in range(40):
        w.write(ev.event(ev.MESSAGE, "fs", "s1", id=i, method="tools/call"))
    w.close()
    assert len(ev.log_files(layout)) > 3
    ids = [json.loads(line)["id"] for line in run_cli("log", "--json").stdout.splitlines()]
    assert ids == list(range(40))


def test_rotation_keeps_only_the_newest_parts(layout: Layout) -> None:
    w = ev.EventWriter(layout, "s1", max_bytes=300, keep_parts=2)
    for i in range(60):
        w.write(ev.event(ev.MESSAGE, "fs", "s1", id=i))
    w.close()
    files = ev.log_files(layout)
    assert len(files) == 2
    assert all(os.stat(f).st_mode & 0o777 == 0o600 for f in files)
    ids = [r["id"] for r in ev.iter_events(layout)]
    assert ids == list(range(ids[0], 60))


def test_follow_prints_events_written_later(layout: Layout) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "roots_manager.cli", "log", "--follow", "--json"],
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    try:
        _write(layout, "later", "fs", 2)
        assert proc.stdout is not None
        got = [json.loads(proc.stdout.readline()) for _ in range(2)]
        assert [g["id"] for g in got] == [0, 1]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_partial_lines_wait_for_their_end(layout: Layout) -> None:
    path = layout.logs / "s9-0000.jsonl"
    full = json.dumps(ev.event(ev.ERROR, "fs", "s9", message="one")) + "\n"
    path.write_text(full + '{"kind": "error", "mess')
    recs, offset = ev.read_events(path)
    assert [r["message"] for r in recs] == ["one"] and offset == len(full.encode())
    with open(path, "a") as f:
        f.write('age": "two"}\n')
    recs, _ = ev.read_events(path, offset)
    assert [r["message"] for r in recs] == ["two"]


def test_every_kind_has_a_readable_summary() -> None:
    def s(kind: str, **fields: object) -> str:
        return ev.summarize(ev.event(kind, "fs", "s", **fields))

    assert s(ev.RUN_START, command=["npx", "fs"], pid=7) == "started npx fs (pid 7, managed)"
    assert s(ev.RUN_END, exit_code=0, reason="host closed") == "ended, exit code 0 (host closed)"
    assert s(ev.HANDSHAKE, protocol="2025-06-18", injected=True).endswith("capability injected")
    assert s(ev.ROOTS_ASKED, held=True) == "the server asked for its roots (held until you decide)"
    assert s(ev.ROOTS_ANSWERED, uris=[]) == "no roots"
    assert s(ev.LIST_CHANGED_SENT, uris=["file:///a"]) == "roots changed, now 1 root: /a"
    assert s(ev.NON_JSON, bytes=12, reason="UTF-8") == "12 bytes that are not UTF-8"
    assert s(ev.ERROR, message="boom") == "boom"
    assert s(ev.MESSAGE, method="tools/call") == "tools/call"


def test_piped_into_a_reader_that_stops_early(layout: Layout) -> None:
    """``roots-manager log | head -1``: no traceback, no complaint, a clean exit."""
    _write(layout, "big", "fs", 5000)
    for args in (["log"], ["log", "--json"]):
        proc = subprocess.Popen(
            [sys.executable, "-m", "roots_manager.cli", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=os.environ.copy(),
        )
        assert proc.stdout is not None and proc.stderr is not None
        assert b"fs" in proc.stdout.readline()
        proc.stdout.close()  # what head does after its first line
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 0, err
        assert err == ""


@pytest.mark.parametrize("inherited", ["default", "ignored"])
def test_follow_ends_cleanly_on_ctrl_c(layout: Layout, inherited: str) -> None:
    # "ignored": a background job of a script (or a process some CI runners start) begins with
    # SIGINT ignored; Python then keeps it ignored unless told otherwise, and Ctrl+C was lost
    command = [sys.executable, "-m", "roots_manager.cli", "log", "--follow"]
    if inherited == "ignored":
        command = ["sh", "-c", 'trap "" INT; exec "$0" "$@"', *command]
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        _write(layout, "s1", "fs", 1)
        assert "1 root: " in proc.stdout.readline()  # it is following now
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    err = proc.stderr.read()
    assert code == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
