"""``python -m roots_manager.cli``: the same as ``roots-manager``."""

from roots_manager.cli.main import main

raise SystemExit(main())
