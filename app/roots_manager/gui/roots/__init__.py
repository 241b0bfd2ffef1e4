"""The workspace roots: their table, adding, renaming and removing them, and Detect projects."""
