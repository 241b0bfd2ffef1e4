"""A second ``roots-manager`` raises the running window instead of starting a second app."""

from __future__ import annotations

import os
import subprocess
import sys

from roots_manager.gui.app import AppController


def test_second_start_raises_the_first(controller: AppController, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = controller.window
    assert window is not None
    window.hide()
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    second = subprocess.Popen(
        [sys.executable, "-m", "roots_manager.cli"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        with qtbot.waitSignal(controller.instance.raise_requested, timeout=30_000):
            pass
        qtbot.waitUntil(lambda: second.poll() is not None, timeout=30_000)
    finally:
        if second.poll() is None:
            second.kill()
    _, err = second.communicate()
    assert second.returncode == 0, err
    assert "already running" in err
    assert window.isVisible()
