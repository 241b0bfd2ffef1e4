"""A new file put in the place of one another program may write, only if it is still as read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from roots_manager.support import unchanged
from roots_manager.support.unchanged import Changed, Read, replace_unchanged
from tests.conftest import only_on_linux

LIMIT = 1 << 20


def _files(tmp_path: Path) -> tuple[Path, str]:
    target = tmp_path / "settings.json"
    target.write_bytes(b"as read")
    tmp = tmp_path / ".settings.json.new.tmp"
    tmp.write_bytes(b"ours")
    return target, str(tmp)


def _renamed_in(target: Path, data: bytes) -> None:
    """Another program saves *target* as a new file renamed over it."""
    new = target.with_name("theirs.tmp")
    new.write_bytes(data)
    os.replace(new, target)


def test_a_file_as_read_is_replaced_and_the_new_name_is_gone(tmp_path: Path) -> None:
    target, tmp = _files(tmp_path)
    replace_unchanged(tmp, target, Read(b"as read"), limit=LIMIT)
    assert target.read_bytes() == b"ours" and os.listdir(tmp_path) == [target.name]


def test_a_file_changed_since_the_read_is_left_as_the_other_program_saved_it(
    tmp_path: Path,
) -> None:
    target, tmp = _files(tmp_path)
    _renamed_in(target, b"theirs")
    with pytest.raises(Changed):
        replace_unchanged(tmp, target, Read(b"as read"), limit=LIMIT)
    assert target.read_bytes() == b"theirs"
    with pytest.raises(Changed):  # no file was read, and one has come
        replace_unchanged(tmp, target, Read(None), limit=LIMIT)
    assert target.read_bytes() == b"theirs"


@pytest.mark.parametrize(
    "swaps",
    [pytest.param(True, marks=only_on_linux("only Linux swaps two files in one step")), False],
)
@pytest.mark.parametrize("how", ["renamed in", "written into"])
def test_a_save_after_the_last_look_is_kept_whole_and_ours_is_not_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, swaps: bool, how: str
) -> None:
    """The save lands in the microseconds between the last look and the rename: with a swap,
    theirs goes back in either way; without, a write into the file read is still seen."""
    if not swaps:
        monkeypatch.setattr(unchanged, "_exchanged", lambda _a, _b: False)
    target, tmp = _files(tmp_path)

    def save() -> None:
        if how == "renamed in":
            _renamed_in(target, b"their save")
        else:
            target.write_bytes(b"their save")  # the same file, truncated and written again

    if not swaps and how == "renamed in":
        # a plain rename cannot tell: theirs is gone, which is why Linux swaps
        replace_unchanged(tmp, target, Read(b"as read"), limit=LIMIT, before_rename=save)
        assert target.read_bytes() == b"ours"
        return
    with pytest.raises(Changed):
        replace_unchanged(tmp, target, Read(b"as read"), limit=LIMIT, before_rename=save)
    assert target.read_bytes() == b"their save"
    left = set(os.listdir(tmp_path)) - {target.name, os.path.basename(tmp)}
    assert not left, left  # no file put back stays beside it


@only_on_linux("only Linux swaps two files in one step")
def test_a_third_save_between_the_two_swaps_is_the_one_that_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target, tmp = _files(tmp_path)
    real = unchanged._exchanged
    calls = []

    def exchanged(a: str, b: Path) -> bool:
        calls.append(1)
        if len(calls) == 2:  # right before the swap back, the other program saves again
            _renamed_in(target, b"their second save")
        return real(a, b)

    monkeypatch.setattr(unchanged, "_exchanged", exchanged)

    def save() -> None:
        _renamed_in(target, b"their first save")

    # ours stood in place, and their newest save was put over it: theirs stays, as over any
    # write of ours, and nothing of theirs is left aside (their first save was superseded)
    replace_unchanged(tmp, target, Read(b"as read"), limit=LIMIT, before_rename=save)
    assert target.read_bytes() == b"their second save" and len(calls) == 3
    assert not Path(tmp).exists()
