"""A second ``roots-manager`` raises the running window instead of starting a second app."""

from __future__ import annotations

import os
import subprocess
import sys

from roots_manager.core.directory.layout import Layout
from roots_manager.gui.shell.app import AppController
from roots_manager.gui.shell.instance import LOCK_NAME, InstanceServer


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


def test_only_the_holder_of_the_lock_listens(layout: Layout, qtbot) -> None:  # type: ignore[no-untyped-def]
    # on Windows a second server under one pipe name would listen too: the lock decides
    first, second = InstanceServer(layout), InstanceServer(layout)
    try:
        assert first.listen()
        assert not second.listen()
        assert not second.server.isListening()
        # the first still gets the raise, from another start: the second did not clear its socket
        asker = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys\n"
                "from roots_manager.core.directory.layout import Layout\n"
                "from roots_manager.gui.shell.instance import ask_running_instance\n"
                "sys.exit(0 if ask_running_instance(Layout.default(), 30_000) else 3)\n",
            ]
        )
        with qtbot.waitSignal(first.raise_requested, timeout=30_000):
            pass
        qtbot.waitUntil(lambda: asker.poll() is not None, timeout=30_000)
        assert asker.returncode == 0
        first.close()
        assert second.listen()  # once freed, a later start becomes the running app
    finally:
        first.close()
        second.close()


def lock_holder(layout: Layout) -> subprocess.Popen[str]:
    """Another process that holds the app's lock (and never listens), once it says so."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from PySide6.QtCore import QLockFile\n"
            "lock = QLockFile(sys.argv[1]); assert lock.tryLock(0)\n"
            "print('held', flush=True); time.sleep(600)\n",
            str(layout.home / LOCK_NAME),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


def test_a_lock_left_by_a_killed_app_is_taken_over(layout: Layout) -> None:
    holder = lock_holder(layout)
    try:
        blocked = InstanceServer(layout)
        assert not blocked.listen()
        holder.kill()
        holder.wait()
        # the lock names a process that is gone: stale, whatever its age
        assert blocked.listen()
        blocked.close()
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()


def test_a_start_while_another_app_holds_the_lock_and_does_not_answer_stops(
    layout: Layout,
) -> None:
    # the holder never listens: a second app must not start beside it, and must say why
    holder = lock_holder(layout)
    try:
        second = subprocess.run(
            [sys.executable, "-m", "roots_manager.cli"],
            env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert second.returncode == 1, second.stderr
        assert "does not answer" in second.stderr and LOCK_NAME in second.stderr
    finally:
        holder.kill()
        holder.wait()
