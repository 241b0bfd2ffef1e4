"""Tests of the boundary probe, ``roots-manager probe``, against real servers behind a real bridge."""
