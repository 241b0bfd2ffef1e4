"""What the server view decides without a window: the actions that apply to a server, its
badge, the grouping by the host that starts it, and the scope choices of its folders."""

from __future__ import annotations

from pathlib import Path

from roots_manager.core.consent.grant import set_scope
from roots_manager.core.hosts import operations as hostchanges
from roots_manager.core.hosts.known import HOSTS, Platform
from roots_manager.core.runs.live import BridgeMarker
from roots_manager.core.store.grants import Scope
from roots_manager.core.store.state import State
from roots_manager.gui.servers.serverview.actions import Action, actions_for
from roots_manager.gui.servers.serverview.badge import Attention, Protection, badge
from roots_manager.gui.servers.serverview.facts import ServerFacts, server_facts
from roots_manager.gui.servers.serverview.folders import (
    CHOICES,
    NOT_GRANTED,
    Choice,
    Decision,
    decision,
    folder_rows,
)
from roots_manager.gui.servers.serverview.groups import Starter, group_servers, hosts_of_servers


def _marker(server: str, run: str, **kw: object) -> BridgeMarker:
    return BridgeMarker(run, server, 1, "2026-12-01T00:00:00Z", ["srv"], **kw)  # type: ignore[arg-type]


def _state(tmp_path: Path) -> State:
    state = State()
    for name in ("fs", "git"):
        state.server_started(name, [f"/usr/bin/{name}"], f"run-{name}")
    state.pending.clear()
    return state


def test_only_the_actions_that_apply_are_offered(tmp_path: Path) -> None:
    state = _state(tmp_path)
    facts = server_facts(state, [_marker("fs", "run-fs", restartable=True)], app_connected={"fs"})
    assert actions_for(facts["fs"]) == (
        Action.PROBE,
        Action.RESTART,
        Action.LIST_CHANGED,
        Action.DISCONNECT,
        Action.FORGET,
    )
    # an outside host's server, not running: no restart, no disconnect, no list_changed
    assert actions_for(facts["git"]) == (Action.PROBE, Action.FORGET)
    assert actions_for(None) == ()
    # a bridge in observe mode cannot be asked for a list_changed
    observed = server_facts(state, [_marker("git", "run-git", mode="observe")])
    assert Action.LIST_CHANGED not in actions_for(observed["git"])
    # a running bridge's server the store has not recorded: nothing to forget or probe
    unknown = server_facts(state, [_marker("new", "run-new")])["new"]
    assert actions_for(unknown) == (Action.LIST_CHANGED,)


def test_restart_is_offered_for_a_bridge_that_can_restart_whatever_started_it(
    tmp_path: Path,
) -> None:
    state = _state(tmp_path)
    # started by a host the app does not know (nor connected): its bridge restarts on request
    outside = server_facts(state, [_marker("git", "run-git", restartable=True)])["git"]
    assert not outside.app_connected and Action.RESTART in actions_for(outside)
    # a bridge that did not keep the host's handshake cannot, even the app's own
    plain = server_facts(state, [_marker("fs", "run-fs")], app_connected={"fs"})["fs"]
    assert Action.RESTART not in actions_for(plain)
    # nor a server that is not running
    assert Action.RESTART not in actions_for(server_facts(state, [])["git"])


def test_approve_applies_only_to_a_changed_command_line(tmp_path: Path) -> None:
    state = _state(tmp_path)
    assert Action.APPROVE not in actions_for(server_facts(state, [])["fs"])
    state.servers["fs"].fingerprint = "old"
    state.server_started("fs", ["/usr/bin/fs", "--other"], "run-2")
    facts = server_facts(state, [])["fs"]
    assert facts.suspended and Action.APPROVE in actions_for(facts)


def test_the_badge_says_running_protection_staleness_and_what_waits() -> None:
    plain = ServerFacts("a", True, True)
    b = badge(plain)
    assert (b.running, b.protection, b.stale, b.attention, b.refusals) == (
        0,
        Protection.ADVISORY,
        False,
        None,
        None,
    )
    assert not b.warns
    assert badge(ServerFacts("a", True, True, confined=True)).protection is Protection.CONFINED
    # set to confined while an unconfined bridge runs it: confined from its next start
    later = badge(ServerFacts("a", True, True, bridges=1, confined=True))
    assert later.protection is Protection.CONFINED_NEXT_START and later.warns
    now = badge(ServerFacts("a", True, True, bridges=2, confined=True, running_confined=True))
    assert now.protection is Protection.CONFINED and now.running == 2
    assert badge(ServerFacts("a", True, True, stale=True)).warns
    assert badge(ServerFacts("a", True, True, pending="new-server")).attention is (
        Attention.CONSENT_PENDING
    )
    assert badge(ServerFacts("a", True, True, suspended=True)).attention is (
        Attention.COMMAND_CHANGED
    )
    assert badge(ServerFacts("a", True, True, refusals=3)).warns
    assert not badge(ServerFacts("a", True, True, refusals=0)).warns


def test_refusals_are_counted_only_when_given(tmp_path: Path) -> None:
    state = _state(tmp_path)
    assert server_facts(state, [])["fs"].refusals is None
    counted = server_facts(state, [], refusals={"fs": 2})
    assert counted["fs"].refusals == 2 and counted["git"].refusals == 0


