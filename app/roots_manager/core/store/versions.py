"""The store's schema versions that other parts of the program branch on, in a module that
imports nothing: a bridge reads the store at a glance before it starts its server, and must not
wait for the full reader (:mod:`roots_manager.core.store.schema` and its dataclasses) to know
what a version means."""

UNDECIDED_SCHEMA = 8
"""The first schema in which a server's confinement may be undecided (null or absent)."""
