"""The Help menu's boxes: what roots are, how to use the bridge with a host, About."""

from __future__ import annotations

import html
import json
import shutil

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from roots_manager import __version__
from roots_manager.core.hosts.wrap import find_bridge


def explain_roots(parent: QWidget) -> None:
    """Say what roots are, and what they are not."""
    QMessageBox.information(
        parent,
        QCoreApplication.translate("MainWindow", "What roots are"),
        QCoreApplication.translate(
            "MainWindow",
            "Roots are the folders an MCP server is told to work in. Roots Manager answers "
            "each server's roots/list with only the roots you granted it, and tells running "
            "servers when that changes.\n\nRoots tell a server where to look. A confined "
            "server (the default where this machine can confine) is held to its grants by the "
            "kernel; for a server that is not confined they are not an access control: it can "
            "still open any file its process is allowed to. Watch the Log to see what each "
            "server asks for, and what a confined one was refused.",
        ),
    )


def explain_hosts(parent: QWidget) -> None:
    """Show how to put the bridge in front of a server in a host's configuration."""
    # hosts often start servers with a short PATH: name the bridge by its full path, the
    # one installed beside this Python first
    # (roots-bridge.exe on Windows, in a venv's Scripts folder, or beside a bundle's app)
    bridge = find_bridge() or shutil.which("roots-bridge") or "roots-bridge"
    example = json.dumps(
        {
            "mcpServers": {
                "fs": {
                    "command": bridge,
                    "args": [
                        "--server",
                        "fs",
                        "--",
                        "npx",
                        "-y",
                        "@modelcontextprotocol/server-filesystem",
                    ],
                }
            }
        },
        indent=2,
    )
    box = QMessageBox(parent)
    box.setWindowTitle(QCoreApplication.translate("MainWindow", "Use with your host"))
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setText(
        QCoreApplication.translate(
            "MainWindow",
            "In your host's configuration (Claude Desktop, VS Code, Cursor, ...), start "
            "roots-bridge instead of the server: give it a name for the server, then "
            "<code>--</code> and the server's own command line. For example, in Claude "
            "Desktop's claude_desktop_config.json:",
        )
        + f"<pre>{html.escape(example)}</pre>"
        + QCoreApplication.translate(
            "MainWindow",
            "The server then appears in the Servers and consent tab the first time it runs, and sees "
            "only the roots you grant it.",
        )
    )
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    box.open()


def about(parent: QWidget) -> None:
    """The About box: the version and what the app is for."""
    QMessageBox.about(
        parent,
        QCoreApplication.translate("MainWindow", "About Roots Manager"),
        QCoreApplication.translate(
            "MainWindow",
            "Roots Manager {version}\n\nDecide which of your folders each MCP server may "
            "see, and watch what it does with them.",
        ).format(version=__version__),
    )
