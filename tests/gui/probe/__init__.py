"""Tests of the probe's dialog, its matrix and its words."""
