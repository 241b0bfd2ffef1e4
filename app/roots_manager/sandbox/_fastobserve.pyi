from collections.abc import Sequence

class FastObserver:
    def __init__(
        self,
        listener: int,
        on: dict[bytes, int],
        beneath: dict[bytes, int],
        handled: int,
        open_nr: int,
        openat_nr: int,
        observed: Sequence[int],
        floor: bool = False,
        writes: bool = False,
        execve_nr: int = -1,
        execveat_nr: int = -1,
    ) -> None: ...
    def serve(
        self, fds: Sequence[int], timeout_ms: int
    ) -> tuple[list[tuple[int, int]], bytes | None]: ...
    def decide(self, tid: int, nr: int, args: Sequence[int]) -> bool: ...
    def counts(self) -> tuple[int, int]: ...
