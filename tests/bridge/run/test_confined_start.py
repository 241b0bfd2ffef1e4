"""A confined start whose exec wrapper is started before its rules are worked out
(``bridge.run.confine.spawned``): the wrapper waits on a pipe for them, and runs nothing until
they are there whole.

Real processes: the wrapper as the bridge starts it, and the bridge's start in a Python of its
own, whose children are counted after it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from roots_manager.sandbox.confine import RULES_END, RULES_FD
from tests.conftest import only_on_linux

pytestmark = [
    pytest.mark.e2e,
    only_on_linux("the wrapper reads its rules from a pipe where it supervises: Linux"),
]

SERVER = ["sh", "-c", "echo ran"]


def _wrapper_fed(written: bytes) -> subprocess.CompletedProcess[str]:
    """The exec wrapper reading its rules from a pipe that carries *written*, then closes."""
    read, write = os.pipe()
    try:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "roots_manager.sandbox.confine",
                RULES_FD,
                str(read),
                "--",
                *SERVER,
            ],
            pass_fds=(read,),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    finally:
        os.close(read)
    os.write(write, written)
    os.close(write)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _rules(*args: str) -> bytes:
    return b"\0".join(os.fsencode(a) for a in args)


RUNTIME = ("--runtime", "/usr", "--runtime", "/bin", "--runtime", "/lib", "--runtime", "/lib64")


def test_the_wrapper_runs_the_server_once_its_rules_are_whole() -> None:
    done = _wrapper_fed(_rules(*RUNTIME, "--device", "/dev/null", RULES_END))
    assert (done.returncode, done.stdout) == (0, "ran\n"), done.stderr


def test_rules_that_end_early_run_nothing_and_say_so() -> None:
    """The bridge stopped writing half-way (it died, or was killed): what reached the wrapper
    is not the rules, and the server never runs with part of them."""
    done = _wrapper_fed(_rules(*RUNTIME, "--device", "/dev/null"))
    assert (done.returncode, done.stdout) == (2, "")
    assert "the rules cannot be read: they ended early" in done.stderr


def test_a_pipe_closed_with_nothing_in_it_runs_nothing_and_says_nothing() -> None:
    """The bridge started the server otherwise (unconfined after all): the wrapper leaves
    without a word in the host's log."""
    done = _wrapper_fed(b"")
    assert (done.returncode, done.stdout, done.stderr) == (2, "", "")


START = """
import os, sys
from roots_manager.bridge.run.confine import spawned
try:
    proc, launch = spawned(sys.argv[1:], "s", False)
except OSError as exc:
    print("raised", type(exc).__name__)
else:
    print("out", proc.stdout.read().decode().strip(), "confined", launch.key is not None)
    proc.wait()
try:
    print("left", os.waitpid(-1, os.WNOHANG))
except ChildProcessError:
    print("no child left")
"""


def _start(
    home: Path, store: dict[str, object], command: list[str]
) -> subprocess.CompletedProcess[str]:
    home.mkdir()
    (home / "store.json").write_text(json.dumps(store))
    env = dict(os.environ, ROOTS_MANAGER_HOME=str(home))
    return subprocess.run(
        [sys.executable, "-c", START, *command], env=env, capture_output=True, text=True, timeout=60
    )


# a glance reads "confine": true; the checked read refuses the store
DAMAGED = {"schema": 14, "servers": {"s": {"confine": True}}, "roots": "not a list"}


def test_a_store_read_otherwise_than_its_glance_starts_the_server_once_with_no_wrapper_left(
    tmp_path: Path,
) -> None:
    """The wrapper started on the glance's word is ended, and reaped, before the server starts
    as the full reading says (here unconfined, and said): one server, no process left behind,
    nothing from the wrapper in the log."""
    done = _start(tmp_path / "home", DAMAGED, SERVER)
    assert done.stdout.splitlines() == ["out ran confined False", "no child left"], done.stderr
    assert "the store cannot be read" in done.stderr
    assert "roots-manager confine" not in done.stderr


def test_a_program_not_there_is_said_as_unconfined_and_its_wrapper_is_gone(tmp_path: Path) -> None:
    store = {"schema": 14, "servers": {"s": {"confine": True}}}
    done = _start(tmp_path / "home", store, ["no-such-program-anywhere"])
    assert done.stdout.splitlines() == ["raised FileNotFoundError", "no child left"], done.stderr
