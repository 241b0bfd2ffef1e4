"""The Roots and Servers tabs grow linearly with the number of roots (offscreen).

As in tests/test_scaling.py, a store of 2,000 granted roots and one of 8,000: the steps the
app's own code takes (the tables' rows built, then every cell Qt asks for) must grow about four
times, not sixteen. Building the rows of the Roots tab looked up each root's grants in the whole
list: with 30,000 roots that took minutes, and it ran again every three seconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QHeaderView

from roots_manager.core.consent.effective import Availability
from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.state import State
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.roots.roots_model import AVAILABILITY_BATCH, AVAILABLE, RootsModel
from roots_manager.gui.roots.roots_view import RootsPanel
from roots_manager.gui.servers.consent_cells import MATRIX_FIT_LIMIT
from roots_manager.gui.servers.consent_matrix import ConsentMatrixModel
from roots_manager.gui.servers.servers_view import ServersPanel
from tests.scale import assert_linear, calls, granted, make_folders, saved, steps

HEADER_ASKS = 4000


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return make_folders(tmp_path_factory.mktemp("many"))


def watcher_of(folders: list[str], n: int, home: Path) -> StoreWatcher:
    watcher = StoreWatcher(saved(granted(folders, n), Layout(home).ensure()))
    watcher.reload()
    return watcher


def test_the_roots_tab_grows_linearly(
    folders: list[str], tmp_path: Path, qapp: QApplication, qtbot
) -> None:  # type: ignore[no-untyped-def]
    settings = QSettings(str(tmp_path / "gui.ini"), QSettings.Format.IniFormat)

    def measure(n: int) -> int:
        watcher = watcher_of(folders, n, tmp_path / f"home-{n}")
        panels: list[RootsPanel] = []
        count = steps(lambda: panels.append(RootsPanel(watcher, settings)))
        panel = panels[0]
        qtbot.addWidget(panel)
        panel.model._availability.stop()  # the refresh below is the one measured
        panel.resize(900, 600)
        count += steps(lambda: (panel.show(), qapp.processEvents()))
        count += steps(lambda: (panel.model.refresh(), qapp.processEvents()))
        assert panel.model.rowCount() == n
        assert panel.model.index(n - 1, 3).data() == "fs"
        return count

    assert_linear(measure, "the Roots tab")


def test_the_servers_tab_grows_linearly(
    folders: list[str], tmp_path: Path, qapp: QApplication, qtbot
) -> None:  # type: ignore[no-untyped-def]
    def measure(n: int) -> int:
        watcher = watcher_of(folders, n, tmp_path / f"home-{n}")
        panels: list[ServersPanel] = []
        count = steps(lambda: panels.append(ServersPanel(watcher)))
        panel = panels[0]
        qtbot.addWidget(panel)
        panel.resize(900, 600)
        count += steps(lambda: (panel.show(), qapp.processEvents()))
        # a running bridge's marker changes with every answer: each change refreshes the tab
        count += steps(
            lambda: (
                panel.matrix_model._refresh(),
                panel.servers_model.refresh(),
                qapp.processEvents(),
            )
        )
        assert panel.matrix_model.columnCount() == n
        return count

    assert_linear(measure, "the Servers tab")


def test_matrix_columns_fit_their_names_only_while_there_are_few(
    folders: list[str], tmp_path: Path, qapp: QApplication, qtbot
) -> None:  # type: ignore[no-untyped-def]
    # fitting measures every column at each change, about a millisecond each: past the limit,
    # Qt asks only for the headers it shows
    modes = {}
    for n in (MATRIX_FIT_LIMIT, MATRIX_FIT_LIMIT + 1):
        panel = ServersPanel(watcher_of(folders, n, tmp_path / f"home-{n}"))
        qtbot.addWidget(panel)
        modes[n] = panel.matrix.horizontalHeader().sectionResizeMode(0)
    assert modes == {
        MATRIX_FIT_LIMIT: QHeaderView.ResizeMode.ResizeToContents,
        MATRIX_FIT_LIMIT + 1: QHeaderView.ResizeMode.Interactive,
    }

    watcher = watcher_of(folders, len(folders), tmp_path / "home-all")
    full = watcher.state
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    panel.resize(900, 600)
    # Qt asks about the headers in view and a sample of the first and last, role by role:
    # about 1,800 calls however many roots there are; fitting asks about every column
    asked = calls(lambda: (panel.show(), qapp.processEvents()), ConsentMatrixModel.headerData)
    assert asked < HEADER_ASKS, f"{asked} header texts asked for {len(folders)} roots"

    def show(state: State) -> int:
        watcher.state = state
        return calls(
            lambda: (watcher.state_changed.emit(state), qapp.processEvents()),
            ConsentMatrixModel.headerData,
        )

    # from a few roots (fitted) to thousands: not measured on the way
    show(State(roots=full.roots[:10], servers=full.servers, grants=full.grants[:10]))
    assert (
        panel.matrix.horizontalHeader().sectionResizeMode(0)
        == QHeaderView.ResizeMode.ResizeToContents
    )
    asked = show(full)
    assert asked < HEADER_ASKS, f"{asked} header texts asked going to {len(folders)} roots"
    assert (
        panel.matrix.horizontalHeader().sectionResizeMode(0) == QHeaderView.ResizeMode.Interactive
    )


def test_the_periodic_recheck_does_not_parse_an_unchanged_store(
    folders: list[str], tmp_path: Path
) -> None:
    watcher = watcher_of(folders, len(folders), tmp_path / "home")
    assert steps(watcher.reload_state) < 50  # a look at the file's stamp, not 8,000 roots parsed
    with watcher.store.transaction() as state:
        state.roots[0].name = "renamed"
    assert steps(watcher.reload_state) > len(folders)  # a save is read
    assert watcher.state.roots[0].name == "renamed"


def test_a_large_store_is_rechecked_a_batch_at_a_time(folders: list[str], tmp_path: Path) -> None:
    # the availability timer runs every few seconds: each run looks at a bounded batch
    watcher = watcher_of(folders, len(folders), tmp_path / "home")
    model = RootsModel(watcher)
    model._availability.stop()
    last = Path(folders[-1])
    last.rmdir()
    try:
        rounds = -(-len(folders) // AVAILABILITY_BATCH)
        looked = [calls(model.recheck_availability, Availability.look) for _ in range(rounds)]
        assert max(looked) == AVAILABILITY_BATCH and sum(looked) == len(folders)
        assert model.index(len(folders) - 1, AVAILABLE).data() == "no (missing)"
        assert model.index(0, AVAILABLE).data() == "yes"
    finally:
        last.mkdir()
