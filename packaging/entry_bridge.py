"""Frozen entry point of ``roots-bridge``: a separate executable, so that it never loads Qt.

It is also the exec wrapper of confined servers in a bundle, which has no Python to run
``python -m roots_manager.sandbox.confine`` with: ``roots-bridge --exec-confined RULES -- CMD``.
"""

import sys

if sys.argv[1:2] == ["--exec-confined"]:
    from roots_manager.sandbox.confine import main as confine

    sys.exit(confine(sys.argv[2:]))

from roots_manager.bridge.main import main

sys.exit(main())
