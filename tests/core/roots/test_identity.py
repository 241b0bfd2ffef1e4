"""One folder, however it is spelled: a case-insensitive, normalising file system, simulated."""

from __future__ import annotations

import os
import stat as st
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from roots_manager.core.roots import identity
from roots_manager.core.store.state import State
from roots_manager.support.refusal import ModelError

NFC = "/Users/me/プロジェクト"
NFD = unicodedata.normalize("NFD", NFC)


def mac_fs(*folders: str) -> identity.Stat:
    """The stat of a file system that ignores case and normalisation (APFS, NTFS)."""

    def key(path: str) -> str:
        return unicodedata.normalize("NFC", path).casefold().rstrip("/") or "/"

    table = {key(f): i + 1 for i, f in enumerate(folders)}

    def stat(path: str) -> os.stat_result:
        if key(path) not in table:
            raise FileNotFoundError(path)
        return os.stat_result((st.S_IFDIR | 0o755, table[key(path)], 7, 1, 0, 0, 0, 0, 0, 0))

    return stat


FS = mac_fs("/", "/Users", "/Users/me", "/Users/me/Code", NFC)


def test_spellings_of_one_folder_are_the_same_folder() -> None:
    assert identity.same("/Users/me/Code", "/users/ME/code", FS)
    assert identity.same(NFC, NFD, FS)
    assert NFC != NFD
    assert not identity.same("/Users/me/Code", "/Users/me", FS)
    assert not identity.same("/Users/me/gone", "/users/me/gone", FS)  # nothing to compare


def test_a_folder_holds_another_by_identity() -> None:
    assert identity.holds("/users", "/Users/me/Code", FS)
    assert identity.holds("/", "/Users/me", FS)
    assert not identity.holds("/Users/me/Code", "/Users/me/Code", FS)
    assert not identity.holds("/Users/me/Code", "/Users/me", FS)


def test_macos_keeps_paths_in_nfc_and_linux_as_they_are() -> None:
    assert identity.spelled(NFD, "darwin") == NFC
    assert identity.spelled(NFD, "linux") == NFD


def test_windows_keeps_paths_without_the_long_path_prefix() -> None:
    assert identity.spelled("\\\\?\\C:\\Users\\me", "win32") == "C:\\Users\\me"
    assert identity.spelled("\\\\?\\UNC\\srv\\share", "win32") == "\\\\srv\\share"
    # a device path is kept as written, for the URI step to refuse with its reason
    assert identity.spelled("\\\\.\\pipe\\x", "win32") == "\\\\.\\pipe\\x"
    # on Linux a backslash is an ordinary character in a file name
    assert identity.spelled("\\\\?\\C:\\x", "linux") == "\\\\?\\C:\\x"


def test_a_respelling_is_case_or_normalisation_never_a_link() -> None:
    assert identity.respelled("/Users/me/Code", "/users/me/CODE", FS)
    assert identity.respelled(NFC, NFD, FS)
    linked = mac_fs("/Users/me/Code", "/Users/me/alias")
    assert not identity.respelled("/Users/me/Code", "/Users/me/alias", linked)


def test_two_folders_differing_in_case_stay_two_on_linux(tmp_path: Path) -> None:
    """Where the file system tells case apart, so does the store."""
    for name in ("Code", "code"):
        (tmp_path / name).mkdir()
    state = State()
    state.add_root(str(tmp_path / "Code"))
    state.add_root(str(tmp_path / "code"))
    assert len(state.roots) == 2
    with pytest.raises(ModelError, match="already a root"):
        state.add_root(str(tmp_path / "code"))


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name != "posix", reason="POSIX links")
def test_real_paths_resolve_as_realpath_does(tmp_path: Path) -> None:
    # one RealPaths for every path, so that each is resolved over the parents cached before it
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "elsewhere" / "c").mkdir(parents=True)
    os.symlink(tmp_path / "elsewhere", tmp_path / "a" / "to-elsewhere")  # a folder on the way
    os.symlink("b", tmp_path / "a" / "relative")  # the last part, relative
    os.symlink("../elsewhere/c", tmp_path / "a" / "up")
    os.symlink(tmp_path / "nothing", tmp_path / "a" / "dangling")
    os.symlink("loop-2", tmp_path / "a" / "loop-1")
    os.symlink("loop-1", tmp_path / "a" / "loop-2")
    os.symlink("/", tmp_path / "a" / "to-top")
    paths = [
        "a/b",
        "a/to-elsewhere/c",
        "a/to-elsewhere",
        "a/relative",
        "a/up",
        "a/dangling",
        "a/dangling/below",
        "a/missing/below",
        "a/loop-1",
        "a/loop-1/x",
        "a/to-top",
        "a/to-top/tmp",
        "a/b/..",
        "a/./b",
        # below folders resolved already (each resolved from its folder's real path)
        "a/b/x",
        "a/b/x/y",
        "a/to-elsewhere/c/d",
        "a/up/d",
        "a/b/",
        "a//b",
        "a/b/../b",
        "a/./b/.",
        "a/to-elsewhere/c/..",
        "a/to-top/tmp/x",
    ]
    real = identity.RealPaths()
    for p in [str(tmp_path / p) for p in paths] + ["/", "//", "relative/path"]:
        assert real.realpath(p) == os.path.realpath(p), p
        assert real.realpath(p) == os.path.realpath(p), p  # from what it kept


SWAP = """
import os, sys
folder = sys.argv[1]
aside, link = folder + ".aside", folder + ".link"
os.symlink("/", link)
while True:  # the folder and a link to / take turns under its name, as fast as they can
    os.rename(folder, aside)
    os.rename(link, folder)
    os.rename(folder, link)
    os.rename(aside, folder)
"""


def test_a_folder_swapped_for_a_link_while_it_is_resolved_is_one_or_the_other(
    tmp_path: Path,
) -> None:
    """realpath looks at each part, then reads those that are links: a link swapped for the
    folder between the two (EINVAL) or taken away (ENOENT) raised out of the look at a granted
    folder, and a bridge restarting its confined server then gave the server up."""
    folder = Path(os.path.realpath(tmp_path)) / "child"
    folder.mkdir()
    swapper = subprocess.Popen([sys.executable, "-c", SWAP, str(folder)])
    try:
        seen = {identity.RealPaths().realpath(str(folder)) for _ in range(20_000)}
    finally:
        swapper.kill()
        swapper.wait()
    # the folder, the link followed, or (gone for an instant) the path as it is
    assert seen == {str(folder), "/"}
