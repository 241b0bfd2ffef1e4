"""Which held reads the bridge tells its supervisor are questions (:meth:`Asking.held`), over a
real pipe: a host's request in flight, someone to answer, and a path that may be offered."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from roots_manager.bridge.protocol.inflight import Snapshot
from roots_manager.bridge.run.asking import Asking
from roots_manager.core.log.denials import Request

CALL = Request(3, "tools/call", "read_note", {}, 100.0)
HANDSHAKE = Request(0, "initialize", None, {}, 99.0)
ANSWERED = Request(2, "tools/call", "read_note", {}, 98.0, ended=99.5)


def told(answerer: bool, requests: tuple[Request, ...], path: str) -> tuple[bool, object]:
    read, write = os.pipe()
    asking = Asking(write, (), lambda: None, lambda: answerer)
    try:
        question = asking.held({"path": path, "operation": "read"}, Snapshot(requests, ()))
        line = os.read(read, 4096)
    finally:
        asking.close()
        os.close(read)
    return question, json.loads(line)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home" / ".ssh").mkdir(parents=True)
    return tmp_path / "home"


@pytest.mark.parametrize(
    ("answerer", "requests", "question"),
    [
        (True, (CALL,), True),
        (True, (HANDSHAKE, CALL), True),
        (False, (CALL,), False),  # nobody to answer
        (True, (), False),  # between requests
        (True, (HANDSHAKE,), False),  # starting up
        (True, (ANSWERED,), False),  # answered already
    ],
)
def test_a_held_read_is_a_question_only_in_a_request_with_someone_to_answer(
    home: Path, answerer: bool, requests: tuple[Request, ...], question: bool
) -> None:
    path = str(home.parent / "work" / "notes.txt")
    said = told(answerer, requests, path)
    assert said == (question, {"ask" if question else "refuse": path})


def test_a_secret_or_roots_managers_own_code_is_never_a_question(home: Path) -> None:
    import roots_manager

    for path in (
        str(home / ".ssh" / "id_ed25519"),
        os.path.join(os.path.dirname(roots_manager.__file__), "core", "__init__.py"),
    ):
        assert told(True, (CALL,), path) == (False, {"refuse": path})


def test_the_hosts_requests_all_answered_end_the_questions() -> None:
    read, write = os.pipe()
    asking = Asking(write, (), lambda: None, lambda: True)
    try:
        asking.requests(True)
        asking.requests(False)
        assert os.read(read, 4096) == b'{"idle": true}\n'
    finally:
        asking.close()
        os.close(read)
