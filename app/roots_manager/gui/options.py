"""The desktop app's own command-line options (no Qt here: the CLI reads them before Qt loads).

Qt takes options of its own, with one dash (``-platform offscreen``, ``-style fusion``); those
are passed on to it. Anything else with two dashes is a mistake the user should hear about.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass


def add_app_options(parser: argparse.ArgumentParser) -> None:
    """Add the desktop app's options to *parser*."""
    parser.add_argument("--demo", action="store_true", help="connect a small demo server at start")
    parser.add_argument(
        "--hidden", action="store_true", help="start in the tray, without showing the window"
    )


@dataclass(frozen=True)
class AppOptions:
    """The app's options read from a command line, and what is left for Qt."""

    options: argparse.Namespace
    qt_args: list[str]
    unknown: list[str]
    """Options with two dashes that neither the app nor Qt takes (a typo: ``--jsno``)."""


def parse_app_options(argv: list[str]) -> AppOptions:
    """Split *argv* into the app's options, Qt's, and unknown ones."""
    parser = argparse.ArgumentParser(prog="roots-manager", add_help=False)
    add_app_options(parser)
    options, rest = parser.parse_known_args(argv)
    unknown = [a for a in rest if a.startswith("--") and a != "--"]
    return AppOptions(options, [a for a in rest if a not in unknown], unknown)
