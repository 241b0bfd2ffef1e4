"""Pending consent requests: the queue behind a fake prompt, and the dialog in the app."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QDialogButtonBox, QStyleFactory

from roots_manager.actions.questions import (
    ConsentAnswer,
    ConsentQuestion,
    ConsentQueue,
    Reply,
    questions,
)
from roots_manager.core.directory.layout import Layout
from roots_manager.core.store.file import Store
from roots_manager.gui.consent.consent_dialog import ConsentDialog
from roots_manager.gui.shell.app import AppController
from tests.conftest import run_cli
from tests.gui.shell_support import folders


class FakePrompt:
    """Answers each question with the next prepared answer (None: put it off)."""

    def __init__(self, answers: list[ConsentAnswer | None]) -> None:
        self.answers = answers
        self.asked: list[ConsentQuestion] = []
        self.withdrawn: list[str] = []

    def ask(self, question: ConsentQuestion, reply: Reply) -> None:
        self.asked.append(question)
        if self.answers:
            reply(self.answers.pop(0))

    def withdraw(self, request_id: str) -> None:
        self.withdrawn.append(request_id)


def pend(store: Store, *servers: str) -> None:
    with store.transaction() as state:
        for i, s in enumerate(servers):
            state.server_started(s, [f"/usr/bin/{s}", "--stdio"], f"session-{i}")


def test_queue_asks_in_order_and_writes_each_answer(store: Store, tmp_path: Path) -> None:
    (a,) = folders(tmp_path, "alpha")
    with store.transaction() as state:
        rid = state.add_root(str(a)).id
    pend(store, "first", "second", "third")
    prompt = FakePrompt([ConsentAnswer("always", (rid,)), None, ConsentAnswer("deny")])
    queue = ConsentQueue(store, prompt)
    queue.refresh(store.read())
    assert [q.server for q in prompt.asked] == ["first", "second", "third"]
    assert prompt.asked[0].waiting == 2 and prompt.asked[0].reason == "new-server"
    state = store.read()
    assert [(g.server, g.root, g.scope) for g in state.grants] == [("first", rid, "always")]
    assert [p.server for p in state.pending] == ["second"]  # put off, still pending
    assert queue.postponed == {state.pending[0].id}
    queue.review()  # asks the put-off one again
    assert prompt.asked[-1].server == "second"


def test_a_request_settled_elsewhere_is_withdrawn(store: Store) -> None:
    pend(store, "srv")
    prompt = FakePrompt([])
    queue = ConsentQueue(store, prompt)
    queue.refresh(store.read())
    assert queue.asking is not None
    run_cli("servers", "approve", "srv")
    queue.refresh(store.read())
    assert prompt.withdrawn == [prompt.asked[0].request_id]
    assert queue.asking is None


def open_dialog(controller: AppController, qtbot) -> ConsentDialog:  # type: ignore[no-untyped-def]
    assert controller.prompt is not None
    qtbot.waitUntil(lambda: controller.prompt.dialog is not None, timeout=10_000)  # type: ignore[union-attr]
    dialog = controller.prompt.dialog
    assert dialog is not None
    qtbot.waitExposed(dialog)
    return dialog


def test_dialog_flow_through_the_app(layout: Layout, store: Store, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    a, b = folders(tmp_path, "alpha", "beta")
    with store.transaction() as state:
        ra, rb = state.add_root(str(a)).id, state.add_root(str(b)).id
    pend(store, "one", "two")
    controller = AppController(layout)
    controller.start()
    try:
        assert controller.window is not None
        qtbot.addWidget(controller.window)
        assert controller.window.pending_banner.isVisible()
        dialog = open_dialog(controller, qtbot)
        assert dialog.question.server == "one"
        assert "/usr/bin/one --stdio" in dialog.command.toPlainText()
        assert dialog.checked_root_ids() == []  # nothing pre-checked
        assert not dialog.always_button.isEnabled() and not dialog.while_running_button.isEnabled()
        dialog.set_checked([rb])
        assert dialog.always_button.isEnabled()
        dialog.always_button.click()
        qtbot.waitUntil(lambda: len(store.read().pending) == 1)
        assert [(g.server, g.root, g.scope) for g in store.read().grants] == [("one", rb, "always")]

        dialog = open_dialog(controller, qtbot)
        assert dialog.question.server == "two"
        dialog.set_checked([ra])
        dialog.while_running_button.click()
        qtbot.waitUntil(lambda: not store.read().pending)
        g = next(g for g in store.read().grants if g.server == "two")
        assert (g.root, g.scope, g.runs) == (ra, "session", ["session-1"])
        qtbot.waitUntil(lambda: not controller.window.pending_banner.isVisible())  # type: ignore[union-attr]
    finally:
        controller.shutdown()


def test_changed_command_shows_the_previous_one_and_deny_works(
    layout: Layout, store: Store, qtbot
) -> None:  # type: ignore[no-untyped-def]
    with store.transaction() as state:
        state.server_started("srv", ["old-server"], "s0")
        state.decide("srv", "always")
        state.server_started("srv", ["new-server", "--evil"], "s1")
    controller = AppController(layout)
    controller.start()
    try:
        dialog = open_dialog(controller, qtbot)
        assert dialog.question.reason == "command-changed"
        assert dialog.previous.toPlainText() == "old-server"
        assert dialog.command.toPlainText() == "new-server --evil"
        dialog.deny_button.click()
        qtbot.waitUntil(lambda: not store.read().pending)
        assert store.read().servers["srv"].fingerprint is not None
    finally:
        controller.shutdown()


def test_pending_requests_survive_closing_the_app(layout: Layout, store: Store, qtbot) -> None:  # type: ignore[no-untyped-def]
    pend(store, "patient")
    first = AppController(layout)
    first.start()
    try:
        dialog = open_dialog(first, qtbot)
        dialog.later_button.click()
        assert first.prompt is not None and first.prompt.dialog is None
    finally:
        first.shutdown()
    assert [p.server for p in store.read().pending] == ["patient"]
    second = AppController(layout)
    second.start()
    try:
        dialog = open_dialog(second, qtbot)
        assert dialog.question.server == "patient"
        # decided elsewhere while the dialog is open: it closes by itself
        with qtbot.waitSignal(dialog.finished, timeout=10_000):
            run_cli("servers", "approve", "patient")
        assert second.prompt is not None and second.prompt.dialog is None
    finally:
        second.shutdown()


def test_with_the_window_hidden_the_request_waits_for_the_user(
    layout: Layout, store: Store, qtbot
) -> None:  # type: ignore[no-untyped-def]
    controller = AppController(layout)
    controller.start()
    try:
        assert controller.window is not None and controller.prompt is not None
        controller.window.hide()
        with qtbot.waitSignal(controller.prompt.attention_needed, timeout=10_000) as asked:
            pend(store, "background")
        assert asked.args[0].server == "background"
        assert controller.prompt.dialog is None
        assert controller.tray is not None and controller.tray.pending == 1
        controller.review()  # what clicking the tray notification does
        dialog = open_dialog(controller, qtbot)
        assert controller.window.isVisible()
        assert dialog.question.server == "background"
    finally:
        controller.shutdown()


def _question(store: Store, tmp_path: Path) -> ConsentQuestion:
    (a,) = folders(tmp_path, "alpha")
    with store.transaction() as state:
        state.add_root(str(a))
    pend(store, "newcomer")
    (question,) = questions(store.read())
    return question


def test_what_roots_are_worth_follows_the_servers_confinement(
    store: Store, tmp_path: Path, qtbot
) -> None:  # type: ignore[no-untyped-def]
    """Issue 38: the footer said roots "are not an access control" for a confined server."""
    question = _question(store, tmp_path)
    texts = {}
    for confined in (True, False, None):
        dialog = ConsentDialog(question, confined=confined)
        qtbot.addWidget(dialog)
        texts[confined] = dialog.notice.text()
    assert "runs confined: the kernel refuses it" in texts[True]
    assert "not an access control" not in texts[True]
    assert "does not run confined" in texts[False] and "not an access control" in texts[False]
    assert "Only a confined server is held to them" in texts[None]
    assert "network is not restricted unless you block it" in texts[True]
    # issue 42: the network as it is for this server, when it runs confined
    said = {}
    for network in ("domains", "blocked"):
        dialog = ConsentDialog(question, confined=True, network=network)
        qtbot.addWidget(dialog)
        said[network] = dialog.notice.text()
    assert said["domains"].endswith(
        "Its network reaches only its domains, through Roots Manager's proxy."
    )
    assert said["blocked"].endswith("Its network is blocked.")


def test_the_allow_buttons_say_why_they_wait(store: Store, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Issue 38: the Allow buttons were disabled with no hint why."""
    question = _question(store, tmp_path)
    dialog = ConsentDialog(question)
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.always_button.isEnabled()
    assert dialog.allow_hint.isVisible()
    assert "Tick the folders it may see" in dialog.allow_hint.text()
    assert dialog.always_button.toolTip() == "Tick at least one folder first"
    dialog.set_checked([question.roots[0].id])
    assert dialog.always_button.isEnabled() and dialog.while_running_button.isEnabled()
    assert not dialog.allow_hint.isVisible() and dialog.always_button.toolTip() == ""


def test_the_buttons_keep_one_order_on_every_style(store: Store, tmp_path: Path, qtbot) -> None:  # type: ignore[no-untyped-def]
    """Issue 38: under the GTK theme the buttons reordered (Deny first): a QDialogButtonBox
    takes its order from the platform's theme. The prompt lays them out itself."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    question = _question(store, tmp_path)
    before = app.style().name()
    try:
        for key in QStyleFactory.keys():  # noqa: SIM118 (a Qt list, not a dict)
            app.setStyle(QStyleFactory.create(key))
            dialog = ConsentDialog(question)
            qtbot.addWidget(dialog)
            dialog.show()
            qtbot.waitExposed(dialog)
            assert dialog.findChildren(QDialogButtonBox) == []
            order = [
                dialog.later_button,
                dialog.deny_button,
                dialog.while_running_button,
                dialog.always_button,
            ]
            lefts = [b.mapTo(dialog, b.rect().topLeft()).x() for b in order]
            assert lefts == sorted(lefts) and len(set(lefts)) == 4, (key, lefts)
            dialog.close()
    finally:
        app.setStyle(QStyleFactory.create(before))
