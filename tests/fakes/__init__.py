"""The fake MCP servers and hosts the tests run as real processes, in one place.

Most are scripts started by path (``python FAKES/file_tool_server.py``), behind a real bridge or
in front of a real host: what they fake is the other side's behaviour (a puppet driven line by
line, a hostile server that tries every way out, a host that rewrites its file), never the code
under test. Two are hosts the tests import and drive from their own process.

Servers, started by path:

- ``file_tool_server.py``: an SDK server whose tools read and write any path, roots ignored.
- ``modern_file_server.py``: an SDK server whose file tools keep to the roots of 2026-07-28.
- ``roots_tool_server.py``: an SDK server whose tool returns the roots it was given.
- ``npmrc_server.py``: an SDK server that reads ``~/.npmrc`` as it starts.
- ``fetch_server.mjs``: a Node.js server whose tool fetches a URL (servers limited to domains).
- ``hostile_server.py``: ignores its roots and tries every way out it is asked to.
- ``spelling_server.py``: asks for roots in every spelling it knows.
- ``never_reasks_server.py``: asks for roots once and ignores ``list_changed``.
- ``flood_server.py``: asks for roots N times without reading an answer, until told to.
- ``flooding_server.py``: asks for roots without end and never reads an answer.
- ``stubborn_server.py``: never reads, ignores polite signals, keeps a child of its own.
- ``deaf_to_eof_server.py``: answers, but its input's end changes nothing.
- ``recording_server.py``: records every message it receives.
- ``puppet_server.py``: a server the test drives line by line over a socket.
- ``probe_puppet_server.py``: one of the handlings of roots the probe must tell apart.
- ``escaping_shim.py``: runs a server and spells every ``roots`` it prints with an escape.

Hosts:

- ``rewriting_host.py`` (started by path): rewrites ``~/.claude.json`` as Claude Code does.
- ``bridge_host.py`` (imported): plays the host on a real bridge's stdin and stdout.
- ``sdk_host.py`` (imported): the Python SDK's client as the host of a real bridge.
"""

from __future__ import annotations

from pathlib import Path

FAKES = Path(__file__).resolve().parent
"""This folder: where each fake's script is."""
