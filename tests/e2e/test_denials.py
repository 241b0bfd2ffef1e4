"""Refusals of a confined server, seen: each one a denial event tied to the host's request.

Real servers behind a real bridge on the real kernel: the reference filesystem server, given
``/`` on its command line behind an observing bridge under a host without roots (so it tries to
read whatever it is asked; only Landlock refuses), and Python SDK servers. The host is the
Python SDK's client, which initializes once: a grant made from the CLI restarts the confined
server behind it, and the same call then works in the same host session.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from tests.bridge.wire import bridge_argv, events, wait_for
from tests.conftest import only_on_linux, run_cli
from tests.fakes import FAKES
from tests.fakes.sdk_host import bridged, text

HERE = Path(__file__).parent
NPMRC = FAKES / "npmrc_server.py"
FILE_TOOL = FAKES / "file_tool_server.py"

pytestmark = only_on_linux("confinement (Landlock) and its observer are Linux only")


def params(command: list[str], home: Path, *options: str) -> StdioServerParameters:
    return bridged(command, *options, home=home)


def denials(layout: Layout, **match: Any) -> list[dict[str, Any]]:
    return [e for e in events(layout, ev.DENIAL) if all(e.get(k) == v for k, v in match.items())]


def test_a_refused_read_names_the_path_the_call_and_its_id_and_a_grant_makes_it_work(
    filesystem_server: list[str], tmp_path: Path, layout: Layout
) -> None:
    granted, outside = tmp_path / "work" / "granted", tmp_path / "work" / "outside"
    for folder in (granted, outside):
        folder.mkdir(parents=True)
        (folder / "notes.txt").write_text(f"in {folder.name}\n", encoding="utf-8")
        run_cli("roots", "add", str(folder))
    run_cli("grant", "--new", "srv", str(granted))
    target = str(outside / "notes.txt")
    command = [*filesystem_server, "/"]

    async def scenario() -> None:
        async with Client(params(command, tmp_path, "--observe", "--confine"), mode="legacy") as c:
            assert await text(c, "read_file", path=str(granted / "notes.txt")) == "in granted\n"
            assert "EACCES" in await text(c, "read_file", path=target)
            found = await anyio.to_thread.run_sync(
                wait_for, lambda: denials(layout, path=target), "the denial event"
            )
            denial = found[0]
            assert denial["operation"] == "read"
            assert denial["during"] == "request"
            [request] = denial["requests"]
            assert request["method"] == "tools/call" and request["tool"] == "read_file"
            assert request["argument"] == "path"
            assert isinstance(request["id"], int)
            assert denial["pid"] > 0 and denial["process"]
            # the CLI says it in one line, and in JSON
            shown = run_cli("denials", "--server", "srv").stdout.splitlines()
            at, line = next((i, x) for i, x in enumerate(shown) if target in x)
            assert "read" in line and f"while tools/call read_file (id {request['id']}" in line
            # beneath it, the command that allows it, as the host's log gives it
            allow = f"roots-manager servers confine srv --allow-read {outside}"
            assert shown[at + 1] == f"    allow with: {allow}", shown
            listed = json.loads(run_cli("denials", "--json").stdout)
            [found] = [d for d in listed["denials"] if d["path"] == target]
            assert found["allow_command"] == allow
            # granting the folder restarts the confined server; the same call then works
            run_cli("grant", "srv", str(outside))
            await anyio.to_thread.run_sync(
                wait_for, lambda: events(layout, ev.SERVER_RESTARTED), "the restart"
            )
            assert await text(c, "read_file", path=target) == "in outside\n"

    anyio.run(scenario)
    assert len(events(layout, ev.RUN_START)) == 1
    assert len(denials(layout, path=target)) == 1


def test_a_server_refused_its_npmrc_as_it_starts_is_refused_at_start_up(
    tmp_path: Path, layout: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "granted").mkdir()
    run_cli("roots", "add", str(tmp_path / "granted"))
    (home / ".npmrc").write_text("fund=false\n", encoding="utf-8")
    run_cli("grant", "--new", "srv", str(tmp_path / "granted"))
    run_cli("servers", "confine", "srv", "on")

    async def scenario() -> None:
        async with Client(params([sys.executable, str(NPMRC)], home)) as client:
            assert await text(client, "config") == "unreadable: Permission denied"

    anyio.run(scenario)
    npmrc = str(home / ".npmrc")
    found = wait_for(lambda: denials(layout, path=npmrc), "the denial at start-up")
    assert found[0]["during"] == "start-up", json.dumps(found)
    assert found[0]["operation"] == "read"
    assert "requests" not in found[0]
    monkeypatch.setenv("HOME", str(home))  # the user's, as the server's was
    shown = run_cli("denials").stdout.splitlines()
    at = next(i for i, x in enumerate(shown) if npmrc in x and "at start-up" in x)
    # the folder holding it is the home folder: the file alone is offered, read-only
    assert (
        shown[at + 1] == f"    allow with: roots-manager servers confine srv --allow-read {npmrc}"
    )


def test_a_walk_of_twenty_thousand_refused_files_makes_few_events(
    tmp_path: Path, layout: Layout
) -> None:
    granted, refused = tmp_path / "granted", tmp_path / "refused"
    granted.mkdir()
    for part in range(4):
        folder = refused / f"part{part}"
        folder.mkdir(parents=True)
        for i in range(5000):
            (folder / f"f{i}").write_bytes(b"")
    run_cli("roots", "add", str(granted))
    run_cli("grant", "--new", "srv", str(granted))
    run_cli("servers", "confine", "srv", "on")

    async def scenario() -> None:
        async with Client(params([sys.executable, str(FILE_TOOL)], tmp_path)) as client:
            got = await text(client, "read_many", folder=str(refused), parts=4, count=5000)
            assert got == "refused 20000 of 20000"

    anyio.run(scenario)

    # every refusal is counted: told (1 and those folded before it) or folded at the end
    def walked() -> list[dict[str, Any]]:
        return [e for e in denials(layout) if e["folder"].startswith(f"{refused}/")]

    found = wait_for(lambda: (d := walked()) and counted(d) >= 20000 and d, "the counts")
    assert counted(found) == 20000
    assert {e["operation"] for e in found} == {"read"}
    # four folders: a line per folder and second of the walk, and their counts at the end
    assert len(found) < 200, len(found)


def counted(found: list[dict[str, Any]]) -> int:
    return sum((1 if e.get("path") else 0) + e.get("folded", 0) for e in found)


def test_a_bad_since_is_a_clear_error_with_a_stable_code(layout: Layout) -> None:
    proc = run_cli("denials", "--since", "ten minutes", "--json", check=False)
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["code"] == "bad-duration"
    proc = run_cli("denials", "--since", "ten minutes", check=False)
    assert proc.returncode == 1 and "30s, 10m, 2h or 1d" in proc.stderr
    assert json.loads(run_cli("denials", "--since", "10m", "--json").stdout)["denials"] == []


def test_follow_prints_the_denials_written_later_and_only_them(layout: Layout) -> None:
    import subprocess

    proc = subprocess.Popen(
        [sys.executable, "-m", "roots_manager.cli", "denials", "--follow", "--server", "fs"],
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    try:
        w = ev.EventWriter(layout, "later")
        w.write(ev.event(ev.MESSAGE, "fs", "later", id=1))
        w.write(ev.event(ev.DENIAL, "other", "later", path="/x/a", operation="read"))
        w.write(
            ev.event(
                ev.DENIAL,
                "fs",
                "later",
                path="/x/b",
                folder="/x",
                operation="write",
                at="2026-01-01T00:00:00.000Z",
                during="between",
            )
        )
        w.close()
        assert proc.stdout is not None
        assert proc.stdout.readline().rstrip("\n") == (
            "2026-01-01T00:00:00.000Z  fs  write /x/b refused between requests"
        )
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_an_idle_confined_bridge_sleeps_and_still_tells_the_next_refusal(
    tmp_path: Path, layout: Layout
) -> None:
    import subprocess
    import time

    from tests.e2e.test_bridge_sleeps import switches

    granted, secret = tmp_path / "granted", tmp_path / "secret.txt"
    granted.mkdir()
    secret.write_text("no\n", encoding="utf-8")
    run_cli("roots", "add", str(granted))
    run_cli("grant", "--new", "srv", str(granted))
    argv = bridge_argv("srv", [sys.executable, str(FILE_TOOL)], "--confine")
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    assert proc.stdin is not None and proc.stdout is not None

    def send(msg: dict[str, Any]) -> None:
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(msg).encode() + b"\n")
        proc.stdin.flush()

    def answer(ident: int) -> dict[str, Any]:
        assert proc.stdout is not None
        while True:
            msg = json.loads(proc.stdout.readline())
            if msg.get("id") == ident and "method" not in msg:
                return msg

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}})  # fmt: skip
        answer(1)
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        deadline = time.monotonic() + 20
        while True:  # the refusals' pipe is watched by the loop: no timer wakes the bridge
            before = switches(proc.pid)
            time.sleep(1.5)
            woke = switches(proc.pid) - before
            if woke == 0:
                break
            assert time.monotonic() < deadline, f"an idle bridge never slept 1.5 s (woke {woke})"
        send({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
              "params": {"name": "read_file", "arguments": {"path": str(secret)}}})  # fmt: skip
        assert answer(7)["result"]["content"][0]["text"] == "EACCES"
        found = wait_for(lambda: denials(layout, path=str(secret)), "the denial")
        assert found[0]["requests"] == [
            {"method": "tools/call", "id": 7, "tool": "read_file", "argument": "path"}
        ]
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)


FAILING = """
import os, sys
home = os.path.expanduser("~")
for path, mode in ((os.path.join(home, "data", "out.txt"), "w"),
                   (os.path.join(home, ".ssh", "id_rsa"), "r")):
    try:
        open(path, mode).close()
    except OSError as exc:
        print(f"server: {exc}", file=sys.stderr)
