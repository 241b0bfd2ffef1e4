"""Tests of the app's shell: start-up, the window, the single instance, settings, recovery."""
