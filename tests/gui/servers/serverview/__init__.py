"""Tests of what the server view decides without a window: facts, actions, badges."""
