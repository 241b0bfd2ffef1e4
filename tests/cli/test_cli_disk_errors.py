"""A full disk, a read-only file system and a denied permission, met for real by the real CLI
(and a full disk by the real bridge).

Each is said as one sentence naming the file ("the disk holding ... is full"), not as
``[Errno 28] No space left on device`` with no file at all. The conditions are real: a tmpfs of
64 KiB filled up, a tmpfs remounted read-only, and a lock file left by root (``sudo
roots-manager`` once) that an ordinary user's ``roots-manager`` then meets. Mounting needs root,
and root is refused nothing by a file's mode, so these run as root (CI does) and skip, saying
so, elsewhere.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import only_on_linux, run_cli
from tests.core.hosts.hosts_samples import SAMPLES


def _not_root() -> bool:
    """Not root, where that can be helped: in CI (which runs as root) these must run."""
    if os.environ.get("ROOTS_MANAGER_REQUIRE_PEERS"):
        return False
    return sys.platform != "win32" and os.geteuid() != 0


pytestmark = [
    only_on_linux("tmpfs mounts and setpriv are Linux's"),
    pytest.mark.skipif(
        _not_root(),
        reason="mounting a tmpfs needs root, and only root can run the CLI as another user "
        "(CI runs as root, so these run there)",
    ),
]


@contextlib.contextmanager
def tmpfs(where: Path, size: str = "64k") -> Iterator[Path]:
    """A tmpfs of *size* mounted at *where* for the block, unmounted after it."""
    where.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(where)], check=True
    )
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=True)


def fill(disk: Path) -> None:
    """Take every free byte of *disk* (unbuffered: a buffer's flush would fail at close)."""
    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for chunk in (b"\0" * 4096, b"\0"):  # then the last bytes a whole block missed
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, chunk)
    finally:
        os.close(fd)


def test_a_full_disk_is_named_with_the_file_and_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    with tmpfs(tmp_path / "disk") as disk:
        home = disk / "rm-home"
        monkeypatch.setenv("ROOTS_MANAGER_HOME", str(home))
        run_cli("roots", "add", str(folder))
        before = (home / "store.json").read_bytes()
        fill(disk)
        done = run_cli("roots", "add", str(tmp_path), check=False)
        assert done.returncode == 1, done
        # the first file the save writes is the last good copy, kept before the store
        assert done.stderr == (
            f"roots-manager: the disk holding {home / 'store.json.bak'} is full: free some "
            "space and try again\n"
        )
        assert "Errno" not in done.stderr
        assert (home / "store.json").read_bytes() == before
        assert [r["path"] for r in json.loads(run_cli("roots", "list", "--json").stdout)] == [
            str(folder)
        ]


def test_the_bridge_says_a_full_disk_in_words_as_the_cli_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    with tmpfs(tmp_path / "disk") as disk:
        home = disk / "rm-home"
        monkeypatch.setenv("ROOTS_MANAGER_HOME", str(home))
        run_cli("roots", "add", str(folder))
        before = (home / "store.json").read_bytes()
        fill(disk)
        hello = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "1"},
            },
        }
        bridge = [sys.executable, "-m", "roots_manager.bridge", "--server", "demo", "--"]
        done = subprocess.run(
            [*bridge, sys.executable, "-m", "roots_manager.demo_server"],
            input=json.dumps(hello) + "\n",
            capture_output=True,
            text=True,
            timeout=60,
            env=os.environ.copy(),
        )
        # the bridge serves on: the host is answered, the disk is only said to be full
        assert json.loads(done.stdout.splitlines()[0])["id"] == 1, done
        said = [line for line in done.stderr.splitlines() if line.startswith("roots-bridge:")]
        assert "Errno" not in done.stderr, done.stderr
        assert (
            f"roots-bridge: the disk holding {home / 'store.json.bak'} is full: free some "
            "space and try again" in said
        ), said
        log_said = [line for line in said if "the traffic log cannot be written" in line]
        assert len(log_said) == 1, said
        assert f"(the disk holding {home / 'logs'}" in log_said[0], log_said
        assert (
            "is full: free some space and try again); the server runs without it" in (log_said[0])
        )
        assert (home / "store.json").read_bytes() == before


def test_a_read_only_file_system_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    with tmpfs(tmp_path / "disk") as disk:
        home = disk / "rm-home"
        monkeypatch.setenv("ROOTS_MANAGER_HOME", str(home))
        run_cli("roots", "add", str(folder))
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        done = run_cli("roots", "add", str(tmp_path), check=False)
        assert done.returncode == 1, done
        assert done.stderr == (
            f"roots-manager: {home / 'store.json.lock'} is on a read-only file system, so it "
            "cannot be written\n"
        )
        # reading needs no write: the list is still there
        assert str(folder) in run_cli("roots", "list").stdout
        # a home that does not exist yet cannot be made there either, and says where
        monkeypatch.setenv("ROOTS_MANAGER_HOME", str(disk / "new-home"))
        done = run_cli("roots", "list", check=False)
        assert done.stderr == (
            f"roots-manager: {disk / 'new-home'} is on a read-only file system, so it cannot "
            "be written\n"
        )


