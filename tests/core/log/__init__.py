"""The event log: its events, index, windows, retention, timeline and export."""
