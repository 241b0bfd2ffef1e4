"""The live log: its index and feed, its table and texts, the timeline, and exporting it."""
