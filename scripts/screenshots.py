#!/usr/bin/env python3
"""Take the README's screenshots: the main window, the consent prompt, the live log and Learn….

    QT_QPA_PLATFORM=offscreen python scripts/screenshots.py --lang ja --out docs
    QT_QPA_PLATFORM=offscreen python scripts/screenshots.py --lang ja --first-run --out docs
    xvfb-run -a -s "-screen 0 1400x900x24" env QT_QPA_PLATFORM=xcb \
        python scripts/screenshots.py --lang ja --scale 1.5 --out /tmp/shots

Builds a sample workspace in a temporary ROOTS_MANAGER_HOME (roots, servers, grants, a
running bridge's marker, a pending consent request, a refused read that waits for the user's
answer and a few hundred traffic events), opens
the real app on it, and grabs each view to PNG. With --first-run the state is what a new user
meets instead: no roots, the welcome, and a first server waiting for consent. Under the
offscreen platform the screen is made 1400x900 (its own default is too small for the window).
Look at the results before committing them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

SERVERS = {
    "filesystem": ["npx", "-y", "@modelcontextprotocol/server-filesystem"],
    "git-helper": ["uvx", "mcp-server-git"],
    "notes-server": ["node", "/opt/notes/server.js"],
    "github": ["npx", "-y", "@modelcontextprotocol/server-github"],
    "sqlite": ["uvx", "mcp-server-sqlite", "--db-path", "/tmp/shop.db"],
    "web-search": ["node", "/opt/search/index.js"],
}


def build_sample(home: Path, work: Path, lang: str) -> None:
    """Fill *home* with a realistic state and traffic log."""
    from roots_manager.core.confinement import confined
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.directory.records import EventKind
    from roots_manager.core.log import events as ev
    from roots_manager.core.runs import live
    from roots_manager.core.store.file import Store
    from roots_manager.core.store.state import now_iso

    layout = Layout(home).ensure()
    folders = {
        "web-shop": work / "web-shop",
        "api-server": work / "api#server",
        "ノート" if lang == "ja" else "notes": work / "ノート",
        "data science": work / "data science",
    }
    for name, path in folders.items():
        if name != "data science":
            path.mkdir(parents=True, exist_ok=True)
    (work / "data science").mkdir(parents=True, exist_ok=True)
    (work / "shared-lib" / "dist").mkdir(parents=True, exist_ok=True)  # refused while Learn… runs
    store = Store(layout)
    with store.transaction() as state:
        roots = {name: state.add_root(str(path), name=name) for name, path in folders.items()}
        for name, command in SERVERS.items():
            state.server_started(name, command, f"sample-{name}")
        state.pending.clear()
        state.servers["filesystem"].fingerprint = state.servers["filesystem"].seen_fingerprint
        state.grant("filesystem", [roots["web-shop"].id, roots["api-server"].id])
        state.grant("git-helper", [roots["api-server"].id])
        # the selected server runs confined, with one folder it may only read
        state.servers["filesystem"].confine = True
        # and asks before refusing a read (servers ask filesystem 30): its Protection shows it
        confined.set_ask(state, "filesystem", 30)
        # and reaches only the package registry npx fetches it from, through the proxy
        confined.set_domains(state, "filesystem", ["registry.npmjs.org", "nodejs.org"])
        state.grant("filesystem", [roots["api-server"].id], read_only=True)
        # and keeps its .env hidden from it, and its config read-only (grant --except, --hide)
        state.set_inside(
            "filesystem", [roots["web-shop"].id], read_only=["config"], hidden=[".env"]
        )
        notes = next(
            r for n, r in roots.items() if n not in ("web-shop", "api-server", "data science")
        )
        state.grant("notes-server", [notes.id], "session", ["sample-notes-server"])
        state.server_started(
            "claude-code-fs",
            ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/home/me/work"],
            "sample-claude",
        )
    (work / "data science").rmdir()  # shown as unavailable

    run = "20261129T090000-filesystem"
    live.write_bridge_marker(
        layout,
        live.BridgeMarker(
            run=run,
            server="filesystem",
            pid=os.getpid(),
            started_at=now_iso(),
            command=SERVERS["filesystem"],
            protocol="2025-11-25",
            last_roots_list_at=now_iso(),
            last_list_changed_at=now_iso(),
            stale=True,
        ),
    )
    writer = ev.EventWriter(layout, run)
    clock = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=30)

    def stamped(rec: dict[str, object]) -> dict[str, object]:
        nonlocal clock
        clock += timedelta(milliseconds=730)
        rec["ts"] = clock.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        return rec

    uris = [roots["web-shop"].uri, roots["api-server"].uri]
    writer.write(
        stamped(
            ev.event(
                EventKind.RUN_START,
                "filesystem",
                run,
                command=SERVERS["filesystem"],
                pid=4242,
                mode="managed",
            )
        )
    )
    writer.write(
        stamped(
            ev.event(
                EventKind.HANDSHAKE,
                "filesystem",
                run,
                dir=ev.HOST_TO_SERVER,
                id=0,
                protocol="2025-11-25",
                injected={"roots": {"listChanged": True}},
            )
        )
    )
    for i in range(1, 120):
        writer.write(
            stamped(ev.event(EventKind.ROOTS_ASKED, "filesystem", run, dir=ev.SERVER_TO_HOST, id=i))
        )
        writer.write(
            stamped(
                ev.event(
                    EventKind.ROOTS_ANSWERED,
                    "filesystem",
                    run,
                    dir=ev.BRIDGE_TO_SERVER,
                    id=i,
                    uris=uris[: 1 + i % 2],
                    us=180 + i,
                )
            )
        )
        if i % 3 == 0:
            writer.write(
                stamped(
                    ev.event(
                        EventKind.LIST_CHANGED_SENT,
                        "filesystem",
                        run,
                        dir=ev.BRIDGE_TO_SERVER,
                        uris=uris[: 1 + (i + 1) % 2],
                    )
                )
            )
    # a refusal just now, of a confined server asked to read outside its grants: the notice
    outside = work.parent / "private" / "todo.md"
    writer.write(
        ev.event(
            EventKind.DENIAL,
            "filesystem",
            run,
            path=str(outside),
            folder=str(outside.parent),
            operation="read",
            during="request",
            requests=[{"method": "tools/call", "tool": "read_file", "id": 120, "argument": "path"}],
        )
    )
    # and, newest, a read it asks about: the call waits 30 s from a few seconds before the
    # shot, so the notice is a question with the seconds left (and the Log's row is the last)
    note = work / "ノート" / "ideas.md"
    note.write_text("# Ideas\n", encoding="utf-8")
    asked_at = datetime.now(UTC) - timedelta(seconds=3)
    writer.write(
        ev.event(
            EventKind.DENIAL,
            "filesystem",
            run,
            path=str(note),
            folder=str(note.parent),
            operation="read",
            during="request",
            at=asked_at.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            waits=30,
            requests=[{"method": "tools/call", "tool": "read_note", "id": 9, "argument": "path"}],
        )
    )
    writer.close()


def learned_refusals(home: Path, work: Path) -> None:
    """What git-helper is refused while Learn… runs: reads in two projects, a file of the home
    folder, a key and the home folder's listing (those two never proposed)."""
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.directory.records import EventKind
    from roots_manager.core.log import events as ev

    user = Path.home()
    refused = [
        (work / "web-shop" / "package.json", "read"),
        (work / "web-shop" / "src" / "app.ts", "read"),
        (work / "shared-lib" / "dist" / "index.js", "write"),
        (user / ".gitconfig", "read"),
        (user / ".ssh" / "id_ed25519", "read"),
        (user, "list"),
    ]
    writer = ev.EventWriter(Layout(home), "20261129T091500-git-helper")
    for path, operation in refused:
        writer.write(
            ev.event(
                EventKind.DENIAL, "git-helper", "20261129T091500-git-helper", path=str(path),
                folder=str(path.parent), operation=operation, during="between",
            )
        )  # fmt: skip
    writer.close()


