"""Confinement rules: what a confined server may touch, derived from its grants, and how they travel."""
