"""The store: its file, schema, versions and layout on disk."""
