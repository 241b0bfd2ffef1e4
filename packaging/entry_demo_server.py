"""Frozen entry point of the demo server that ``roots-manager --demo`` connects to."""

import sys

from roots_manager.demo_server import main

sys.exit(main())
