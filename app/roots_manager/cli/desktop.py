"""The desktop integration commands of ``roots-manager``: ``desktop install|uninstall``.

Under ``--json`` each prints one document saying what it wrote or removed (the shape is in
``docs/cli.md``), and a failure prints the ``"error"`` object every ``--json`` command prints.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from roots_manager.cli.text import print_json, shown

if TYPE_CHECKING:
    from roots_manager.actions.desktop import Change
    from roots_manager.cli.usage import Subcommands
    from roots_manager.core.store.file import Store

# What the commands need is imported in them: building the parser, which every call of
# roots-manager does (--version too), must stay cheap.

EXIT_REFUSED = 1
JSON_VERSION = 1
_SAID = {
    "refreshed": "refreshed",
    "removed": "removed (nothing else was left for it)",
    "missing": "not refreshed: the tool is not installed (the desktop reads the folder without it)",
    "failed": "not refreshed",
}


def _error(args: argparse.Namespace, code: str, message: str) -> int:
    if args.json:
        print_json({"version": JSON_VERSION, "error": {"code": code, "message": message}})
    else:
        print(f"roots-manager: {shown(message)}", file=sys.stderr)
    return EXIT_REFUSED


def _print(change: Change, args: argparse.Namespace) -> None:
    if args.json:
        print_json(change.to_json())
        return
    if change.exec:
        print(f"the desktop entry starts: {shown(' '.join(change.exec))}")
    for path in change.written:
        print(f"wrote {shown(path)}")
    for path in change.removed:
        print(f"removed {shown(path)}")
    for path in change.folders_removed:
        print(f"removed the empty folder {shown(path)}")
    for run in change.caches:
        detail = f": {run.detail}" if run.detail and run.status == "failed" else ""
        print(f"{run.tool} {shown(run.folder)}: {_SAID.get(run.status, run.status)}{shown(detail)}")
    if change.action == "uninstall" and not change.removed:
        print("nothing to remove: the desktop files are not installed")


def _run(store: Store, args: argparse.Namespace, action: str) -> int:
    if sys.platform in ("win32", "darwin"):
        return _error(
            args,
            "unsupported",
            "desktop install is for Linux and other XDG desktops; on "
            f"{'Windows' if sys.platform == 'win32' else 'macOS'} the bundle's installer does this",
        )
    from roots_manager.actions import desktop
    from roots_manager.core.directory.layout import ensure_private_dir

    record = ensure_private_dir(store.layout.home) / desktop.RECORD_NAME
    folders = desktop.Folders.from_env()
    try:
        if action == "install":
            change = desktop.install(record, folders, autostart=args.autostart)
        else:
            change = desktop.uninstall(record, folders)
    except desktop.DesktopError as exc:
        return _error(args, "refused", str(exc))
    except OSError as exc:
        what = "wrote" if action == "install" else "removed"
        return _error(
            args,
            "io",
            f"{exc}; what it {what} before is in {record}, and "
            f"'roots-manager desktop {action}' can be run again once that is fixed",
        )
    _print(change, args)
    return 0


def cmd_desktop_install(store: Store, args: argparse.Namespace) -> int:
    return _run(store, args, "install")


def cmd_desktop_uninstall(store: Store, args: argparse.Namespace) -> int:
    return _run(store, args, "uninstall")


def add_commands(sub: Subcommands) -> None:
    """Add ``desktop`` to the command line's subcommands *sub*."""
    d = sub.add_parser(
        "desktop",
        help="add the app to the desktop's menus (Linux, no root needed)",
        description="Put the desktop entry, the icons and the AppStream metainfo in your XDG "
        "data folder ($XDG_DATA_HOME, else ~/.local/share), starting this installation.",
    )
    dsub = d.add_subparsers(dest="desktop_command", metavar="ACTION", required=True)
    i = dsub.add_parser("install", help="install the desktop entry, the icons and the metainfo")
    i.add_argument(
        "--autostart",
        action="store_true",
        help="also start the app in the tray at login ($XDG_CONFIG_HOME/autostart)",
    )
    i.add_argument("--json", action="store_true", help="print what was written as JSON")
    i.set_defaults(func=cmd_desktop_install)
    u = dsub.add_parser("uninstall", help="remove what 'desktop install' wrote, and nothing else")
    u.add_argument("--json", action="store_true", help="print what was removed as JSON")
    u.set_defaults(func=cmd_desktop_uninstall)
