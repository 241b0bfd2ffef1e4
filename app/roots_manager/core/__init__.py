"""The Qt-free, asyncio-free core: URIs, the store, consent rules, event records and paths."""
