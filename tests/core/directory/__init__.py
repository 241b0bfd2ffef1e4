"""Tests of the per-user directory: where it is, and how it is made private."""
