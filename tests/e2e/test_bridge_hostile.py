"""The bridge between a scripted host and a puppet server: protocol edges and hostile traffic."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from roots_manager.core.store.file import Store
from tests.bridge.wire import (
    Bridged,
    BridgeProc,
    Puppet,
    bridge_argv,
    events,
    grant_folder,
    initialize,
    initialize_result,
    is_id,
    is_method,
    wait_for,
)


@pytest.fixture(autouse=True)
def _every_relay(both_relays: str) -> None:
    """Every test here runs with each relay: the traffic is the relay's hardest."""


@pytest.fixture
def pair() -> Iterator[Bridged]:
    p = Bridged()
    yield p
    p.close()


def test_initialize_gets_roots_capability_and_roots_list_is_answered(
    pair: Bridged, store: Store, tmp_path: Path, layout
) -> None:
    uri = grant_folder(store, tmp_path, "pup", "proj a")
    init = pair.handshake()
    assert init["params"]["capabilities"]["roots"] == {"listChanged": True}
    pair.server.send({"jsonrpc": "2.0", "id": 7, "method": "roots/list"})
    answer = pair.server.expect(is_id(7), "the roots/list answer")
    assert answer["result"] == {"roots": [{"uri": uri, "name": "proj a"}]}
    # the host never sees the server's roots/list
    pair.bridge.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
    pair.server.expect(is_method("ping"), "ping")
    pair.server.send({"jsonrpc": "2.0", "id": 2, "result": {}})
    pair.bridge.expect(is_id(2), "the ping result")
    assert not [
        m for m in pair.bridge.out.all() if isinstance(m, dict) and m.get("method") == "roots/list"
    ]
    hs = events(layout, ev.HANDSHAKE)
    assert hs[0]["injected"] == {"roots": {"listChanged": True}}
    assert events(layout, ev.ROOTS_ANSWERED)[0]["uris"] == [uri]


@pytest.mark.parametrize("declared", [{"listChanged": False}, {}])
def test_the_server_is_told_what_the_bridge_does_not_what_the_host_declared(
    pair: Bridged, layout: Layout, declared: dict[str, bool]
) -> None:
    # the bridge answers roots/list and sends list_changed whatever the host can do
    init = pair.handshake({"roots": declared, "sampling": {}})
    assert init["params"]["capabilities"] == {"roots": {"listChanged": True}, "sampling": {}}
    hs = events(layout, ev.HANDSHAKE)[0]
    assert hs["host_roots"] == declared and hs["injected"] == {"roots": {"listChanged": True}}


def test_early_initialized_waits_for_the_initialize_result(
    pair: Bridged, store: Store, tmp_path: Path, layout
) -> None:
    uri = grant_folder(store, tmp_path, "pup", "held")
    # a host that pipes the whole opening at once, without waiting for the result
    pair.bridge.send(
        json.dumps(initialize(1)).encode()
        + b'\n{"jsonrpc":"2.0","method":"notifications/initialized"}'
        + b'\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n'
    )
    pair.server.expect(is_method("initialize"), "initialize")
    # the server's own roots/list is answered meanwhile, and nothing the host sent after
    # initialize has gone ahead of that answer
    pair.server.send({"jsonrpc": "2.0", "id": "r1", "method": "roots/list"})
    answer = pair.server.expect(is_id("r1"), "the roots/list answer")
    assert [r["uri"] for r in answer["result"]["roots"]] == [uri]
    assert pair.server.lines is not None
    assert pair.server.lines.all() == [], "host messages overtook the initialize result"
    pair.server.send(initialize_result(1))
    pair.bridge.expect(is_id(1), "the initialize result")

    def methods() -> list[object]:
        assert pair.server.lines is not None
        return [m.get("method") for m in pair.server.lines.all() if isinstance(m, dict)]

    wait_for(
        lambda: methods() == ["notifications/initialized", "ping"],
        "initialized, then ping, after the result",
    )
    held = [e for e in events(layout, ev.HANDSHAKE) if e.get("held")]
    assert len(held) == 1 and held[0]["dir"] == ev.HOST_TO_SERVER


