"""Tests of the code for one operating system."""
