"""Issue 42, in the app: a server's network is allowed, limited to domains or blocked, in its
Protection section, the domains added and removed from the keyboard; a refusal of the proxy
is allowed as a domain from the Log, the notice and Learn…; and what confinement means says
the truth about the network. On the real store and the real event log."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from roots_manager.core.confinement.offers import Offer
from roots_manager.core.directory.layout import Layout
from roots_manager.core.log import events
from roots_manager.core.servers.server import Network
from roots_manager.core.store.file import Store
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.log.log_view import LogPanel
from roots_manager.gui.servers.denial_notice import DenialNotice
from roots_manager.gui.servers.network_box import NetworkBox
from roots_manager.gui.servers.servers_view import ServersPanel
from roots_manager.gui.servers.serverview.worth import Worth
from tests.conftest import only_on_linux, run_cli


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


def known(store: Store, watcher: StoreWatcher, name: str = "web") -> None:
    with store.transaction() as state:
        state.server_started(name, ["npx", name], "r1", confined=True)
    watcher.reload()


def network_of(store: Store, name: str = "web") -> tuple[bool, list[str] | None]:
    """The network in force: whether it is blocked, and the domains it is limited to (None: not
    limited to domains; its domains are then kept, not in force: :func:`kept_of`)."""
    srv = store.read().servers[name]
    limited = srv.network is Network.DOMAINS
    return srv.network is Network.BLOCKED, list(srv.network_domains) if limited else None


def kept_of(store: Store, name: str = "web") -> list[str]:
    """The domains the store keeps for server *name*, whatever its network is now."""
    return store.read().servers[name].network_domains


def refused_domain(domain: str, server: str = "web") -> dict[str, object]:
    """The proxy's refusal of *domain*, as the bridge logs it."""
    return events.event(
        events.DENIAL,
        server,
        "r1",
        path=f"network: {domain}:443",
        folder="",
        operation="connect",
        domain=domain,
        port=443,
        during="request",
        requests=[{"method": "tools/call", "tool": "fetch", "id": 4}],
    )


def box_for(watcher: StoreWatcher, qtbot: QtBot, name: str = "web") -> NetworkBox:
    box = NetworkBox(watcher)
    qtbot.addWidget(box)
    box.show_server(name)
    box.show()
    qtbot.waitExposed(box)
    box.activateWindow()
    qtbot.waitActive(box)
    return box


def test_the_three_states_and_the_domains_are_set_from_the_keyboard(
    watcher: StoreWatcher, store: Store, qtbot: QtBot
) -> None:
    known(store, watcher)
    box = box_for(watcher, qtbot)
    assert box.state() == "allowed" and not box.listed.isVisible()
    box.choice.setFocus()
    qtbot.waitUntil(box.choice.hasFocus)
    QTest.keyClick(box.choice, Qt.Key.Key_Down)  # Only these domains
    assert network_of(store) == (False, [])
    assert box.listed.isVisible() and box.none_yet.isVisible()
    assert "every connection is refused" in box.none_yet.text()
    qtbot.waitUntil(box.edit.hasFocus)  # what comes next: a domain to add

    # a domain that is none: said under the line, what was typed kept, nothing saved
    QTest.keyClicks(box.edit, "https://api.github.com:443")
    QTest.keyClick(box.edit, Qt.Key.Key_Return)
    assert box.error.isVisible()
    assert box.error.text().startswith("https://api.github.com:443 is not a domain")
    assert box.edit.text() == "https://api.github.com:443"
    assert network_of(store) == (False, [])
    QTest.keyClick(box.edit, Qt.Key.Key_End)
    QTest.keyClick(box.edit, Qt.Key.Key_Backspace)
    assert not box.error.isVisible()  # gone as the line is corrected

    box.edit.setText("API.GitHub.com")
    QTest.keyClick(box.edit, Qt.Key.Key_Return)
    assert network_of(store) == (False, ["api.github.com"])
    assert box.edit.text() == "" and box.edit.hasFocus()
    box.edit.setText("*.npmjs.org")
    qtbot.mouseClick(box.add_button, Qt.MouseButton.LeftButton)
    assert network_of(store) == (False, ["api.github.com", "*.npmjs.org"])
    assert box.listed_domains() == ["api.github.com", "*.npmjs.org"]
    assert not box.none_yet.isVisible()

    # Remove: the selected one, with Delete in the list or the button
    assert not box.remove_button.isEnabled()
    box.domains.setFocus()
    box.domains.setCurrentRow(0)
    QTest.keyClick(box.domains, Qt.Key.Key_Delete)
    assert network_of(store) == (False, ["*.npmjs.org"])
    assert box.domains.hasFocus() and box.remove_button.isEnabled()

    # a change made elsewhere (the CLI) is shown
    run_cli("servers", "network", "web", "domains", "--allow", "registry.example")
    qtbot.waitUntil(lambda: box.listed_domains() == ["*.npmjs.org", "registry.example"])

    box.choice.setFocus()
    QTest.keyClick(box.choice, Qt.Key.Key_Down)  # Blocked
    assert network_of(store) == (True, None)
    assert kept_of(store) == ["*.npmjs.org", "registry.example"]  # in the store, for later
    assert box.state() == "blocked" and not box.listed.isVisible()
    QTest.keyClick(box.choice, Qt.Key.Key_Up)  # Only these domains, again: as they were
    assert network_of(store) == (False, ["*.npmjs.org", "registry.example"])
    QTest.keyClick(box.choice, Qt.Key.Key_Up)  # Allowed
    assert network_of(store) == (False, None) and box.state() == "allowed"
    assert kept_of(store) == ["*.npmjs.org", "registry.example"]