def test_roots_list_before_initialize_is_answered(
    pair: Bridged, store: Store, tmp_path: Path
) -> None:
    uri = grant_folder(store, tmp_path, "pup", "early")
    pair.server.send({"jsonrpc": "2.0", "id": "first", "method": "roots/list"})
    answer = pair.server.expect(is_id("first"), "the early roots/list answer")
    assert [r["uri"] for r in answer["result"]["roots"]] == [uri]
    pair.handshake()


def test_malformed_and_invalid_utf8_lines_are_relayed_untouched(pair: Bridged, layout) -> None:
    pair.handshake()
    junk = [
        b"not json at all",
        b'{"broken": ',
        b"\xff\xfe\x00 binary \x80",
        b"[1, 2,",
        b'{"roots": \xff}',
        b'{"text": "caf\xe9"}',  # shaped like JSON, but Latin-1
    ]
    for line in junk:
        pair.bridge.send(line)
        pair.server.send(line)
    for line in junk:
        assert pair.server.lines is not None
        pair.server.lines.raw(lambda b, line=line: b == line + b"\n", f"host line {line!r}")
        pair.bridge.out.raw(lambda b, line=line: b == line + b"\n", f"server line {line!r}")
    # traffic goes on afterwards
    pair.server.send({"jsonrpc": "2.0", "id": 9, "method": "roots/list"})
    pair.server.expect(is_id(9), "a roots/list answer after the junk")
    nonjson = events(layout, ev.NON_JSON)
    # each line noted once per direction, by size (its bytes are not copied into the log)
    assert all("line" not in e for e in nonjson)
    for direction in (ev.HOST_TO_SERVER, ev.SERVER_TO_HOST):
        noted = sorted((e["bytes"], e["reason"]) for e in nonjson if e["dir"] == direction)
        assert noted == sorted(
            (len(line), "UTF-8" if line.startswith(b"{") and line.endswith(b"}") else "JSON")
            for line in junk
        ), direction


def test_response_to_unknown_id_is_relayed_and_bridge_goes_on(pair: Bridged) -> None:
    pair.handshake()
    pair.server.send({"jsonrpc": "2.0", "id": 424242, "result": {"surprise": True}})
    pair.bridge.expect(is_id(424242), "the stray response")
    pair.bridge.send({"jsonrpc": "2.0", "id": "nobody-asked", "result": {"roots": []}})
    pair.server.expect(is_id("nobody-asked"), "the host's stray response")
    pair.server.send({"jsonrpc": "2.0", "id": 5, "method": "roots/list"})
    pair.server.expect(is_id(5), "roots/list still answered")


def test_other_server_requests_reach_the_host_untouched(pair: Bridged) -> None:
    pair.handshake()
    raw = b'{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"messages":[]}}'
    pair.server.send(raw)
    pair.bridge.out.raw(lambda b: b == raw + b"\n", "the sampling request, byte for byte")


