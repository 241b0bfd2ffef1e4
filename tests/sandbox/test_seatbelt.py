"""The macOS profile, checked as text (it is untested on a real Mac)."""

from __future__ import annotations

from pathlib import Path

from roots_manager.core.confinement.rules import Rules
from roots_manager.sandbox.seatbelt import profile, quote


def test_paths_are_quoted_with_escapes() -> None:
    assert quote('/a "b"/c\\d') == '"/a \\"b\\"/c\\\\d"'
    assert quote("/srv/web#staging/with space") == '"/srv/web#staging/with space"'
    # UTF-8 bytes of 日 and a control character, each as \xHH
    assert quote("/日\n") == '"/\\xe6\\x97\\xa5\\x0a"'


def test_the_profile_denies_by_default_and_allows_each_kind(tmp_path: Path) -> None:
    folder = tmp_path / "a (b) #c 中"
    folder.mkdir()
    text = profile(
        Rules(
            read_write=(str(folder),),
            read_only=("/ro",),
            runtime=("/usr",),
            devices=("/dev/null",),
        )
    )
    lines = text.splitlines()
    assert lines[:2] == ["(version 1)", "(deny default)"]
    assert f"(allow file-read* file-write* (subpath {quote(str(folder))}))" in lines
    assert '(allow file-read* (literal "/ro"))' in lines  # missing: matched as itself
    assert '(allow file-read* process-exec (subpath "/usr"))' in lines
    assert "(allow network*)" in lines
    assert text.count("(") == text.count(")")
    assert all(ord(c) < 0x80 for c in text)
