"""Tests of the consent prompt: the dialog that asks the user, and what its answer does."""
