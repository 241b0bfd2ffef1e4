"""What a new server's bridge says on stderr when it starts the server unconfined although new
servers start confined: the machine cannot confine (Linux without Landlock, Windows), or it can
only with a mechanism no test runs (macOS's sandbox-exec), which is never chosen for the user.

The machine's answer is given by the test (this one runs on Linux): the wording of each case is
what is checked; that a real bridge says it where Landlock is missing is
``tests/e2e/test_confine_default.py``'s.
"""

from __future__ import annotations

import pytest

from roots_manager.bridge.run import confine
from roots_manager.sandbox import availability
from roots_manager.sandbox.availability import Availability


def test_a_machine_that_cannot_confine_is_named_with_its_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = Availability(
        "none", False, "confinement is not available on win32 (Linux and macOS only)"
    )
    monkeypatch.setattr(availability, "availability", lambda: found)
    assert confine._why_unconfined("fs") == (
        "new servers start confined where the machine can confine, and confinement is not "
        "available on win32 (Linux and macOS only): it runs unconfined"
    )


def test_an_untested_sandbox_is_not_read_as_a_missing_one(monkeypatch: pytest.MonkeyPatch) -> None:
    found = Availability("sandbox-exec", True, "macOS sandbox-exec (untested)", tested=False)
    monkeypatch.setattr(availability, "availability", lambda: found)
    said = confine._why_unconfined("fs")
    assert said == (
        "new servers start confined only where confinement is tested, and this machine has "
        "macOS sandbox-exec (untested): it runs unconfined (roots-manager servers confine fs on "
        "confines it with that)"
    )
