"""Tests of the live log: its feed, model, table, texts and timeline."""
