"""Connect a server: the app as the MCP host of a server started through the bridge."""
