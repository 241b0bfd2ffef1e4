"""The boundary probe: a bare host that drives a server through the bridge (no Qt)."""
