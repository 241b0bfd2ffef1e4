"""The consent prompt: when a new or changed server asks, the dialog that asks the user, and what becomes of the answer."""
