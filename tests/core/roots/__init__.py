"""Tests of the roots: URIs, which folder a path names, and the projects found."""
