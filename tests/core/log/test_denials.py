"""A denial in one line, worded once (core.log.denials.summary) for the log, the CLI's
``denials`` and the host's log."""

from __future__ import annotations

import asyncio
import json
import os
import time
from typing import Any

import pytest

from roots_manager.bridge.protocol.inflight import Snapshot
from roots_manager.bridge.run.denials import Denials
from roots_manager.bridge.run.eventlog import BridgeLog
from roots_manager.cli.denials import Allowing, line
from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from roots_manager.core.log.denials import summary

READ = {"operation": "read", "path": "/srv/notes.md", "folder": "/srv"}
DURING = {
    "during": "request",
    "requests": [{"method": "tools/call", "tool": "read_file", "id": 3, "argument": "path"}],
}


@pytest.mark.parametrize(
    ("rec", "said"),
    [
        (
            {**READ, **DURING},
            "read /srv/notes.md refused while tools/call read_file (id 3, path)",
        ),
        ({**READ, "during": "start-up"}, "read /srv/notes.md refused at start-up"),
        ({**READ, "during": "between"}, "read /srv/notes.md refused between requests"),
        (
            {"operation": "list", "folder": "/srv/big", "folded": 412, "during": "between"},
            "list /srv/big/ (412 more refused) refused between requests",
        ),
        (
            {**READ, "path": "/home/me/.ssh/id_rsa", "protected": True, "during": "start-up"},
            "read /home/me/.ssh/id_rsa (a protected place: no grant opens it) refused at start-up",
        ),
        # a path from the server's side cannot rewrite the line it is shown in
        (
            {**READ, "path": "/srv/\x1b[2Jx\u202e.md", "during": "between"},
            "read /srv/\\x1b[2Jx\\u202e.md refused between requests",
        ),
    ],
)
def test_a_denial_is_said_in_one_line(rec: dict[str, Any], said: str) -> None:
    assert summary(rec) == said
    # the process is said only when asked for, with its pid when known
    with_process = {**rec, "process": "node", "pid": 4182}
    assert summary(with_process) == said
    assert summary(with_process, process=True) == f"{said} [node 4182]"
    assert summary({**rec, "process": "node"}, process=True) == f"{said} [node]"


def test_the_log_the_command_line_and_the_host_s_log_say_a_denial_alike(
    layout: Layout, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One refusal, through the bridge's own reading of its supervisor's pipe, as each place
    that shows it says it."""
    log = BridgeLog(layout, "fs", "sess")
    denials = Denials(log, lambda: Snapshot((), ()))
    read, write = os.pipe()
    os.set_blocking(read, False)
    told = {"time": time.time(), "pid": 4182, "comm": "node", "operation": "read"}
    os.write(write, json.dumps({**told, "path": "/srv/notes.md"}).encode() + b"\n")
    os.close(write)
    loop = asyncio.new_event_loop()
    try:
        denials.follow(read, loop)
        denials.close()  # reads the pipe to its end
    finally:
        loop.close()
    log.close()
    [rec] = [e for e in ev.iter_events(layout) if e["kind"] == ev.DENIAL]
    said = "read /srv/notes.md refused between requests"
    assert summary(rec) == said

    assert ev.summarize(rec) == said  # the Log tab's summary (translated as "{text}")
    assert line(rec) == f"{rec['at']}  fs  {said} [node 4182]"
    assert denials.tell_host("fs", home=str(layout.home)) == 2
    host_log = capsys.readouterr().err.splitlines()
    assert host_log[0].startswith(f"roots-bridge: fs: confined: {said} [node 4182]; ")
    # roots-manager denials gives, beneath the line, the command the host's log gives
    allow = host_log[0].split("; allow with: ")[1]
    assert allow == "roots-manager servers confine fs --allow-read /srv"
    assert Allowing().told(rec) == f"{line(rec)}\n    allow with: {allow}"
    # and says why where none is offered: a secret in the home
    monkeypatch.setenv("HOME", str(layout.home))
    key = {**rec, "path": str(layout.home / ".ssh" / "id_ed25519")}
    assert Allowing().told(key) == f"{line(key)}\n    not offered: credentials (~/.ssh)"


def test_the_host_s_log_tells_each_refused_domain_with_the_command_that_allows_it(
    layout: Layout, capsys: pytest.CaptureFixture[str]
) -> None:
    """The proxy's refusals, read from the supervisor's pipe as the bridge reads them: one line
    per domain in the host's log, each with ``servers network NAME domains --allow``."""
    log = BridgeLog(layout, "web", "sess")
    denials = Denials(log, lambda: Snapshot((), ()))
    read, write = os.pipe()
    os.set_blocking(read, False)
    for domain in ("evil.example", "registry.npmjs.org", "evil.example"):
        told = {"time": time.time(), "pid": 7, "comm": "node", "operation": "connect",
                "path": f"network: {domain}:443", "domain": domain, "port": 443}  # fmt: skip
        os.write(write, json.dumps(told).encode() + b"\n")
    os.close(write)
    loop = asyncio.new_event_loop()
    try:
        denials.follow(read, loop)
        denials.close()
    finally:
        loop.close()
    log.close()
    recs = [e for e in ev.iter_events(layout) if e["kind"] == ev.DENIAL]
    assert {(r["domain"], r["port"]) for r in recs} == {
        ("evil.example", 443),
        ("registry.npmjs.org", 443),
    }
    assert denials.tell_host("web", home=str(layout.home)) == 3
    host_log = capsys.readouterr().err.splitlines()
    for domain in ("evil.example", "registry.npmjs.org"):
        [said] = [t for t in host_log if f"network: {domain}:443" in t]
        assert said.endswith(
            f"; allow with: roots-manager servers network web domains --allow {domain}"
        )
