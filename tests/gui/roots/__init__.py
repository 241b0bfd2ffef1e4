"""Tests of the Roots tab: its table, adding and removing roots, Detect projects."""
