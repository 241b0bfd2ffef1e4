"""The confinement rules: what a server may touch, what it never rewrites, offers and learning."""
