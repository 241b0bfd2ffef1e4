"""The security tests' fixtures: a world of folders and secrets, as root or as a user."""

from tests.security.confined import world

__all__ = ["world"]