sys.exit(3)
"""


def test_a_server_that_fails_on_a_refusal_has_it_said_in_the_hosts_log(
    tmp_path: Path, layout: Layout, monkeypatch: Any
) -> None:
    """The host shows "connection closed"; its log (the bridge's stderr) says what the
    confined server was refused just before, and the command that allows it."""
    home = tmp_path / "home"
    (home / "data").mkdir(parents=True)
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text("key\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    script = tmp_path / "failing.py"
    script.write_text(FAILING, encoding="utf-8")
    run_cli("servers", "confine", "fails", "on", "--new")
    code, said = _run_until_it_exits(script)
    assert code == 3, said
    data = home / "data"
    assert (
        f"roots-bridge: fails: confined: create {data / 'out.txt'} refused at start-up"
    ) in said, said
    assert f"; allow with: roots-manager servers confine fails --allow-write {data}\n" in said
    assert f"read {home / '.ssh' / 'id_rsa'} refused" in said
    assert "not offered: credentials (~/.ssh)" in said
    assert "every refusal: roots-manager denials --since 1m" in said
    # the command it gives works: the next start writes there
    run_cli("servers", "confine", "fails", "--allow-write", str(data))
    _, said = _run_until_it_exits(script)
    assert (data / "out.txt").exists(), said
    assert "--allow-write" not in said


STATEFUL = """
import os, sys
state = os.path.join(os.path.expanduser("~"), ".stateful-mcp")
try:
    os.makedirs(os.path.join(state, "memories"), exist_ok=True)
    with open(os.path.join(state, "memories", "m.txt"), "w") as f:
        f.write("remembered")
except OSError as exc:
    print(f"server: {exc}", file=sys.stderr)
    sys.exit(3)
sys.exit(0)
"""


def test_a_servers_own_state_folder_is_made_and_allowed_by_the_command_its_log_gives(
    tmp_path: Path, layout: Layout, monkeypatch: Any
) -> None:
    """Issue 37: a server that makes its own folder in the home at start (``~/.serena``) was
    refused, and offered nothing (the home is too broad). The host's log now gives the command
    that makes that folder alone and allows it, and the next start works."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    script = tmp_path / "stateful.py"
    script.write_text(STATEFUL, encoding="utf-8")
    run_cli("servers", "confine", "stateful", "on", "--new")
    code, said = _run_until_it_exits(script, "stateful")
    assert code == 3, said
    state = home / ".stateful-mcp"
    command = f"roots-manager servers confine stateful --allow-write {state} --create"
    assert f"create {state} refused at start-up" in said and f"allow with: {command}\n" in said
    run_cli(*command.split()[1:])
    assert state.is_dir() and state.stat().st_mode & 0o777 == 0o700
    code, said = _run_until_it_exits(script, "stateful")
    assert code == 0, said
    assert (state / "memories" / "m.txt").read_text(encoding="utf-8") == "remembered"


def _run_until_it_exits(script: Path, server: str = "fails") -> tuple[int, str]:
    """A bridge in front of *script* (as *server*), its host holding stdin open (a host does
    until the server goes): its exit code and its stderr."""
    bridge = subprocess.Popen(
        bridge_argv(server, [sys.executable, str(script)]),
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=os.environ.copy(),
    )
    try:
        assert bridge.stderr is not None
        code = bridge.wait(60)
        return code, bridge.stderr.read().decode()
    finally:
        assert bridge.stdin is not None
        bridge.stdin.close()
        if bridge.poll() is None:
            bridge.kill()