def test_the_domains_kept_while_allowed_come_back_after_the_app_restarts(
    store: Store, qtbot: QtBot
) -> None:
    """The domains are kept in the store, not by the box: a box of a later run of the app (a
    new watcher of the same store file), or the CLI, limits the server to them again."""
    first = StoreWatcher(store)
    first.start()
    known(store, first)
    box = box_for(first, qtbot)
    assert box.choose("domains")
    box.edit.setText("a.example")
    assert box.add_typed()
    assert box.choose("allowed") and network_of(store) == (False, None)
    box.close()
    first.stop()

    later = StoreWatcher(Store(store.layout))  # the app started again
    later.start()
    try:
        again = box_for(later, qtbot)
        assert again.state() == "allowed" and not again.listed.isVisible()
        assert again.choose("domains")
        assert network_of(store) == (False, ["a.example"])
        assert again.listed_domains() == ["a.example"] and again.listed.isVisible()
        assert again.choose("blocked") and network_of(store) == (True, None)
    finally:
        later.stop()
    run_cli("servers", "network", "web", "domains")
    assert network_of(store) == (False, ["a.example"])


def test_a_server_not_known_has_no_network_to_set(
    watcher: StoreWatcher, store: Store, qtbot: QtBot
) -> None:
    box = box_for(watcher, qtbot, "nobody")
    assert not box.choice.isEnabled() and box.state() == "allowed"
    assert not box.choose("domains") and "nobody" not in store.read().servers


def test_in_the_servers_tab_at_1366x768_the_domains_are_in_sight_and_in_tab_order(
    watcher: StoreWatcher, store: Store, qtbot: QtBot
) -> None:
    known(store, watcher)
    run_cli("servers", "network", "web", "domains", "--allow", "api.github.com",
            "--allow", "*.npmjs.org")  # fmt: skip
    watcher.reload()
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    panel.resize(1366, 768)
    panel.show()
    qtbot.waitExposed(panel)
    panel.select_server("web")
    panel.activateWindow()
    qtbot.waitActive(panel)
    net = panel.detail.network
    assert net.listed_domains() == ["api.github.com", "*.npmjs.org"]
    # the list keeps room for a few domains, no more; the line is wide enough to read a name
    assert net.domains.height() < 768 // 6
    assert net.edit.width() >= net.edit.fontMetrics().horizontalAdvance("registry.npmjs.org")
    box = panel.confine_box
    expected = [net.choice, net.domains, net.edit, net.add_button, box.restart_switch]
    box.learning_button.setFocus() if box.learning_button.isVisible() else box.switch.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() in (box.switch, box.learning_button))
    scroll = panel.detail_scroll
    seen = []
    for _ in expected:
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        now = QApplication.focusWidget()
        seen.append(now)
        where = now.mapTo(scroll.viewport(), QPoint(0, 0))
        assert where.y() >= 0 and where.y() + now.height() <= scroll.viewport().height()
    assert seen == expected  # Remove is skipped while no domain is selected


def entries(menu: QMenu) -> list[tuple[str, bool]]:
    return [(a.text(), a.isEnabled()) for a in menu.actions() if not a.isSeparator()]


def test_a_refusal_of_the_proxy_is_allowed_as_a_domain_from_its_log_row(
    home: Path, layout: Layout, store: Store, watcher: StoreWatcher, qtbot: QtBot
) -> None:
    known(store, watcher)
    run_cli("servers", "network", "web", "domains", "--allow", "api.github.com")
    writer = events.EventWriter(layout, "r1")
    writer.write(refused_domain("Registry.NPMjs.org"))
    writer.close()
    panel = LogPanel(layout)
    qtbot.addWidget(panel)
    panel.start()
    notice = DenialNotice(watcher)
    qtbot.addWidget(notice)
    panel.allow_requested.connect(notice.allow_refusal)
    try:
        qtbot.waitUntil(lambda: panel.model.refresh() or panel.model.rowCount() == 1)
        menu = panel.allow_menu_for(0)
        assert menu is not None
        assert entries(menu) == [("Allow domain registry.npmjs.org", True)]
        [action] = menu.actions()
        assert action.data() == Offer.DOMAIN.value
        with qtbot.waitSignal(notice.allowed) as allowed:
            action.trigger()
        assert allowed.args == ["web", "registry.npmjs.org"]
        assert network_of(store) == (False, ["api.github.com", "registry.npmjs.org"])
        assert not store.read().roots
    finally:
        panel.stop()


