from roots_manager.bridge.transport.relay import LineRelay

class Gate:
    fd: int
    closed: bool
    broken: bool
    mid_line: bool
    def __init__(self, fd: int = -1) -> None: ...
    def acquire(self, blocking: bool = True) -> bool: ...
    def release(self) -> None: ...
    def __enter__(self) -> bool: ...
    def __exit__(self, *exc: object) -> bool: ...

class FastPump:
    def __init__(
        self,
        src: int,
        gate: Gate,
        relay: LineRelay,
        read_size: int = ...,
        ledger: Ledger | None = None,
        from_host: bool = False,
    ) -> None: ...
    def next(self) -> bytes | int: ...

class Ledger:
    entries: int
    def __init__(
        self,
        methods: tuple[bytes, ...],
        answered_kept: int = ...,
        max_entries: int = ...,
        max_bytes: int = ...,
        max_line: int = ...,
    ) -> None: ...
    def take(self) -> list[tuple[bool, bytes | None, float, bytes | None]]: ...
    def __enter__(self) -> None: ...
    def __exit__(self, *exc: object) -> bool: ...

def note_change() -> None: ...