def build_first_run(home: Path) -> None:
    """A new user's state: no roots, and the demo server waiting for consent (its bridge's
    marker and log say it holds the server's roots/list, so the prompt counts down)."""
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.directory.records import EventKind
    from roots_manager.core.log import events as ev
    from roots_manager.core.runs import live
    from roots_manager.core.servers.command import DEMO_SERVER_NAME
    from roots_manager.core.store.file import Store
    from roots_manager.core.store.state import now_iso

    layout = Layout(home).ensure()
    run = "20261130T090000-roots-demo"
    # the command as an installed app runs it, not this checkout's interpreter path
    command = ["python3", "-m", "roots_manager.demo_server"]
    with Store(layout).transaction() as state:
        state.server_started(DEMO_SERVER_NAME, command, run)
    live.write_bridge_marker(
        layout,
        live.BridgeMarker(
            run=run,
            server=DEMO_SERVER_NAME,
            pid=os.getpid(),
            started_at=now_iso(),
            command=command,
            protocol="2025-11-25",
            process_started=live.process_start_time(os.getpid()),
        ),
    )
    writer = ev.EventWriter(layout, run)
    writer.write(ev.event(EventKind.CONSENT_WAIT, DEMO_SERVER_NAME, run, timeout=30.0))
    asked = ev.event(EventKind.ROOTS_ASKED, DEMO_SERVER_NAME, run, dir=ev.SERVER_TO_HOST, id=0)
    asked["held"] = True
    # asked 7 s ago: the prompt shows the 23 s left
    asked["ts"] = (
        (datetime.now(UTC) - timedelta(seconds=7))
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )
    writer.write(asked)
    writer.close()