def test_servers_are_grouped_by_the_host_whose_file_wraps_them(tmp_path: Path) -> None:
    home = tmp_path / "home"
    config = home / ".config" / "Claude" / "claude_desktop_config.json"
    config.parent.mkdir(parents=True)
    config.write_text(
        '{"mcpServers": {'
        '"fs": {"command": "/usr/bin/roots-bridge", "args": ["--server", "fs", "--", "npx", "fs"]},'
        '"raw": {"command": "npx", "args": ["raw"]}}}',
        encoding="utf-8",
    )
    platform = Platform("linux", home, {})
    hosts = hosts_of_servers(hostchanges.report(platform, []))
    claude = next(h for h in HOSTS if h.id == "claude-desktop")
    assert hosts == {"fs": claude}  # the unwrapped entry is no server of the bridge's
    groups = group_servers(["zeta", "fs", "mine", "Alpha"], hosts, app_connected={"mine"})
    assert [(g.starter, g.host, g.servers) for g in groups] == [
        (Starter.HOST, claude, ("fs",)),
        (Starter.APP, None, ("mine",)),
        (Starter.BY_HAND, None, ("Alpha", "zeta")),
    ]
    # a server this app runs now is the app's, whatever file also names it
    assert [g.starter for g in group_servers(["fs"], hosts, app_connected={"fs"})] == [Starter.APP]
    assert group_servers([], hosts) == []


def test_a_rows_choices_and_the_decision_each_makes(tmp_path: Path) -> None:
    assert CHOICES[0] == NOT_GRANTED and len(set(CHOICES)) == 5
    always = Choice(Scope.ALWAYS)
    assert decision(always, always) is None
    assert decision(NOT_GRANTED, always) == Decision(Scope.ALWAYS, False)
    assert decision(always, NOT_GRANTED) == Decision(None, None)
    # nothing granted is never read-only
    assert decision(NOT_GRANTED, Choice(None, True)) is None
    assert decision(always, Choice(Scope.ALWAYS, True)) == Decision(Scope.ALWAYS, True)


def test_folder_rows_show_the_grants_the_matrix_rule_made(tmp_path: Path) -> None:
    state = _state(tmp_path)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = state.add_root(str(tmp_path / "a"))
    b = state.add_root(str(tmp_path / "b"))
    rows = folder_rows(state, "fs", live_runs=set())
    assert [(r.root_id, r.choice) for r in rows] == [(a.id, NOT_GRANTED), (b.id, NOT_GRANTED)]
    d = decision(NOT_GRANTED, Choice(Scope.WHILE_RUNNING, True))
    assert d is not None
    set_scope(state, "fs", [b.id], d.scope, ["run-fs"], d.read_only)
    rows = folder_rows(state, "fs", live_runs={"run-fs"})
    assert rows[1].choice == Choice(Scope.WHILE_RUNNING, True)
    # the run it was granted for ended: not granted any more, as the matrix shows it
    assert folder_rows(state, "fs", live_runs=set())[1].choice == NOT_GRANTED
    assert folder_rows(state, "git", live_runs={"run-fs"})[1].choice == NOT_GRANTED


def test_a_folder_not_granted_that_a_confined_run_still_reaches_is_marked(
    tmp_path: Path,
) -> None:
    """Revoked while a confined run goes on without a restart: readable until it restarts."""
    state = _state(tmp_path)
    for name in ("a", "b", "c"):
        (tmp_path / name).mkdir()
    a, b, c = (state.add_root(str(tmp_path / n)) for n in ("a", "b", "c"))
    set_scope(state, "fs", [a.id], Scope.ALWAYS, [])
    reachable = [str(tmp_path / "a"), str(tmp_path / "b")]
    rows = {r.root_id: r for r in folder_rows(state, "fs", set(), reachable)}
    assert not rows[a.id].until_restart  # granted: nothing to say
    assert rows[b.id].choice == NOT_GRANTED and rows[b.id].until_restart
    assert not rows[c.id].until_restart  # never reached
    # a folder inside one the run reaches is reached too
    rows = {r.root_id: r for r in folder_rows(state, "fs", set(), [str(tmp_path)])}
    assert rows[b.id].until_restart and rows[c.id].until_restart


def test_what_roots_are_worth_follows_confinement_now_and_at_the_next_start() -> None:
    """Issue 38: the notice called roots "not an access control" for a confined server."""
    from roots_manager.gui.servers.serverview.worth import Worth, worth_of, worth_of_all

    def facts(confined: bool, bridges: int = 0, running: bool = False) -> ServerFacts:
        return ServerFacts("s", True, True, bridges=bridges, confined=confined,
                           running_confined=running)  # fmt: skip

    table = [
        (facts(True), Worth.HELD),  # not running: it starts confined
        (facts(False), Worth.ADVICE),
        (facts(True, bridges=1, running=True), Worth.HELD),
        (facts(True, bridges=1, running=False), Worth.HELD_FROM_RESTART),
        (facts(False, bridges=1, running=True), Worth.HELD),  # turned off, still held
        (facts(False, bridges=1, running=False), Worth.ADVICE),
    ]
    assert [worth_of(f) for f, _ in table] == [w for _, w in table]
    held, loose = facts(True), facts(False)
    assert worth_of_all([held, held], new_confined=False) is Worth.HELD
    assert worth_of_all([held, loose], new_confined=True) is Worth.MIXED
    assert worth_of_all([loose], new_confined=True) is Worth.ADVICE
    assert worth_of_all([], new_confined=True) is Worth.HELD  # the next server to start
    assert worth_of_all([], new_confined=False) is Worth.ADVICE
