"""The bridge's roots answers: from the real store file, re-read only when it changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from roots_manager.bridge.protocol.mediator import Mediator
from roots_manager.bridge.run.clock import SYSTEM
from roots_manager.bridge.run.file_spill import FileSpill
from roots_manager.bridge.run.roots import HeldAnswers, RootsSource
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import fingerprint
from tests.bridge.protocol.test_mediator import ByHand, Log

CMD = ["server", "--flag"]


class Held:
    """The run's held roots (:class:`HeldAnswers`) in front of a real protocol, its answers to
    the server in a list."""

    def __init__(self, source: RootsSource) -> None:
        self.sent: list[bytes] = []
        by_hand = ByHand(to_server=self.sent.append)
        self.protocol = by_hand.serving(
            Mediator(log=Log(), act=by_hand, clock=SYSTEM, spill=FileSpill(), nonce="n0nce")
        )
        self.answers = HeldAnswers(
            source, self.protocol.roots_changed, lambda: self.protocol.waiting_roots
        )
        by_hand.roots_wanted = self.answers.wanted
        self.asked = 0

    def ask(self) -> None:
        """The server asks roots/list."""
        self.asked += 1
        line = {"jsonrpc": "2.0", "id": self.asked, "method": "roots/list"}
        self.protocol.from_server(json.dumps(line).encode() + b"\n")

    def replies(self) -> list[Any]:
        """The results the server was answered with, in order."""
        return [json.loads(line)["result"] for line in self.sent]


def test_answers_follow_the_store_and_folder_availability(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "proj"
    folder.mkdir()
    with store.transaction() as s:
        root = s.add_root(str(folder))
        s.server_started("srv", CMD, "sess")
        s.grant("srv", [root.id])
    src = RootsSource(store, "srv", fingerprint(CMD), "sess")
    assert src.effective() == {"roots": [{"uri": root.uri, "name": "proj"}]}
    with store.transaction() as s:
        s.rename_root(str(folder), "renamed")
    assert src.effective()["roots"][0]["name"] == "renamed"
    folder.rmdir()
    assert src.effective() == {"roots": []}
    # another command line under the same name sees nothing (its grants are suspended)
    assert RootsSource(store, "srv", fingerprint(["other"]), "sess").effective() == {"roots": []}


def test_a_damaged_store_keeps_the_last_good_answer(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "kept"
    folder.mkdir()
    with store.transaction() as s:
        root = s.add_root(str(folder))
        s.grant("srv", [root.id])
    errors: list[str] = []
    src = RootsSource(store, "srv", fingerprint(CMD), "sess", on_error=errors.append)
    good = src.effective()
    assert good["roots"]
    store.path.write_text("{ not json")
    assert src.effective() == good
    assert src.effective() == good
    assert len(errors) == 1 and "not valid JSON" in errors[0]


def test_held_answers_are_given_on_open(store: Store) -> None:
    held = Held(RootsSource(store, "srv", fingerprint(CMD), "sess"))
    answers, got = held.answers, held.replies
    assert not answers.is_open
    held.ask()
    held.ask()
    assert answers.waiting == 2
    answers.open()
    held.ask()  # answered at once now
    assert got() == [{"roots": []}, {"roots": []}, {"roots": []}]


def test_pending_tracks_the_consent_request(store: Store) -> None:
    with store.transaction() as s:
        s.server_started("new", CMD, "sess")
    src = RootsSource(store, "new", fingerprint(CMD), "sess")
    assert src.pending()
    with store.transaction() as s:
        s.decide("new", "deny")
    assert not src.pending()


def test_a_save_already_written_is_in_the_very_next_answer(store: Store, tmp_path: Path) -> None:
    # two states of the same size, saved back to back: whatever the file system's timestamp
    # granularity and inode reuse, an answer never comes from the state before the last save
    a, b = tmp_path / "aaaa", tmp_path / "bbbb"
    a.mkdir()
    b.mkdir()
    with store.transaction() as s:
        ra, rb = s.add_root(str(a)), s.add_root(str(b))
        s.server_started("srv", CMD, "sess")
        s.approve("srv")
        s.grant("srv", [ra.id])
    src = RootsSource(store, "srv", fingerprint(CMD), "sess")
    for n in range(300):
        now, then = (ra, rb) if n % 2 else (rb, ra)
        with store.transaction() as s:
            s.revoke("srv", [then.id])
            s.grant("srv", [now.id])
        assert [r["uri"] for r in src.effective()["roots"]] == [now.uri], f"save {n}"
        assert src.folders() == [now.path]


def test_requests_held_for_consent_are_bounded(store: Store, tmp_path: Path) -> None:
    from roots_manager.bridge.protocol.server_roots import MAX_WAITING

    folder = tmp_path / "later"
    folder.mkdir()
    with store.transaction() as s:
        root = s.add_root(str(folder))
        s.grant("srv", [root.id])
    run = Held(RootsSource(store, "srv", fingerprint(CMD), "sess"))
    held = run.answers
    for _ in range(MAX_WAITING + 10):
        run.ask()
    replies = run.replies()
    # past the bound a request is answered at once, with no folder, rather than kept
    assert held.waiting == MAX_WAITING
    assert replies == [{"roots": []}] * 10
    held.open()
    replies = run.replies()
    granted = {"roots": [{"uri": root.uri, "name": "later"}]}
    assert replies[10:] == [granted] * MAX_WAITING


def test_the_state_a_start_saved_is_answered_without_a_second_read(
    store: Store, tmp_path: Path
) -> None:
    # a bridge records its start in the store, then answers from it: the state it saved is
    # the state it reads, not the same tens of thousands of roots parsed again
    folder = tmp_path / "proj"
    folder.mkdir()
    with store.transaction() as s:
        root = s.add_root(str(folder))
        s.server_started("srv", CMD, "sess")
        s.approve("srv")
        s.grant("srv", [root.id])
    saved = s
    src = RootsSource(store, "srv", fingerprint(CMD), "sess")
    assert src.state() is saved
    assert src.effective() == {"roots": [{"uri": root.uri, "name": "proj"}]}
    # given once: a later reader of the same store object parses the file
    assert RootsSource(store, "srv", fingerprint(CMD), "sess").state() is not saved


def test_a_saved_state_is_not_answered_once_another_save_replaced_the_file(
    store: Store, tmp_path: Path
) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    with store.transaction() as s:
        ra = s.add_root(str(a))
        s.server_started("srv", CMD, "sess")
        s.approve("srv")
        s.grant("srv", [ra.id])
    # another process's save (another store object on the same file) before the bridge reads
    with Store(store.layout).transaction() as s:
        rb = s.add_root(str(b))
        s.grant("srv", [rb.id])
    src = RootsSource(store, "srv", fingerprint(CMD), "sess")
    assert [r["uri"] for r in src.effective()["roots"]] == [ra.uri, rb.uri]
