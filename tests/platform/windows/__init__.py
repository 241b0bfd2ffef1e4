"""Tests of the Windows code that run anywhere: the per-user folder's access list."""
