"""Tests of the runs' markers: a process known by its id and its start time."""
