"""``hosts wrap`` and ``hosts unwrap`` while the host keeps rewriting its file: real processes.

A host (:mod:`tests.fakes.rewriting_host`) saves ``~/.claude.json`` by rename every 0-30 ms, a
new prompt in its history each time, as Claude Code does, while the CLI wraps and unwraps its
server again and again. After each command the host is paused and the file is looked at: what
the command said must be what happened (wrapped if it said it wrapped, as it was if it said
"not changed", the exit code non-zero exactly when it said so), and every prompt the host saved
must still be in it. ``ROOTS_MANAGER_RACE_RUNS`` sets how many commands run (100 unless set).
Before the host file was swapped in (:mod:`roots_manager.support.unchanged`), 1 to 4 runs in a
hundred lost a prompt, and some of those said "not changed" over a file they had changed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import only_on_linux
from tests.core.hosts.hosts_samples import claude_code_history
from tests.fakes import FAKES
from tests.fakes.rewriting_host import PROJECT

HOST = FAKES / "rewriting_host.py"
BRIDGE = str(Path(sys.executable).with_name("roots-bridge"))
RUNS = int(os.environ.get("ROOTS_MANAGER_RACE_RUNS", "100"))


@dataclass
class Tally:
    """What the commands said, and what went wrong, over all the runs."""

    said: Counter[str] = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)
    lost: set[int] = field(default_factory=set)
    excused: int = 0
    """Runs in which the host overwrote a write of ours after it (its own race, see
    rewriting_host): the file is not as the command left it, through no fault of its."""


class Host:
    """The rewriting host as a process, paused and resumed between two commands."""

    def __init__(self, path: Path, control: Path, seed: int) -> None:
        self.control = control
        control.mkdir()
        self.proc = subprocess.Popen(
            [sys.executable, str(HOST), str(path), str(control), str(seed)],
            cwd=Path(__file__).parents[2],
        )

    def pause(self) -> dict[str, int]:
        (self.control / "pause").touch()
        deadline = time.monotonic() + 30
        while not (self.control / "paused").exists():
            assert self.proc.poll() is None, "the host died"
            assert time.monotonic() < deadline, "the host does not pause"
            time.sleep(0.002)
        return json.loads((self.control / "paused").read_text())  # type: ignore[no-any-return]

    def resume(self) -> None:
        (self.control / "pause").unlink()
        deadline = time.monotonic() + 30
        while (self.control / "paused").exists():
            assert time.monotonic() < deadline, "the host does not resume"
            time.sleep(0.001)

    def stop(self) -> None:
        (self.control / "stop").touch()
        try:
            self.proc.wait(10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def _wrapped(path: Path) -> bool:
    return json.loads(path.read_bytes())["mcpServers"]["fs"]["command"] == BRIDGE


def _prompts(path: Path) -> set[int]:
    history = json.loads(path.read_bytes()).get("projects", {}).get(PROJECT, {}).get("history")
    return {int(h["display"].split()[-1]) for h in history or ()}


def race(home: Path, runs: int, size: int, seed: int = 1) -> Tally:
    """Run *runs* commands, wrap and unwrap in turn, against the host rewriting a file of
    *size* characters; what each said is checked against the file."""
    path = home / ".claude.json"
    path.write_text(claude_code_history(size), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_CONFIG_DIR"}
    env["HOME"] = str(home)
    host = Host(path, home.parent / "host-control", seed)
    tally = Tally()
    try:
        for run in range(runs):
            action = ("wrap", "unwrap")[run % 2]
            before = host.pause()
            was = _wrapped(path)
            host.resume()
            args = ["hosts", action, "claude-code", "fs", "--json"]
            if action == "wrap":
                args += ["--bridge", BRIDGE]
            proc = subprocess.run(
                [sys.executable, "-m", "roots_manager.cli", *args],
                capture_output=True,
                text=True,
                env=env,
                timeout=120,
            )
            after = host.pause()
            try:
                doc = json.loads(proc.stdout)
            except ValueError:
                tally.wrong.append(f"run {run}: {action} exited {proc.returncode}: {proc.stderr}")
                host.resume()
                continue
            [result] = doc["files"]
            statuses = [s["status"] for s in result["servers"]]
            said = f"{action}: " + (
                "written" if result["written"] else (result["error"] or ",".join(statuses))
            )
            tally.said["kept changing" if "kept changing" in said else said] += 1
            now = _wrapped(path)
            expected = (action == "wrap") if result["written"] else was
            problems = []
            if (proc.returncode != 0) != (result["error"] is not None):
                problems.append(f"exit code {proc.returncode} with error {result['error']!r}")
            if now != expected:
                # the host overwriting our write is its race; unwritten, the file is ours alone
                if result["written"] and after["clobbers"] > before["clobbers"]:
                    tally.excused += 1
                else:
                    problems.append(f"the file is {'' if now else 'not '}wrapped")
            missing = set(range(1, after["saved"] + 1)) - _prompts(path) - tally.lost
            if missing:
                problems.append(f"the host's prompts {sorted(missing)} are gone")
                tally.lost |= missing
            if problems:
                tally.wrong.append(f"run {run}: said {said!r}, but " + "; ".join(problems))
            host.resume()
    finally:
        host.stop()
    return tally


@only_on_linux("the host swaps its file in to see when it overwrote ours (renameat2)")
@pytest.mark.timeout(900)
def test_wrap_while_the_host_keeps_rewriting_its_file_says_what_it_did_and_loses_nothing(
    tmp_path: Path, rm_home: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    tally = race(home, RUNS, 256 << 10)
    print(f"{RUNS} commands: {dict(tally.said)}; excused {tally.excused}")
    assert tally.said["wrap: written"] > 0, tally.said
    assert not tally.wrong, "\n".join(tally.wrong)
