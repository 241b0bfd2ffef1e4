"""``roots-manager servers learn``: a server run confined for a while, and the grants proposed for
what it was refused, never ``/``, the home folder or a secret.

A real SDK server whose tools read and list any path, behind a real bridge on the real kernel,
driven by the Python SDK's client as its host; ``servers learn`` is a real process that turns
the server's confinement on, is ended with Ctrl-C (SIGINT) once the refusals are in the log, and
grants what it proposes with ``--accept``: the confined server is restarted behind the host, and
the same read then works in the same host session.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from tests.bridge.wire import bridge_argv, events, wait_for
from tests.conftest import only_on_linux, run_cli
from tests.fakes import FAKES
from tests.fakes.sdk_host import text

FILE_TOOL = FAKES / "file_tool_server.py"
SERVER = [sys.executable, "-E", str(FILE_TOOL)]
"""The server, without the source tree the tests' bridge is run from (``-E``: no PYTHONPATH):
Python lists each folder of PYTHONPATH as it starts, a refusal these tests are not about."""

pytestmark = only_on_linux("confinement (Landlock) and its observer are Linux only")


def learn(home: Path, *args: str) -> subprocess.Popen[str]:
    """``roots-manager servers learn ...`` started, with *home* as the user's home; returns once
    learning has started (its first line on stderr)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "roots_manager.cli", "servers", "learn", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "HOME": str(home)},
    )
    assert proc.stderr is not None
    first = proc.stderr.readline()
    assert first.startswith("learning what srv is refused for "), first + proc.stderr.read()
    return proc


def learn_for_a_second(home: Path) -> subprocess.CompletedProcess[str]:
    """``roots-manager servers learn srv --for 1s`` run to its end, with *home* as the home."""
    return subprocess.run(
        [sys.executable, "-m", "roots_manager.cli", "servers", "learn", "srv", "--for", "1s"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "HOME": str(home)},
        check=True,
    )


def ended(
    proc: subprocess.Popen[str], how: signal.Signals = signal.SIGINT
) -> tuple[dict[str, Any], str]:
    """Ctrl-C (or *how*) for a learning process; its JSON document and the rest of its
    stderr."""
    proc.send_signal(how)
    out, err = rest(proc)
    assert proc.returncode == 0, out + err
    return json.loads(out), err