def test_batch_with_roots_list_inside(pair: Bridged, store: Store, tmp_path: Path) -> None:
    uri = grant_folder(store, tmp_path, "pup", "batched")
    pair.handshake()
    pair.server.send(
        [
            {"jsonrpc": "2.0", "id": 11, "method": "roots/list"},
            {
                "jsonrpc": "2.0",
                "method": "notifications/message",
                "params": {"level": "info", "data": "x"},
            },
            {"jsonrpc": "2.0", "id": 12, "method": "roots/list"},
        ]
    )
    answers = pair.server.expect(lambda m: isinstance(m, list), "the batch of roots answers")
    assert [a["id"] for a in answers] == [11, 12]
    assert all(a["result"]["roots"][0]["uri"] == uri for a in answers)
    rest = pair.bridge.expect(lambda m: isinstance(m, list), "the rest of the batch")
    assert rest == [
        {
            "jsonrpc": "2.0",
            "method": "notifications/message",
            "params": {"level": "info", "data": "x"},
        }
    ]
    # a batch made only of roots/list requests leaves nothing for the host
    pair.server.send([{"jsonrpc": "2.0", "id": 13, "method": "roots/list"}])
    pair.server.expect(lambda m: isinstance(m, list) and m[0]["id"] == 13, "the lone batch answer")
    # a host batch goes to the server as it is
    raw = b'[{"jsonrpc":"2.0","id":40,"method":"ping"},{"jsonrpc":"2.0","id":41,"method":"ping"}]'
    pair.bridge.send(raw)
    assert pair.server.lines is not None
    pair.server.lines.raw(lambda b: b == raw + b"\n", "the host batch, byte for byte")


def test_server_exit_code_propagates() -> None:
    p = Bridged()
    try:
        p.handshake()
        p.server.send(
            {"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": "bye"}}
        )
        p.server.exit(7)
        assert p.bridge.wait() == 7
        p.bridge.expect(is_method("notifications/message"), "the last message before the exit")
    finally:
        p.close()


