"""The per-user directory: where each of Roots Manager's files lives, and the name a server's
own files go by."""
