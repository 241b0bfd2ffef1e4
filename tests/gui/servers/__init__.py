"""Tests of the Servers tab: the list and detail, the matrix, confinement, Learn, refusals."""