def test_command_that_cannot_start(layout, tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-server")
    proc = subprocess.run(
        bridge_argv("ghost", [missing, "--flag"]),
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ.copy(),
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 127
    assert "cannot start the server 'ghost'" in proc.stderr and missing in proc.stderr
    errors = events(layout, ev.ERROR)
    assert errors and missing in errors[0]["message"]
    assert events(layout, ev.RUN_END)[0]["exit_code"] == 127
    assert "ghost" not in Store(layout).read().servers


def test_usage_errors() -> None:
    proc = subprocess.run(
        bridge_argv("x", []),
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ.copy(),
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 2 and "command" in proc.stderr


@pytest.mark.parametrize(
    "name",
    # empty, a terminal escape, a text-direction override, then names that print like "fs"
    ["", "  ", "fs\x1b[2J", "fs\u202egnp.exe", "fs\u200b", "fs\u00ad", "fs ", " fs", "fs\ufeff"],
)
def test_unusable_server_names_are_refused_before_anything_is_recorded(
    name: str, layout: Layout
) -> None:
    proc = subprocess.run(
        bridge_argv(name, [sys.executable, "-c", "pass"]),
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ.copy(),
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 2 and "not a usable server name" in proc.stderr
    # the refusal names the name with its hidden characters written out
    assert repr(name) in proc.stderr
    assert Store(layout).read().servers == {}


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


HOST_SCRIPT = """
import subprocess, sys, json, time
argv = json.loads(sys.argv[1])
p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode() + b"\\n")
p.stdin.flush()
print(p.pid, flush=True)
time.sleep(600)
"""


def test_host_vanishing_stops_the_server_without_orphan(layout) -> None:
    import sys

    server = Puppet()
    host = subprocess.Popen(
        [sys.executable, "-c", HOST_SCRIPT, json.dumps(bridge_argv("pup", server.command()))],
        stdout=subprocess.PIPE,
        env=os.environ.copy(),
    )
    try:
        assert host.stdout is not None
        bridge_pid = int(host.stdout.readline())
        server.accept()
        server.expect(is_method("ping"), "the host's ping")
        host.kill()  # the host dies: the bridge's stdin ends and its stdout has no reader
        host.wait()
        assert server.lines is not None
        server.lines.raw(lambda b: b == b"!!eof\n", "the server's stdin to close")
        server.exit(0)
        wait_for(lambda: _gone(bridge_pid), "the bridge to exit")
        wait_for(lambda: _gone(server.pid), "the server process to be gone")  # type: ignore[arg-type]
        end = wait_for(lambda: events(layout, ev.RUN_END), "the session-end event")[0]
        assert end["reason"] == "host closed stdin" and end["stopped_by"] == "stdin closed"
    finally:
        host.kill()
        server.close()


def test_server_that_never_reads_stdin_gets_the_whole_ladder(layout) -> None:
    p = Bridged(server_opts=("--no-read",))
    try:
        # the host writes far more than the pipes hold; the server never reads
        assert p.bridge.proc.stdin is not None
        big = (
            b'{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"'
            + b"x" * 60000
            + b'"}}\n'
        )
        stop = False

        def flood() -> None:
            try:
                while not stop:
                    p.bridge.proc.stdin.write(big)  # type: ignore[union-attr]
            except (BrokenPipeError, ValueError, OSError):
                pass

        import threading

        t = threading.Thread(target=flood, daemon=True)
        t.start()
        # the other direction still flows while the host is blocked
        p.server.send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": 1}})
        p.bridge.expect(is_method("notifications/message"), "server traffic during the flood")
        rss = psutil.Process(p.bridge.proc.pid).memory_info().rss
        assert rss < 200 * 1024 * 1024, (
            f"the bridge holds {rss} bytes for a server that does not read"
        )
        p.bridge.proc.send_signal(signal.SIGTERM)
        stop = True
        code = p.bridge.wait()
        # the puppet ignores a closed stdin it never reads; SIGTERM ends it
        assert code == 128 + signal.SIGTERM
        assert _gone(p.server.pid)  # type: ignore[arg-type]
        end = events(layout, ev.RUN_END)[0]
        assert end["reason"] == "SIGTERM received" and end["stopped_by"] == "SIGTERM"
    finally:
        p.close()


@pytest.mark.parametrize(
    "sig",
    [
        signal.SIGTERM,
        signal.SIGINT,
        # looked up when the test runs: the module must still be collected where there is none
        pytest.param(
            getattr(signal, "SIGHUP", 0),
            marks=pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="Windows has no SIGHUP"),
        ),
    ],
)
def test_a_signal_to_the_bridge_reaches_the_server_at_once(sig: int, layout) -> None:
    # as npm or a shell passes it on: a host's short ladder leaves no time to close stdin first
    p = Bridged(server_opts=("--report-signals",))
    try:
        p.handshake()
        p.bridge.proc.send_signal(sig)
        assert p.server.lines is not None
        p.server.lines.raw(lambda b: b == f"!!signal {sig}\n".encode(), "the signal passed on")
        assert p.bridge.wait() == 0
        assert events(layout, ev.RUN_END)[0]["reason"] == f"{signal.Signals(sig).name} received"
        wait_for(lambda: _gone(p.server.pid), "the server to be gone")  # type: ignore[arg-type]
    finally:
        p.close()


def test_live_marker_exists_while_running_and_goes_at_exit(pair: Bridged, layout) -> None:
    from roots_manager.core.runs import live

    pair.handshake()
    markers = wait_for(lambda: live.bridge_markers(layout), "the live marker")
    assert markers[0].server == "pup" and markers[0].server_pid == pair.server.pid
    pair.server.send({"jsonrpc": "2.0", "id": 1, "method": "roots/list"})
    pair.server.expect(is_id(1), "answer")
    wait_for(lambda: live.bridge_markers(layout)[0].last_roots_list_at, "last_roots_list_at")
    wait_for(lambda: live.bridge_markers(layout)[0].protocol == "2025-11-25", "the protocol")
    pair.bridge.close_stdin()
    pair.bridge.wait()
    assert live.bridge_markers(layout, include_dead=True) == []


def test_64_mib_lines_both_ways() -> None:
    p = Bridged()
    try:
        p.handshake()
        size = 64 * 1024 * 1024
        payload = os.urandom(size // 2).hex()
        host_line = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 99,
                "method": "tools/call",
                "params": {"name": "x", "arguments": {"blob": payload}},
            }
        ).encode()
        server_line = json.dumps({"jsonrpc": "2.0", "id": 99, "result": {"blob": payload}}).encode()
        assert p.server.lines is not None
        import threading

        writer = threading.Thread(target=p.bridge.send, args=(host_line,))
        writer.start()
        got = p.server.lines.raw(lambda b: len(b) > 1000, "the 64 MiB request", timeout=120)
        writer.join()
        assert got == host_line + b"\n"
        del got
        p.server.send(server_line)
        back = p.bridge.out.raw(lambda b: len(b) > 1000, "the 64 MiB response", timeout=120)
        assert back == server_line + b"\n"
        peak = psutil.Process(p.bridge.proc.pid).memory_info()
        # relayed by streaming: the bridge never needed the whole line
        assert getattr(peak, "rss", 0) < 4 * size
    finally:
        p.close()


def test_observe_mode_touches_nothing_and_logs_roots(layout) -> None:
    p = Bridged("obs", "--observe")
    try:
        init = p.handshake()
        assert "roots" not in init["params"]["capabilities"]
        raw = b'{"jsonrpc":"2.0","id":5,"method":"roots/list"}'
        p.server.send(raw)
        p.bridge.out.raw(lambda b: b == raw + b"\n", "the relayed roots/list")
        p.bridge.send({"jsonrpc": "2.0", "id": 5, "result": {"roots": [{"uri": "file:///h"}]}})
        p.server.expect(is_id(5), "the host's answer")
        p.bridge.send({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"})
        p.server.expect(is_method("notifications/roots/list_changed"), "the host's list_changed")
        wait_for(lambda: events(layout, ev.LIST_CHANGED_RELAYED), "the list_changed event")
        assert events(layout, ev.ROOTS_ASKED)[0]["id"] == 5
        assert events(layout, ev.ROOTS_RELAYED)[0]["id"] == 5
        assert events(layout, ev.ROOTS_ANSWERED)[0]["uris"] == ["file:///h"]
        assert events(layout, ev.RUN_START)[0]["mode"] == "observe"
    finally:
        p.close()


def test_log_all_records_every_message(layout) -> None:
    p = Bridged("all", "--log-all")
    try:
        p.handshake()
        p.bridge.send({"jsonrpc": "2.0", "id": 3, "method": "tools/list"})
        p.server.expect(is_method("tools/list"), "tools/list")
        methods = [e.get("method") for e in events(layout, ev.MESSAGE)]
        assert "tools/list" in methods and "initialize" in methods
    finally:
        p.close()


def test_server_ignoring_sigterm_gets_sigkill(layout) -> None:
    p = Bridged(server_opts=("--ignore-term",))
    try:
        p.handshake()
        p.bridge.close_stdin()
        code = p.bridge.wait()
        assert code == 128 + signal.SIGKILL
        assert _gone(p.server.pid)  # type: ignore[arg-type]
        assert events(layout, ev.RUN_END)[0]["stopped_by"] == "SIGKILL"
    finally:
        p.close()


def test_server_closing_stdout_but_living_on_ends_the_bridge_run(layout) -> None:
    p = Bridged()
    try:
        p.handshake()
        p.server.send(b"!!close-stdout")
        # nothing can come back from it any more: after a grace period the ladder starts
        assert p.server.lines is not None
        p.server.lines.raw(lambda b: b == b"!!eof\n", "the server's stdin to close")
        p.server.exit(5)
        assert p.bridge.wait() == 5
        p.bridge.out.wait_closed()
        wait_for(lambda: _gone(p.server.pid), "the server to be gone")  # type: ignore[arg-type]
        end = events(layout, ev.RUN_END)[0]
        assert end["reason"] == "the server closed its stdout"
        assert end["stopped_by"] == "stdin closed"
    finally:
        p.close()


def test_host_that_stops_reading_ends_the_bridge_run_without_sigpipe(layout) -> None:
    server = Puppet()
    read_end, write_end = os.pipe()
    bridge = subprocess.Popen(
        bridge_argv("pup", server.command()),
        stdin=subprocess.PIPE,
        stdout=write_end,
        stderr=subprocess.DEVNULL,
        env=os.environ.copy(),
    )
    os.close(write_end)
    try:
        server.accept()
        os.close(read_end)  # the host closes its end of the bridge's stdout
        # the bridge's next write to the host fails with EPIPE, not a fatal SIGPIPE
        server.send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"x": 1}})
        assert server.lines is not None
        server.lines.raw(lambda b: b == b"!!eof\n", "the server's stdin to close")
        server.exit(0)
        assert bridge.wait(60) == 0
        end = events(layout, ev.RUN_END)[0]
        assert end["reason"] == "host stopped reading" and end["stopped_by"] == "stdin closed"
        wait_for(lambda: _gone(server.pid), "the server to be gone")  # type: ignore[arg-type]
    finally:
        if bridge.poll() is None:
            bridge.kill()
            bridge.wait()
        server.close()


def test_an_unusable_directory_is_a_clear_error_and_leaves_no_server(
    rm_home: Path, tmp_path: Path
) -> None:
    rm_home.mkdir(parents=True)
    (rm_home / "logs").write_text("a file where the log directory should be")
    server = Puppet()
    bridge = BridgeProc(bridge_argv("pup", server.command()))
    try:
        assert bridge.wait() == 1
        wait_for(
            lambda: "the Roots Manager directory cannot be used" in bridge.stderr,
            "the error on stderr",
        )
        gone = [
            p
            for p in psutil.process_iter(["cmdline"])
            if str(server.port) in (p.info["cmdline"] or []) and not _gone(p.pid)
        ]
        assert gone == [], "the server outlived the bridge"
    finally:
        bridge.kill()
        server.close()


def test_a_store_that_cannot_be_written_still_gives_answers(
    store: Store, tmp_path: Path, layout
) -> None:
    uri = grant_folder(store, tmp_path, "pup", "readable")
    # every transaction now fails: the start cannot be recorded
    layout.store_lock.unlink(missing_ok=True)
    layout.store_lock.mkdir()
    p = Bridged()
    try:
        p.handshake()
        p.server.send({"jsonrpc": "2.0", "id": 1, "method": "roots/list"})
        answer = p.server.expect(is_id(1), "the answer from the store as it reads")
        assert [r["uri"] for r in answer["result"]["roots"]] == [uri]
        errors = wait_for(lambda: events(layout, ev.ERROR), "the error event")
        assert "not recorded" in errors[0]["message"]
    finally:
        p.close()


def test_a_store_damaged_while_running_keeps_the_last_answer_until_recovered(
    store: Store, tmp_path: Path, layout
) -> None:
    uri = grant_folder(store, tmp_path, "pup", "kept")
    p = Bridged()
    try:
        p.handshake()
        p.server.send({"jsonrpc": "2.0", "id": 1, "method": "roots/list"})
        assert p.server.expect(is_id(1), "the first answer")["result"]["roots"][0]["uri"] == uri
        good = store.path.read_bytes()
        store.path.write_text("{ damaged")
        p.server.send({"jsonrpc": "2.0", "id": 2, "method": "roots/list"})
        assert p.server.expect(is_id(2), "an answer")["result"]["roots"][0]["uri"] == uri
        wait_for(
            lambda: any("not valid JSON" in e["message"] for e in events(layout, ev.ERROR)),
            "the damage to be logged",
        )
        # repaired with the grant gone: the change reaches the server
        store.path.write_bytes(good)
        with store.transaction() as s:
            s.revoke("pup", [s.find_root(uri).id])
        p.server.expect(is_method("notifications/roots/list_changed"), "list_changed")
        p.server.send({"jsonrpc": "2.0", "id": 3, "method": "roots/list"})
        assert p.server.expect(is_id(3), "the new answer")["result"] == {"roots": []}
    finally:
        p.close()
