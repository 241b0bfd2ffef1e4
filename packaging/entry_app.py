"""Frozen entry point of ``roots-manager-app``, the desktop app (it also takes the CLI's
commands, so a shortcut with arguments behaves as ``roots-manager`` does)."""

import sys

from roots_manager.cli.main import main

sys.exit(main())
