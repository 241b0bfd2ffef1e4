"""The kept ``roots/list`` answer: given again without a file-system call while nothing it rests
on changed, and never once after something did (real folders, links and store writes)."""

from __future__ import annotations

import os
import select
import sys
import time
from pathlib import Path

import pytest

from roots_manager.bridge.run import answercache
from roots_manager.bridge.run.answercache import consulted
from roots_manager.bridge.run.roots import RootsSource
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import fingerprint

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the answer is kept on Linux only (inotify)"
)

CMD = ["server"]


def granted(store: Store, *folders: Path) -> list[str]:
    uris = []
    with store.transaction() as s:
        s.server_started("srv", CMD, "run")
        for f in folders:
            root = s.add_root(str(f))
            s.grant("srv", [root.id])
            uris.append(root.uri)
    return uris


def source(store: Store) -> RootsSource:
    src = RootsSource(store, "srv", fingerprint(CMD), "run")
    assert src.cache.enabled
    return src


def uris(src: RootsSource) -> list[str]:
    return [r["uri"] for r in src.effective()["roots"]]


def test_consulted_follows_every_link_on_the_way(tmp_path: Path) -> None:
    real = tmp_path / "store" / "deep" / "proj"
    real.mkdir(parents=True)
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "n").symlink_to(tmp_path / "store" / "deep")  # absolute
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b").symlink_to("../m/n")  # relative, through another link
    dirs, final = consulted(str(tmp_path / "a" / "b" / "proj"))
    assert final == str(real)
    # every directory whose entries were read on the way, links' targets included
    for d in (tmp_path, tmp_path / "a", tmp_path / "m", tmp_path / "store", real.parent):
        assert str(d) in dirs
    dirs, final = consulted(str(tmp_path / "a" / "b" / "missing" / "x"))
    assert final is None and str(real.parent) in dirs
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    assert consulted(str(tmp_path / "loop" / "x"))[1] is None


def test_an_unchanged_answer_is_given_without_a_file_system_call(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folders = [tmp_path / "one", tmp_path / "two"]
    for f in folders:
        f.mkdir()
    expected = granted(store, *folders)
    src = source(store)
    assert uris(src) == expected
    calls: list[str] = []
    for name in ("stat", "lstat", "access", "open", "readlink", "scandir", "listdir"):
        real = getattr(os, name)

        def spy(*args: object, _real=real, _name=name, **kw: object) -> object:
            calls.append(_name)
            return _real(*args, **kw)

        monkeypatch.setattr(os, name, spy)
    for _ in range(50):
        assert uris(src) == expected
    assert calls == []
    monkeypatch.undo()
    (folders[0] / "a file").write_text("what is inside a folder does not matter")
    assert uris(src) == expected and src.cache.get() is not None


def test_a_file_beside_a_folder_on_the_way_keeps_the_answer(store: Store, tmp_path: Path) -> None:
    """Only the names looked up on the way matter: a file created, renamed or removed beside
    them (in /tmp, in a home folder busy with dotfiles) neither drops the answer nor, in an idle
    bridge, wakes it; the store's own folder is the same."""
    folder = tmp_path / "work" / "proj"
    folder.mkdir(parents=True)
    [uri] = granted(store, folder)
    src = source(store)
    assert uris(src) == [uri] and src.cache.get() is not None
    (tmp_path / "work" / "notes.txt").write_text("beside the folder")
    (tmp_path / "work" / "notes.txt").rename(tmp_path / "work" / "old-notes.txt")
    (tmp_path / "work" / "old-notes.txt").unlink()
    (tmp_path / "elsewhere").mkdir()
    fd = src.cache.fileno()
    assert fd is not None
    # the kernel queued nothing: an idle bridge waiting on the descriptor sleeps on
    assert select.select([fd], [], [], 0)[0] == [], "woken by a file beside the way"
    (store.layout.home / "unrelated.json").write_text("{}")
    assert not src.cache.changed() and src.cache.get() is not None
    (tmp_path / "work").rename(tmp_path / "moved")  # a name on the way
    assert src.cache.changed() and src.cache.get() is None
    assert uris(src) == []


@pytest.mark.parametrize(
    "change",
    [
        "revoked by another writer",
        "store edited in place",
        "folder removed",
        "parent renamed",
        "link swapped",
        "link target replaced",
    ],
)
def test_after_any_change_the_next_answer_is_computed(
    store: Store, tmp_path: Path, change: str
) -> None:
    target = tmp_path / "targets" / "a"
    other = tmp_path / "targets" / "b"
    target.mkdir(parents=True)
    other.mkdir()
    (tmp_path / "via").symlink_to(tmp_path / "targets")
    kept = tmp_path / "parent" / "kept"
    kept.mkdir(parents=True)
    folder = tmp_path / "via" / "a" if "link" in change else kept
    [uri] = granted(store, folder)
    src = source(store)
    assert uris(src) == [uri] and uris(src) == [uri]
    assert src.cache.get() is not None
    if change == "revoked by another writer":
        with Store(store.layout).transaction() as s:
            s.revoke("srv", [s.roots[0].id])
    elif change == "store edited in place":
        text = store.path.read_text(encoding="utf-8")
        with open(store.path, "r+", encoding="utf-8") as f:  # no replace: the same inode
            f.write(text.replace('"srv"', '"gone"'))
            f.truncate()
    elif change == "folder removed":
        kept.rmdir()
    elif change == "parent renamed":
        (tmp_path / "parent").rename(tmp_path / "elsewhere")
    elif change == "link swapped":
        (tmp_path / "via2").symlink_to(tmp_path / "parent")
        (tmp_path / "via2").replace(tmp_path / "via")
    elif change == "link target replaced":
        target.rename(tmp_path / "old-a")
        other.rename(target)  # the same path, another folder: not the one granted
    # no wait: the kernel queued the event before the change's call returned
    assert src.cache.get() is None
    fresh = RootsSource(store, "srv", fingerprint(CMD), "run")
    fresh.cache.enabled = False
    assert src.effective() == fresh.effective()
    if change != "link target replaced":  # the same path still leads to a folder there
        assert uris(src) == []


def test_a_folder_that_comes_back_is_answered_at_once(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "later" / "proj"
    folder.mkdir(parents=True)
    [uri] = granted(store, folder)
    folder.rmdir()
    src = source(store)
    assert uris(src) == [] and uris(src) == []
    folder.mkdir()
    assert uris(src) == [uri]


def test_an_answer_is_kept_at_most_a_second(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "p"
    folder.mkdir()
    granted(store, folder)
    src = source(store)
    uris(src)
    assert src.cache.get() is not None
    clock = time.monotonic() + answercache.MAX_AGE + 0.01
    monkeypatch.setattr(answercache.time, "monotonic", lambda: clock)
    assert src.cache.get() is None


def test_nothing_is_kept_when_asked_not_to(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ROOTS_MANAGER_NO_ANSWER_CACHE", "1")
    folder = tmp_path / "p"
    folder.mkdir()
    [uri] = granted(store, folder)
    src = RootsSource(store, "srv", fingerprint(CMD), "run")
    assert uris(src) == [uri] and src.cache.get() is None


def test_nothing_is_kept_for_more_folders_than_are_worth_watching(
    store: Store, tmp_path: Path
) -> None:
    folders = [tmp_path / f"f{i}" for i in range(answercache.MAX_FOLDERS + 1)]
    for f in folders:
        f.mkdir()
    expected = granted(store, *folders)
    src = source(store)
    assert uris(src) == expected and src.cache.get() is None
