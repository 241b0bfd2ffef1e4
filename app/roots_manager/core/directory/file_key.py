"""A server's name as a file name: the per-server files beside the store (its habits, the marker
of a learning of it, the folder of its confined runs) are named by the first 16 hex digits of the
SHA-256 of its name, which any name has and no path separator can spoil."""

from __future__ import annotations


def file_key(server: str) -> str:
    """The name *server*'s own files go by."""
    # here, not at the top: hashlib loads six libraries (its fallbacks, OpenSSL's being left out
    # of a bridge), and a bridge names a file by its server only after the server has started
    import hashlib

    return hashlib.sha256(server.encode("utf-8", "surrogatepass")).hexdigest()[:16]
