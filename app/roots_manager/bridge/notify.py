"""A directory watch for the bridge: watchfiles' notifier, waited on in a thread of its own.

watchfiles' ``awatch`` waits through anyio, whose asyncio back end imports ``ssl`` as soon as it
runs a thread (and where anyio's lazy imports cannot work, as in a bundle, importing anyio at
all does): OpenSSL's libraries, several MiB of every bridge, for a process that opens no
network connection. Here watchfiles' notifier (``RustNotify``, what ``watchfiles.watch``
drives) is loaded alone, without the package around it (which imports anyio and
multiprocessing), and created on the event loop, so the watch is in place when
:func:`watch_dirs` first yields to the loop; a thread of the bridge's own waits on it and hands
each burst of changes to the loop with ``call_soon_threadsafe``.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.machinery
import importlib.util
import os
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from watchfiles._rust_notify import RustNotify

NOTIFIER = "watchfiles._rust_notify"
POLL_DELAY_MS = 300
"""watchfiles' own default, for where the notifier polls (``WATCHFILES_POLL_DELAY_MS``)."""

WAIT_MS = 5_000
"""How long one wait of the thread lasts when nothing happens (the stop is seen sooner: the
notifier looks at it every step)."""

Burst = set[tuple[int, str]]
Outcome = Burst | BaseException | Literal["stop"]


def notifier_class() -> type[RustNotify]:
    """watchfiles' notifier, loaded from the installed package without running the package's
    ``__init__`` (what anyone importing ``watchfiles`` later gets is this same module)."""
    module = sys.modules.get(NOTIFIER)
    if module is None:
        package = importlib.util.find_spec("watchfiles")
        places = package.submodule_search_locations if package is not None else None
        spec = importlib.machinery.PathFinder.find_spec(NOTIFIER, places)
        if spec is None or spec.loader is None:
            raise ImportError("watchfiles' notifier is not installed", name=NOTIFIER)
        module = importlib.util.module_from_spec(spec)
        sys.modules[NOTIFIER] = module
        spec.loader.exec_module(module)
    notifier: type[RustNotify] = module.RustNotify
    return notifier


def _flag(name: str) -> bool:
    return bool(os.environ.get(name))


def force_polling() -> bool:
    """Whether to poll rather than be notified: the ``WATCHFILES_FORCE_POLLING`` setting that
    ``watchfiles.watch`` honours, else only under WSL, where notifications miss Windows' own
    writes."""
    setting = os.environ.get("WATCHFILES_FORCE_POLLING")
    if setting:
        return setting.lower() not in {"false", "disable", "disabled"}
    if sys.platform != "linux":
        return False
    return "microsoft-standard" in os.uname().release.lower()


def poll_delay_ms() -> int:
    """How often to poll, where polling (``WATCHFILES_POLL_DELAY_MS``, as watchfiles reads it)."""
    setting = os.environ.get("WATCHFILES_POLL_DELAY_MS", "")
    return int(setting) if setting.isdecimal() else POLL_DELAY_MS


class _Either:
    """Set when either of two events is (the notifier only asks ``is_set``, from its thread)."""

    def __init__(self, first: asyncio.Event, second: threading.Event) -> None:
        self._first = first
        self._second = second

    def is_set(self) -> bool:
        return self._first.is_set() or self._second.is_set()


def _wait(
    notifier: RustNotify,
    debounce: int,
    step: int,
    stop: _Either,
    deliver: Callable[[Outcome], None],
) -> None:
    """The thread: wait on *notifier* until *stop*, delivering each burst, then how it ended."""
    end: Outcome = "stop"
    try:
        with notifier:
            while True:
                raw = notifier.watch(debounce, step, WAIT_MS, stop)
                if raw == "stop":
                    break
                if raw == "signal":  # signals go to the main thread: this one never sees one
                    raise RuntimeError("the watch thread unexpectedly received a signal")
                if raw != "timeout":
                    deliver(raw)
    except BaseException as exc:  # handed to the loop: the watch's owner decides
        end = exc
    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
        deliver(end)


async def watch_dirs(
    paths: Sequence[str],
    keep: Callable[[str], bool],
    on_change: Callable[[], None],
    stop: asyncio.Event,
    *,
    debounce: int,
    step: int,
) -> None:
    """Call *on_change* after each burst of changes in the directories *paths* (not their
    subdirectories) that names a path *keep* accepts, until *stop* is set.

    Raises ``OSError`` when a directory cannot be watched (before anything is watched) and
    ``RuntimeError`` when the notifier fails later; *on_change*'s own errors propagate too.
    """
    notifier = notifier_class()(
        list(paths),
        _flag("WATCHFILES_DEBUG"),
        force_polling(),
        poll_delay_ms(),
        False,
        _flag("WATCHFILES_IGNORE_PERMISSION_DENIED"),
    )
    loop = asyncio.get_running_loop()
    bursts: asyncio.Queue[Outcome] = asyncio.Queue()
    halt = threading.Event()

    def deliver(outcome: Outcome) -> None:
        loop.call_soon_threadsafe(bursts.put_nowait, outcome)

    threading.Thread(
        target=_wait,
        args=(notifier, debounce, step, _Either(stop, halt), deliver),
        name="roots-bridge watch",
        daemon=True,
    ).start()
    try:
        while True:
            outcome = await bursts.get()
            if outcome == "stop":
                return
            if isinstance(outcome, BaseException):
                raise outcome
            if any(keep(path) for _, path in outcome):
                on_change()
    finally:
        # cancelled, or on_change failed: the thread ends within one step
        halt.set()
