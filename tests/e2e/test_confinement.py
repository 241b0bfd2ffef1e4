"""Confined servers behind a real bridge, on the real kernel: what was not granted is refused.

Both servers here ignore roots where it matters: the reference filesystem server is given ``/``
on its command line and runs behind an observing bridge under a host without roots, so it
believes it may read everything; the file tool server writes wherever it is told. Whatever
refuses them is Landlock. Every path is checked as root, which Unix permissions do not stop.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events as ev
from roots_manager.sandbox.landlock import TEST_ABI_ENV
from tests.bridge.wire import bridge_argv, events, run_to_its_end
from tests.conftest import PEERS, only_on_linux, run_cli
from tests.fakes import FAKES
from tests.fakes.sdk_host import bridged, text

FILE_TOOL = FAKES / "file_tool_server.py"

pytestmark = only_on_linux("confinement is tested on Linux (Landlock); macOS's is untested")
SHADOW = "/etc/shadow"


def world(tmp_path: Path) -> dict[str, Path]:
    """Granted, read-only and sibling folders, and a fake home holding secrets."""
    places = {
        "granted": tmp_path / "work" / "granted",
        "read_only": tmp_path / "work" / "reference",
        "sibling": tmp_path / "work" / "sibling",
        "home": tmp_path / "home",
    }
    for path in places.values():
        path.mkdir(parents=True)
    for name in ("granted", "read_only", "sibling"):
        (places[name] / "hello.txt").write_text(f"in {name}\n", encoding="utf-8")
    for secret in (".ssh/id_ed25519", ".aws/credentials", "Documents/taxes.txt"):
        (places["home"] / secret).parent.mkdir(parents=True, exist_ok=True)
        (places["home"] / secret).write_text("secret\n", encoding="utf-8")
    run_cli("roots", "add", str(places["granted"]))
    run_cli("roots", "add", str(places["read_only"]))
    run_cli("roots", "add", str(places["sibling"]))
    run_cli("grant", "--new", "srv", str(places["granted"]))
    run_cli("grant", "srv", str(places["read_only"]), "--read-only")
    assert os.path.exists(SHADOW)  # a file root could read, were it not for the rules
    return places


def params(command: list[str], home: Path, *options: str) -> StdioServerParameters:
    return bridged(command, *options, home=home)


def test_the_filesystem_server_given_the_whole_disk_reads_only_its_grants(
    filesystem_server: list[str], tmp_path: Path
) -> None:
    w = world(tmp_path)
    secrets = [
        w["sibling"] / "hello.txt",
        w["home"] / ".ssh" / "id_ed25519",
        w["home"] / ".aws" / "credentials",
        w["home"] / "Documents" / "taxes.txt",
        Path(SHADOW),
    ]

    async def scenario() -> None:
        command = [*filesystem_server, "/"]
        async with Client(params(command, w["home"], "--observe", "--confine")) as client:
            read = await text(client, "read_text_file", path=str(w["granted"] / "hello.txt"))
            assert read.strip() == "in granted"
            # over a file that exists: for a new one, this server lists the folders it allows
            wrote = await text(
                client, "write_file", path=str(w["granted"] / "hello.txt"), content="made"
            )
            assert "Successfully" in wrote, wrote
            read = await text(client, "read_text_file", path=str(w["read_only"] / "hello.txt"))
            assert read.strip() == "in read_only"
            refused = await text(
                client, "write_file", path=str(w["read_only"] / "hello.txt"), content="no"
            )
            assert "EACCES" in refused, refused
            for path in secrets:
                refused = await text(client, "read_text_file", path=str(path))
                assert "EACCES" in refused, (path, refused)

    anyio.run(scenario)
    assert (w["granted"] / "hello.txt").read_text(encoding="utf-8") == "made"
    assert (w["read_only"] / "hello.txt").read_text(encoding="utf-8") == "in read_only\n"


def test_a_server_that_ignores_its_roots_is_held_to_them_by_the_stored_setting(
    tmp_path: Path,
) -> None:
    w = world(tmp_path)
    run_cli("servers", "confine", "srv", "on")

    async def scenario() -> None:
        command = [sys.executable, str(FILE_TOOL)]
        async with Client(params(command, w["home"])) as client:
            assert await text(client, "write_file", path=str(w["granted"] / "a"), text="1") == "ok"
            assert await text(client, "read_file", path=str(w["granted"] / "a")) == "1"
            ro = w["read_only"]
            assert (await text(client, "read_file", path=str(ro / "hello.txt"))).strip() == (
                "in read_only"
            )
            assert await text(client, "write_file", path=str(ro / "a"), text="1") == "EACCES"
            assert await text(client, "write_file", path=str(w["sibling"] / "a"), text="1") == (
                "EACCES"
            )
            for path in (
                w["sibling"] / "hello.txt",
                w["home"] / ".ssh" / "id_ed25519",
                Path(SHADOW),
            ):
                assert await text(client, "read_file", path=str(path)) == "EACCES", path
            # a private temporary folder, inside the per-user directory, is writable; it is
            # told by a short name, under which a socket's path fits (107 bytes)
            tmp = await text(client, "temp_dir")
            real = os.path.realpath(tmp)
            assert real.startswith(os.environ["ROOTS_MANAGER_HOME"]), tmp
            assert len(tmp) <= len("/tmp/rm-4294967295-") + 16, tmp

    anyio.run(scenario)
    assert not (w["sibling"] / "a").exists()


def test_turned_off_the_same_server_is_not_confined(tmp_path: Path) -> None:
    w = world(tmp_path)
    run_cli("servers", "confine", "srv", "on")
    run_cli("servers", "confine", "srv", "off")

    async def scenario() -> None:
        command = [sys.executable, str(FILE_TOOL)]
        async with Client(params(command, w["home"])) as client:
            # roots are advice now: the read-only grant and the sibling are both writable
            assert await text(client, "write_file", path=str(w["sibling"] / "a"), text="1") == "ok"
            assert await text(client, "write_file", path=str(w["read_only"] / "a"), text="1") == (
                "ok"
            )

    anyio.run(scenario)


def refused_run(tmp_path: Path, abi: str, *options: str) -> subprocess.CompletedProcess[str]:
    marker = tmp_path / "started"
    argv = bridge_argv("srv", ["sh", "-c", f"touch '{marker}'"], *options)
    proc = subprocess.run(
        argv,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, TEST_ABI_ENV: abi},
    )
    assert not marker.exists(), "the server ran unconfined"
    return proc


def test_a_kernel_without_landlock_makes_the_bridge_refuse_with_126(
    tmp_path: Path, layout: Layout
) -> None:
    proc = refused_run(tmp_path, "0", "--confine")
    assert proc.returncode == 126
    assert "no Landlock" in proc.stderr
    errors = events(layout, ev.ERROR)
    assert any("no Landlock" in e["message"] for e in errors)
    assert events(layout, ev.RUN_END)[-1]["exit_code"] == 126


def test_an_old_landlock_and_the_stored_setting_refuse_too(tmp_path: Path) -> None:
    run_cli("servers", "confine", "srv", "on", "--new")
    proc = refused_run(tmp_path, "2")
    assert proc.returncode == 126
    assert "ABI 2" in proc.stderr
    # a shortened --confine counts, as argparse lets it
    run_cli("servers", "confine", "srv", "off")
    assert refused_run(tmp_path, "0", "--conf").returncode == 126


def test_servers_show_says_whether_this_machine_can_confine(tmp_path: Path) -> None:
    import json

    world(tmp_path)
    run_cli("servers", "confine", "srv", "on", "--allow-read", str(tmp_path / "extra"))
    shown = json.loads(run_cli("servers", "show", "srv", "--json").stdout)
    assert shown["confine"] is True
    assert shown["can_confine"] is True and shown["mechanism"] == "landlock"
    assert shown["read_write"] == [str(tmp_path / "work" / "granted")]
    assert shown["read_only"] == [str(tmp_path / "work" / "reference")]
    assert shown["allow_read"] == [str(tmp_path / "extra")]
    assert "restart it with the new rules" in shown["changes"]
    assert shown["restart_on_revoke"] is True and shown["restart_on_revoke_set"] is False
    run_cli("servers", "restart-on-revoke", "srv", "off")
    shown = json.loads(run_cli("servers", "show", "srv", "--json").stdout)
    assert "next start" in shown["changes"] and shown["restart_on_revoke"] is False
    os.environ[TEST_ABI_ENV] = "0"
    try:
        plain = run_cli("servers", "show", "srv").stdout
    finally:
        del os.environ[TEST_ABI_ENV]
    assert "this machine can confine: no" in plain
    run_cli("servers", "confine", "srv", "--forget", str(tmp_path / "extra"))
    assert json.loads(run_cli("servers", "show", "srv", "--json").stdout)["allow_read"] == []


def test_a_damaged_store_refuses_a_forced_confinement(tmp_path: Path, layout: Layout) -> None:
    layout.store.write_text("{ damaged", encoding="utf-8")
    proc = refused_run(tmp_path, "99", "--confine")
    assert proc.returncode == 126
    assert "cannot be read" in proc.stderr


def test_a_damaged_store_does_not_set_free_a_server_that_ran_confined(
    tmp_path: Path, layout: Layout
) -> None:
    run_cli("servers", "confine", "srv", "on", "--new")
    command = [sys.executable, "-c", "pass"]
    ran = subprocess.run(bridge_argv("srv", command), stdin=subprocess.DEVNULL, timeout=60)
    assert ran.returncode == 0 and len(list((layout.home / "confined").iterdir())) == 1
    layout.store.write_text("{ damaged", encoding="utf-8")
    proc = refused_run(tmp_path, "99")
    assert proc.returncode == 126
    assert "ran confined before" in proc.stderr
    # a server never confined still runs over a damaged store, with a warning
    other = subprocess.run(
        bridge_argv("other", ["true"]), stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    assert other.returncode == 0 and "runs unconfined" in other.stderr
    # once confinement is turned off (the store repaired), the trace of it goes at the next start
    layout.store.unlink()
    run_cli("servers", "confine", "srv", "off", "--new")
    assert subprocess.run(bridge_argv("srv", command), stdin=subprocess.DEVNULL).returncode == 0
    assert list((layout.home / "confined").iterdir()) == []


def test_an_npx_server_starts_confined_from_an_empty_cache(tmp_path: Path) -> None:
    """``npx -y`` as a new user runs it: the cache made, the package fetched and unpacked (its
    modes and times set through the supervisor) inside ``~/.npm``, then served, all confined."""
    if shutil.which("npx") is None:
        pytest.fail("npx comes with Node.js, which these tests need")
    w = world(tmp_path)
    run_cli("servers", "confine", "srv", "on")
    assert not (w["home"] / ".npm").exists()

    async def scenario() -> None:
        command = ["npx", "-y", "@modelcontextprotocol/server-filesystem", str(w["sibling"])]
        async with Client(params(command, w["home"])) as client:
            # the server asks for its roots once it runs (a first call may come before)
            with anyio.fail_after(60):
                while str(w["granted"]) not in await text(client, "list_allowed_directories"):
                    await anyio.sleep(0.1)
            read = await text(client, "read_text_file", path=str(w["granted"] / "hello.txt"))
            assert read.strip() == "in granted"
            refused = await text(client, "read_text_file", path=str(w["sibling"] / "hello.txt"))
            assert "EACCES" in refused or "denied" in refused, refused

    anyio.run(scenario)
    # into the server's own layer over ~/.npm: nothing of it in what the user's npx runs
    layer = Layout.default().home / "layers"
    unpacked = list(
        layer.glob("*/npm_config_cache/upper/_npx/*/node_modules/@modelcontextprotocol")
    )
    assert unpacked, "npx unpacked the server into the server's own layer over the cache"
    assert not list((w["home"] / ".npm").glob("_npx/*/node_modules/@modelcontextprotocol"))


def test_a_server_run_from_a_project_s_node_modules_starts_confined(tmp_path: Path) -> None:
    """``npm exec --prefix DIR -- mcp-server-filesystem``, the way a package installed in a
    project is run: its packages are read and run from there, the project's other files are
    not read, and the server is held to its grants as any other."""
    if shutil.which("npm") is None:
        pytest.fail("npm comes with Node.js, which these tests need")
    w = world(tmp_path)
    project = tmp_path / "project"
    shutil.copytree(PEERS, project, symlinks=True, ignore=shutil.ignore_patterns("node_modules"))
    (project / "node_modules").symlink_to(PEERS / "node_modules")
    (project / "notes.txt").write_text("the project's own\n", encoding="utf-8")

    async def scenario() -> None:
        command = ["npm", "exec", "--prefix", str(project), "--", "mcp-server-filesystem", "/"]
        async with Client(params(command, w["home"], "--observe", "--confine")) as client:
            read = await text(client, "read_text_file", path=str(w["granted"] / "hello.txt"))
            assert read.strip() == "in granted"
            for path in (w["sibling"] / "hello.txt", project / "notes.txt"):
                refused = await text(client, "read_text_file", path=str(path))
                assert "EACCES" in refused, (path, refused)

    anyio.run(scenario)


def test_a_script_whose_node_modules_is_a_link_out_of_its_folder_starts_confined(
    tmp_path: Path,
) -> None:
    """``node FILE`` (as ``npx tsx FILE.ts`` ends) where FILE's folder's ``node_modules`` is a
    link out of it (``npm link``, workspaces, pnpm): its packages are read and run through
    the link, as in a folder of its own; the folder holding them is not read, and the server
    is held to its grants as any other."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("these tests need Node.js")
    w = world(tmp_path)
    tool = tmp_path / "src" / "tool"
    tool.mkdir(parents=True)
    (tool / "server.mjs").write_text(
        'import "@modelcontextprotocol/server-filesystem/dist/index.js";\n', encoding="utf-8"
    )
    # the packages a folder beside it installed (tests/peers), the project's files there
    (tool / "node_modules").symlink_to(PEERS / "node_modules")

    async def scenario() -> None:
        command = [node, str(tool / "server.mjs"), "/"]
        async with Client(params(command, w["home"], "--observe", "--confine")) as client:
            read = await text(client, "read_text_file", path=str(w["granted"] / "hello.txt"))
            assert read.strip() == "in granted"
            for path in (w["sibling"] / "hello.txt", PEERS / "package.json"):
                refused = await text(client, "read_text_file", path=str(path))
                assert "EACCES" in refused, (path, refused)

    anyio.run(scenario)


