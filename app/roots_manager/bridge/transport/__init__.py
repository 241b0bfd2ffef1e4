"""The bridge's transport: the pump threads, line framing and triage, the writers and the C hot
path. It sees the protocol only through a Direction and its Lookout."""
