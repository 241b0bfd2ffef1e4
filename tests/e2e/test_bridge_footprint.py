"""What a bridge process carries: its watchers stay up without OpenSSL or anyio, and its
version is known without package metadata."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

import roots_manager
from roots_manager.core.log import events as ev
from roots_manager.core.store.file import Store
from tests.bridge.wire import Bridged, events, grant_folder, is_method
from tests.conftest import only_on_posix

MODULES_AT_EXIT = """
import atexit, os, runpy, sys

def dump():
    with open(os.environ["BRIDGE_MODULES_FILE"], "w") as f:
        f.write("\\n".join(sorted(n for n, m in sys.modules.items() if m is not None)))

atexit.register(dump)
runpy.run_module("roots_manager.bridge", run_name="__main__", alter_sys=True)
"""
"""``python -m roots_manager.bridge`` that writes down, as it exits, the modules it loaded."""

NEVER_LOADED = ("ssl", "_ssl", "_hashlib", "anyio", "watchfiles", "multiprocessing")
"""OpenSSL's modules (several MiB of libraries), and anyio, which would bring them back."""


def test_a_bridges_watchers_keep_running_after_a_change(store: Store, tmp_path: Path) -> None:
    uri = grant_folder(store, tmp_path, "pup", "work")
    pair = Bridged()
    try:
        pair.handshake()
        assert pair.ask(1) == [uri]
        with store.transaction() as s:
            s.revoke("pup", [s.roots[0].id])
        pair.server.expect(is_method("notifications/roots/list_changed"), "the revocation")
        assert pair.ask(2) == []
    finally:
        pair.close()
    # a watcher that failed (the store's, the folders' or the periodic check) says so in the
    # log; the notice above could still have come from the periodic check a second later
    failed = [e["message"] for e in events(store.layout, ev.ERROR)]
    assert not [m for m in failed if "failed" in m], failed