def test_a_host_file_on_a_full_disk_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with tmpfs(tmp_path / "disk") as disk:
        monkeypatch.setenv("HOME", str(disk))
        monkeypatch.setenv("XDG_CONFIG_HOME", str(disk / ".config"))
        config = disk / ".config" / "Claude" / "claude_desktop_config.json"
        config.parent.mkdir(parents=True)
        config.write_text(SAMPLES["claude-desktop"], encoding="utf-8")
        original = config.read_bytes()
        fill(disk)
        done = run_cli("hosts", "wrap", "claude-desktop", "--all", check=False)
        assert done.returncode == 1, done
        assert f"not changed: the disk holding {config} is full" in done.stdout, done
        assert "Errno" not in done.stdout + done.stderr
        doc = json.loads(
            run_cli("hosts", "wrap", "claude-desktop", "--all", "--json", check=False).stdout
        )
        assert doc["files"][0]["error"] == (
            f"not changed: the disk holding {config} is full: free some space and try again"
        )
        assert config.read_bytes() == original


def test_a_lock_file_left_by_root_is_named_to_an_ordinary_user(tmp_path: Path) -> None:
    from tests.security.confined import _importable, unprivileged_user, user_python

    user = unprivileged_user()
    # under a folder the user may enter (pytest's own is root's alone)
    base = Path(tempfile.mkdtemp(prefix="rm-perm-", dir="/tmp"))
    try:
        os.chmod(base, 0o755)
        home, folder = base / "home", base / "project"
        folder.mkdir()
        env = {**os.environ, "ROOTS_MANAGER_HOME": str(home)}
        subprocess.run([sys.executable, "-m", "roots_manager.cli", "roots", "add", str(folder)],
                       env=env, check=True, capture_output=True)  # fmt: skip
        for top, folders, files in os.walk(home):
            for name in [top, *(os.path.join(top, n) for n in folders + files)]:
                os.lchown(name, user.pw_uid, user.pw_gid)
        os.lchown(home / "store.json.lock", 0, 0)  # as `sudo roots-manager` leaves it
        os.chmod(home / "store.json.lock", 0o600)
        as_user = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}",
                   "--clear-groups", "--", user_python(), "-m", "roots_manager.cli"]  # fmt: skip
        user_env = {**env, "PYTHONPATH": os.pathsep.join(_importable())}
        done = subprocess.run([*as_user, "roots", "add", str(base)], env=user_env,
                              capture_output=True, text=True, check=False)  # fmt: skip
        assert done.returncode == 1, done
        assert done.stderr == (
            f"roots-manager: no permission to write {home / 'store.json.lock'}: check the "
            "owner and permissions of the file and of its folder\n"
        )
        # a per-user directory to be made in a folder that is root's alone
        elsewhere = base / "roots-own" / "home"
        elsewhere.parent.mkdir()
        done = subprocess.run([*as_user, "roots", "list"], capture_output=True, text=True,
                              env={**user_env, "ROOTS_MANAGER_HOME": str(elsewhere)},
                              check=False)  # fmt: skip
        assert done.returncode == 1, done
        assert done.stderr == (
            f"roots-manager: no permission to write {elsewhere}: check the owner and "
            "permissions of the file and of its folder\n"
        )
    finally:
        subprocess.run(["rm", "-rf", str(base)], check=True)


def test_a_per_user_folder_made_read_only_stays_so_and_is_said(tmp_path: Path) -> None:
    from tests.security.confined import _importable, unprivileged_user, user_python

    user = unprivileged_user()
    base = Path(tempfile.mkdtemp(prefix="rm-perm-", dir="/tmp"))
    try:
        os.chmod(base, 0o755)
        home, folder = base / "home", base / "project"
        folder.mkdir()
        env = {**os.environ, "ROOTS_MANAGER_HOME": str(home)}
        subprocess.run([sys.executable, "-m", "roots_manager.cli", "roots", "add", str(folder)],
                       env=env, check=True, capture_output=True)  # fmt: skip
        for top, folders, files in os.walk(home):
            for name in [top, *(os.path.join(top, n) for n in folders + files)]:
                os.lchown(name, user.pw_uid, user.pw_gid)
        os.chmod(home, 0o500)  # the user's own `chmod a-w`: nothing is to be written there
        before = {p.name: p.read_bytes() for p in home.iterdir() if p.is_file()}
        as_user = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}",
                   "--clear-groups", "--", user_python(), "-m", "roots_manager.cli"]  # fmt: skip
        user_env = {**env, "PYTHONPATH": os.pathsep.join(_importable())}
        done = subprocess.run([*as_user, "policy", "deny"], env=user_env,
                              capture_output=True, text=True, check=False)  # fmt: skip
        assert done.returncode == 1, done
        assert done.stderr.startswith(f"roots-manager: no permission to write {home}"), done
        assert "check the owner and permissions of the file and of its folder" in done.stderr
        # the user's mode is theirs: not put back to 0700 behind their back
        assert stat.S_IMODE(os.stat(home).st_mode) == 0o500
        assert {p.name: p.read_bytes() for p in home.iterdir() if p.is_file()} == before
        # reading needs no write, and is not refused
        listed = subprocess.run([*as_user, "roots", "list", "--json"], env=user_env,
                                capture_output=True, text=True, check=True)  # fmt: skip
        assert [r["path"] for r in json.loads(listed.stdout)] == [str(folder)]
        assert stat.S_IMODE(os.stat(home).st_mode) == 0o500
    finally:
        subprocess.run(["rm", "-rf", str(base)], check=True)
