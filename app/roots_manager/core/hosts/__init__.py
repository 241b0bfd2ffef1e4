"""The MCP hosts: where each keeps its servers, their files read and edited in place, wrap and undo."""
