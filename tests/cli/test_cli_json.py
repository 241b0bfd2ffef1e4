"""``--json`` on every command, one error document for every failure, near misses named, and
``grant`` that refuses a server nobody has seen.

Most commands here run in this process through ``main()``, on a real store in the test's own
``ROOTS_MANAGER_HOME``: they are many, and each would otherwise pay an interpreter's start.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from roots_manager.cli.errors import CODES, TEMPLATE_CODES
from roots_manager.cli.main import build_parser, main
from roots_manager.cli.usage import subcommands
from roots_manager.core.directory.layout import Layout
from roots_manager.core.hosts.operations import ERROR_CODES as HOST_CODES
from roots_manager.core.roots import uri
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import ERROR_TEMPLATES
from tests.conftest import run_cli

REPO = Path(__file__).resolve().parents[2]

NO_JSON = {
    "bridge": "runs the stdio bridge, whose stdout is the MCP stream to the host",
    "gui": "opens the desktop app; it reports nothing and changes nothing by itself",
    "completion": "prints a shell's completion script, for the shell to read; it reports "
    "nothing and changes nothing",
}
"""The only commands without ``--json``, and why."""


def leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command of *parser* that runs something, as the words that name it."""
    sub = subcommands(parser)
    if not sub:
        return [path]
    return [leaf for name, child in sub.items() for leaf in leaves(child, (*path, name))]


def test_every_command_that_reports_or_changes_something_takes_json() -> None:
    commands = leaves(build_parser())
    assert len(commands) >= 26  # the walk reached the nested actions (26 in December 2026)
    parsers = {}
    for words in commands:
        p: argparse.ArgumentParser = build_parser()
        for w in words:
            p = subcommands(p)[w]
        parsers[" ".join(words)] = p
    lacking = sorted(
        name
        for name, p in parsers.items()
        if not any("--json" in a.option_strings for a in p._actions) and name not in NO_JSON
    )
    assert lacking == [], f"these commands lack --json: {lacking}"
    assert set(NO_JSON) <= set(parsers), "the allow-list names a command that is gone"


def cli(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 0) -> dict[str, Any]:
    """Run ``roots-manager ARGV --json`` here; its one JSON document on stdout, nothing on
    stderr."""
    try:
        got = main([*argv, "--json"])
    except SystemExit as exc:  # a usage error
        got = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert got == code, (argv, out, err)
    assert err == "", (argv, err)
    doc = json.loads(out)  # one document: json.loads refuses anything after it
    assert isinstance(doc, dict)
    return doc


def failure(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 1) -> dict[str, Any]:
    """The error object ``roots-manager ARGV --json`` prints when it fails with *code*."""
    doc = cli(capsys, *argv, code=code)
    assert doc["version"] == 1 and set(doc["error"]) >= {"code", "message"}, doc
    assert doc["error"]["code"] in CODES
    return doc["error"]  # type: ignore[no-any-return]


@pytest.fixture
def work(tmp_path: Path, rm_home: Path) -> Path:
    for name in ("alpha", "beta", "gamma"):
        (tmp_path / name).mkdir()
    (tmp_path / "a-file").write_text("x")
    return tmp_path


