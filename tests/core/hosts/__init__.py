"""The hosts: their files, how wrap changes them, JSON with comments."""
