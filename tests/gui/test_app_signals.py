"""The app as a real process: SIGTERM ends it like Quit, leaving no marker, no child, and\nonly private files."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import psutil

from roots_manager.core import live
from roots_manager.core.paths import Layout


def _wait_for(condition, what: str, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_sigterm_quits_cleanly_and_ends_the_demo_connection(rm_home: Path) -> None:
    layout = Layout(rm_home)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    app = subprocess.Popen(
        [sys.executable, "-m", "roots_manager.cli", "--demo"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        umask=0o022,  # a permissive umask: the app's own files must still be private
    )
    try:
        _wait_for(lambda: live.app_running(layout), "the app marker")
        _wait_for(lambda: live.bridge_markers(layout), "the demo server's bridge")
        children = psutil.Process(app.pid).children(recursive=True)
        assert children, "the demo connection runs a bridge and a server"
        app.send_signal(signal.SIGTERM)
        assert app.wait(timeout=60) == 0
    finally:
        if app.poll() is None:
            app.kill()
    assert not live.app_running(layout)
    assert not (layout.live / live.APP_MARKER).exists()
    _, alive = psutil.wait_procs(children, timeout=30)
    assert not alive, f"left behind: {alive}"
    assert not live.bridge_markers(layout)
    assert (rm_home / "gui.ini").exists() and (rm_home / "app.log").exists()
    loose = [
        f"{p.relative_to(rm_home)}: {stat.S_IMODE(p.lstat().st_mode):o}"
        for p in [rm_home, *rm_home.rglob("*")]
        if stat.S_IMODE(p.lstat().st_mode) != (0o700 if p.is_dir() else 0o600)
    ]
    assert loose == []
