"""Frozen entry point of ``roots-bridge``: a separate executable, so that it never loads Qt."""

import sys

from roots_manager.bridge.main import main

sys.exit(main())
