"""Revocation that revokes: a confined server restarted behind the host's back, on the real kernel.

The host is the Python SDK's client, which initializes once; the bridge restarts the server when
its grants change and replays the handshake, so the host's protocol state goes on, under new rules.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from tests.bridge.wire import (
    BridgeProc,
    bridge_argv,
    events,
    initialize,
    is_id,
    is_method,
    wait_for,
)
from tests.conftest import only_on_linux, run_cli
from tests.fakes import FAKES
from tests.fakes.sdk_host import bridged, text

HERE = Path(__file__).parent
FILE_TOOL = FAKES / "file_tool_server.py"


def folders(tmp_path: Path, *names: str) -> dict[str, Path]:
    out = {}
    for name in names:
        path = out[name] = tmp_path / "work" / name
        path.mkdir(parents=True)
        (path / "hello.txt").write_text(f"in {name}\n", encoding="utf-8")
        run_cli("roots", "add", str(path))
    return out


def both_granted(tmp_path: Path, *setting: str) -> dict[str, Path]:
    """Folders "kept" and "taken", both granted to srv, and srv's *setting* (a servers command)."""
    w = folders(tmp_path, "kept", "taken")
    for path in w.values():
        run_cli("grant", "--new", "srv", str(path))
    if setting:
        run_cli("servers", *setting)
    return w


def params(command: list[str], *options: str) -> StdioServerParameters:
    return bridged(command, *options)


def restarted(layout: Layout, count: int) -> list[dict[str, Any]]:
    """Wait for the bridge's *count*-th restart; all of them so far."""
    return wait_for(
        lambda: (r := events(layout, ev.SERVER_RESTARTED)) and len(r) >= count and r,
        f"restart {count}",
    )


@only_on_linux("confinement (Landlock) is Linux only")
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_a_revoked_folder_is_closed_to_the_running_confined_server(
    tmp_path: Path, layout: Layout, mode: str
) -> None:
    w = both_granted(tmp_path, "confine", "srv", "on")
    command = [sys.executable, str(FILE_TOOL)]

    async def scenario() -> None:
        async with Client(params(command), mode=mode) as client:  # type: ignore[arg-type]
            for name in ("kept", "taken"):
                got = await text(client, "read_file", path=str(w[name] / "hello.txt"))
                assert got == f"in {name}\n"
            run_cli("revoke", "srv", str(w["taken"]))
            first = await anyio.to_thread.run_sync(restarted, layout, 1)
            # the host's protocol state goes on: no second initialize, and every tool still there
            tools = await client.list_tools()
            assert {t.name for t in tools.tools} >= {"read_file", "write_file"}
            got = await text(client, "read_file", path=str(w["taken"] / "hello.txt"))
            assert got == "EACCES"
            got = await text(client, "read_file", path=str(w["kept"] / "hello.txt"))
            assert got == "in kept\n"
            assert await text(client, "write_file", path=str(w["kept"] / "a"), text="1") == "ok"
            # a grant takes effect the same way
            run_cli("grant", "srv", str(w["taken"]))
            await anyio.to_thread.run_sync(restarted, layout, 2)
            got = await text(client, "read_file", path=str(w["taken"] / "hello.txt"))
            assert got == "in taken\n"
            assert first[0]["reason"] == f"revoked: {w['taken']}"
            # the bridge's live marker follows a moment later
            shown = await anyio.to_thread.run_sync(
                wait_for,
                lambda: (
                    "restarted 2 times" in (out := run_cli("servers", "show", "srv").stdout) and out
                ),
                "the marker to count two restarts",
            )
            assert "running confined" not in shown and "(confined; may be restarted" in shown
            running = json.loads(run_cli("servers", "show", "srv", "--json").stdout)["running"]
            assert [(r["confined"], r["restarts"]) for r in running] == [(True, 2)]

    anyio.run(scenario)
    done = events(layout, ev.SERVER_RESTARTED)
    assert [e["reason"] for e in done] == [f"revoked: {w['taken']}", "its grants changed"]
    # a 2025 host's handshake is replayed; a 2026-07-28 host made none
    replayed = ["initialize", "notifications/initialized"]
    for e in done:
        assert e["old_pid"] != e["new_pid"]
        assert e["replayed"] == (replayed if mode == "legacy" else [])
        assert e["cut"] == 0 and e["attempts"] == 1
    assert len(events(layout, ev.RUN_START)) == 1


