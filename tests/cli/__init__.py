"""Tests of the command line, ``roots-manager``: mostly as a real process, on a real store."""
