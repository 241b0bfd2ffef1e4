"""Store files that are not what they seem: a FIFO, a device, a huge or deeply nested file, links.

Every command is a real ``roots-manager`` process with a timeout (a FIFO used to block them all
for ever), and every bridge a real ``roots-bridge`` in front of the puppet server.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from roots_manager.core.store.file import Store
from tests.bridge.wire import Bridged, events, is_method, wait_for
from tests.conftest import run_cli

# Each runs within seconds; a command that waits on the file is stopped and fails the test.
TIMEOUT = 30

LIMIT = 64 * 1024 * 1024  # the documented largest store

COMMANDS = (
    ("roots", "list"),
    ("grant", "fs", "/nowhere"),
    ("effective", "fs"),
    ("policy", "deny"),
    ("servers", "list"),
)

NESTED = b'{"schema": 1, "servers": {}, "roots": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"


def _good_store_with_a_copy(store: Store, tmp_path: Path) -> str:
    """A store at revision 2 whose last good copy (revision 1) grants 'fs' a folder."""
    folder = tmp_path / "granted"
    folder.mkdir()
    with store.transaction() as s:
        s.grant("fs", [s.add_root(str(folder)).id])
    with store.transaction() as s:
        s.set_policy("deny")
    return str(folder)


def _every_command_refuses(layout: Layout, *words: str) -> None:
    for args in COMMANDS:
        proc = run_cli(*args, check=False, timeout=TIMEOUT)
        assert proc.returncode == 3, (args, proc.stdout, proc.stderr)
        assert str(layout.store) in proc.stderr, (args, proc.stderr)
        for w in words:
            assert w in proc.stderr, (args, w, proc.stderr)
    check = run_cli("store", "check", check=False, timeout=TIMEOUT)
    assert check.returncode == 3, check.stdout
    for w in words:
        assert w in check.stdout, (w, check.stdout)


def _kept_aside(layout: Layout, directory: Path | None = None) -> Path:
    aside = [p for p in (directory or layout.home).iterdir() if ".damaged-" in p.name]
    assert len(aside) == 1, aside
    return aside[0]


# ---- a FIFO, a device, a file too large -----------------------------------------------------


def test_a_fifo_in_place_of_the_store_is_refused_and_recovered(
    store: Store, layout: Layout, tmp_path: Path
) -> None:
    folder = _good_store_with_a_copy(store, tmp_path)
    layout.store.unlink()
    os.mkfifo(layout.store, 0o600)
    _every_command_refuses(layout, "is a named pipe (FIFO), not a regular file", "store recover")
    assert stat.S_ISFIFO(os.lstat(layout.store).st_mode)
    proc = run_cli("store", "recover", timeout=TIMEOUT)
    assert "restored the last good copy (revision 1)" in proc.stdout
    assert [r.path for r in store.read().roots] == [folder]
    assert stat.S_ISFIFO(os.lstat(_kept_aside(layout)).st_mode)


def test_a_link_to_dev_zero_is_refused_unread_and_dev_zero_is_left_alone(
    layout: Layout,
) -> None:
    before = os.stat("/dev/zero")
    layout.store.symlink_to("/dev/zero")
    _every_command_refuses(layout, "(a symbolic link to /dev/zero) is a character device")
    proc = run_cli("store", "recover", check=False, timeout=TIMEOUT)
    assert proc.returncode == 3 and "--empty" in proc.stderr
    assert "started an empty store" in run_cli("store", "recover", "--empty").stdout
    # the link itself is what was put aside; what it pointed to was not touched
    assert os.readlink(_kept_aside(layout)) == "/dev/zero"
    after = os.stat("/dev/zero")
    assert stat.S_ISCHR(after.st_mode) and after.st_mode == before.st_mode
    assert stat.S_ISREG(os.lstat(layout.store).st_mode) and Store(layout).read().roots == []


def test_a_store_past_the_size_limit_is_refused_unread(layout: Layout) -> None:
    with layout.store.open("wb") as f:
        f.truncate(LIMIT + 1)  # sparse: no disk space, all the size
    _every_command_refuses(layout, "is larger than 64 MiB", "store recover")
    assert layout.store.stat().st_size == LIMIT + 1


# ---- a file nested too deeply --------------------------------------------------------------


def test_a_deeply_nested_store_is_damaged_and_recover_restores_the_copy(
    store: Store, layout: Layout, tmp_path: Path
) -> None:
    folder = _good_store_with_a_copy(store, tmp_path)
    layout.store.write_bytes(NESTED)
    _every_command_refuses(layout, "its JSON is nested too deeply to read", "store recover")
    assert layout.store.read_bytes() == NESTED
    proc = run_cli("store", "recover", timeout=TIMEOUT)
    assert "restored the last good copy (revision 1)" in proc.stdout
    assert [r.path for r in store.read().roots] == [folder]
    assert _kept_aside(layout).read_bytes() == NESTED


def test_a_deeply_nested_last_good_copy_counts_as_none(store: Store, layout: Layout) -> None:
    layout.store.write_bytes(b"garbage")
    layout.store_backup.write_bytes(NESTED)
    check = run_cli("store", "check", check=False, timeout=TIMEOUT)
    assert check.returncode == 3 and "last good copy: none" in check.stdout
    proc = run_cli("store", "recover", check=False, timeout=TIMEOUT)
    assert proc.returncode == 3 and "no good copy" in proc.stderr
    assert layout.store.read_bytes() == b"garbage"


def test_a_fifo_or_a_nested_file_among_the_live_markers_is_passed_over(layout: Layout) -> None:
    os.mkfifo(layout.live / "bridge-20250101T000000-fifo0000.json", 0o600)
    (layout.live / "bridge-20250101T000000-deep0000.json").write_bytes(NESTED)
    listed = run_cli("servers", "list", "--json", timeout=TIMEOUT)
    assert json.loads(listed.stdout) == []


# ---- symbolic links ------------------------------------------------------------------------


def test_a_linked_store_is_saved_through_the_link(layout: Layout, tmp_path: Path) -> None:
    elsewhere = tmp_path / "synced"
    elsewhere.mkdir()
    target = elsewhere / "roots-store.json"
    folder = tmp_path / "proj"
    folder.mkdir()
    run_cli("policy", "deny")
    os.replace(layout.store, target)
    layout.store.symlink_to(target)
    run_cli("roots", "add", str(folder))
    run_cli("grant", "--new", "fs", str(folder))
    assert layout.store.is_symlink() and os.readlink(layout.store) == str(target)
    saved = json.loads(target.read_bytes())
    assert saved["revision"] == 3 and saved["grants"][0]["server"] == "fs"
    assert json.loads(layout.store_backup.read_bytes())["revision"] == 2
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert [p.name for p in elsewhere.iterdir()] == [target.name]  # no temporary file left
    answer = json.loads(run_cli("effective", "fs", "--json").stdout)
    assert [r["uri"] for r in answer["roots"]] == [folder.as_uri()]


def test_a_dangling_link_is_an_error_never_an_empty_store(layout: Layout, tmp_path: Path) -> None:
    missing = tmp_path / "unmounted" / "store.json"
    layout.store.symlink_to(missing)
    _every_command_refuses(
        layout, f"is a symbolic link to {missing}, which does not exist", "store recover"
    )
    assert layout.store.is_symlink() and not missing.parent.exists()
    proc = run_cli("store", "recover", check=False, timeout=TIMEOUT)
    assert proc.returncode == 3 and "--empty" in proc.stderr
    assert layout.store.is_symlink()
    # asked for in so many words: the link is kept aside and an empty store starts
    assert "started an empty store" in run_cli("store", "recover", "--empty").stdout
    assert os.readlink(_kept_aside(layout)) == str(missing)
    assert not layout.store.is_symlink() and Store(layout).read().roots == []


def test_recover_through_a_link_keeps_the_link(
    store: Store, layout: Layout, tmp_path: Path
) -> None:
    folder = _good_store_with_a_copy(store, tmp_path)
    elsewhere = tmp_path / "synced"
    elsewhere.mkdir()
    target = elsewhere / "store.json"
    target.write_bytes(b"{ damaged")
    layout.store.unlink()
    layout.store.symlink_to(target)
    proc = run_cli("store", "recover", timeout=TIMEOUT)
    assert "restored the last good copy (revision 1)" in proc.stdout
    assert layout.store.is_symlink() and os.readlink(layout.store) == str(target)
    assert [r.path for r in store.read().roots] == [folder]
    assert _kept_aside(layout, elsewhere).read_bytes() == b"{ damaged"


# ---- a bridge in front of such a store -----------------------------------------------------


def _answers_empty_and_logs(p: Bridged, layout: Layout, words: str) -> None:
    p.handshake()
    assert p.ask(1) == []
    wait_for(
        lambda: any(words in e.get("message", "") for e in events(layout, ev.ERROR)),
        f"an error event saying {words!r}",
    )


def _ends_cleanly(p: Bridged) -> None:
    """The bridge, told to stop, runs its shutdown ladder and exits 0."""
    assert p.server.lines is not None
    p.server.lines.raw(lambda b: b == b"!!eof\n", "the server's stdin to close")
    p.server.exit(0)
    assert p.bridge.wait() == 0


def test_a_bridge_over_a_fifo_answers_stops_and_lets_the_store_go(
    store: Store, layout: Layout, tmp_path: Path
) -> None:
    folder = _good_store_with_a_copy(store, tmp_path)
    good = layout.store.read_bytes()
    layout.store.unlink()
    os.mkfifo(layout.store, 0o600)
    p = Bridged("fs")
    try:
        _answers_empty_and_logs(p, layout, "is a named pipe (FIFO)")
        # the FIFO replaced by the store: the bridge holds no lock and sees the grant
        layout.store.unlink()
        layout.store.write_bytes(good)
        p.server.expect(is_method("notifications/roots/list_changed"), "list_changed")
        assert p.ask(2) == [Path(folder).as_uri()]
        run_cli("policy", "ask", timeout=TIMEOUT)  # takes the lock
        p.bridge.close_stdin()
        _ends_cleanly(p)
    finally:
        p.close()


def test_a_bridge_over_a_deeply_nested_store_answers_and_logs(layout: Layout) -> None:
    layout.store.write_bytes(NESTED)
    p = Bridged("fs")
    try:
        _answers_empty_and_logs(p, layout, "nested too deeply")
        p.bridge.close_stdin()
        _ends_cleanly(p)
    finally:
        p.close()
    assert layout.store.read_bytes() == NESTED


def test_a_bridge_over_a_dangling_link_starts_no_empty_store(
    layout: Layout, tmp_path: Path
) -> None:
    missing = tmp_path / "unmounted" / "store.json"
    layout.store.symlink_to(missing)
    p = Bridged("fs")
    try:
        _answers_empty_and_logs(p, layout, "which does not exist")
        p.server.send({"jsonrpc": "2.0", "id": 3, "method": "ping"})
        p.bridge.expect(is_method("ping"), "traffic going on")
    finally:
        p.close()
    assert layout.store.is_symlink() and not missing.parent.exists()


def test_a_store_right_at_the_limit_is_read(layout: Layout) -> None:
    doc = json.dumps({"schema": 1, "servers": {}, "settings": {"policy": "deny"}})
    layout.store.write_bytes(doc.encode() + b" " * (LIMIT - len(doc)))
    assert run_cli("policy", timeout=TIMEOUT).stdout.strip() == "deny"
