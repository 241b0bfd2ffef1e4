"""The ``roots-manager`` command: one module per command group, and how the command prints."""
