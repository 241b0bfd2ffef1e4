"""Benchmark of large stores: each command, the bridge's answer and the app's tables, by roots.

Run: ``python bench/bench_scale.py`` (``--sizes 3000,30000,50000`` is the default; ``--quick``
uses 1000,10000).

Every root is a real folder granted to one server. The first size is the baseline measured in
the same run; each larger size is printed with its ratio to it, next to the ratio of the sizes
(what linear work would give: 30,000 against 3,000 roots should take about 10 times as long; a
quadratic step makes it 100). Fixed costs (a process start, Qt's measuring of the first 1,000
rows) make small sizes relatively slow, so a ratio below the size ratio is expected.

- CLI: ``roots list`` (text and ``--json``), ``effective``, ``servers list``, each a process;
- bridge: ``roots/list`` answered by a running ``roots-bridge`` (round trip seen by the server,
  median of 3, after a first answer that reads the store);
- app (offscreen, in a child process): the Roots tab built and shown, refreshed as after a store
  change, and one availability recheck (every 3 s, a batch of at most 2,000 folders); the Servers
  tab shown and refreshed (each bridge answer updates a marker, which refreshes it).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SERVER = [sys.executable, str(HERE / "echo_server.py")]
NAME = "bench"
CLI = [
    ["roots", "list"],
    ["roots", "list", "--json"],
    ["effective", NAME],
    ["servers", "list"],
]


def make_home(base: Path, n: int) -> dict[str, str]:
    """A per-user directory holding *n* real folders, all granted to the bench server."""
    from roots_manager.core.paths import Layout
    from roots_manager.core.roots import Root
    from roots_manager.core.store.file import Store, json_bytes, write_atomic
    from roots_manager.core.store.state import State, fingerprint, now_iso

    folders = base / f"folders-{n}"
    folders.mkdir()
    state = State()
    for i in range(n):
        d = folders / f"project-{i:06d}"
        d.mkdir()
        state.roots.append(Root(id=f"{i:012x}", path=str(d), name=d.name, added_at=now_iso()))
    state.grant(NAME, [r.id for r in state.roots])
    # approved for the command the bridge runs, so that it answers at once
    state.servers[NAME].fingerprint = fingerprint(SERVER)
    layout = Layout(base / f"home-{n}").ensure()
    write_atomic(Store(layout).path, json_bytes(state.to_json()))
    return {**os.environ, "ROOTS_MANAGER_HOME": str(layout.home), "QT_QPA_PLATFORM": "offscreen"}


def timed(run: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    run()
    return time.perf_counter() - t0


def cli_times(env: dict[str, str]) -> dict[str, float]:
    out = {}
    for argv in CLI:
        cmd = [sys.executable, "-m", "roots_manager.cli", *argv]
        out["roots-manager " + " ".join(argv)] = timed(
            lambda cmd=cmd: subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=True)
        )
    return out


def send(proc: subprocess.Popen[bytes], msg: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(msg).encode() + b"\n")
    proc.stdin.flush()


def bridge_time(env: dict[str, str], n: int) -> float:
    """The median round trip of roots/list through a running bridge, as the server sees it."""
    cmd = [sys.executable, "-m", "roots_manager.bridge", "--server", NAME, "--", *SERVER]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "b"}}
    send(proc, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init})
    proc.stdout.readline()
    send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    times: list[float] = []
    for round_ in range(2):
        send(proc, {"jsonrpc": "2.0", "id": f"r{round_}", "method": "bench/roots",
                    "params": {"n": 1 if round_ == 0 else 3}})  # fmt: skip
        while True:
            msg = json.loads(proc.stdout.readline())
            if msg.get("id") == f"r{round_}":
                times = msg["result"]["times"]
                break
    assert proc.stdin is not None
    proc.stdin.close()
    proc.wait(60)
    return statistics.median(times)


def child_gui() -> None:
    """Time the app's tables on the store of $ROOTS_MANAGER_HOME; print the times as JSON."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from roots_manager.core.store.file import Store
    from roots_manager.gui.roots_view import RootsPanel
    from roots_manager.gui.servers_view import ServersPanel
    from roots_manager.gui.watcher import StoreWatcher

    app = QApplication([])
    watcher = StoreWatcher(Store())
    out: dict[str, float] = {"app: store read": timed(watcher.reload)}
    ini = Path(os.environ["ROOTS_MANAGER_HOME"]) / "bench-gui.ini"
    settings = QSettings(str(ini), QSettings.Format.IniFormat)
    t0 = time.perf_counter()
    roots = RootsPanel(watcher, settings)
    roots.model._availability.stop()
    roots.resize(900, 600)
    roots.show()
    app.processEvents()
    out["Roots tab built and shown"] = time.perf_counter() - t0
    out["Roots tab refresh (a store change)"] = timed(
        lambda: (roots.model.refresh(), app.processEvents())
    )
    out["Roots tab availability recheck"] = timed(
        lambda: (roots.model.recheck_availability(), app.processEvents())
    )
    roots.close()
    t0 = time.perf_counter()
    servers = ServersPanel(watcher)
    servers.resize(900, 600)
    servers.show()
    app.processEvents()
    out["Servers tab built and shown"] = time.perf_counter() - t0
    out["Servers tab refresh"] = timed(
        lambda: (
            servers.matrix_model._refresh(),
            servers.servers_model.refresh(),
            app.processEvents(),
        )
    )
    print(json.dumps(out))


def gui_times(env: dict[str, str]) -> dict[str, float]:
    proc = subprocess.run(
        [sys.executable, __file__, "--child-gui"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="3000,30000,50000", help="numbers of roots, baseline first")
    p.add_argument("--quick", action="store_true", help="1000,10000")
    p.add_argument("--child-gui", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child_gui:
        child_gui()
        return 0
    sizes = [1000, 10000] if args.quick else [int(s) for s in args.sizes.split(",")]
    results: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        for n in sizes:
            print(f"measuring {n:,} roots...", file=sys.stderr, flush=True)
            env = make_home(Path(tmp), n)
            row = cli_times(env)
            row["bridge: roots/list round trip"] = bridge_time(env, n)
            row.update(gui_times(env))
            results[n] = row
    base = sizes[0]
    head = f"{'measure':40} {base:>8,}"
    for n in sizes[1:]:
        head += f" {n:>8,} {'ratio':>6}"
    print(head)
    for measure in results[base]:
        line = f"{measure:40} {results[base][measure]:>7.2f}s"
        for n in sizes[1:]:
            t = results[n][measure]
            line += f" {t:>7.2f}s {t / results[base][measure]:>6.1f}"
        print(line)
    print(
        "linear work would give ratios up to "
        + ", ".join(f"{n / base:.1f} ({n:,})" for n in sizes[1:])
        + "; quadratic, up to "
        + ", ".join(f"{(n / base) ** 2:.0f}" for n in sizes[1:])
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
