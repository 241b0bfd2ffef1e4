"""The consent rules: what a server sees, and how a grant changes."""
