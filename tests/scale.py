"""Measuring how work grows with the number of roots, without a clock.

Wall-clock time on a shared machine says little; the number of lines executed in
``roots_manager`` says exactly how the work grows. A test runs the same operation on a store of
2,000 granted roots and one of 8,000 and compares the counts: four times the roots should cost
about four times the steps, where a quadratic step makes it sixteen. Library code (the standard
library, Qt) is not counted, but Python code Qt calls back (a model's ``data``) is.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import roots_manager
from roots_manager.core.directory.layout import Layout
from roots_manager.core.roots.root import Root
from roots_manager.core.store.file import Store, json_bytes, write_atomic
from roots_manager.core.store.state import State, now_iso

PACKAGE = str(Path(roots_manager.__file__).resolve().parent)
SMALL, LARGE = 2_000, 8_000
LINEAR = 6.0
"""The most four times the roots may multiply the steps by (linear: 4, quadratic: 16)."""
COMMAND = ["fs-server", "--stdio"]


Tracer = Callable[[FrameType, str, Any], Any]


def _traced(run: Callable[[], object], tracer: Tracer) -> None:
    """Run *run* with *tracer* as this thread's trace function."""
    before = sys.gettrace()
    sys.settrace(tracer)
    try:
        run()
    finally:
        sys.settrace(before)


def steps(run: Callable[[], object]) -> int:
    """How many lines of ``roots_manager`` code *run* executes (in this thread)."""
    count = 0

    def lines(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return lines

    _traced(
        run,
        lambda frame, event, arg: lines if frame.f_code.co_filename.startswith(PACKAGE) else None,
    )
    return count


def calls(run: Callable[[], object], function: Callable[..., object]) -> int:
    """How many times *run* calls the Python *function* (Qt calling back included)."""
    code = function.__code__
    count = 0

    def called(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if frame.f_code is code:  # a global trace function is told of calls only
            count += 1
        return None

    _traced(run, called)
    return count


def assert_linear(measure: Callable[[int], int], what: str) -> None:
    """Check that *measure* (the steps for a number of roots) grows linearly."""
    small, large = measure(SMALL), measure(LARGE)
    assert small > 0, f"{what} ran no Roots Manager code at all"
    ratio = round(large / small, 2)
    assert ratio < LINEAR, (
        f"{what}: {LARGE} roots took {ratio}x the steps of {SMALL} ({small} -> {large}); "
        f"linear work would be about {LARGE // SMALL}x"
    )


def make_folders(base: Path, n: int = LARGE) -> list[str]:
    """*n* real folders under *base*, so that every root is available and answered."""
    out = []
    for i in range(n):
        d = base / f"project-{i:05d}"
        d.mkdir()
        out.append(str(d))
    return out


def ungranted(folders: list[str], n: int) -> State:
    """A state with the first *n* folders as roots and server ``fs`` seen, nothing granted."""
    state = State()
    state.roots = [
        Root(id=f"{i:012x}", path=p, name=Path(p).name, added_at=now_iso())
        for i, p in enumerate(folders[:n])
    ]
    state.server_started("fs", COMMAND, "s1")
    return state


def granted(folders: list[str], n: int) -> State:
    """*n* roots, all granted to ``fs``, and a few other servers with a grant each."""
    state = ungranted(folders, n)
    state.grant("fs", [r.id for r in state.roots])
    for k in range(5):
        state.grant(f"other-{k}", [state.roots[k].id])
    return state


def saved(state: State, layout: Layout) -> Store:
    """The store of *layout*, holding *state*."""
    store = Store(layout)
    write_atomic(store.path, json_bytes(state.to_json()))
    return store
