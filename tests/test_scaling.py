"""The commands and the bridge's answer grow linearly with the number of roots.

Each test runs one operation on a store of 2,000 granted roots and one of 8,000, and compares
the steps taken in Roots Manager's code (tests/scale.py): about 4 times as many is linear, 16
is quadratic (``roots list`` was: 26 s for 30,000 roots, 174 s for 50,000).
"""

from __future__ import annotations

import pytest

from roots_manager.bridge.run.roots import RootsSource
from roots_manager.cli import main as cli
from roots_manager.core.consent.effective import effective
from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.state import fingerprint
from tests.scale import COMMAND, assert_linear, granted, make_folders, saved, steps, ungranted


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return make_folders(tmp_path_factory.mktemp("many"))


@pytest.mark.parametrize(
    "argv",
    [
        ["roots", "list"],
        ["roots", "list", "--json"],
        ["effective", "fs"],
        ["effective", "fs", "--json"],
        ["servers", "list"],
    ],
    ids=" ".join,
)
def test_each_command_grows_linearly(
    argv: list[str], folders: list[str], layout: Layout, capsys: pytest.CaptureFixture[str]
) -> None:
    def measure(n: int) -> int:
        saved(granted(folders, n), layout)
        count = steps(lambda: cli.main(argv))
        out = capsys.readouterr().out
        assert "project-00000" in out or argv[0] == "servers", out[:200]
        return count

    assert_linear(measure, "roots-manager " + " ".join(argv))


def test_the_bridges_answer_grows_linearly(folders: list[str], layout: Layout) -> None:
    def measure(n: int) -> int:
        source = RootsSource(saved(granted(folders, n), layout), "fs", fingerprint(COMMAND), "s1")
        first = steps(source.effective)  # reads the store
        again = steps(source.effective)  # from the state already read
        assert len(source.effective()["roots"]) == n
        return first + again

    assert_linear(measure, "the bridge's roots/list answer")


def test_effective_grows_linearly(folders: list[str]) -> None:
    def measure(n: int) -> int:
        state = granted(folders, n)
        return steps(lambda: effective(state, "fs"))

    assert_linear(measure, "consent.effective")


def test_granting_every_root_at_once_grows_linearly(folders: list[str]) -> None:
    # what the consent dialog does when the user allows every root
    def measure(n: int) -> int:
        state = ungranted(folders, n)
        ids = [r.id for r in state.roots]
        count = steps(lambda: state.grant("fs", ids, "session", ["s1"]))
        # each while-running grant replaced
        count += steps(lambda: state.grant("fs", ids, "always"))
        assert len(state.grants) == n and {g.scope for g in state.grants} == {"always"}
        return count

    assert_linear(measure, "State.grant")
