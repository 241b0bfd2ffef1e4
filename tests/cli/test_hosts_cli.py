"""``roots-manager hosts`` and ``effective --watch`` as real processes, in a fake home folder.

The end-to-end test wraps a Claude Desktop file holding the reference filesystem server, then
starts the very command the file now holds, the way a host does: with the Python SDK's client
(which declares no roots capability) and its reduced environment plus the entry's ``env``.
Undo is tried over commands that change several files and after hand edits; the files hosts
really have are tried too: a ``~/.claude.json`` of a hundred megabytes, a named pipe or a link
in a file's place, a file that is not a table, read-only files and folders (as a user without
root's power over every file's mode).
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from tests.conftest import only_on_linux, run_cli
from tests.core.hosts.hosts_samples import BROKEN, SAMPLES, claude_code_history
from tests.e2e.test_bridge_filesystem import make, until


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake home folder for the CLI processes: HOME and XDG_CONFIG_HOME point into it."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for name in (
        "APPDATA",
        "CLAUDE_CONFIG_DIR",
        "CODEX_HOME",
        "CONTINUE_GLOBAL_DIR",
        "COPILOT_HOME",
        "FAST_AGENT_HOME",
        "KIMI_CODE_HOME",
        "KIMI_SHARE_DIR",
        "OPENCODE_CONFIG",
        "VIBE_HOME",
        "XDG_DATA_HOME",
    ):
        monkeypatch.delenv(name, raising=False)
    return home


def claude_desktop(home: Path, text: str) -> Path:
    path = home / ".config" / "Claude" / "claude_desktop_config.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def listed() -> dict[str, object]:
    """``hosts list --json``; every file is listed, and one it could not read makes it exit 1
    with an ``unreadable`` error naming that file (and exit 0 with no error otherwise)."""
    proc = run_cli("hosts", "list", "--json", check=False)
    doc = json.loads(proc.stdout)
    assert doc["version"] == 1
    unread = [f["path"] for f in doc["files"] if f["error"] is not None]
    assert proc.returncode == (1 if unread else 0), proc.stderr
    if unread:
        assert doc["error"]["code"] == "unreadable"
        assert all(path in doc["error"]["message"] for path in unread)
    else:
        assert "error" not in doc
    return doc  # type: ignore[no-any-return]


def test_list_wrap_unwrap_through_the_cli(home: Path, rm_home: Path) -> None:
    path = claude_desktop(home, SAMPLES["claude-desktop"])
    goose = home / ".config" / "goose" / "config.yaml"
    goose.parent.mkdir(parents=True)
    goose.write_text(BROKEN["yaml"][0])
    original = path.read_bytes()
    files = {f["host"]: f for f in listed()["files"]}  # type: ignore[attr-defined]
    assert files["goose"]["error"].startswith("syntax error") and files["goose"]["line"] == 4
    desktop = files["claude-desktop"]
    assert desktop["path"] == str(path) and desktop["reloads"] is False
    assert [(s["name"], s["transport"], s["wrapped"]) for s in desktop["servers"]] == [
        ("fs", "stdio", False),
        ("web", "remote", False),
    ]

    dry = run_cli("hosts", "wrap", "claude-desktop", "--all", "--dry-run")
    assert '+      "command": "' in dry.stdout and "would be wrapped" in dry.stdout
    assert path.read_bytes() == original

    out = run_cli("hosts", "wrap", "claude-desktop", "fs", "--json")
    result = json.loads(out.stdout)
    assert result["version"] == 1 and result["files"][0]["restart_needed"] is True
    entry = json.loads(path.read_text())["mcpServers"]["fs"]
    bridge = Path(entry["command"])
    assert bridge.is_absolute() and bridge.name == "roots-bridge" and bridge.exists()
    assert entry["args"][:4] == ["--server", "fs", "--", "npx"]
    # a per-user directory other than the default travels with the entry
    assert entry["env"] == {"ROOTS_MANAGER_HOME": str(rm_home)}
    servers = json.loads(run_cli("servers", "list", "--json").stdout)
    assert [s["name"] for s in servers] == ["fs"] and servers[0]["fingerprint"]

    missing = run_cli("hosts", "wrap", "claude-desktop", "nope", check=False)
    assert missing.returncode == 1 and "no server named 'nope'" in missing.stderr
    nothing = run_cli("hosts", "wrap", "claude-desktop", check=False)
    assert nothing.returncode == 2 and "--all" in nothing.stderr
    unknown = run_cli("hosts", "wrap", "notepad", "--all", check=False)
    assert unknown.returncode == 2
    broken = run_cli("hosts", "wrap", "goose", "--all", check=False)
    assert broken.returncode == 1 and "syntax error" in broken.stdout

    run_cli("hosts", "unwrap", "claude-desktop", "--all")
    assert path.read_bytes() == original
    run_cli("hosts", "undo")
    assert json.loads(path.read_text())["mcpServers"]["fs"]["command"] == str(bridge)


ADDED_IN_41 = {
    "copilot-cli": ".copilot/mcp-config.json",
    "antigravity": ".gemini/config/mcp_config.json",
    "kimi-cli": ".kimi-code/mcp.json",
    "factory-droid": ".factory/mcp.json",
    "qoder": ".qoder/mcp.json",
    "mistral-vibe": ".vibe/config.toml",
    "amazon-q": ".aws/amazonq/default.json",
    "witsy": ".config/Witsy/settings.json",
    "jan": ".config/Jan/data/mcp_config.json",
    "librechat": "LibreChat/librechat.yaml",
    "boltai": ".boltai/mcp.json",
    "enconvo": ".config/enconvo/mcp_config.json",
    "qoder-cli": ".qoder/settings.json",
    "junie": ".junie/mcp/mcp.json",
    "rovo-dev": ".rovodev/mcp.json",
}
"""The hosts added for issue 41, and where each keeps its file in a Linux home folder (LibreChat
in its install folder, made a root)."""


def test_the_hosts_added_from_the_client_registries_are_wrapped_and_unwrapped_exactly(
    home: Path,
) -> None:
    paths = {}
    for host_id, rel in ADDED_IN_41.items():
        path = home / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(SAMPLES[host_id], encoding="utf-8")
        paths[host_id] = path
    run_cli("roots", "add", str(home / "LibreChat"))
    files = {f["host"]: f for f in listed()["files"]}  # type: ignore[attr-defined]
    for host_id, path in paths.items():
        assert files[host_id]["path"] == str(path) and files[host_id]["discontinued"] is None
        assert "fs" in [s["name"] for s in files[host_id]["servers"]], host_id
    assert files["librechat"]["scope"] == "project"
    for host_id, path in paths.items():
        out = json.loads(run_cli("hosts", "wrap", host_id, "fs", "--json").stdout)
        assert out["files"][0]["servers"][0]["status"] == "wrapped", host_id
        assert "roots-bridge" in path.read_text()
        run_cli("hosts", "unwrap", host_id, "--all")
        assert path.read_text(encoding="utf-8") == SAMPLES[host_id], host_id


def test_roo_code_is_still_read_and_said_to_be_discontinued(home: Path) -> None:
    empty = run_cli("hosts", "list")
    looked = empty.stdout.split("hosts looked for: ", 1)[1]
    assert "roo-code (discontinued 2026-05-15)" in looked and len(looked.split(", ")) >= 34
    roo = home / ".config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings"
    roo.mkdir(parents=True)
    (roo / "mcp_settings.json").write_text(SAMPLES["roo-code"])
    [file] = listed()["files"]  # type: ignore[index]
    assert file["host"] == "roo-code" and file["discontinued"] == "2026-05-15"
    table = run_cli("hosts", "list").stdout
    assert "roo-code (user, discontinued 2026-05-15)" in table


def test_unwrap_without_its_record_takes_away_the_bridge_s_directory_and_says_so(
    home: Path, rm_home: Path
) -> None:
    own_env = {"TOKEN": "kept"}
    text = json.dumps(
        {
            "mcpServers": {
                "fs": {"command": "npx", "args": ["-y", "server-filesystem"]},
                "gh": {"command": "gh-mcp", "args": [], "env": own_env},
            }
        },
        indent=2,
    )
    path = claude_desktop(home, text)
    run_cli("hosts", "wrap", "claude-desktop", "--all")
    wrapped = json.loads(path.read_text())["mcpServers"]
    assert wrapped["fs"]["env"] == {"ROOTS_MANAGER_HOME": str(rm_home)}
    assert wrapped["gh"]["env"] == {**own_env, "ROOTS_MANAGER_HOME": str(rm_home)}
    # the record of the wrap is lost (another per-user directory, a folder wiped)
    (rm_home / "hosts" / "record.json").unlink()
    out = run_cli("hosts", "unwrap", "claude-desktop", "--all").stdout
    entries = json.loads(path.read_text())["mcpServers"]
    # the bridge's directory goes with the bridge; the server's own settings stay
    assert entries["fs"] == {"command": "npx", "args": ["-y", "server-filesystem"]}
    assert entries["gh"] == {"command": "gh-mcp", "args": [], "env": own_env}
    said = f"its env's ROOTS_MANAGER_HOME={rm_home}, which only the bridge reads, is taken away"
    assert out.count(said) == 2, out


class Lines:
    """The stdout lines of a process, read in a thread so that waiting for one can time out."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.queue: queue.Queue[str] = queue.Queue()
        assert proc.stdout is not None
        out = proc.stdout
        threading.Thread(target=lambda: [self.queue.put(line) for line in out], daemon=True).start()

    def next(self, timeout: float = 20) -> dict[str, object]:
        return json.loads(self.queue.get(timeout=timeout))  # type: ignore[no-any-return]

    def none_within(self, seconds: float) -> bool:
        try:
            line = self.queue.get(timeout=seconds)
        except queue.Empty:
            return True
        raise AssertionError(f"unexpected line: {line}")


