"""The per-user directory found as a string (for the bridge's start, without pathlib) names the
folder pathlib's ``Path(value).expanduser().absolute()`` names, as the directory always was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from roots_manager.core.directory.layout import (
    HOME_ENV,
    LIVE_NAME,
    LOGS_ENV,
    STORE_NAME,
    Layout,
    default_home,
    home_folder,
    platform_home,
)
from tests.conftest import only_on_linux

GIVEN = ["rel/home", "./rel//home/", "~/rm-home", "~", "/abs//home/./x/", "rel/../other"]


@pytest.mark.parametrize("given", GIVEN)
def test_the_home_named_in_the_environment_is_pathlibs(
    given: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.setenv(HOME_ENV, given)
    monkeypatch.setenv(LOGS_ENV, given)
    expected = Path(given).expanduser().absolute()
    assert os.path.isabs(home_folder())
    assert Path(home_folder()) == default_home() == expected
    layout = Layout.default()
    assert layout.home == expected and layout.log_dir == expected
    assert Path(os.path.join(home_folder(), STORE_NAME)) == layout.store
    assert Path(home_folder(), LIVE_NAME) == layout.live


def test_a_home_under_a_user_that_cannot_be_found_is_an_error_as_in_pathlib(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    given = "~no-such-user-of-roots-manager/home"
    with pytest.raises(RuntimeError):
        Path(given).expanduser()
    monkeypatch.setenv(HOME_ENV, given)
    with pytest.raises(RuntimeError):
        home_folder()


@only_on_linux("the XDG folders are Linux's")
@pytest.mark.parametrize("data_home", ["", "relative/data", "/abs/data/"])
def test_the_platforms_home_follows_xdg_as_before(
    data_home: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.delenv(HOME_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", data_home)
    base = data_home if os.path.isabs(data_home) else str(tmp_path / "user/.local/share")
    assert Path(home_folder()) == platform_home() == default_home() == Path(base, "roots-manager")
