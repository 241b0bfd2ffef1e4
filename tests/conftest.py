"""Shared test set-up: a private per-user directory for every test, Qt offscreen, real peers."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.hookimpl(tryfirst=True)  # before -m deselects by the markers given here
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test gets its tier, unit, e2e or packaging (tests/tiers.py says which and why)."""
    from tests.tiers import assign

    assign(items)


REPO = Path(__file__).resolve().parent.parent
PEERS = REPO / "tests" / "peers"
FILESYSTEM_SERVER = (
    PEERS / "node_modules" / "@modelcontextprotocol" / "server-filesystem" / "dist" / "index.js"
)


@pytest.fixture(scope="session", autouse=True)
def short_names_swept() -> Iterator[None]:
    """The links a confined server's ``TMPDIR`` is told by (``/tmp/rm-UID-HASH``:
    roots_manager.sandbox.confine.short_name) outlive the tests' folders they lead to: those
    left leading nowhere are removed once the tests are done (a live one always leads
    somewhere: its folder is made before it)."""
    yield
    import re

    named = re.compile(r"rm-\d+-[0-9a-f]{8}")
    for link in Path("/tmp").glob("rm-*-*") if sys.platform == "linux" else ():
        if named.fullmatch(link.name) and link.is_symlink() and not link.exists():
            link.unlink(missing_ok=True)


@pytest.fixture(autouse=True)
def rm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test gets its own ROOTS_MANAGER_HOME, inherited by the processes it starts."""
    home = tmp_path / "rm-home"
    monkeypatch.setenv("ROOTS_MANAGER_HOME", str(home))
    # the logs go where the home says unless a test says otherwise
    monkeypatch.delenv("ROOTS_MANAGER_LOGS", raising=False)
    yield home


@pytest.fixture
def advisory_new_servers(rm_home: Path) -> None:
    """Servers first seen start unconfined (``policy --confine-new off``): for a test of what a
    running unconfined server is told, list_changed after a grant among it (a confined server
    is restarted with its new rules instead: tests/e2e/test_restart.py)."""
    from tests.bridge.wire import unconfined_by_default

    unconfined_by_default()


@pytest.fixture(params=["c-relay", "python-relay"])
def both_relays(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test against bridges with the relay's hot path in C (where it was built) and
    against bridges with the Python relay alone (``ROOTS_MANAGER_PURE_RELAY``)."""
    if request.param == "python-relay":
        monkeypatch.setenv("ROOTS_MANAGER_PURE_RELAY", "1")
    else:
        monkeypatch.delenv("ROOTS_MANAGER_PURE_RELAY", raising=False)
    return str(request.param)


@pytest.fixture(name="wait_for")
def wait_for_fixture():  # type: ignore[no-untyped-def]
    """The one polling helper (:func:`tests.polling.wait_for`), for tests without Qt."""
    from tests.polling import wait_for

    return wait_for


@pytest.fixture
def layout(rm_home: Path):  # type: ignore[no-untyped-def]
    from roots_manager.core.directory.layout import Layout

    return Layout(rm_home).ensure()


@pytest.fixture
def store(layout):  # type: ignore[no-untyped-def]
    from roots_manager.core.store.file import Store

    return Store(layout)


def run_cli(
    *args: str, check: bool = True, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run ``roots-manager`` as a real process (the installed entry point's module)."""
    proc = subprocess.run(
        [sys.executable, "-m", "roots_manager.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=os.environ.copy(),
    )
    if check and proc.returncode != 0:
        raise AssertionError(
            f"roots-manager {' '.join(args)} exited {proc.returncode}\n"
            f"stdout: {proc.stdout}\nstderr: {proc.stderr}"
        )
    return proc


def required(program: str, package: str, what: str) -> str:
    """The path of *program* (from the system package *package*), which the test needs for
    *what*. Missing, it skips the test on a developer's machine and fails it where
    ``ROOTS_MANAGER_REQUIRE_PEERS`` is set (``.ci/run`` sets it and installs the package): in CI
    a missing tool is a failure, never a skip."""
    found = shutil.which(program)
    if found is not None:
        return found
    unavailable(
        f"{program} ({package}) is required here for {what}",
        f"{program} is not installed here ({package}); {what} needs it (CI installs it)",
    )


def unavailable(in_ci: str, here: str) -> NoReturn:
    """What a test needs is missing: a failure saying *in_ci* where ``ROOTS_MANAGER_REQUIRE_PEERS``
    is set (``.ci/run``, which provides it), a skip saying *here* on a developer's machine."""
    if os.environ.get("ROOTS_MANAGER_REQUIRE_PEERS"):
        raise AssertionError(in_ci)
    pytest.skip(here)


def _node_peer(script: Path, what: str) -> list[str]:
    node = required("node", "Node.js", what)
    if not (PEERS / "node_modules").exists() or not script.exists():
        raise AssertionError(
            f"{script} is missing its packages: run 'npm ci --prefix tests/peers' (.ci/run does)"
        )
    return [node, str(script)]


@pytest.fixture
def filesystem_server() -> list[str]:
    """The command that starts the reference filesystem server from tests/peers."""
    return _node_peer(FILESYSTEM_SERVER, "the real filesystem server")


@pytest.fixture
def ts_host() -> list[str]:
    """The command of a real host made with the TypeScript SDK (tests/peers/ts_host.mjs)."""
    return _node_peer(PEERS / "ts_host.mjs", "the TypeScript SDK host")


def tree(top: Path) -> dict[str, bytes | None]:
    """Every folder (None), file (its bytes) and other entry (None) under *top*, by relative
    path: what a test compares to show that a command left a folder as it was."""
    out: dict[str, bytes | None] = {}
    for folder, dirs, files in os.walk(top):
        for d in dirs:
            out[os.path.relpath(os.path.join(folder, d), top)] = None
        for f in files:
            path = Path(folder, f)
            out[os.path.relpath(path, top)] = path.read_bytes() if path.is_file() else None
    return out


def only_on_linux(why: str) -> pytest.MarkDecorator:
    """A test of something only Linux has (*why*): it runs on Linux, and says why elsewhere."""
    return pytest.mark.skipif(not sys.platform.startswith("linux"), reason=why)


def only_on_posix(why: str) -> pytest.MarkDecorator:
    """A test of something Windows does not have (*why*): it runs on Linux and macOS (CI's is
    Linux), and says why on Windows."""
    return pytest.mark.skipif(sys.platform == "win32", reason=why)
