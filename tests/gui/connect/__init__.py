"""Tests of Connect a server: the app as the MCP host of a server behind the bridge."""
