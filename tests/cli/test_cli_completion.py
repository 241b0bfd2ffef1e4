"""``roots-manager completion bash|zsh|fish``: scripts made from the parser, tried in the shells.

The bash script is sourced in a real ``bash`` and its completion function asked what completes
a word, as bash asks it at a Tab (COMP_WORDS, COMP_CWORD); the zsh and fish scripts are read by
those shells' own syntax check. CI installs both shells (``.ci/system-packages``).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import required, run_cli

ASK = """
source "$1"
shift
COMP_WORDS=("$@")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
COMPREPLY=()
_shtab_roots_manager
printf '%s\\n' "${COMPREPLY[@]}"
"""


def completions(script: Path, *words: str) -> list[str]:
    """What bash offers for the last of *words* (``roots-manager ser`` + Tab)."""
    bash = shutil.which("bash")
    assert bash is not None, "bash runs the completion test"
    done = subprocess.run(
        [bash, "--norc", "--noprofile", "-c", ASK, "ask", str(script), "roots-manager", *words],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert done.stderr == ""
    return done.stdout.split()


@pytest.fixture
def bash_script(tmp_path: Path) -> Path:
    script = tmp_path / "roots-manager.bash"
    script.write_text(run_cli("completion", "bash").stdout, encoding="utf-8")
    return script


def test_bash_completes_commands_actions_and_options(bash_script: Path, tmp_path: Path) -> None:
    assert completions(bash_script, "ser") == ["servers"]
    assert completions(bash_script, "servers", "") == [
        "list",
        "approve",
        "remove",
        "confine",
        "restart-on-revoke",
        "ask",
        "network",
        "show",
        "learn",
    ]
    assert completions(bash_script, "store", "c") == ["check"]
    assert completions(bash_script, "completion", "") == ["bash", "zsh", "fish"]
    assert "--verbose" in completions(bash_script, "--")
    # a command added to the parser completes without anyone writing it down
    assert completions(bash_script, "compl") == ["completion"]


def test_bash_completes_a_folder_where_a_folder_goes(bash_script: Path, tmp_path: Path) -> None:
    (tmp_path / "project-a").mkdir()
    (tmp_path / "project-notes.txt").write_text("not a folder")
    assert completions(bash_script, "roots", "add", str(tmp_path / "project")) == [
        str(tmp_path / "project-a")
    ]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_the_shells_read_their_scripts(shell: str, tmp_path: Path) -> None:
    program = required(shell, shell, "checking its completion script")
    script = tmp_path / f"roots-manager.{shell}"
    text = run_cli("completion", shell).stdout
    assert "servers" in text and "restart-on-revoke" in text
    script.write_text(text, encoding="utf-8")
    checked = subprocess.run([program, "-n", str(script)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert checked.stderr == ""


def test_zsh_takes_its_script_as_the_completion_of_roots_manager(tmp_path: Path) -> None:
    zsh = required("zsh", "zsh", "registering its completion script")
    functions = tmp_path / "zfunc"
    functions.mkdir()
    # where docs/cli.md says to put it: a folder of fpath, as _roots-manager
    (functions / "_roots-manager").write_text(run_cli("completion", "zsh").stdout)
    done = subprocess.run(
        [zsh, "-f", "-c", f"fpath=({functions} $fpath); autoload -U compinit; "
         f"compinit -u -d {tmp_path / 'zcompdump'}; print -r -- ${{_comps[roots-manager]}}"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert (done.stdout, done.stderr) == ("_roots-manager\n", "")


def test_fish_completes_a_command(tmp_path: Path) -> None:
    fish = required("fish", "fish", "completing with its script")
    script = tmp_path / "roots-manager.fish"
    script.write_text(run_cli("completion", "fish").stdout, encoding="utf-8")
    done = subprocess.run(
        [fish, "--no-config", "-c", f"source {script}; complete -C 'roots-manager ser'"],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert [line.split("\t")[0] for line in done.stdout.splitlines()] == ["servers"]


def test_an_unknown_shell_is_bad_usage() -> None:
    done = run_cli("completion", "tcsh", check=False)
    assert done.returncode == 2
    assert "invalid choice: 'tcsh'" in done.stderr
