"""Frozen entry point of ``roots-manager`` (the app and the CLI)."""

import sys

from roots_manager.cli import main

sys.exit(main())