def test_the_notice_offers_allow_domain_and_nothing_about_paths(
    home: Path, store: Store, watcher: StoreWatcher, qtbot: QtBot
) -> None:
    known(store, watcher)
    run_cli("servers", "network", "web", "domains")
    notice = DenialNotice(watcher)
    qtbot.addWidget(notice)
    notice.show()
    notice.add([refused_domain("evil.example"), refused_domain("evil.example")])
    text = notice.label.text()
    assert "web was refused network: evil.example:443 (connect) while running tools/call" in text
    assert "2 refusals of this domain." in text
    assert notice.domain_button.isVisible()
    assert "evil.example" in notice.domain_button.toolTip()
    hidden = (notice.folder_button, notice.read_only_button, notice.file_button)
    assert not any(b.isVisible() for b in (*hidden, notice.create_button))
    with qtbot.waitSignal(notice.allowed):
        notice.domain_button.click()
    assert network_of(store) == (False, ["evil.example"])
    assert not notice.isVisible()


def test_the_list_of_refusals_shows_each_domain_and_allows_it(
    home: Path, store: Store, watcher: StoreWatcher, qtbot: QtBot
) -> None:
    from roots_manager.gui.servers.refusals_dialog import RefusalsDialog

    known(store, watcher)
    run_cli("servers", "network", "web", "domains")
    notice = DenialNotice(watcher)
    qtbot.addWidget(notice)
    notice.add([refused_domain("a.example"), refused_domain("b.example")])
    dialog = RefusalsDialog(notice)
    qtbot.addWidget(dialog)
    model = dialog.model
    rows = [[model.index(r, c).data() for c in (1, 2, 4)] for r in range(model.rowCount())]
    assert rows == [["b.example", "connect", "domain"], ["a.example", "connect", "domain"]]
    dialog.select(1)
    assert dialog.domain_button.isEnabled() and not dialog.folder_button.isEnabled()
    dialog.domain_button.click()
    assert network_of(store) == (False, ["a.example"])
    assert [model.index(r, 1).data() for r in range(model.rowCount())] == ["b.example"]


def test_confinement_says_the_network_reaches_only_its_domains(
    store: Store, watcher: StoreWatcher, qtbot: QtBot
) -> None:
    known(store, watcher)
    run_cli("servers", "confine", "web", "on")
    run_cli("servers", "network", "web", "domains", "--allow", "api.github.com")
    watcher.reload()
    panel = ServersPanel(watcher)
    qtbot.addWidget(panel)
    panel.show()
    panel.select_server("web")
    said = panel.confine_box.explanation.text()
    assert "the network reaches only its domains, through Roots Manager's proxy" in said
    assert "not restricted" not in said
    text, _ = panel.worth_text(Worth.HELD, "web", "domains")
    assert "Its network reaches only its domains" in text
    run_cli("servers", "network", "web", "blocked")
    qtbot.waitUntil(lambda: "every network connection" in panel.confine_box.explanation.text())


@only_on_linux("learning runs the server confined (Landlock), Linux only")
def test_learn_proposes_a_refused_domain_as_a_domain_and_accept_adds_it(
    home: Path, layout: Layout, store: Store, watcher: StoreWatcher, qtbot: QtBot
) -> None:
    from roots_manager.gui.servers.server_detail import ServerDetail

    known(store, watcher)
    run_cli("servers", "network", "web", "domains", "--allow", "api.github.com")
    watcher.reload()
    detail = ServerDetail(watcher)
    qtbot.addWidget(detail)
    detail.show_server("web")
    dialog = detail.open_learning()
    assert dialog is not None and dialog.start(seconds=600)
    writer = events.EventWriter(layout, "r1")
    writer.write(refused_domain("registry.npmjs.org"))
    writer.write(refused_domain("api.github.com"))  # allowed since: left out
    writer.close()
    qtbot.waitUntil(lambda: "2 refused so far" in dialog.status.text(), timeout=10000)
    qtbot.mouseClick(dialog.stop_button, Qt.MouseButton.LeftButton)
    texts = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    assert texts == [
        "Domain, through the proxy: registry.npmjs.org",
        "Left out: api.github.com (the server may do this now)",
    ]
    assert dialog.accept_ticked()
    assert network_of(store) == (False, ["api.github.com", "registry.npmjs.org"])
    assert not store.read().roots
