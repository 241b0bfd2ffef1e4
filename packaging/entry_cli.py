"""Frozen entry point of ``roots-manager``, the CLI: no Qt inside, so every call starts fast.

Asked for the desktop app, it hands over to ``roots-manager-app`` beside it
(:mod:`roots_manager.cli.gui`).
"""

import sys

from roots_manager.cli.main import main

sys.exit(main())
