"""Consent: what a server may see, how long a grant lasts, and the questions put to the user."""
