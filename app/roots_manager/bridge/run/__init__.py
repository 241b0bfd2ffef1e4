"""One bridge run: the server process and its restarts, the store and folder watches, the answers
and the consent wait, the traffic log; it wires the transport to the protocol."""
