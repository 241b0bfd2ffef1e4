"""What a server gets where the user said nothing, in a module that imports nothing: a bridge
reads its server's settings at a glance before it starts it, and must not wait for the store's
full reader to know what an absent setting means."""

ASK_SECONDS_DEFAULT = 30
"""How long a confined server's read outside its grants waits for the user's answer where its
``ask_seconds`` is absent or null (asking is on by default; 0 turns it off). A server of a store
written before schema 12 has it null unless asking was turned on, and so asks too."""
