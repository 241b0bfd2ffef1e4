"""``python -m roots_manager.bridge``: the same as ``roots-bridge``."""

import sys

from roots_manager.bridge.main import main

sys.exit(main())
