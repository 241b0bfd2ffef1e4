"""The CLI end to end, through real processes, with awkward folder names."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from roots_manager import __version__
from roots_manager.core.roots.uri import path_to_uri
from tests.conftest import run_cli

NAMES = [
    "my project",
    "web#staging",
    "100% done",
    "日本語のプロジェクト",
    "中文项目",
    "mixed ÿ #%? x",
]


@pytest.fixture
def folders(tmp_path: Path) -> list[Path]:
    out = []
    for n in NAMES:
        d = tmp_path / "ws" / n
        d.mkdir(parents=True)
        out.append(d)
    return out


def roots_json() -> list[dict[str, object]]:
    return json.loads(run_cli("roots", "list", "--json").stdout)


def effective_uris(server: str) -> list[str]:
    return [r["uri"] for r in json.loads(run_cli("effective", server, "--json").stdout)["roots"]]


def test_full_flow_with_awkward_names(folders: list[Path]) -> None:
    for f in folders:
        out = run_cli("roots", "add", str(f)).stdout
        assert path_to_uri(str(f)) in out
    listed = roots_json()
    assert [r["path"] for r in listed] == [str(f) for f in folders]
    assert [r["name"] for r in listed] == NAMES
    assert all(r["available"] for r in listed)
    assert listed[1]["uri"].endswith("/web%23staging")
    assert listed[2]["uri"].endswith("/100%25%20done")

    # a root can be named by path, by URI or by name
    run_cli(
        "grant",
        "--new",
        "fs",
        str(folders[0]),
        path_to_uri(str(folders[1])),
        "日本語のプロジェクト",
    )
    assert effective_uris("fs") == [
        path_to_uri(str(f)) for f in (folders[0], folders[1], folders[3])
    ]
    human = run_cli("effective", "fs").stdout
    assert "web#staging\t" + path_to_uri(str(folders[1])) in human

    run_cli("roots", "rename", "中文项目", "后端 服务")
    assert roots_json()[4]["name"] == "后端 服务"
    run_cli("grant", "fs", "后端 服务", "--while-running")
    granted = {r["name"]: r["granted_to"] for r in roots_json()}
    assert granted["后端 服务"] == [{"server": "fs", "scope": "session"}]

    run_cli("revoke", "fs", "web#staging")
    assert path_to_uri(str(folders[1])) not in effective_uris("fs")

    out = run_cli("roots", "remove", str(folders[0])).stdout
    assert "servers that lost access: fs" in out
    assert path_to_uri(str(folders[0])) not in effective_uris("fs")
    assert len(roots_json()) == len(NAMES) - 1

    servers = json.loads(run_cli("servers", "list", "--json").stdout)
    assert [s["name"] for s in servers] == ["fs"]
    assert servers[0]["pending"] == [] and servers[0]["running"] == []


def test_roots_list_shows_vanished_folders_as_unavailable(folders: list[Path]) -> None:
    run_cli("roots", "add", str(folders[3]))
    run_cli("grant", "--new", "fs", str(folders[3]))
    folders[3].rmdir()
    listed = roots_json()
    assert listed[0]["available"] is False and listed[0]["unavailable_reason"] == "missing"
    assert "no (missing)" in run_cli("roots", "list").stdout
    assert effective_uris("fs") == []
    folders[3].mkdir()
    assert effective_uris("fs") == [path_to_uri(str(folders[3]))]


def test_refusals_are_clear_and_change_nothing(folders: list[Path], tmp_path: Path) -> None:
    run_cli("roots", "add", str(folders[0]))
    before = run_cli("roots", "list", "--json").stdout

    cases = [
        (["roots", "add", "/"], "root of the file system"),
        (["roots", "add", str(Path.home())], "home folder"),
        (["roots", "add", str(tmp_path / "nope")], "does not exist"),
        (["roots", "add", str(folders[0])], "already a root"),
        (["grant", "--new", "fs", "no-such-root"], "no root matches"),
        (["revoke", "fs", "http://example.com/x"], "only file://"),
        (["roots", "add", "file:///tmp/\udcff"], "raw bytes that are not UTF-8"),  # byte 0xff
        (["roots", "rename", str(folders[0]), "   "], "cannot be empty"),
        (["servers", "approve", "ghost"], "no server named"),
    ]
    for args, words in cases:
        proc = run_cli(*args, check=False)
        assert proc.returncode == 1, (args, proc.stdout, proc.stderr)
        assert words in proc.stderr, (args, proc.stderr)
    assert run_cli("roots", "list", "--json").stdout == before
    assert "--allow-broad" in run_cli("roots", "add", "/", check=False).stderr
    run_cli("roots", "add", "/", "--allow-broad")


@pytest.mark.skipif(os.name != "posix", reason="PATH_MAX and dir_fd are POSIX's")
def test_a_path_too_long_is_said_to_be_too_long_not_missing(tmp_path: Path) -> None:
    # a folder that exists, made one level at a time from an open folder: its full path is
    # longer than PATH_MAX, so the system refuses to look it up by that path
    name = "d" * 200
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        for _ in range(os.pathconf(tmp_path, "PC_PATH_MAX") // len(name) + 2):
            os.mkdir(name, dir_fd=fd)
            inner = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
    finally:
        os.close(fd)
    deep = str(tmp_path) + ("/" + name) * (os.pathconf(tmp_path, "PC_PATH_MAX") // len(name) + 2)
    one_name_too_long = str(tmp_path / ("n" * 300))
    for path in (deep, one_name_too_long):
        proc = run_cli("roots", "add", path, check=False)
        assert proc.returncode == 1, proc.stderr
        assert "does not exist" not in proc.stderr
        assert "is longer than the system allows (ENAMETOOLONG)" in proc.stderr
        doc = json.loads(run_cli("roots", "add", path, "--json", check=False).stdout)
        assert doc["error"]["code"] == "bad-path"
    assert roots_json() == []


@pytest.mark.skipif(os.name != "posix", reason="file://// names a UNC share on Windows")
def test_a_four_slash_uri_names_the_folder_not_a_second_root(folders: list[Path]) -> None:
    folder = str(folders[1])  # web#staging: its '#' percent-encoded in every spelling
    uri = path_to_uri(folder)
    four = "file:////" + uri[len("file:///") :]
    run_cli("roots", "add", four)
    again = run_cli("roots", "add", "file://localhost" + uri[len("file://") :], check=False)
    assert again.returncode == 1 and "already a root" in again.stderr
    assert [(r["path"], r["uri"]) for r in roots_json()] == [(folder, uri)]
    run_cli("grant", "--new", "fs", four)
    assert effective_uris("fs") == [uri]


def test_policy_and_version_and_help() -> None:
    assert run_cli("policy").stdout.strip() == "ask"
    run_cli("policy", "allow-all")
    assert run_cli("policy").stdout.strip() == "allow-all"
    bad = run_cli("policy", "maybe", check=False)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
    assert run_cli("--version").stdout.strip() == f"roots-manager {__version__}"
    helptext = run_cli("--help").stdout
    for word in (
        "roots",
        "grant",
        "revoke",
        "servers",
        "effective",
        "policy",
        "store",
        "log",
        "bridge",
    ):
        assert word in helptext


def test_allow_all_policy_gives_an_unknown_server_every_root(folders: list[Path]) -> None:
    for f in folders[:2]:
        run_cli("roots", "add", str(f))
    assert effective_uris("stranger") == []
    run_cli("policy", "allow-all")
    assert effective_uris("stranger") == [path_to_uri(str(f)) for f in folders[:2]]


def test_store_check_on_a_fresh_home() -> None:
    out = run_cli("store", "check").stdout
    assert "no store yet" in out
    run_cli("policy", "deny")
    assert "is good: revision 1" in run_cli("store", "check").stdout


# ---- what a demanding user tries next ----------------------------------------------------------


def test_roots_add_takes_a_file_uri(folders: list[Path]) -> None:
    uri = path_to_uri(str(folders[1]))
    out = run_cli("roots", "add", uri, "--name", "staging").stdout
    assert uri in out
    assert [(r["path"], r["name"]) for r in roots_json()] == [(str(folders[1]), "staging")]
    bad = run_cli("roots", "add", "https://example.com/repo", check=False)
    assert bad.returncode == 1 and "only file://" in bad.stderr


def test_roots_list_lines_up_wide_names_on_a_terminal(folders: list[Path]) -> None:
    for f in (folders[0], folders[3], folders[4]):
        run_cli("roots", "add", str(f))
    run_cli("roots", "rename", "中文项目", "后端")
    lines = run_cli("roots", "list").stdout.splitlines()
    assert lines[0].startswith("NAME") and len(lines) == 4

    def columns(text: str) -> int:
        import unicodedata

        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

    # the PATH column starts at the same terminal column on every line
    starts = {columns(line[: line.index("/")]) if "/" in line else None for line in lines[1:]}
    assert starts == {columns(lines[0][: lines[0].index("PATH")])}


def test_control_characters_in_a_folder_name_never_reach_the_terminal(tmp_path: Path) -> None:
    folder = tmp_path / "red\x1b[31mtext\x07"
    folder.mkdir()
    out = run_cli("roots", "add", str(folder)).stdout
    assert "\x1b" not in out and "\x07" not in out and "\\x1b[31m" in out
    human = run_cli("roots", "list").stdout
    assert "\x1b" not in human and "\\x1b[31mtext\\x07" in human
    assert roots_json()[0]["path"] == str(folder)  # JSON keeps the exact path
    refused = run_cli("roots", "rename", str(folder), "x\x1b]0;pwned\x07", check=False)
    assert refused.returncode == 1 and "control or text-direction" in refused.stderr
    assert "\x1b" not in refused.stderr


def test_a_folder_name_that_is_not_utf8(tmp_path: Path) -> None:
    raw = os.fsencode(tmp_path) + b"/caf\xe9"
    os.mkdir(raw)
    proc = subprocess.run(
        [sys.executable, "-m", "roots_manager.cli", "roots", "add", raw],
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert b"caf\\xe9" in proc.stdout and b"/caf%E9" in proc.stdout
    run_cli("grant", "--new", "fs", path_to_uri(os.fsdecode(raw)))
    assert effective_uris("fs") == [path_to_uri(os.fsdecode(raw))]
    listed = roots_json()
    assert listed[0]["path"] == os.fsdecode(raw) and listed[0]["uri"].endswith("/caf%E9")
    assert "caf\\xe9" in run_cli("roots", "list").stdout


def test_revoke_names_what_it_did_and_refuses_an_unknown_server(folders: list[Path]) -> None:
    run_cli("roots", "add", str(folders[0]))
    run_cli("grant", "--new", "fs", str(folders[0]))
    typo = run_cli("revoke", "sf", str(folders[0]), check=False)
    assert typo.returncode == 1 and "no server named 'sf'" in typo.stderr
    assert effective_uris("fs") == [path_to_uri(str(folders[0]))]
    assert "revoked 1 grant(s) from fs" in run_cli("revoke", "fs", str(folders[0])).stdout
    again = run_cli("revoke", "fs", str(folders[0]))
    assert "had no grant of that root; nothing changed" in again.stdout


def test_every_file_in_the_state_directory_stays_private(
    folders: list[Path], tmp_path: Path
) -> None:
    """Real use with a permissive umask: the CLI, a bridge with a real server, a recovery."""
    from roots_manager.core.directory.layout import Layout

    home = Path(os.environ["ROOTS_MANAGER_HOME"])
    env = os.environ.copy()

    def cli(*args: str) -> None:
        proc = subprocess.run(
            [sys.executable, "-m", "roots_manager.cli", *args],
            capture_output=True,
            timeout=60,
            env=env,
            umask=0o022,
        )
        assert proc.returncode == 0, proc.stderr

    def loose_modes() -> list[str]:
        bad = []
        for p in [home, *home.rglob("*")]:
            want = 0o700 if p.is_dir() else 0o600
            mode = stat.S_IMODE(p.lstat().st_mode)
            if mode != want:
                bad.append(f"{p.relative_to(home.parent)}: {mode:o}")
        return bad

    cli("roots", "add", str(folders[0]))
    cli("grant", "--new", "fs", str(folders[0]))
    cli("policy", "deny")
    bridge = subprocess.Popen(
        [
            *(sys.executable, "-m", "roots_manager.cli", "bridge", "--server", "fs", "--"),
            *(sys.executable, "-c", "import sys; sys.stdin.buffer.read()"),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        umask=0o022,
    )
    try:
        layout = Layout(home)
        deadline = time.monotonic() + 60
        while not list(layout.live.glob("bridge-*.json")):
            assert bridge.poll() is None, bridge.stderr.read() if bridge.stderr else ""
            assert time.monotonic() < deadline, "the bridge never wrote its live marker"
            time.sleep(0.05)
        assert list(layout.logs.glob("*.jsonl")), "the bridge keeps no event log"
        assert loose_modes() == []
    finally:
        assert bridge.stdin is not None
        bridge.stdin.close()
        bridge.wait(timeout=60)
    layout.store.write_bytes(b"{ damaged")
    layout.store.chmod(0o644)
    cli("store", "recover")
    cli("roots", "list")
    assert [p.name for p in home.iterdir() if ".damaged-" in p.name]
    assert loose_modes() == []


def test_empty_answers_and_allow_all_say_why(folders: list[Path]) -> None:
    run_cli("roots", "add", str(folders[0]))
    out = run_cli("effective", "stranger").stdout
    assert (
        "stranger sees no roots (no server named 'stranger' is known, and the policy is ask)" in out
    )
    run_cli("policy", "allow-all")
    assert "every server sees every available root" in run_cli("roots", "list").stdout
    assert "allow-all" not in run_cli("roots", "list", "--json").stdout


def test_approve_takes_the_fingerprint_that_servers_list_json_shows(
    store, folders: list[Path]
) -> None:  # type: ignore[no-untyped-def]
    run_cli("roots", "add", str(folders[0]), "--name", "proj")
    with store.transaction() as state:
        state.server_started("fs", ["fs-server", "--v1"], "s1")
        state.grant("fs", [state.find_root("proj").id])
        state.server_started("fs", ["fs-server", "--v2"], "s2")  # suspended until approved
    listed = json.loads(run_cli("servers", "list", "--json").stdout)
    seen = next(s for s in listed if s["name"] == "fs")["seen_fingerprint"]
    table = run_cli("servers", "list").stdout
    assert seen[:12] in table

    # the server restarts with yet another command before the user approves what they saw
    with store.transaction() as state:
        state.server_started("fs", ["fs-server", "--v3"], "s3")
    stale = run_cli("servers", "approve", "fs", "--fingerprint", seen, check=False)
    assert stale.returncode == 1
    assert "another command line than the one expected: fs-server --v3" in stale.stderr
    short = run_cli("servers", "approve", "fs", "--fingerprint", seen[:12], check=False)
    assert short.returncode == 1 and "is not a command fingerprint" in short.stderr
    assert run_cli("effective", "fs", "--json").stdout.count("file://") == 0

    now = next(
        s for s in json.loads(run_cli("servers", "list", "--json").stdout) if s["name"] == "fs"
    )["seen_fingerprint"]
    done = run_cli("servers", "approve", "fs", "--fingerprint", now)
    assert "--v3" in done.stdout
    assert path_to_uri(str(folders[0])) in run_cli("effective", "fs", "--json").stdout


def test_stored_look_alike_server_names_are_told_apart(tmp_path: Path) -> None:
    folder = tmp_path / "proj"
    folder.mkdir()
    run_cli("roots", "add", str(folder), "--name", "proj")
    run_cli("grant", "--new", "fs", "proj")
    # names a store may hold from before they were refused (or from a hand edit)
    store = Path(os.environ["ROOTS_MANAGER_HOME"]) / "store.json"
    doc = json.loads(store.read_text(encoding="utf-8"))
    odd = ["fs\u200b", "fs\u00ad", "fs "]
    for name in odd:
        doc["servers"][name] = {}
        doc["grants"].append({"server": name, "root": doc["roots"][0]["id"], "scope": "always"})
    store.write_text(json.dumps(doc), encoding="utf-8")

    table = run_cli("servers", "list").stdout.splitlines()
    names = sorted(line.split()[0] for line in table[1:])
    assert names == ["fs", "fs\\u200b", "fs\\x20", "fs\\xad"]
    listed = json.loads(run_cli("servers", "list", "--json").stdout)
    assert sorted(s["name"] for s in listed) == sorted(["fs", *odd])  # exact in JSON
    granted = run_cli("roots", "list").stdout.splitlines()[1]
    assert "fs, fs\\u200b, fs\\xad, fs\\x20" in granted

    # what is shown can be typed: the look-alike goes, "fs" keeps its grant
    assert "revoked 1 grant(s) from fs\\u200b" in run_cli("revoke", "fs\\u200b", "proj").stdout
    assert "sees no roots" in run_cli("effective", "fs\\u200b").stdout
    assert "forgot fs\\x20" in run_cli("servers", "remove", "fs\\x20").stdout
    refused = run_cli("grant", "fs\\xad", "proj", check=False)
    assert refused.returncode == 1 and "would look like another name" in refused.stderr
    left = json.loads(run_cli("servers", "list", "--json").stdout)
    assert sorted(s["name"] for s in left) == sorted(["fs", "fs\u200b", "fs\u00ad"])
    assert effective_uris("fs") == [path_to_uri(str(folder))]


def test_redirected_output_is_utf8_whatever_the_locale_says(tmp_path: Path) -> None:
    """Windows gives a redirected stdout the ANSI code page; a CJK folder name must still go."""
    folder = tmp_path / "日本語のプロジェクト"
    folder.mkdir()
    run_cli("roots", "add", str(folder))
    proc = subprocess.run(
        [sys.executable, "-m", "roots_manager.cli", "roots", "list"],
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "cp1252"},
    )
    assert proc.returncode == 0, proc.stderr
    assert str(folder) in proc.stdout.decode("utf-8")


@pytest.mark.parametrize("args", [["--jsno"], ["gui", "--jsno"], ["--demo", "--hiden"], ["--json"]])
def test_a_mistyped_option_is_a_usage_error_not_the_desktop_app(args: list[str]) -> None:
    # a window opened by mistake would keep the process running into the timeout
    proc = run_cli(*args, check=False, timeout=30)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("usage: roots-manager")
    assert f"unrecognized arguments: {args[-1]}" in proc.stderr
    assert proc.stdout == ""


def test_the_apps_own_options_are_in_the_help() -> None:
    shown = run_cli("--help").stdout
    assert "--demo" in shown and "--hidden" in shown
    shown = run_cli("gui", "--help").stdout
    assert "--demo" in shown and "-platform" in shown


def test_grant_gives_exactly_the_scope_asked_as_the_app_does(folders: list[Path]) -> None:
    """``grant --while-running`` of a root granted always narrows it, as a click on the app's
    matrix cell does; a plain ``grant`` widens it again."""
    run_cli("roots", "add", str(folders[0]))
    run_cli("grant", "--new", "fs", NAMES[0])
    assert roots_json()[0]["granted_to"] == [{"server": "fs", "scope": "always"}]
    out = run_cli("grant", "fs", NAMES[0], "--while-running").stdout
    assert "while it runs" in out
    assert roots_json()[0]["granted_to"] == [{"server": "fs", "scope": "session"}]
    run_cli("grant", "fs", NAMES[0])
    assert roots_json()[0]["granted_to"] == [{"server": "fs", "scope": "always"}]


def test_a_servers_domains_are_kept_while_its_network_is_allowed_or_blocked(
    rm_home: Path,
) -> None:
    """``servers network NAME allowed`` (or ``blocked``) changes what the network is, not the
    domains it was limited to: ``domains`` alone limits it to them again, from the store file,
    in a later process as in the app."""
    run_cli("servers", "network", "web", "domains", "--allow", "a.example", "--new")
    said = run_cli("servers", "network", "web", "allowed").stdout
    assert said.startswith("web: network allowed\n"), said
    stored = json.loads((rm_home / "store.json").read_text())["servers"]["web"]
    assert (stored["network"], stored["network_domains"]) == ("allowed", ["a.example"])
    shown = json.loads(run_cli("servers", "show", "web", "--json").stdout)
    assert (shown["network"], shown["network_domains"]) == ("allowed", [])  # not in force
    assert shown["network_domains_kept"] == ["a.example"]
    assert "  network: allowed\n" in run_cli("servers", "show", "web").stdout
    out = json.loads(run_cli("servers", "network", "web", "blocked", "--json").stdout)
    assert (out["network"], out["network_domains"]) == ("blocked", [])
    assert out["network_domains_kept"] == ["a.example"]

    said = run_cli("servers", "network", "web", "domains").stdout
    assert said.startswith("web: network limited to domains: a.example\n"), said
    shown = json.loads(run_cli("servers", "show", "web", "--json").stdout)
    assert (shown["network"], shown["network_domains"]) == ("domains", ["a.example"])
    assert "  network: only through the proxy, to a.example\n" in (
        run_cli("servers", "show", "web").stdout
    )
