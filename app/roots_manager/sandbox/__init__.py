"""Platform confinement: the Landlock syscalls, the macOS profile and the exec wrapper.

Nothing here imports Qt or asyncio: the wrapper runs between the bridge and the server, and
every millisecond it costs is added to the server's start-up.
"""