def test_effective_watch_prints_each_change_once(tmp_path: Path, rm_home: Path) -> None:
    a, b = make(tmp_path, "alpha", "beta#2")
    run_cli("roots", "add", a)
    run_cli("roots", "add", b)
    proc = subprocess.Popen(
        [sys.executable, "-m", "roots_manager.cli", "effective", "fs", "--watch", "--json"],
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    try:
        lines = Lines(proc)
        assert lines.next() == {"roots": []}
        run_cli("grant", "--new", "fs", a)
        assert lines.next() == {"roots": [{"uri": Path(a).as_uri(), "name": "alpha"}]}
        # a save that changes nothing for this server prints nothing
        run_cli("grant", "--new", "other", b)
        run_cli("roots", "rename", b, "beta two")
        assert lines.none_within(2.5)
        run_cli("grant", "fs", b)
        got = lines.next()
        assert [r["uri"] for r in got["roots"]] == [Path(a).as_uri(), Path(b).as_uri()]  # type: ignore[index]
        assert "%232" in json.dumps(got)
        run_cli("revoke", "fs", a, b)
        assert lines.next() == {"roots": []}
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_wrapped_claude_desktop_server_gets_the_granted_folders(
    home: Path, tmp_path: Path, filesystem_server: list[str]
) -> None:
    granted, other = make(tmp_path, "granted one", "not granted")
    run_cli("roots", "add", granted)
    run_cli("roots", "add", other)
    config = {
        "mcpServers": {
            "files": {"command": filesystem_server[0], "args": filesystem_server[1:]},
        }
    }
    path = claude_desktop(home, json.dumps(config, indent=2) + "\n")
    run_cli("hosts", "wrap", "claude-desktop", "files")
    # granted before the server ever ran: the wrap made it known
    run_cli("grant", "files", granted)
    entry = json.loads(path.read_text())["mcpServers"]["files"]

    async def scenario() -> None:
        # what a host does with the entry: the SDK adds only a few safe variables (PATH, HOME,
        # ...) to the entry's env, and declares no roots capability of its own
        params = StdioServerParameters(
            command=entry["command"], args=entry["args"], env=entry["env"]
        )
        async with Client(params) as client:
            await until(client, [granted], "the wrapped server's first start")

    started = time.monotonic()
    anyio.run(scenario)
    assert time.monotonic() - started < 60
    # no consent was asked: the command the user wrapped is the one that ran
    assert json.loads(run_cli("servers", "list", "--json").stdout)[0]["pending"] == []


def _project(tmp_path: Path) -> Path:
    folder = tmp_path / "work" / "app"
    folder.mkdir(parents=True)
    run_cli("roots", "add", str(folder))
    return folder


USER_AND_PROJECT = {
    "gemini-cli": (Path(".gemini/settings.json"), Path(".gemini/settings.json")),
    "vscode": (Path(".config/Code/User/mcp.json"), Path(".vscode/mcp.json")),
    "opencode": (Path(".config/opencode/opencode.json"), Path("opencode.jsonc")),
    "continue": (Path(".continue/config.yaml"), Path(".continue/mcpServers/fs.yaml")),
}


@pytest.mark.parametrize("host_id", sorted(USER_AND_PROJECT))
def test_undo_takes_back_every_file_of_one_command(
    home: Path, tmp_path: Path, host_id: str
) -> None:
    user_rel, project_rel = USER_AND_PROJECT[host_id]
    user, project = home / user_rel, _project(tmp_path) / project_rel
    for path in (user, project):
        path.parent.mkdir(parents=True, exist_ok=True)  # opencode's is in the project's root
        path.write_text(SAMPLES[host_id], encoding="utf-8")
    wrapped = json.loads(run_cli("hosts", "wrap", host_id, "--all", "--json").stdout)
    assert [f["path"] for f in wrapped["files"] if f["written"]] == [str(user), str(project)]

    undo = json.loads(run_cli("hosts", "undo", "--json").stdout)
    # one command, one undo: both files are as they were, byte for byte
    assert user.read_text() == project.read_text() == SAMPLES[host_id]
    assert undo["restored"] == [str(user), str(project)]
    assert undo["undone"]["action"] == "wrap" and undo["undone"]["done"] is True
    assert [s["status"] for f in undo["files"] for s in f["servers"]] == ["unwrapped"] * 2
    nothing = json.loads(run_cli("hosts", "undo", "--json").stdout)
    assert nothing["undone"] is None and nothing["files"] == []

    run_cli("hosts", "wrap", host_id, "--all")
    run_cli("hosts", "unwrap", host_id, "fs")
    out = run_cli("hosts", "undo").stdout  # takes back the unwrap of both files
    assert "took back the unwrap of " in out and f"restored {user}, {project}" in out
    assert SAMPLES[host_id] not in (user.read_text(), project.read_text())
    assert "restored" in run_cli("hosts", "undo").stdout
    assert user.read_text() == project.read_text() == SAMPLES[host_id]
    assert run_cli("hosts", "undo").stdout == "no host change to undo\n"


def test_undo_reads_the_changes_older_versions_recorded_one_file_each(
    home: Path, tmp_path: Path, rm_home: Path
) -> None:
    user = home / ".gemini" / "settings.json"
    project = _project(tmp_path) / ".gemini" / "settings.json"
    for path in (user, project):
        path.parent.mkdir(parents=True)
        path.write_text(SAMPLES["gemini-cli"], encoding="utf-8")
    run_cli("hosts", "wrap", "gemini-cli", "--all")
    record = rm_home / "hosts" / "record.json"
    doc = json.loads(record.read_text())
    # what the versions before steps wrote: an entry, with an id of its own, for each file
    assert [c["file"] for c in doc["changes"]] == [str(user), str(project)]
    assert len({c["id"] for c in doc["changes"]}) == 1
    doc["changes"][0]["id"] = "0123456789ab"
    record.write_text(json.dumps(doc, indent=2))
    first = json.loads(run_cli("hosts", "undo", "--json").stdout)
    assert first["restored"] == [str(project)] and user.read_text() != SAMPLES["gemini-cli"]
    second = json.loads(run_cli("hosts", "undo", "--json").stdout)
    assert second["restored"] == [str(user)] and user.read_text() == SAMPLES["gemini-cli"]
    assert project.read_text() == SAMPLES["gemini-cli"]


def test_undo_goes_on_after_a_hand_edit_took_a_server_away(home: Path) -> None:
    servers = {
        "a": {"command": "npx", "args": ["-y", "pkg-a"]},
        "b": {"command": "uvx", "args": ["pkg-b"]},
    }
    path = claude_desktop(home, json.dumps({"mcpServers": servers}, indent=2) + "\n")
    run_cli("hosts", "wrap", "claude-desktop", "a")
    run_cli("hosts", "wrap", "claude-desktop", "b")
    doc = json.loads(path.read_text())
    del doc["mcpServers"]["b"]  # by hand
    path.write_text(json.dumps(doc, indent=2) + "\n")
    by_hand = path.read_bytes()

    first = json.loads(run_cli("hosts", "undo", "--json").stdout)
    assert first["undone"] == {"action": "wrap", "at": first["undone"]["at"], "done": True}
    assert first["restored"] == [] and "error" not in first
    [file] = first["files"]
    assert file["notes"] == [f"'b' is no longer in {path}: nothing of it to take back"]
    assert path.read_bytes() == by_hand
    # and the undo before it goes on
    second = run_cli("hosts", "undo")
    assert "  a: unwrapped\n" in second.stdout and f"restored {path}" in second.stdout
    assert json.loads(path.read_text()) == {"mcpServers": {"a": servers["a"]}}
    assert run_cli("hosts", "undo").stdout == "no host change to undo\n"

    run_cli("hosts", "wrap", "claude-desktop", "a")
    path.unlink()
    gone = run_cli("hosts", "undo")
    assert f"  {path} no longer exists: nothing of it to take back\n" in gone.stdout
    assert "nothing was left to restore" in gone.stdout
    assert run_cli("hosts", "undo").stdout == "no host change to undo\n"


def _json_failure(*args: str, code: int = 1) -> dict[str, object]:
    proc = run_cli(*args, "--json", check=False)
    assert proc.returncode == code, (args, proc.stdout, proc.stderr)
    doc = json.loads(proc.stdout)  # one document, whatever went wrong
    assert doc["version"] == 1 and set(doc["error"]) == {"code", "message"}
    return doc  # type: ignore[no-any-return]


def test_every_json_failure_of_the_hosts_commands_is_an_error_object(
    home: Path, rm_home: Path
) -> None:
    path = claude_desktop(home, SAMPLES["claude-desktop"])
    missing = _json_failure("hosts", "wrap", "claude-desktop", "nope")
    assert missing["error"] == {
        "code": "no-such-server",
        "message": f"no server named 'nope' in these files: {path}",
    }
    relative = _json_failure("hosts", "wrap", "claude-desktop", "fs", "--bridge", "roots-bridge")
    assert relative["error"]["code"] == "no-bridge"  # type: ignore[index]

    path.write_text(BROKEN["json"][0])
    broken = _json_failure("hosts", "wrap", "claude-desktop", "--all")
    assert broken["error"]["code"] == "not-changed"  # type: ignore[index]
    assert "syntax error" in broken["error"]["message"]  # type: ignore[index]
    assert broken["files"][0]["error"] == broken["error"]["message"]  # type: ignore[index]

    record = rm_home / "hosts" / "record.json"
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text("{ damaged")
    damaged = _json_failure("hosts", "undo")
    assert damaged["error"]["code"] == "record" and str(record) in damaged["error"]["message"]  # type: ignore[index]

    (rm_home / "store.json").write_text("{ damaged")
    store = _json_failure("hosts", "list", code=3)
    assert store["error"]["code"] == "store"  # type: ignore[index]


def test_a_claude_code_file_of_a_hundred_megabytes_is_wrapped_and_undone_exactly(
    home: Path,
) -> None:
    path = home / ".claude.json"
    path.write_text(claude_code_history(100 << 20), encoding="utf-8")
    original = path.read_bytes()
    assert len(original) >= 100 << 20
    [found] = listed()["files"]  # type: ignore[misc]
    assert found["error"] is None and [s["name"] for s in found["servers"]] == ["fs"]
    wrapped = json.loads(run_cli("hosts", "wrap", "claude-code", "--all", "--json").stdout)
    [file] = wrapped["files"]
    assert file["written"] and [s["status"] for s in file["servers"]] == ["wrapped"]
    # the diff is of the entry, with its context, numbered as in the file
    first_line = original[: original.index(b'"command": "npx"')].count(b"\n") + 1
    assert file["diff"].split("\n")[2].startswith(f"@@ -{first_line - 3},")
    assert len(file["diff"]) < 2000
    entry = json.loads(path.read_bytes())["mcpServers"]["fs"]
    assert entry["args"][:4] == ["--server", "fs", "--", "npx"]
    run_cli("hosts", "undo")
    assert path.read_bytes() == original


@pytest.mark.parametrize("kind", ["named pipe", "link to nothing", "link to /dev/zero"])
def test_what_stands_in_a_config_files_place_is_an_error_naming_it(home: Path, kind: str) -> None:
    path = home / ".claude.json"
    if kind == "named pipe":
        os.mkfifo(path)
        reason = f"{path} is a named pipe (FIFO), not a regular file"
    elif kind == "link to nothing":
        os.symlink(home / "gone.json", path)
        reason = f"{path} is a symbolic link to {home / 'gone.json'}, which does not exist"
    else:
        os.symlink("/dev/zero", path)
        reason = f"{path} (a symbolic link to /dev/zero) is a character device, not a regular file"
    # read neither for ever nor until a writer comes
    proc = run_cli("hosts", "list", "--json", timeout=30, check=False)
    doc = json.loads(proc.stdout)
    assert [(f["path"], f["error"], f["servers"]) for f in doc["files"]] == [
        (str(path), reason, [])
    ]
    assert proc.returncode == 1 and doc["error"]["code"] == "unreadable"
    text = run_cli("hosts", "list", timeout=30, check=False)
    assert text.returncode == 1 and reason in text.stdout
    wrap = run_cli("hosts", "wrap", "claude-code", "--all", check=False, timeout=30)
    assert wrap.returncode == 1 and f"  not changed: {reason}\n" in wrap.stdout
    assert "no configuration file" not in wrap.stdout


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ('[{"mcpServers": {}}]\n', "a list"),
        ("null\n", "null"),
        ('"x"', "a string"),
        ("7", "a number"),
    ],
)
def test_a_file_that_is_not_a_table_of_settings_is_an_error_naming_it(
    home: Path, text: str, kind: str
) -> None:
    path = claude_desktop(home, text)
    reason = f"{path} holds {kind} at its top level, not a table of settings"
    [found] = listed()["files"]  # type: ignore[misc]
    assert found["error"] == reason and found["servers"] == []
    wrap = run_cli("hosts", "wrap", "claude-desktop", "--all", check=False)
    assert wrap.returncode == 1 and f"  not changed: {reason}\n" in wrap.stdout
    named = run_cli("hosts", "wrap", "claude-desktop", "fs", check=False)
    assert named.returncode == 1 and reason in named.stdout
    assert path.read_text() == text


