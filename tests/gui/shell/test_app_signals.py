"""The app as a real process: SIGTERM ends it like Quit, leaving no marker, no child, and\nonly private files."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import psutil

from roots_manager.core.directory.layout import Layout
from roots_manager.core.runs import live
from tests.polling import wait_for

APP_WAIT = 60.0  # the app starts Qt and a bridge: slower than most


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
        wait_for(lambda: live.app_running(layout), "the app marker", timeout=APP_WAIT)
        wait_for(lambda: live.bridge_markers(layout), "the demo server's bridge", timeout=APP_WAIT)
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


RESTART_BY_HAND = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from roots_manager.gui.shell.app import main
from roots_manager.gui.shell.main_window import MainWindow

def answer():
    box = QApplication.activeModalWidget()
    if isinstance(box, QMessageBox) and box.isVisible():
        next(b for b in box.buttons() if b.text().replace("&", "") == "Restart now").click()
    else:
        QTimer.singleShot(20, answer)

def shown():
    window = next(w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow))
    QTimer.singleShot(0, answer)
    QTimer.singleShot(0, window.offer_restart)

sys.exit(main([], on_shown=shown))
"""


def test_restart_ends_this_app_and_starts_a_new_one(rm_home: Path) -> None:
    layout = Layout(rm_home)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    first = subprocess.Popen([sys.executable, "-c", RESTART_BY_HAND], env=env)
    again: psutil.Process | None = None
    try:
        # the first app answers "Restart now" to its own offer, ends, and starts the next one
        assert first.wait(timeout=120) == 0
        wait_for(lambda: live.app_running(layout), "the restarted app's marker", timeout=APP_WAIT)
        doc = json.loads((layout.live / live.APP_MARKER).read_text())
        assert doc["pid"] != first.pid
        again = psutil.Process(doc["pid"])
        assert "roots_manager" in " ".join(again.cmdline())
        again.send_signal(signal.SIGTERM)
        again.wait(timeout=60)  # not our child: its exit code is not ours to read
    finally:
        if first.poll() is None:
            first.kill()
        if again is None:  # failed before it was found: find it by its marker, if any
            with contextlib.suppress(OSError, ValueError, KeyError, psutil.Error):
                doc = json.loads((layout.live / live.APP_MARKER).read_text())
                again = psutil.Process(doc["pid"]) if doc["pid"] != first.pid else None
        if again is not None and again.is_running():
            again.kill()
    assert not live.app_running(layout)
    restart_log = rm_home / "restart.log"  # the new app's early output, private
    assert stat.S_IMODE(restart_log.stat().st_mode) == 0o600
    # it quit as Quit does, not killed: its marker is gone
    assert not (layout.live / live.APP_MARKER).exists()
