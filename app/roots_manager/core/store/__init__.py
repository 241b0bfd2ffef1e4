"""The store: the state Roots Manager keeps, its document and schema, and the locked file it lives in."""