def test_the_changing_commands_say_what_they_did_in_json(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alpha, beta = str(work / "alpha"), str(work / "beta")
    added = cli(capsys, "roots", "add", alpha)
    assert added["version"] == 1 and added["root"]["path"] == alpha
    assert added["root"]["uri"] == Path(alpha).as_uri() and added["root"]["available"] is True
    renamed = cli(capsys, "roots", "rename", alpha, "first")
    assert renamed["root"]["name"] == "first" and renamed["old_name"] == "alpha"

    granted = cli(capsys, "grant", "--new", "fs", "first", beta, "--while-running")
    assert granted["server"] == "fs" and granted["new_server"] is True
    assert granted["scope"] == "session" and granted["changed"] == 2
    assert [r["path"] for r in granted["roots"]] == [alpha, beta]
    assert [r["path"] for r in granted["added_roots"]] == [beta]  # not a root before
    again = cli(capsys, "grant", "fs", "first", "--read-only")
    assert again["new_server"] is False and again["read_only"] is True
    assert again["added_roots"] == [] and again["scope"] == "always"

    revoked = cli(capsys, "revoke", "fs", "first", beta)
    assert revoked["revoked"] == 2 and [r["name"] for r in revoked["roots"]] == ["first", "beta"]
    assert cli(capsys, "revoke", "fs", "first")["revoked"] == 0

    cli(capsys, "grant", "fs", beta)
    removed = cli(capsys, "roots", "remove", beta)
    assert removed["root"]["path"] == beta and removed["lost_access"] == ["fs"]

    here = cli(capsys, "policy")["confines_here"]  # a machine that can confine, or not
    assert cli(capsys, "policy") == {
        "version": 1, "policy": "ask", "confine_new": True, "confines_here": here, "changed": False
    }  # fmt: skip
    assert cli(capsys, "policy", "deny") == {
        "version": 1, "policy": "deny", "confine_new": True, "confines_here": here, "changed": True
    }  # fmt: skip
    off = cli(capsys, "policy", "--confine-new", "off")
    assert off["confine_new"] is False and off["confines_here"] is False and off["changed"]
    assert cli(capsys, "policy", "--confine-new", "on")["confine_new"] is True

    confined = cli(capsys, "servers", "confine", "fs", "on", "--allow-read", alpha)
    assert confined["confine"] is True and confined["allow_read"] == [alpha]
    assert isinstance(confined["can_confine"], bool)
    restart = cli(capsys, "servers", "restart-on-revoke", "fs", "off")
    assert restart["restart_on_revoke"] is False and restart["restart_on_revoke_set"] is True

    cli(capsys, "grant", "fs", "first")
    forgot = cli(capsys, "servers", "remove", "fs")
    assert forgot == {"version": 1, "server": "fs", "grants_removed": 1}

    limits = cli(capsys, "log-retention", "--max-size", "10", "--max-age", "3")
    assert (limits["max_mib"], limits["max_days"], limits["changed"]) == (10, 3, True)
    assert limits["removed"] == [] and limits["files"] == 0 and limits["oldest_at"] is None

    checked = cli(capsys, "store", "check")
    assert checked["ok"] is True and checked["backup_ok"] is True and "error" not in checked
    recovered = cli(capsys, "store", "recover")
    assert recovered["recovered"] is False and "nothing to recover" in recovered["message"]


def test_a_damaged_store_is_reported_and_recovered_in_json(
    work: Path, rm_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli(capsys, "roots", "add", str(work / "alpha"))
    cli(capsys, "roots", "add", str(work / "beta"))  # the first save's copy is the good one
    store = rm_home / "store.json"
    store.write_text("{ damaged")
    checked = cli(capsys, "store", "check", code=3)
    assert checked["ok"] is False and checked["error"]["code"] == "store"
    assert str(store) in checked["error"]["message"]
    assert failure(capsys, "roots", "list", code=3)["code"] == "store"
    recovered = cli(capsys, "store", "recover")
    kept = Path(recovered["damaged_kept_at"])
    assert recovered["recovered"] is True and kept.read_text() == "{ damaged"
    assert cli(capsys, "store", "check")["ok"] is True


def test_every_failure_under_json_is_one_error_document_with_its_code(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alpha = str(work / "alpha")
    cli(capsys, "roots", "add", alpha)
    cli(capsys, "grant", "--new", "fs", alpha)
    cases: list[tuple[list[str], str]] = [
        (["roots", "add", alpha], "already-a-root"),
        (["roots", "add", str(work / "nowhere")], "no-such-folder"),
        (["roots", "add", str(work / "a-file")], "not-a-folder"),
        (["roots", "add", os.sep], "too-broad"),
        (["roots", "add", "https://example.com/x"], "bad-path"),
        (["roots", "rename", "nothing-by-this-name", "x"], "unknown-root"),
        (["roots", "rename", alpha, "  "], "bad-name"),
        (["roots", "remove", "nothing-by-this-name"], "unknown-root"),
        (["grant", "sf", alpha], "unknown-server"),
        (["grant", "fs", "nothing-by-this-name"], "unknown-root"),
        (["revoke", "sf", alpha], "unknown-server"),
        (["servers", "approve", "fs"], "not-run-yet"),
        (["servers", "remove", "sf"], "unknown-server"),
        (["servers", "confine", "fs\u200b"], "bad-name"),
        (["notify", "fs"], "not-running"),
        (["log-retention", "--max-age", "-1"], "bad-value"),
        (["probe", "--compare", "fs"], "no-probe-table"),
        (["probe"], "nothing-to-probe"),
        (["hosts", "wrap", "claude-desktop"], "usage"),
    ]
    before = (Path(os.environ["ROOTS_MANAGER_HOME"]) / "store.json").read_bytes()
    for argv, code in cases:
        error = failure(capsys, *argv, code=2 if code == "usage" else 1)
        assert error["code"] == code, (argv, error)
        assert error["message"]
    # nothing refused changed anything
    assert (Path(os.environ["ROOTS_MANAGER_HOME"]) / "store.json").read_bytes() == before


def test_the_codes_are_one_vocabulary_and_the_manual_lists_it() -> None:
    # every refusal core can make has its own code, not the catch-all
    for template in (*ERROR_TEMPLATES, *uri.ERROR_TEMPLATES):
        assert TEMPLATE_CODES.get(template) in CODES, template
    assert set(HOST_CODES.values()) <= set(CODES)
    page = (REPO / "docs" / "cli-json.md").read_text(encoding="utf-8")
    failures = page.split("\n## Failures\n")[1].split("\n## ")[0]
    listed = re.findall(r"^\| `([a-z-]+)` \|", failures, re.M)
    assert listed == list(CODES), "docs/cli-json.md lists other codes than cli/errors.py"
    assert "shape version 1" in page


def usage(*argv: str) -> tuple[str, str]:
    proc = run_cli(*argv, check=False)
    assert proc.returncode == 2, (argv, proc.stdout, proc.stderr)
    return proc.stdout, proc.stderr


@pytest.mark.parametrize(
    ("argv", "meant"),
    [
        (["servers", "--jsn"], "roots-manager servers list --json"),
        (["servers", "--json"], "roots-manager servers list --json"),
        (["servers", "lst"], "roots-manager servers list"),
        (["grnat", "fs", "docs"], "roots-manager grant fs docs"),
        (["roots", "list", "--jsn"], "roots-manager roots list --json"),
        (["roots", "add", "x", "--allow-brod"], "roots-manager roots add x --allow-broad"),
        (["policy", "alow-all"], "roots-manager policy allow-all"),
        (["store", "chek"], "roots-manager store check"),
        (["hosts", "wrap", "claud-desktop", "fs"], "roots-manager hosts wrap claude-desktop fs"),
        (["probe", "--protocol=initialise"], "roots-manager probe --protocol=initialize"),
        (["servers", "confine", "fs", "onn"], "roots-manager servers confine fs on"),
    ],
)
def test_a_near_miss_is_named(rm_home: Path, argv: list[str], meant: str) -> None:
    out, err = usage(*argv)
    if "--json" in argv:
        doc = json.loads(out)
        assert doc["error"]["code"] == "usage" and meant in doc["error"]["did_you_mean"]
        assert err == ""
    else:
        assert out == "" and err.startswith("usage: roots-manager")
        assert f"\ndid you mean: {meant}\n" in err


def test_a_near_miss_under_json_is_an_error_document(rm_home: Path) -> None:
    out, err = usage("servers", "lst", "--json")
    assert err == ""
    error = json.loads(out)["error"]
    assert error["code"] == "usage" and "invalid choice: 'lst'" in error["message"]
    assert error["did_you_mean"] == ["roots-manager servers list --json"]
    # and what is far from everything gets no guess
    _, err = usage("servers", "--zzzzzz")
    assert "did you mean" not in err
    _, err = usage("--jsno")  # the desktop app's options: nothing is near
    assert "did you mean" not in err


def test_grant_to_a_server_nobody_has_seen_is_refused_with_the_known_names(
    work: Path, rm_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alpha = str(work / "alpha")
    nobody = failure(capsys, "grant", "fs", alpha)
    assert nobody["code"] == "unknown-server" and nobody["known"] == []
    assert "pass --new" in nobody["message"] and not (rm_home / "store.json").exists()

    cli(capsys, "grant", "--new", "files", alpha)
    cli(capsys, "grant", "--new", "git", alpha)
    typo = failure(capsys, "grant", "fils", alpha)
    assert typo["known"] == ["files", "git"]
    assert typo["did_you_mean"] == [f"roots-manager grant files {alpha}"]
    assert "did you mean 'files'?" in typo["message"]
    assert f"roots-manager grant fils {alpha} --new" in typo["message"]
    listed = json.loads(run_cli("servers", "list", "--json").stdout)
    assert [s["name"] for s in listed] == ["files", "git"]  # no phantom "fils"

    # in words, on stderr, with the way to grant it ahead of its first start
    proc = run_cli("grant", "fils", alpha, check=False)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("roots-manager: no server named 'fils' has been seen")
    assert "The known servers: files, git." in proc.stderr and "pass --new" in proc.stderr
    # a server the bridge has seen, or that was granted ahead, needs no --new
    assert "granted files 1 root(s)" in run_cli("grant", "files", alpha).stdout


def test_a_setting_for_a_server_nobody_has_seen_is_refused_not_remembered(
    work: Path, rm_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alpha = str(work / "alpha")
    cli(capsys, "grant", "--new", "files", alpha)
    cli(capsys, "grant", "--new", "git", alpha)
    before = (rm_home / "store.json").read_bytes()
    for argv, meant in [
        (
            ["servers", "confine", "fils", "on", "--allow-read", alpha],
            f"roots-manager servers confine files on --allow-read {alpha}",
        ),
        (["servers", "network", "fils", "blocked"], "roots-manager servers network files blocked"),
        (
            ["servers", "restart-on-revoke", "fils", "off"],
            "roots-manager servers restart-on-revoke files off",
        ),
    ]:
        typo = failure(capsys, *argv)
        assert typo["code"] == "unknown-server" and typo["known"] == ["files", "git"], argv
        assert typo["did_you_mean"] == [meant] and "did you mean 'files'?" in typo["message"]
        assert f"pass --new: roots-manager {' '.join(argv)} --new" in typo["message"]
        assert typo["hint"] == "--new sets it ahead of its first start"
    assert (rm_home / "store.json").read_bytes() == before  # no phantom "fils"
    # ahead of a first start, when meant
    ahead = cli(capsys, "servers", "confine", "later", "on", "--new")
    assert ahead["server"] == "later" and ahead["confine"] is True
    assert cli(capsys, "servers", "network", "files", "blocked")["network"] == "blocked"

    # revoke, servers remove and approve name the near ones too, with no --new to offer
    for argv, meant in [
        (["revoke", "fils", alpha], f"roots-manager revoke files {alpha}"),
        (["servers", "remove", "fils"], "roots-manager servers remove files"),
        (["servers", "approve", "fils"], "roots-manager servers approve files"),
    ]:
        typo = failure(capsys, *argv)
        assert typo["code"] == "unknown-server" and typo["did_you_mean"] == [meant], argv
        assert "did you mean 'files'?" in typo["message"] and "--new" not in typo["message"]
        assert "hint" not in typo
    proc = run_cli("servers", "confine", "fils", "on", check=False)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("roots-manager: no server named 'fils' has been seen")
    listed = json.loads(run_cli("servers", "list", "--json").stdout)
    assert [s["name"] for s in listed] == ["files", "git", "later"]


def test_grant_adds_a_folder_that_is_not_a_root_yet_and_says_so(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    alpha, beta = work / "alpha", work / "beta"
    cli(capsys, "roots", "add", str(alpha), "--name", "shared")
    taken = failure(capsys, "roots", "add", str(work / "gamma"), "--name", "shared")
    assert taken["code"] == "name-taken" and str(alpha) in taken["message"]
    cli(capsys, "roots", "add", str(work / "gamma"))
    # a store written before two roots could not share a name may hold two
    with Store(Layout.default()).transaction() as state:
        state.roots[1].name = "shared"
    cli(capsys, "grant", "--new", "fs", str(alpha))

    out = run_cli("grant", "fs", str(beta)).stdout
    assert out.startswith(f"added 'beta' as a root: {beta} ({beta.as_uri()})\n")
    assert "granted fs 1 root(s) (always)" in out
    roots = json.loads(run_cli("roots", "list", "--json").stdout)
    assert [r["path"] for r in roots] == [str(alpha), str(work / "gamma"), str(beta)]
    assert roots[2]["granted_to"] == [{"server": "fs", "scope": "always"}]

    # what is no folder, or an ambiguous name, stays refused, and a refusal adds nothing
    before = json.loads(run_cli("roots", "list", "--json").stdout)
    assert failure(capsys, "grant", "fs", str(work / "delta"))["code"] == "unknown-root"
    assert failure(capsys, "grant", "fs", "shared")["code"] == "ambiguous-root"
    later = failure(capsys, "grant", "fs", str(work / "alpha" / ".."), "nothing-by-this-name")
    assert later["code"] == "unknown-root"
    assert failure(capsys, "grant", "fs", str(work / "a-file"))["code"] == "unknown-root"
    assert json.loads(run_cli("roots", "list", "--json").stdout) == before
    # a folder too broad for a root is refused as it is by roots add
    broad = failure(capsys, "grant", "fs", os.sep)
    assert broad["code"] == "too-broad" and "--allow-broad" in broad["message"]
