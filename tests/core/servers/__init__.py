"""Tests of the servers Roots Manager knows: their names and look-alikes."""
