"""What the two commands tell about themselves: the exit codes in ``--help``, and the man pages.

Every exit code the code names (an ``EXIT_`` constant of the CLI's or the bridge's modules) is in
its program's ``--help``, so a new one cannot go unlisted. The man pages are made from the
parsers by ``scripts/make-manpages``, as a package build does, and must be roff that ``mandoc``
and ``man`` read without a warning, with every subcommand and every exit code in them.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

from roots_manager.cli.exits import MEANINGS
from tests.conftest import REPO, required, run_cli


def exit_constants(package: str) -> dict[str, int]:
    """Every ``EXIT_*`` number named by the modules of *package*."""
    found = {}
    top = importlib.import_module(package)
    for info in pkgutil.walk_packages(top.__path__, f"{package}."):
        if info.name.endswith(".__main__"):  # runs the program when imported
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if name.startswith("EXIT_") and isinstance(value, int):
                found[f"{info.name}.{name}"] = value
    return found


def listed_codes(help_text: str) -> dict[str, str]:
    """The exit codes at the end of *help_text*, each with what it means (lines joined)."""
    block = help_text.split("exit codes:\n", 1)[1]
    codes: dict[str, str] = {}
    last = None
    for line in block.splitlines():
        item = re.match(r"  (\S+)\s+(.*)", line)
        if item:
            last = item.group(1)
            codes[last] = item.group(2)
        elif line.startswith("       ") and last is not None:
            codes[last] += " " + line.strip()
    return codes


def test_the_cli_help_lists_every_exit_code_it_uses() -> None:
    help_text = run_cli("--help").stdout
    codes = listed_codes(help_text)
    assert codes == {str(code): " ".join(text.split()) for code, text in MEANINGS.items()}
    used = exit_constants("roots_manager.cli")
    assert used, "the CLI names its exit codes"
    unlisted = {name: code for name, code in used.items() if str(code) not in codes}
    assert unlisted == {}
    assert "roots-bridge --help lists its codes" in " ".join(help_text.split())


def test_the_bridge_help_lists_every_exit_code_it_uses() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "roots_manager.bridge", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    codes = listed_codes(done.stdout)
    assert set(codes) == {"N", "1", "2", "126", "127"}
    assert "128 + N" in codes["N"]
    used = exit_constants("roots_manager.bridge")
    assert {
        "roots_manager.bridge.run.confine.EXIT_NOT_CONFINED",
        "roots_manager.bridge.main.EXIT_USAGE",
    } <= set(used)
    unlisted = {name: code for name, code in used.items() if str(code) not in codes}
    assert unlisted == {}
    # the environment and the example are still there, each on its own line
    assert "\nEnvironment: ROOTS_MANAGER_HOME" in done.stdout
    assert "ROOTS_MANAGER_DEBUG=1" in done.stdout


def commands(parser: argparse.ArgumentParser, prefix: str) -> list[str]:
    """Every command line of *parser*'s subcommands, as ``roots-manager servers confine``."""
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out.append(f"{prefix} {name}")
                out += commands(sub, f"{prefix} {name}")
    return out


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("man")
    made = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "make-manpages"), str(folder / "man1")],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SOURCE_DATE_EPOCH": "1764633600"},
        check=True,
    )
    assert made.stderr == ""
    assert sorted(p.name for p in (folder / "man1").iterdir()) == [
        "roots-bridge.1",
        "roots-manager.1",
    ]
    return folder / "man1"


def rendered(page: Path) -> str:
    """*page* as ``man -l`` shows it, wide and plain; no warning from the formatter."""
    man = required("man", "man-db", "rendering the man pages")
    done = subprocess.run(
        [man, "--warnings=w", "-l", str(page)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "MANWIDTH": "200", "MAN_KEEP_FORMATTING": "", "LC_ALL": "C.UTF-8"},
        check=True,
    )
    assert done.stderr == ""
    return done.stdout


@pytest.mark.parametrize("name", ["roots-manager.1", "roots-bridge.1"])
def test_the_pages_are_roff_without_a_warning(pages: Path, name: str) -> None:
    mandoc = required("mandoc", "mandoc", "linting the man pages")
    lint = subprocess.run(
        [mandoc, "-T", "lint", "-W", "warning", str(pages / name)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (lint.returncode, lint.stdout + lint.stderr) == (0, "")
    text = pages.joinpath(name).read_text(encoding="utf-8")
    assert text.startswith(
        f'.TH {name[:-2].upper().replace("-", chr(92) + "-")} "1" "December 2, 2025"'
    )


def test_the_cli_page_has_every_subcommand_and_exit_code(pages: Path) -> None:
    from roots_manager.cli.main import build_parser

    text = " ".join(rendered(pages / "roots-manager.1").split())
    every = commands(build_parser(), "roots-manager")
    assert "roots-manager completion" in every and "roots-manager servers confine" in every
    missing = [c for c in every if c not in text]
    assert missing == []
    status = text.split("EXIT STATUS", 1)[1]
    for code, meaning in MEANINGS.items():
        assert f"{code} {' '.join(meaning.split())}" in status
    assert "-v, --verbose" in text


def test_the_bridge_page_has_every_option_and_exit_code(pages: Path) -> None:
    from roots_manager.bridge.main import build_parser

    text = " ".join(rendered(pages / "roots-bridge.1").split())
    options = [
        s for a in build_parser()._actions for s in a.option_strings if s not in ("-h", "--help")
    ]
    assert "--confine" in options
    missing = [o for o in options if o not in text]
    assert missing == []
    status = text.split("EXIT STATUS", 1)[1]
    for code in ("N", "1", "2", "126", "127"):
        assert f" {code} " in f" {status}"
    assert "Environment: ROOTS_MANAGER_HOME" in text