def test_git_run_by_a_server_reads_the_users_git_settings_but_not_their_secrets(
    tmp_path: Path,
) -> None:
    """git exits at once when ``~/.gitconfig`` cannot be read (``mcp-server-git`` failed so):
    the user's git settings are read-only for a confined server, unless they hold a secret."""
    w = world(tmp_path)
    run_cli("servers", "confine", "srv", "on")
    subprocess.run(["git", "init", "-q", str(w["granted"])], check=True)
    settings = w["home"] / ".gitconfig"
    env = {**os.environ, "HOME": str(w["home"])}
    command = ["sh", "-c", f"git -C '{w['granted']}' config --global user.name"]

    def run() -> subprocess.CompletedProcess[str]:
        return run_to_its_end(bridge_argv("srv", command), env=env)

    settings.write_text("[user]\n\tname = Someone\n", encoding="utf-8")
    ran = run()
    assert (ran.returncode, ran.stdout.strip()) == (0, "Someone"), ran.stderr
    settings.write_text(
        "[user]\n\tname = Someone\n[http]\n\textraHeader = Authorization: Bearer s3cret\n",
        encoding="utf-8",
    )
    ran = run()
    assert ran.returncode != 0 and "s3cret" not in ran.stdout, ran.stdout
    assert "Permission denied" in ran.stderr or "unable to access" in ran.stderr, ran.stderr