def big_offscreen_screen(tmp: Path, scale: float) -> None:
    """Give the offscreen platform a screen the size of a laptop's (its default is 800x800)."""
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform != "offscreen":
        return
    config = tmp / "offscreen.json"
    # scaled: a 1920x1080 laptop screen, 1280x720 at 1.5 (where the window must be clamped)
    width, height = (1400, 900) if scale == 1.0 else (1920, 1080)
    screen = {"name": "shots", "x": 0, "y": 0, "width": width, "height": height,
              "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}  # fmt: skip
    config.write_text(json.dumps({"screens": [screen]}), encoding="utf-8")
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={config}"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lang", default="en", help="en, ja or zh_CN")
    p.add_argument("--out", type=Path, default=Path("docs"))
    p.add_argument(
        "--first-run", action="store_true", help="a new user's state instead of the sample"
    )
    p.add_argument("--scale", type=float, default=1.0, help="the interface scale (QT_SCALE_FACTOR)")
    p.add_argument("--dark", action="store_true", help="as on a desktop set to dark")
    args = p.parse_args()
    suffix = "" if args.lang == "en" else f"-{args.lang}"
    if args.dark:
        suffix += "-dark"
    if args.scale != 1.0:
        suffix += f"@{args.scale:g}x"
        os.environ["QT_SCALE_FACTOR"] = f"{args.scale:g}"
    # a fixed, short place, so the paths in the pictures read well
    tmp = Path(tempfile.gettempdir()) / "roots-manager-sample"
    shutil.rmtree(tmp, ignore_errors=True)
    home = tmp / "state"
    os.environ["ROOTS_MANAGER_HOME"] = str(home)
    tmp.mkdir(parents=True)
    big_offscreen_screen(tmp, args.scale)
    if args.first_run:
        build_first_run(home)
        # the hosts a new user already has: the welcome offers to protect them
        user = tmp / "home"
        config = user / ".config" / "Claude" / "claude_desktop_config.json"
        config.parent.mkdir(parents=True)
        config.write_text(json.dumps({"mcpServers": {
            "filesystem": {"command": "npx", "args": SERVERS["filesystem"][1:]},
            "git": {"command": "uvx", "args": ["mcp-server-git"]},
        }}, indent=2) + "\n", encoding="utf-8")  # fmt: skip
        os.environ["HOME"] = str(user)
        os.environ.pop("XDG_CONFIG_HOME", None)
    else:
        build_sample(home, tmp / "code", args.lang)
        from roots_manager.core.directory.layout import Layout
        from roots_manager.gui.shell.welcome import WELCOME_DISMISSED_KEY

        # the sample is a user's workspace some days in: the welcome was dismissed long ago
        settings = Layout(home).ensure().home / "gui.ini"
        settings.write_text(f"[General]\n{WELCOME_DISMISSED_KEY}=true\n", encoding="utf-8")
    if args.lang != "en":
        from roots_manager.core.directory.layout import Layout
        from roots_manager.core.store.file import Store

        with Store(Layout(home)).transaction() as state:
            state.language = args.lang

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QTableView, QTabWidget

    from roots_manager.gui.consent.consent_dialog import ConsentDialog
    from roots_manager.gui.shell import app as gui_app

    args.out.mkdir(parents=True, exist_ok=True)

    def save(widget, name: str, over=None) -> None:  # type: ignore[no-untyped-def]
        """Grab *widget* to PNG, with the popup *over* it (a menu is a window of its own,
        which a grab of the widget leaves out) painted where it is shown."""
        path = args.out / f"screenshot-{name}{suffix}.png"
        shot = widget.grab()
        if over is not None and over.isVisible():
            from PySide6.QtGui import QPainter

            at = widget.mapFromGlobal(over.mapToGlobal(over.rect().topLeft()))
            painter = QPainter(shot)
            painter.drawPixmap(at, over.grab())
            painter.end()
        shot.save(str(path))
        print(f"wrote {path}")

    def shoot() -> None:
        qapp = QApplication.instance()
        window = next(w for w in qapp.topLevelWidgets() if w.inherits("QMainWindow"))
        dialog = next(
            w for w in qapp.topLevelWidgets() if isinstance(w, ConsentDialog) and w.isVisible()
        )
        if args.first_run:
            # exit, not quit: quit asks the window to close, which a desktop with a tray
            # (icewm under Xvfb) answers by hiding it, and the app would run on
            save(dialog, "first-consent")
            dialog.hide()
            QTimer.singleShot(
                400, lambda: (save(window, "first-run"), QApplication.instance().exit(0))
            )
            return
        save(dialog, "consent")
        dialog.hide()
        tabs = window.findChild(QTabWidget)
        tabs.setCurrentIndex(1)
        # the running server selected, so that what can be done with it shows
        panel = window.servers_panel
        model = panel.servers_model
        rows = [r for r in range(model.rowCount()) if model.index(r, 0).data() == "filesystem"]
        if not rows:  # a timer callback: say so and end, rather than hang
            print("the sample's running server is not listed", file=sys.stderr)
            QApplication.instance().exit(1)
            return
        panel.servers.selectRow(rows[0])

        def main_shot() -> None:
            # its Protection section whole, the switch to ask with it: scrolled to where the
            # window is too short for the server's folders and it both (Japanese, a 1.5 scale)
            panel.detail_scroll.ensureWidgetVisible(panel.confine_box, 0, 4)
            # taller than the pane (its domains, at a 1.5 scale): from its heading down
            panel.detail_scroll.ensureWidgetVisible(panel.protection_label, 0, 4)
            QTimer.singleShot(100, lambda: (save(window, "main"), show_log(window, tabs)))

        QTimer.singleShot(400, main_shot)

    def show_log(window, tabs) -> None:  # type: ignore[no-untyped-def]
        tabs.setCurrentIndex(2)
        table = tabs.currentWidget().findChild(QTableView)

        def pick() -> None:
            # the refusal's row, with what it may be granted in one click (its menu open)
            panel = window.log_panel
            model = table.model()
            refusals = [
                r for r in range(model.rowCount())
                if (panel.model.record_at(r) or {}).get("kind") == "denial"
            ]  # fmt: skip
            table.selectRow(refusals[-1] if refusals else max(0, model.rowCount() - 4))
            table.setFocus()
            menu = panel.open_allow_menu()

            def grab() -> None:
                save(window, "log", over=menu)
                if menu is not None:
                    menu.close()
                show_learning(window)

            QTimer.singleShot(400, grab)

        QTimer.singleShot(1200, pick)

    def show_learning(window) -> None:  # type: ignore[no-untyped-def]
        # Learn… for a server that is not confined: what it is refused while learning, proposed
        panel = window.servers_panel
        model = panel.servers_model
        rows = [r for r in range(model.rowCount()) if model.index(r, 0).data() == "git-helper"]
        if not rows:
            print("the sample's git-helper is not listed", file=sys.stderr)
            QApplication.instance().exit(1)
            return
        panel.servers.selectRow(rows[0])
        dialog = panel.detail.open_learning()
        if dialog is None or not dialog.start(seconds=600):
            print("learning could not start (can this machine confine?)", file=sys.stderr)
            QApplication.instance().exit(1)
            return
        dialog.resize(620, 380)
        learned_refusals(Path(os.environ["ROOTS_MANAGER_HOME"]), tmp / "code")

        def proposed() -> None:
            dialog.stop()
            QTimer.singleShot(
                300,
                lambda: (save(dialog, "learn"), dialog.reject(), QApplication.instance().exit(0)),
            )

        QTimer.singleShot(1500, proposed)

    def shown() -> None:
        window = next(
            w for w in QApplication.instance().topLevelWidgets() if w.inherits("QMainWindow")
        )
        from roots_manager.gui.common.window_state import clamp_to_screen

        window.resize(1200, 760)
        clamp_to_screen(window)  # as a saved geometry is
        QTimer.singleShot(1500, shoot)

    if args.dark:
        # what a dark desktop's colour scheme makes the app do (offscreen has no scheme)
        from PySide6.QtCore import Qt

        from roots_manager.gui.shell.appearance import apply_color_scheme

        qapp = QApplication(["roots-manager"])
        apply_color_scheme(qapp, Qt.ColorScheme.Dark)
    return gui_app.main([], on_shown=shown)


if __name__ == "__main__":
    sys.exit(main())
