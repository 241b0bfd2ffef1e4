"""Tests of the desktop app, one folder per feature package of ``roots_manager.gui``; here, those
that go across the features: the keyboard, the words, scaling, a refusal allowed from where
people look."""