@pytest.mark.parametrize(
    ("text", "kind"), [('{"mcpServers": [{"name": "fs", "command": ["npx"]}]}\n', "a list"),
                       ('{"mcpServers": "npx"}\n', "a string")],
)  # fmt: skip
def test_servers_in_a_shape_the_host_does_not_read_are_an_error_naming_it(
    home: Path, text: str, kind: str
) -> None:
    # a list of servers is the shape some third-party guides give Trae's mcp.json; Trae's own
    # guide gives a table, so a list is refused rather than shown as "no servers"
    path = home / ".config" / "Trae" / "User" / "mcp.json"
    path.parent.mkdir(parents=True)
    path.write_text(text)
    reason = f"{path}: mcpServers holds {kind}, not the table of servers Trae reads"
    [found] = listed()["files"]  # type: ignore[misc]
    assert (found["host"], found["error"], found["servers"]) == ("trae", reason, [])
    wrap = run_cli("hosts", "wrap", "trae", "--all", check=False)
    assert wrap.returncode == 1 and f"  not changed: {reason}\n" in wrap.stdout
    assert path.read_text() == text


def _without_override() -> None:  # pragma: no cover - runs in the child before exec
    """Drop root's power over every file's mode (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH): the
    command then meets read-only files and folders as a user does."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    pr_capbset_drop = 24
    for cap in (1, 2):
        if libc.prctl(pr_capbset_drop, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def run_as_user(*args: str) -> subprocess.CompletedProcess[str]:
    """``roots-manager ARGS`` as an ordinary user would run it: root runs it without the power
    to write what is read-only (the files stay root's, so every folder stays reachable)."""
    return subprocess.run(
        [sys.executable, "-m", "roots_manager.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ.copy(),
        preexec_fn=_without_override if os.geteuid() == 0 else None,
    )


@only_on_linux("file modes and the capabilities root drops to meet them are Linux's")
@pytest.mark.parametrize("locked", ["file", "folder", "unreadable file"])
def test_a_read_only_file_or_folder_is_refused_in_one_sentence(
    home: Path, rm_home: Path, locked: str
) -> None:
    path = home / ".cursor" / "mcp.json"
    path.parent.mkdir()
    path.write_text(SAMPLES["cursor"], encoding="utf-8")
    run_cli("servers", "list")  # the per-user directory, made before the locks
    target, mode, restore = {
        "file": (path, 0o444, 0o644),
        "folder": (path.parent, 0o555, 0o755),
        "unreadable file": (path, 0o000, 0o644),
    }[locked]
    reason = {
        "file": f"{path} is read-only",
        "folder": f"the folder of {path} is read-only, and the new file is written there "
        "before it takes the old one's place",
        "unreadable file": f"{path} cannot be read: permission denied",
    }[locked]
    target.chmod(mode)
    try:
        human = run_as_user("hosts", "wrap", "cursor", "--all")
        assert human.returncode == 1, human.stdout + human.stderr
        # of the server that would have been wrapped, nothing (the remote one is as it was)
        web = "  web: not wrappable (a remote server: its roots do not go over stdio)\n"
        readable = locked != "unreadable file"
        assert human.stdout == f"{path}:\n{web * readable}  not changed: {reason}\n"
        assert human.stderr == ""
        as_json = run_as_user("hosts", "wrap", "cursor", "--all", "--json")
        assert as_json.returncode == 1
        doc = json.loads(as_json.stdout)
        assert doc["error"] == {"code": "not-changed", "message": f"not changed: {reason}"}
        [file] = doc["files"]
        assert not file["written"] and file["backup"] is None
        outcomes = [(s["name"], s["status"]) for s in file["servers"]]
        assert outcomes == [("web", "not-wrappable")] * readable
        if locked == "unreadable file":
            [found] = json.loads(run_as_user("hosts", "list", "--json").stdout)["files"]
            assert found["error"] == reason
    finally:
        target.chmod(restore)
    assert path.read_text() == SAMPLES["cursor"]
    assert os.listdir(path.parent) == ["mcp.json"]  # no temporary file left
    backups = rm_home / "hosts" / "backups"
    assert not backups.exists() or os.listdir(backups) == []
    record = rm_home / "hosts" / "record.json"
    assert not record.exists() or json.loads(record.read_text())["wrapped"] == []


@only_on_linux("file modes and the capabilities root drops to meet them are Linux's")
def test_undo_keeps_a_file_it_could_not_change_for_the_next_undo(
    home: Path, tmp_path: Path
) -> None:
    user = home / ".gemini" / "settings.json"
    project = _project(tmp_path) / ".gemini" / "settings.json"
    for path in (user, project):
        path.parent.mkdir(parents=True)
        path.write_text(SAMPLES["gemini-cli"], encoding="utf-8")
    run_cli("hosts", "wrap", "gemini-cli", "--all")
    wrapped = project.read_bytes()
    project.chmod(0o444)
    try:
        partly = run_as_user("hosts", "undo", "--json")
    finally:
        project.chmod(0o644)
    assert partly.returncode == 1
    doc = json.loads(partly.stdout)
    assert doc["restored"] == [str(user)] and doc["undone"]["done"] is False
    assert doc["error"] == {
        "code": "not-changed",
        "message": f"not changed: {project} is read-only",
    }
    assert user.read_text() == SAMPLES["gemini-cli"] and project.read_bytes() == wrapped
    # the step keeps the file it could not change, and the next undo takes it back
    rest = run_cli("hosts", "undo")
    assert f"restored {project}\n" in rest.stdout and str(user) not in rest.stdout
    assert project.read_text() == SAMPLES["gemini-cli"]
    assert run_cli("hosts", "undo").stdout == "no host change to undo\n"


def test_a_host_s_server_named_like_a_known_one_is_wrapped_under_a_name_apart(
    home: Path, rm_home: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "proj"
    folder.mkdir()
    run_cli("roots", "add", str(folder))
    run_cli("grant", "--new", "fs", str(folder))
    spoof = "f\u0455"  # a Cyrillic dze: it looks like "fs"
    doc = {"mcpServers": {spoof: {"command": "npx", "args": ["-y", "some-server"]}}}
    claude_desktop(home, json.dumps(doc, ensure_ascii=False))
    out = json.loads(run_cli("hosts", "wrap", "claude-desktop", "--all", "--json").stdout)
    [entry] = out["files"][0]["servers"]
    assert entry["status"] == "wrapped" and entry["bridge_server"] == f"{spoof}-claude-desktop"
    # why it got another name: it looks like fs, not "another server has that name"
    assert entry["detail"].endswith("it looks like the server 'fs'"), entry
    servers = json.loads(run_cli("servers", "list", "--json").stdout)
    names = {s["name"] for s in servers}
    assert spoof not in names and f"{spoof}-claude-desktop" in names, names


def test_roots_args_turns_a_claude_desktop_server_s_folders_into_its_grants(
    home: Path, tmp_path: Path, filesystem_server: list[str]
) -> None:
    """``hosts wrap --roots-args``: the folders the entry gave the server become ``{roots}``
    and its grants, so the host's server still allows exactly them; Undo gives the file back."""
    mine, theirs = make(tmp_path, "my notes", "work")
    config = {
        "mcpServers": {
            "files": {"command": filesystem_server[0], "args": [*filesystem_server[1:], mine]},
            "other": {"command": filesystem_server[0], "args": [*filesystem_server[1:], theirs]},
        }
    }
    path = claude_desktop(home, json.dumps(config, indent=2) + "\n")
    original = path.read_bytes()

    dry = run_cli("hosts", "wrap", "claude-desktop", "files", "--roots-args", "--dry-run")
    assert '+        "{roots}"' in dry.stdout and f'-        "{mine}"' in dry.stdout
    assert path.read_bytes() == original
    plain = run_cli("hosts", "wrap", "claude-desktop", "other", "--dry-run").stdout
    assert "'other' takes folders as arguments" in plain and "--roots-args" in plain

    run_cli("hosts", "wrap", "claude-desktop", "files", "--roots-args")
    entry = json.loads(path.read_text())["mcpServers"]["files"]
    assert entry["args"][-1] == "{roots}" and mine not in entry["args"]
    roots = json.loads(run_cli("roots", "list", "--json").stdout)
    assert [r["path"] for r in roots] == [mine]

    async def scenario() -> None:
        params = StdioServerParameters(
            command=entry["command"], args=entry["args"], env=entry["env"]
        )
        async with Client(params) as client:
            await until(client, [mine], "the wrapped server's first start")

    anyio.run(scenario)
    assert json.loads(run_cli("servers", "list", "--json").stdout)[0]["pending"] == []

    run_cli("hosts", "undo")
    assert path.read_bytes() == original
