"""The boundary probe: its dialog, its matrix and its words."""
