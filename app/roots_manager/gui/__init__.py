"""The desktop app: PySide6 views, models and dialogs over the core (imported only by the GUI)."""
