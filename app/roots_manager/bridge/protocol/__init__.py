"""The bridge's protocol logic: what it does with the messages that concern roots, and the
interface its transport sees (a Direction and its Lookout). Imports nothing of the transport."""