@only_on_linux("confinement (Landlock) is Linux only")
def test_a_folder_revoked_while_the_server_restarts_is_closed_by_one_more_restart(
    tmp_path: Path, layout: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A revocation that comes once the restarted server's rules are made, before it answers the
    replayed handshake, is not let by: the restart under way cannot take it, the next one does."""
    w = folders(tmp_path, "kept", "taken", "late")
    for path in w.values():
        run_cli("grant", "--new", "srv", str(path))
    run_cli("servers", "confine", "srv", "on")
    gate = w["kept"] / "gate"
    gate.touch()
    monkeypatch.setenv("FILE_TOOL_GATE", str(gate))
    late = str(w["late"] / "hello.txt")

    def starts() -> set[Path]:
        return set(w["kept"].glob("gate.started-*"))

    async def scenario() -> None:
        async with Client(params([sys.executable, str(FILE_TOOL)]), mode="legacy") as client:
            assert await text(client, "read_file", path=late) == "in late\n"
            before = starts()
            gate.unlink()  # the next server waits, once it has begun, with its rules made
            run_cli("revoke", "srv", str(w["taken"]))
            await anyio.to_thread.run_sync(
                wait_for, lambda: starts() - before, "the restarted server's start"
            )
            run_cli("revoke", "srv", str(w["late"]))
            gate.touch()
            await anyio.to_thread.run_sync(restarted, layout, 2)
            assert await text(client, "read_file", path=late) == "EACCES"
            assert await text(client, "read_file", path=str(w["kept"] / "hello.txt")) == "in kept\n"

    anyio.run(scenario)
    done = events(layout, ev.SERVER_RESTARTED)
    assert [e["reason"] for e in done] == [f"revoked: {w['taken']}", f"revoked: {w['late']}"]


RECORDING = FAKES / "recording_server.py"


def recorded(path: Path) -> list[tuple[int, dict[str, Any]]]:
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return [(r["pid"], r["msg"]) for r in map(json.loads, lines)]


def tool_call(msg_id: int, name: str, **arguments: Any) -> dict[str, Any]:
    params = {"name": name, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": msg_id, "method": "tools/call", "params": params}


def request(msg_id: int, method: str, **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}


def recording_command(tmp_path: Path) -> tuple[list[str], Path, Path]:
    """The recording server's command line, its record file and its version file."""
    record, version = tmp_path / "record.jsonl", tmp_path / "version"
    version.write_text("1", encoding="utf-8")
    return [sys.executable, str(RECORDING), str(record), str(version)], record, version


def recording_bridge(tmp_path: Path, **env: str) -> tuple[BridgeProc, Path, Path]:
    command, record, version = recording_command(tmp_path)
    os.environ.update(env)
    try:
        return BridgeProc(bridge_argv("srv", command)), record, version
    finally:
        for k in env:
            del os.environ[k]


def handshake(bridge: BridgeProc, record: Path) -> dict[str, Any]:
    """Initialize through *bridge* as a 2025 host, until the server has had its roots answer;
    the initialize result."""
    bridge.send(initialize(1))
    first = bridge.expect(is_id(1), "the initialize result")
    bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    wait_for(lambda: any(m.get("id") == "r1" for _, m in recorded(record)), "roots answer")
    return first


@pytest.mark.usefixtures("advisory_new_servers")
def test_the_restarted_server_is_told_what_the_host_told_the_old_one(
    tmp_path: Path, layout: Layout
) -> None:
    """An unconfined server with restart on revoke: replay, open requests, held requests."""
    w = both_granted(tmp_path, "restart-on-revoke", "srv", "on")
    bridge, record, version = recording_bridge(tmp_path)
    try:
        first = handshake(bridge, record)
        assert first["result"]["serverInfo"]["version"] == "1"
        bridge.send(request(2, "logging/setLevel", level="debug"))
        bridge.send(request(3, "resources/subscribe", uri="file:///x"))
        bridge.send(request(4, "resources/subscribe", uri="file:///y"))
        bridge.send(request(5, "resources/unsubscribe", uri="file:///y"))
        for i in (2, 3, 4, 5):
            bridge.expect(is_id(i), f"the answer to {i}")
        bridge.send(tool_call(6, "slow", seconds=1))  # finishes within the drain
        bridge.send(tool_call(7, "slow", seconds=60))  # cut short
        wait_for(lambda: len(recorded(record)) >= 9, "both calls at the server")
        version.write_text("2", encoding="utf-8")
        run_cli("revoke", "srv", str(w["taken"]))
        wait_for(lambda: events(layout, ev.SERVER_RESTARTING), "the restart to begin")
        bridge.send(tool_call(8, "pid"))  # held, then answered by the new server
        assert bridge.expect(is_id(6), "the drained call")["result"]["content"][0]["text"] == (
            "slept 1.0"
        )
        cut = bridge.expect(is_id(7), "the cut call")["error"]
        assert cut["code"] == -32000 and "restarted for a consent change" in cut["message"]
        new_pid = int(bridge.expect(is_id(8), "the held call")["result"]["content"][0]["text"])
        for kind in ("tools", "resources"):
            bridge.expect(is_method(f"notifications/{kind}/list_changed"), f"{kind} changed")
        restart = restarted(layout, 1)[0]
        assert restart["new_pid"] == new_pid != restart["old_pid"]
        assert restart["reason"] == f"revoked: {_uri(w['taken'])}"
        assert restart["cut"] == 1 and restart["released"] == 1
        assert restart["notices"] == [
            "notifications/tools/list_changed",
            "notifications/resources/list_changed",
        ]
        bridge.close_stdin()
        assert bridge.wait() == 0
    finally:
        bridge.kill()
    got = recorded(record)
    old_pid = restart["old_pid"]
    old = [m for pid, m in got if pid == old_pid]
    new = [m for pid, m in got if pid == new_pid]
    # exactly the host's handshake, replayed before the held call: the initialize as the bridge
    # forwarded it (with the roots capability), initialized, the level, the open subscription
    assert [m.get("method") for m in new if "method" in m] == [
        "initialize",
        "notifications/initialized",
        "logging/setLevel",
        "resources/subscribe",
        "tools/call",
    ]
    assert new[0]["params"] == old[0]["params"]
    assert new[0]["params"]["capabilities"]["roots"] == {"listChanged": True}
    assert next(m for m in new if m.get("method") == "resources/subscribe")["params"] == {
        "uri": "file:///x"
    }
    assert next(m for m in new if m.get("method") == "logging/setLevel")["params"] == {
        "level": "debug"
    }
    roots = [m["result"]["roots"] for m in new if m.get("id") == "r1"]
    assert roots == [[{"uri": _uri(w["kept"]), "name": "kept"}]]
    # the host never saw the replayed initialize's answer, nor a second first answer
    assert not [m for m in bridge.out.all() if isinstance(m, dict) and m.get("id") == 1]
    assert len(events(layout, ev.RUN_START)) == 1


def _uri(path: Path) -> str:
    from roots_manager.core.roots.uri import path_to_uri

    return path_to_uri(str(path))


@pytest.mark.usefixtures("advisory_new_servers")
def test_a_server_that_crashes_during_the_replay_is_not_restarted_for_ever(
    tmp_path: Path, layout: Layout
) -> None:
    w = both_granted(tmp_path, "restart-on-revoke", "srv", "on")
    crash = tmp_path / "crash"
    bridge, record, _ = recording_bridge(tmp_path, CRASH_FILE=str(crash))
    try:
        handshake(bridge, record)
        crash.touch()
        run_cli("revoke", "srv", str(w["taken"]))
        bridge.out.wait_closed()
        assert bridge.wait() == 3  # the last server's own exit code
        said = wait_for(lambda: "the bridge ends" in bridge.stderr and bridge.stderr, "why")
        assert (
            f"roots-bridge: srv: the server was not restarted (revoked: {_uri(w['taken'])}): "
            "the restarted server exited with code 3 during the replay, 3 times; the bridge ends"
        ) in said, said
    finally:
        bridge.kill()
    failed = events(layout, ev.RESTART_FAILED)
    assert len(failed) == 1 and failed[0]["attempts"] == 3
    assert "during the replay, 3 times" in failed[0]["message"]
    pids = {pid for pid, m in recorded(record) if m.get("method") == "initialize"}
    assert len(pids) == 4  # the first server and three attempts, no more
    assert "not restarted" in events(layout, ev.RUN_END)[-1]["reason"]


@pytest.mark.usefixtures("advisory_new_servers")
def test_a_server_that_cannot_be_started_for_a_moment_is_started_again(
    tmp_path: Path, layout: Layout
) -> None:
    """A start that fails during a restart (the program being replaced, as a package manager
    does) is tried again, not the run's end."""
    w = both_granted(tmp_path, "restart-on-revoke", "srv", "on")
    command, record, _ = recording_command(tmp_path)
    program = tmp_path / "server"
    program.write_text(f"#!/bin/sh\nexec {shlex.join(command)}\n", encoding="utf-8")
    program.chmod(0o755)
    aside = tmp_path / "server.new"
    bridge = BridgeProc(bridge_argv("srv", [str(program)]))
    try:
        handshake(bridge, record)
        program.rename(aside)
        run_cli("revoke", "srv", str(w["taken"]))
        failed = wait_for(
            lambda: [e for e in events(layout, ev.MESSAGE) if "trying again" in e["message"]],
            "a start that failed, to be tried again",
        )
        aside.rename(program)
        restart = restarted(layout, 1)[0]
        bridge.send(tool_call(2, "pid"))
        answer = bridge.expect(is_id(2), "the new server's answer")
        assert int(answer["result"]["content"][0]["text"]) == restart["new_pid"]
    finally:
        bridge.kill()
    assert "No such file or directory" in failed[0]["message"]
    assert failed[0]["attempts"] == 1 and restart["attempts"] in (2, 3)
    assert not events(layout, ev.RESTART_FAILED)


@pytest.mark.usefixtures("advisory_new_servers")
def test_a_server_slower_to_stop_than_its_successor_to_start_does_not_end_the_run(
    tmp_path: Path, layout: Layout
) -> None:
    """The old server's exit, seen once the new one has answered the replay, is not the run's
    end: the new server goes on answering the host."""
    w = both_granted(tmp_path, "restart-on-revoke", "srv", "on")
    bridge, record, _ = recording_bridge(tmp_path, LINGER_SECONDS="1.5")
    try:
        handshake(bridge, record)
        run_cli("revoke", "srv", str(w["taken"]))
        restart = restarted(layout, 1)[0]
        bridge.send(tool_call(2, "pid"))
        answer = bridge.expect(is_id(2), "the new server's answer")
        assert int(answer["result"]["content"][0]["text"]) == restart["new_pid"]
        assert not events(layout, ev.RUN_END)
    finally:
        bridge.kill()
    # the old server was still there when the new one answered: its end came last
    replayed = [pid for pid, m in recorded(record) if m.get("method") == "initialize"]
    assert replayed == [restart["old_pid"], restart["new_pid"]]


@pytest.mark.parametrize("restart", ["on", "off"])
def test_the_reference_filesystem_server_forgets_a_revoked_folder_only_when_restarted(
    filesystem_server: list[str], tmp_path: Path, layout: Layout, restart: str
) -> None:
    """The npm filesystem server keeps its folders when handed an empty list; a restart is the
    fix for such a server, confined or not."""
    w = folders(tmp_path, "allowed", "taken")
    run_cli("grant", "--new", "srv", str(w["taken"]))
    run_cli("servers", "restart-on-revoke", "srv", restart)
    # its own command line allows "allowed"; the roots replace that with "taken"
    command = [*filesystem_server, str(w["allowed"])]
    target = str(w["taken"] / "hello.txt")

    async def scenario() -> str:
        async with Client(params(command), mode="legacy") as client:
            # the server applies its roots a moment after it has them
            for _ in range(200):
                if await text(client, "read_text_file", path=target) == "in taken\n":
                    break
                await anyio.sleep(0.05)
            else:
                raise AssertionError("the server never took its roots")
            run_cli("revoke", "srv", str(w["taken"]))
            if restart == "on":
                await anyio.to_thread.run_sync(restarted, layout, 1)
            else:
                await anyio.to_thread.run_sync(
                    wait_for,
                    lambda: events(layout, ev.ROOTS_ANSWERED)[1:],
                    "the server's second roots/list",
                )
            return await text(client, "read_text_file", path=target)

    after = anyio.run(scenario)
    if restart == "on":
        assert "Access denied" in after, after
        assert not events(layout, ev.LIST_CHANGED_SENT)
    else:
        # the server was told, asked again, got no folder, and kept the revoked one
        assert events(layout, ev.ROOTS_ANSWERED)[-1]["uris"] == []
        assert after == "in taken\n"
        assert not events(layout, ev.SERVER_RESTARTED)


@only_on_linux("confinement (Landlock) is Linux only")
def test_the_filesystem_server_given_the_whole_disk_loses_a_revoked_folder_at_once(
    filesystem_server: list[str], tmp_path: Path, layout: Layout
) -> None:
    """Observed, not answered: the server believes it may read all of ``/``; only the kernel
    stops it, and the restart is what narrows the kernel's rules."""
    w = both_granted(tmp_path)
    command = [*filesystem_server, "/"]
    target = str(w["taken"] / "hello.txt")

    async def scenario() -> None:
        async with Client(params(command, "--observe", "--confine"), mode="legacy") as client:
            assert await text(client, "read_text_file", path=target) == "in taken\n"
            run_cli("revoke", "srv", str(w["taken"]))
            await anyio.to_thread.run_sync(restarted, layout, 1)
            assert "EACCES" in await text(client, "read_text_file", path=target)
            tools = await client.list_tools()
            assert "read_text_file" in {t.name for t in tools.tools}
            got = await text(client, "read_text_file", path=str(w["kept"] / "hello.txt"))
            assert got == "in kept\n"
            run_cli("grant", "srv", str(w["taken"]))
            await anyio.to_thread.run_sync(restarted, layout, 2)
            assert await text(client, "read_text_file", path=target) == "in taken\n"

    anyio.run(scenario)
    done = events(layout, ev.SERVER_RESTARTED)
    assert [e["replayed"] for e in done] == [["initialize", "notifications/initialized"]] * 2
    assert len(events(layout, ev.RUN_START)) == 1
