"""App start to window shown, against a bare QApplication + QMainWindow started the same way.

Each run is a fresh process (imports included), timed from spawn to the first show of the
window. The ratio to the bare baseline, measured in the same run, is what to compare across
machines; the absolute figure is checked against the 1.5 s target.

Run: python bench/bench_gui_start.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASELINE = """
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([])
w = QMainWindow()
w.resize(1100, 700)
w.show()
QTimer.singleShot(0, lambda: (print("SHOWN", flush=True), app.quit()))
app.exec()
"""

APP = """
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from roots_manager.gui.shell.app import main

def shown():
    print("SHOWN", flush=True)
    for w in QApplication.topLevelWidgets():
        if w.__class__.__name__ == "MainWindow":
            QTimer.singleShot(0, w.quit_requested.emit)

raise SystemExit(main([], on_shown=shown))
"""


def time_to_shown(code: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.strip() == b"SHOWN":
            elapsed = time.perf_counter() - start
            break
    else:
        raise SystemExit(f"the process never showed its window (exit {proc.wait()})")
    proc.wait(timeout=60)
    return elapsed


def seed(home: Path) -> None:
    """A state directory with a few roots and servers, like a user's."""
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.store.file import Store

    store = Store(Layout(home))
    with store.transaction() as state:
        ids = []
        for i in range(20):
            d = home.parent / f"project-{i}"
            d.mkdir(exist_ok=True)
            ids.append(state.add_root(str(d)).id)
        for s in range(10):
            state.grant(f"server-{s}", ids[s : s + 5])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        seed(home)
        env = dict(os.environ, ROOTS_MANAGER_HOME=str(home))
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
        base: list[float] = []
        app: list[float] = []
        for _ in range(args.runs):  # interleaved, so that machine noise hits both alike
            base.append(time_to_shown(BASELINE, env))
            app.append(time_to_shown(APP, env))
    b, a = statistics.median(base), statistics.median(app)
    print(f"runs: {args.runs} each, platform {env['QT_QPA_PLATFORM']}")
    print(f"baseline (bare QApplication + QMainWindow): median {b * 1000:.0f} ms")
    print(f"roots-manager (20 roots, 10 servers):       median {a * 1000:.0f} ms")
    print(f"ratio app / baseline: {a / b:.2f}x; app minus baseline: {(a - b) * 1000:.0f} ms")
    print(f"target: under 1500 ms -> {'met' if a < 1.5 else 'NOT met'}")


if __name__ == "__main__":
    main()