def test_a_bridge_that_watched_a_change_never_loaded_openssl(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    listing = tmp_path / "modules.txt"
    monkeypatch.setenv("BRIDGE_MODULES_FILE", str(listing))
    uri = grant_folder(store, tmp_path, "pup", "work")
    pair = Bridged(run=("-c", MODULES_AT_EXIT))
    server, bridge = pair.server, pair.bridge
    try:
        pair.handshake()
        assert pair.ask(1) == [uri]
        with store.transaction() as s:
            s.revoke("pup", [s.roots[0].id])
        server.expect(is_method("notifications/roots/list_changed"), "the revocation")
        assert pair.ask(2) == []
        if sys.platform.startswith("linux"):
            maps = Path(f"/proc/{bridge.proc.pid}/maps").read_text()
            mapped = {line.split()[-1] for line in maps.splitlines() if "/" in line}
            assert not [p for p in mapped if "libssl" in p or "libcrypto" in p], sorted(mapped)
        server.exit(0)
        assert bridge.wait() == 0, bridge.stderr
    finally:
        pair.close()
    loaded = set(listing.read_text().split())
    assert "roots_manager.bridge.run.runner" in loaded  # the listing is the whole bridge's
    assert "roots_manager.support.dirwatch" in loaded  # the store is watched, without watchfiles
    assert not [m for m in NEVER_LOADED if m in loaded], sorted(loaded)
    failed = [e["message"] for e in events(store.layout, ev.ERROR)]
    assert not [m for m in failed if "failed" in m], failed


MODULES_AT_SPAWN = """
import os, runpy, subprocess, sys

start = subprocess.Popen.__init__

def listed(self, *args, **kwargs):
    path = os.environ["BRIDGE_MODULES_FILE"]
    if not os.path.exists(path):  # the first process the bridge starts: its server
        with open(path, "w") as f:
            f.write("\\n".join(sorted(n for n, m in sys.modules.items() if m is not None)))
    start(self, *args, **kwargs)

subprocess.Popen.__init__ = listed
runpy.run_module("roots_manager.bridge", run_name="__main__", alter_sys=True)
"""
"""``python -m roots_manager.bridge`` that writes down the modules loaded when it starts its
server."""

NOT_BEFORE_THE_SERVER = (
    "asyncio",
    "dataclasses",
    "typing",
    "secrets",
    "filelock",
    "roots_manager.core.store.schema",
    "roots_manager.core.store.state",
    "roots_manager.bridge.run.runner",
)
"""What a bridge loads only after its server is started: the server's own start (often the
longest part of a host's wait) overlaps the rest of the bridge's."""


def loaded_by(
    script: str, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> set[str]:
    """The modules a bridge run as *script* (one of the listings above) wrote down, after a
    host's handshake through it."""
    listing = tmp_path / "modules.txt"
    monkeypatch.setenv("BRIDGE_MODULES_FILE", str(listing))
    grant_folder(store, tmp_path, "pup", "work")
    pair = Bridged(run=("-c", script))
    try:
        pair.handshake()
    finally:
        pair.close()
    return set(listing.read_text().split())


def test_a_bridge_starts_its_server_before_it_loads_the_rest(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loaded = loaded_by(MODULES_AT_SPAWN, store, tmp_path, monkeypatch)
    assert "roots_manager.bridge.run.confine" in loaded  # the listing is of the start
    assert not [m for m in NOT_BEFORE_THE_SERVER if m in loaded], sorted(loaded)


MODULES_AT_EARLY_RELAY = """
import os, runpy, sys, threading

start = threading.Thread.start

def listed(self):
    if self.name == "early-relay":
        with open(os.environ["BRIDGE_MODULES_FILE"], "w") as f:
            f.write("\\n".join(sorted(n for n, m in sys.modules.items() if m is not None)))
    start(self)

threading.Thread.start = listed
runpy.run_module("roots_manager.bridge", run_name="__main__", alter_sys=True)
"""
"""``python -m roots_manager.bridge`` that writes down the modules loaded when it begins to relay
the host's first exchange (:mod:`roots_manager.bridge.transport.early`)."""


@only_on_posix("the early relay waits on the host's pipe with poll(), which Windows has not")
def test_a_bridge_relays_the_hosts_initialize_before_it_loads_the_rest(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # what the host waits for at each start is the server's answer, not the bridge's load too
    loaded = loaded_by(MODULES_AT_EARLY_RELAY, store, tmp_path, monkeypatch)
    assert "roots_manager.bridge.transport.early" in loaded  # the listing is of the relay's start
    assert not [m for m in NOT_BEFORE_THE_SERVER if m in loaded], sorted(loaded)


STARTED_WITH = (
    "__future__",
    "roots_manager",
    "roots_manager.bridge",
    "roots_manager.bridge.main",
    "roots_manager.bridge.run",
    "roots_manager.bridge.run.confine",
    "roots_manager.bridge.run.spawn",
    "roots_manager.core",
    "roots_manager.core.directory",
    "roots_manager.core.directory.layout",
    "roots_manager.core.runs",
    "roots_manager.core.runs.run_id",
    "roots_manager.core.servers",
    "roots_manager.core.servers.defaults",
    "roots_manager.core.store",
    "roots_manager.core.store.versions",
    "roots_manager.support",
    "roots_manager.support.bundle",
    "roots_manager.support.cyclic_gc",
    "roots_manager.support.paths",
)
"""All a bridge loads of its own before its server starts, beyond the standard library's
``subprocess`` (which starts it) and ``json`` (which reads the store at a glance, to know whether
to confine it). Not ``hashlib``, which names a confined server's folder (six libraries, since
OpenSSL's is left out), nor ``pathlib`` (with ``urllib.parse`` and ``ipaddress``), nor the
warden: the server's start waits for none of them."""

STANDARD_AT_SPAWN = "import gc, json, runpy, subprocess"
"""What the standard library brings to a start: ``subprocess`` and ``json``, ``gc`` (built into
the interpreter: the glance parses a large store with the cyclic collector paused, through
``support.cyclic_gc``), and ``runpy``, through which ``python -m`` (and this test) runs the
bridge."""


def _without_site(path: list[str]) -> dict[str, str]:
    """An environment in which ``python -S`` finds what *path* (this test's ``sys.path``) holds,
    and the package itself, whatever installed it: site's ``.pth`` files are not run, as in an
    install from the wheel (an editable install's finder loads pathlib and ``re`` into every
    Python, which would hide them coming back to the bridge's start)."""
    package = str(Path(roots_manager.__file__).resolve().parent.parent)
    return dict(os.environ, PYTHONPATH=os.pathsep.join([package, *(p for p in path if p)]))


def _listed(lines: str) -> set[str]:
    return {n for n in lines.split() if n}


@pytest.mark.skipif(sys.platform == "win32", reason="on Windows the job object's code starts it")
def test_a_bridge_loads_nothing_of_its_own_before_its_server_but_what_starts_it(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = _without_site(sys.path)
    bare = subprocess.run(
        [
            sys.executable,
            "-S",
            "-c",
            f"{STANDARD_AT_SPAWN}; import sys; "
            "print('\\n'.join(n for n, m in sys.modules.items() if m is not None))",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    standard = _listed(bare.stdout)
    listing = tmp_path / "modules.txt"
    monkeypatch.setenv("BRIDGE_MODULES_FILE", str(listing))
    monkeypatch.setenv("PYTHONPATH", env["PYTHONPATH"])
    grant_folder(store, tmp_path, "pup", "work")
    pair = Bridged(run=("-S", "-c", MODULES_AT_SPAWN))
    try:
        pair.handshake()
    finally:
        pair.close()
    loaded = _listed(listing.read_text())
    assert "roots_manager.bridge.run.confine" in loaded  # the listing is of the start
    assert "pathlib" not in standard and "hashlib" not in standard  # what this test guards
    assert sorted(loaded - standard - set(STARTED_WITH)) == []


def test_the_version_is_the_packages_own() -> None:
    # one place for the version: the build reads it from the package, the bridge needs no
    # package metadata to say it
    assert roots_manager.__version__ == importlib.metadata.version("roots-manager")
    shown = subprocess.run(
        [sys.executable, "-m", "roots_manager.bridge", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout.strip() == f"roots-bridge {roots_manager.__version__}"