def test_a_folder_granted_in_shared_memory_is_not_hidden_by_the_servers_own(
    tmp_path: Path,
) -> None:
    """A confined server gets a ``/dev/shm`` of its own (no other program's segments), which
    would hide a folder the user granted there: then it gets the machine's."""
    world(tmp_path)
    shared = Path(tempfile.mkdtemp(dir="/dev/shm"))
    try:
        (shared / "hello.txt").write_text("in memory\n", encoding="utf-8")
        run_cli("roots", "add", str(shared))
        run_cli("grant", "srv", str(shared))
        run_cli("servers", "confine", "srv", "on")
        ran = run_to_its_end(bridge_argv("srv", ["cat", str(shared / "hello.txt")]))
        assert (ran.returncode, ran.stdout) == (0, "in memory\n"), ran.stderr
    finally:
        shutil.rmtree(shared, ignore_errors=True)


def test_the_filesystem_server_asked_through_the_sdk_reads_a_file_allowed_while_it_waits(
    filesystem_server: list[str], tmp_path: Path, layout: Layout
) -> None:
    """Issue 38: the reference filesystem server, confined, asked through the SDK host to read
    a file outside its grants (it believes it may read all of ``/``): the call waits, the
    app's Allow this file (its action) answers it, and the same ``tools/call`` returns the
    file, the server not restarted; its next start reads the file with no question."""
    import json
    import time

    from roots_manager.actions.refusals import allow
    from roots_manager.core.confinement.offers import Offer
    from roots_manager.core.runs import live
    from roots_manager.core.store.file import Store
    from tests.polling import wait_for

    w = world(tmp_path)
    run_cli("servers", "confine", "srv", "on")
    run_cli("servers", "ask", "srv", "60")
    wanted = w["sibling"] / "hello.txt"
    # this test plays the app, whose Allow action it runs: a question is asked while it runs
    live.write_app_marker(layout)

    def waiting() -> list[dict[str, object]]:
        found = []
        for log in (layout.home / "logs").glob("*.jsonl"):
            for line in log.read_text(encoding="utf-8").splitlines():
                rec = json.loads(line)
                if rec.get("kind") == ev.DENIAL and rec.get("waits"):
                    found.append(rec)
        return found

    def server_pid() -> int:
        [marker] = [m for m in live.bridge_markers(layout) if m.server == "srv"]
        assert marker.server_pid is not None
        return marker.server_pid

    def answer() -> int:
        [question] = wait_for(waiting, "the question")
        pid = server_pid()
        allow(Store(layout), question, Offer.FILE, home=str(w["home"]))
        return pid

    async def scenario() -> None:
        # observing only: the host has no roots, so the server keeps the whole disk it was given
        command = [*filesystem_server, "/"]
        async with Client(params(command, w["home"], "--observe")) as client:
            async with anyio.create_task_group() as tasks:
                said: list[str] = []

                async def read() -> None:
                    said.append(await text(client, "read_text_file", path=str(wanted)))

                tasks.start_soon(read)
                pid = await anyio.to_thread.run_sync(answer)
            assert said == ["in sibling\n"] or said[0].strip() == "in sibling", said
            assert server_pid() == pid  # not restarted
        # the next start gets the file from the kernel: no question
        asked = len(waiting())
        started = time.monotonic()
        async with Client(params(command, w["home"], "--observe")) as client:
            read = await text(client, "read_text_file", path=str(wanted))
            assert read.strip() == "in sibling", read
        assert len(waiting()) == asked and time.monotonic() - started < 30

    anyio.run(scenario)