def rest(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """What *proc* writes until it ends, on stdout and stderr (read through the files, not by
    communicate(), which would skip what learn()'s readline already buffered)."""
    assert proc.stdout is not None and proc.stderr is not None
    out = proc.stdout.read()  # the JSON document; stderr holds a few lines at most meanwhile
    err = proc.stderr.read()
    proc.wait(timeout=60)
    return out, err


def denied(layout: Layout) -> set[str]:
    return {e["path"] for e in events(layout, ev.DENIAL) if e.get("path")}


def setup(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A home with a secret, two folders outside the grant with a note each, and the server
    ``srv`` granted a third, not confined."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_x").write_text("a key\n", encoding="utf-8")
    a, b = tmp_path / "work" / "a", tmp_path / "work" / "b"
    for folder in (a, b):
        folder.mkdir(parents=True)
        (folder / "note.txt").write_text(f"in {folder.name}\n", encoding="utf-8")
    (tmp_path / "granted").mkdir()
    run_cli("roots", "add", str(tmp_path / "granted"))
    run_cli("grant", "--new", "srv", str(tmp_path / "granted"))
    # turned off by its user (a server first seen would start confined by default)
    run_cli("servers", "confine", "srv", "off")
    return home, a, b


def confine_setting() -> bool:
    return bool(json.loads(run_cli("servers", "show", "srv", "--json").stdout)["confine"])


def test_learn_proposes_the_two_files_read_only_and_accept_makes_the_next_read_work(
    tmp_path: Path, layout: Layout
) -> None:
    home, a, b = setup(tmp_path)
    assert not confine_setting()
    # each note is the one file refused in its folder: it is proposed alone, not its folder;
    # --skip leaves b's out of what is accepted; a --skip that names nothing proposed is said,
    # not fatal
    proc = learn(
        home,
        "srv",
        "--for",
        "10m",
        "--accept",
        "--skip",
        str(b / "note.txt"),
        "--skip",
        "/nowhere",
        "--json",
    )
    try:
        assert confine_setting()  # learning turned it on: the bridge below starts it confined
        argv = bridge_argv("srv", SERVER)
        host = StdioServerParameters(
            command=argv[0], args=argv[1:], env={**os.environ, "HOME": str(home)}
        )
        secret = str(home / ".ssh" / "id_x")
        wanted = {str(a / "note.txt"), str(b / "note.txt"), secret, str(home)}

        async def scenario() -> dict[str, Any]:
            async with Client(host, mode="legacy") as c:
                for path in (a / "note.txt", b / "note.txt", home / ".ssh" / "id_x"):
                    assert await text(c, "read_file", path=str(path)) == "EACCES"
                assert await text(c, "list_folder", path=str(home)) == "EACCES"
                await text(c, "list_folder", path="/")  # listable or not, never proposed
                await anyio.to_thread.run_sync(
                    wait_for, lambda: wanted <= denied(layout), "the four refusals"
                )
                doc, err = await anyio.to_thread.run_sync(ended, proc)
                # accepted: the same read now works, served by the supervisor of the server
                # (a confined server asks by default), which is not restarted
                deadline = time.monotonic() + 30
                while (said := await text(c, "read_file", path=str(a / "note.txt"))) != "in a\n":
                    assert time.monotonic() < deadline, said
                    await anyio.sleep(0.1)
                assert not events(layout, ev.SERVER_RESTARTED)
                assert await text(c, "read_file", path=str(b / "note.txt")) == "EACCES"
                assert await text(c, "read_file", path=secret) == "EACCES"
                return {**doc, "stderr": err}

        doc = anyio.run(scenario)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    proposed = [(g["path"], g["kind"], g["read_only"]) for g in doc["grants"]]
    assert proposed == [(str(a / "note.txt"), "file", True), (str(b / "note.txt"), "file", True)]
    for g in doc["grants"]:
        assert g["path"] not in ("/", str(home)) and not g["path"].startswith(str(home / ".ssh"))
    reasons = {x["path"]: x["reason"] for x in doc["left_out"]}
    assert reasons[secret] == "credentials (~/.ssh)"
    assert reasons[str(home)] == "the home folder, or a folder holding it"
    assert doc["interrupted"] is True and doc["refusals"] >= 4
    assert doc["accepted"] == [str(a / "note.txt")]
    assert "note: --skip /nowhere: not proposed" in doc["stderr"]
    assert doc["confine"] is True and doc["restored"] is False and doc["turned_on"] is True
    assert "refused so far" in doc["stderr"]
    # a's note made readable alone, not as a root, and the server stays confined
    shown = json.loads(run_cli("servers", "show", "srv", "--json").stdout)
    assert shown["confine"] is True
    assert shown["allow_read"] == [str(a / "note.txt")]
    assert str(a) not in shown["read_only"]


def test_learn_without_accept_proposes_and_turns_confinement_back_off(
    tmp_path: Path, layout: Layout
) -> None:
    home, a, _ = setup(tmp_path)
    done = learn_for_a_second(home)
    assert "srv was refused 0 times in 1s" in done.stdout
    assert "confinement of srv is off again, as before learning" in done.stdout
    assert not confine_setting()
    # a server confined already stays so, and a proposal made from real refusals is printed
    run_cli("servers", "confine", "srv", "on")
    proc = learn(home, "srv", "--for", "10m")
    argv = bridge_argv("srv", SERVER)
    host = StdioServerParameters(
        command=argv[0], args=argv[1:], env={**os.environ, "HOME": str(home)}
    )

    async def scenario() -> None:
        async with Client(host, mode="legacy") as c:
            assert await text(c, "read_file", path=str(a / "note.txt")) == "EACCES"
            await anyio.to_thread.run_sync(
                wait_for, lambda: str(a / "note.txt") in denied(layout), "the refusal"
            )

    try:
        anyio.run(scenario)
        proc.send_signal(signal.SIGINT)
        out, _ = rest(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0
    # one file refused alone: that file is proposed, not its folder
    assert f"--allow-read {a / 'note.txt'}" in out, out
    assert f"roots-manager grant srv {a} --read-only" not in out
    assert "(ended early)" in out and "confinement of srv is off again" not in out
    assert confine_setting()  # it was on before learning
    assert str(a) not in json.loads(run_cli("servers", "show", "srv", "--json").stdout)["read_only"]


def test_a_running_server_is_restarted_confined_to_learn_and_unconfined_after(
    tmp_path: Path, layout: Layout
) -> None:
    home, a, _ = setup(tmp_path)
    note = str(a / "note.txt")
    # a server not confined when it started is restarted only if it may be restarted on revoke
    run_cli("servers", "restart-on-revoke", "srv", "on")
    argv = bridge_argv("srv", SERVER)
    host = StdioServerParameters(
        command=argv[0], args=argv[1:], env={**os.environ, "HOME": str(home)}
    )

    def restarts(reason: str) -> list[dict[str, Any]]:
        return [e for e in events(layout, ev.SERVER_RESTARTING) if e.get("reason") == reason]

    async def scenario() -> tuple[dict[str, Any], str]:
        async with Client(host, mode="legacy") as c:
            assert await text(c, "read_file", path=note) == "in a\n"  # not confined yet
            proc = await anyio.to_thread.run_sync(learn, home, "srv", "--for", "10m", "--json")
            try:
                await anyio.to_thread.run_sync(
                    wait_for,
                    lambda: restarts("confinement was turned on"),
                    "the restart, confined",
                )
                assert await text(c, "read_file", path=note) == "EACCES"
                await anyio.to_thread.run_sync(
                    wait_for, lambda: note in denied(layout), "the refusal"
                )
                # ended as a service manager ends it: the same end as Ctrl-C's
                doc, err = await anyio.to_thread.run_sync(ended, proc, signal.SIGTERM)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            # not accepted: confinement is off again, and the server restarted without it
            await anyio.to_thread.run_sync(
                wait_for,
                lambda: restarts("confinement was turned off"),
                "the restart, unconfined",
            )
            assert await text(c, "read_file", path=note) == "in a\n"
            return doc, err

    doc, _ = anyio.run(scenario)
    assert [(g["path"], g["kind"]) for g in doc["grants"]] == [(note, "file")]
    assert doc["accepted"] == [] and doc["restored"] is True and doc["confine"] is False
    assert not confine_setting()
    assert len(events(layout, ev.RUN_START)) == 1  # one bridge run, the host never noticed


def test_a_running_server_its_bridge_cannot_restart_is_said_to_be_learned_from_its_next_start(
    tmp_path: Path, layout: Layout
) -> None:
    home, _, _ = setup(tmp_path)
    argv = bridge_argv("srv", SERVER)
    host = StdioServerParameters(
        command=argv[0], args=argv[1:], env={**os.environ, "HOME": str(home)}
    )

    async def scenario() -> str:
        async with Client(host, mode="legacy") as c:
            assert await text(c, "list_folder", path=str(tmp_path)) != "EACCES"
            proc = await anyio.to_thread.run_sync(learn, home, "srv", "--for", "1s")
            _, err = await anyio.to_thread.run_sync(rest, proc)
            return str(err)

    err = anyio.run(scenario)
    assert "srv is running unconfined now, and its bridge cannot restart it" in err
    assert "restart-on-revoke srv on" in err


def test_an_unknown_server_or_a_bad_length_is_refused_and_nothing_changes(
    tmp_path: Path, layout: Layout
) -> None:
    setup(tmp_path)
    proc = run_cli("servers", "learn", "sr", "--for", "10m", check=False)
    assert proc.returncode == 1
    assert "did you mean 'srv'?" in proc.stderr
    assert json.loads(
        run_cli("servers", "learn", "sr", "--for", "1s", "--json", check=False).stdout
    )["error"]["did_you_mean"] == ["roots-manager servers learn srv --for 1s"]
    for bad in ("ten minutes", "0s"):
        proc = run_cli("servers", "learn", "srv", "--for", bad, "--json", check=False)
        assert proc.returncode == 1
        assert json.loads(proc.stdout)["error"]["code"] == "bad-duration"
    proc = run_cli("servers", "learn", "srv", "--for", "1s", "--skip", "/x", check=False)
    assert proc.returncode == 2 and "give --accept too" in proc.stderr
    proc = run_cli("servers", "learn", "srv", "--for", "soon", check=False)
    assert "--for 'soon' is not a length of time" in proc.stderr
    assert not confine_setting()


def test_a_learning_killed_leaves_the_server_confined_says_so_and_the_next_one_puts_it_back(
    tmp_path: Path, layout: Layout
) -> None:
    home, _, _ = setup(tmp_path)
    first = learn(home, "srv", "--for", "10m")
    second = run_cli("servers", "learn", "srv", "--for", "1s", "--json", check=False)
    assert second.returncode == 1, second.stdout  # one learning of a server at a time
    refusal = json.loads(second.stdout)["error"]
    assert refusal["code"] == "already-learning" and str(first.pid) in refusal["message"]
    shown = json.loads(run_cli("servers", "show", "srv", "--json").stdout)["learning"]
    assert (shown["pid"], shown["running"], shown["before"]) == (first.pid, True, False)
    first.kill()  # SIGKILL: nothing of it runs to put confinement back
    rest(first)
    assert confine_setting()  # the safe way to fail: the server stays confined
    report = json.loads(run_cli("servers", "show", "srv", "--json").stdout)["learning"]
    assert (report["running"], report["before"]) == (False, False)
    told = run_cli("servers", "show", "srv").stdout
    assert "ended without finishing, and left confinement on (it was off)" in told
    # the next learning takes over what the dead one changed, and puts it back
    done = learn_for_a_second(home)
    assert "confinement of srv is off again, as before learning" in done.stdout
    assert not confine_setting()
    assert json.loads(run_cli("servers", "show", "srv", "--json").stdout)["learning"] is None


def proxy_refused(layout: Layout, *domains: str) -> None:
    """The proxy's refusals of *domains* to ``srv``, logged as its bridge logs them."""
    w = ev.EventWriter(layout, "r-web")
    for domain in domains:
        w.write(
            ev.event(ev.DENIAL, "srv", "r-web", path=f"network: {domain}:443", folder="",
                     operation="connect", domain=domain, port=443, during="request")
        )  # fmt: skip
    w.close()


def waiting(proc: subprocess.Popen[str]) -> None:
    """Once *proc*, learning, waits for its time (its first count of refusals told): a Ctrl-C
    from then on ends the learning, as a user's does."""
    assert proc.stderr is not None
    said = proc.stderr.readline()
    assert said.endswith("left, 0 refused so far\n"), said


def test_learn_proposes_the_domains_the_proxy_refused_as_domains_and_accept_adds_them(
    tmp_path: Path, layout: Layout
) -> None:
    home, _, _ = setup(tmp_path)
    run_cli("servers", "network", "srv", "domains", "--allow", "api.github.com")
    proc = learn(home, "srv", "--for", "10m")
    waiting(proc)
    proxy_refused(layout, "registry.npmjs.org", "Registry.NPMjs.org", "api.github.com")
    proc.send_signal(signal.SIGINT)
    out, err = rest(proc)
    assert proc.returncode == 0, out + err
    assert "  network    domain registry.npmjs.org  (connect: 2 refused)" in out, out
    assert "  roots-manager servers network srv domains --allow registry.npmjs.org" in out
    assert "  api.github.com  connect: the server may do this now" in out
    assert "network: " not in out  # never proposed as a path
    assert json.loads(run_cli("servers", "show", "srv", "--json").stdout)["network_domains"] == [
        "api.github.com"
    ]

    proc = learn(home, "srv", "--for", "10m", "--accept", "--skip", "Evil.Example", "--json")
    waiting(proc)
    proxy_refused(layout, "registry.npmjs.org", "evil.example")
    doc, err = ended(proc)
    proposed = [(g["path"], g["kind"]) for g in doc["grants"]]
    assert proposed == [("evil.example", "domain"), ("registry.npmjs.org", "domain")]
    assert doc["accepted"] == ["registry.npmjs.org"] and "not proposed" not in err
    shown = json.loads(run_cli("servers", "show", "srv", "--json").stdout)
    assert shown["network"] == "domains"
    assert shown["network_domains"] == ["api.github.com", "registry.npmjs.org"]
    assert shown["confine"] and not shown["read_only"] and not shown["allow_read"]
    assert shown["means"].endswith(
        "network reaches only its domains, through Roots Manager's proxy"
    )
