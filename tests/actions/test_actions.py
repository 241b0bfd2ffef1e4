"""The use cases of roots_manager.actions against a real store file under a temporary home."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from roots_manager.actions import confinement, consent, servers
from roots_manager.actions.servers import UnknownServer
from roots_manager.core.directory.layout import Layout
from roots_manager.core.runs import live
from roots_manager.core.servers.server import Server
from roots_manager.core.store.file import Store
from roots_manager.core.store.grants import Scope
from roots_manager.core.store.state import now_iso
from roots_manager.support.refusal import ModelError
from tests.conftest import only_on_linux

W, A = Scope.WHILE_RUNNING, Scope.ALWAYS
Setting = Callable[[Store, str, bool], Server]


@pytest.fixture
def folders(tmp_path: Path) -> list[str]:
    made = [tmp_path / "work" / name for name in ("alpha", "beta")]
    for path in made:
        path.mkdir(parents=True)
    return [str(p) for p in made]


def known(store: Store, *names: str) -> None:
    with store.transaction() as state:
        for name in names:
            state.expect_server(name, None)


def marker(layout: Layout, run: str, server: str, pid: int) -> None:
    live.write_bridge_marker(
        layout, live.BridgeMarker(run, server, pid, now_iso(), ["srv"], process_started=None)
    )


def test_a_grant_to_a_server_nobody_has_seen_is_refused_with_the_near_names(
    store: Store, folders: list[str]
) -> None:
    known(store, "files", "git")
    before = store.path.read_bytes()
    with pytest.raises(UnknownServer) as refused:
        consent.grant(store, "fils", [folders[0]])
    assert refused.value.known == ["files", "git"] and refused.value.near == ["files"]
    assert refused.value.ahead  # a grant can be made ahead of a first start, with new
    assert store.path.read_bytes() == before  # not even the folder became a root

    done = consent.grant(store, "fils", [folders[0]], new=True)
    assert done.new_server and done.server == "fils" and done.changed == 1
    assert [r.path for r in done.added] == [folders[0]] and done.runs == []
    again = consent.grant(store, "fils", [folders[0]], read_only=True)
    assert not again.new_server and again.added == [] and again.changed == 1
    assert [g.read_only for g in store.read().grants_of("fils")] == [True]


def test_a_while_running_grant_lasts_for_the_live_runs_read_at_the_grant(
    store: Store, layout: Layout, folders: list[str]
) -> None:
    known(store, "fs", "other")
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    marker(layout, "r-live", "fs", os.getpid())
    marker(layout, "r-dead", "fs", int(gone.stdout))
    marker(layout, "r-other", "other", os.getpid())
    done = consent.grant(store, "fs", [folders[0]], W)
    assert done.runs == ["r-live"]
    [g] = store.read().grants_of("fs")
    assert g.scope == W and g.runs == ["r-live"]
    # the matrix's cell binds the same runs, found the same way
    with store.transaction() as state:
        beta = state.add_root(folders[1]).id
    assert consent.set_scope(store, "other", [beta], W) == 1
    assert [g.runs for g in store.read().grants_of("other")] == [["r-other"]]
    # an "always" grant is bound to no run
    assert consent.grant(store, "fs", [folders[1]]).runs == []


def test_the_matrix_scope_narrows_keeps_read_only_and_revokes(
    store: Store, folders: list[str]
) -> None:
    consent.grant(store, "fs", [folders[0]], A, read_only=True, new=True)
    rid = store.read().find_root(folders[0]).id
    assert consent.set_scope(store, "fs", [rid], W) == 1
    [g] = store.read().grants_of("fs")
    assert (g.scope, g.read_only) == (W, True)  # narrower replaces wider, flag kept
    assert consent.set_scope(store, "fs", [rid], W) == 0
    assert consent.set_scope(store, "fs", [rid], W, read_only=False) == 1
    assert consent.set_scope(store, "fs", [rid], None) == 1
    assert store.read().grants_of("fs") == []


def test_places_inside_a_grant_are_kept_relative_and_must_lie_in_the_root(
    store: Store, folders: list[str]
) -> None:
    alpha = folders[0]
    consent.grant(
        store,
        "fs",
        [alpha],
        read_only_inside=[os.path.join(alpha, "..cache"), "docs/"],
        hidden_inside=[os.path.join(alpha, "secret")],
        new=True,
    )
    [g] = store.read().grants_of("fs")
    # a name that begins with two dots lies in the root as much as any other
    assert (g.read_only_inside, g.hidden_inside) == (["..cache", "docs"], ["secret"])
    for outside in (alpha, alpha + "2", os.path.join(alpha, "..", "beta"), "/"):
        with pytest.raises(ModelError, match="is not inside the root"):
            consent.grant(store, "fs", [alpha], read_only_inside=[outside])
    assert store.read().grants_of("fs") == [g]  # nothing of a refused grant kept


def test_the_matrix_and_revoke_never_make_a_server(store: Store, folders: list[str]) -> None:
    consent.grant(store, "files", [folders[0]], new=True)
    rid = store.read().find_root(folders[0]).id
    before = store.path.read_bytes()
    with pytest.raises(UnknownServer) as cell:
        consent.set_scope(store, "gone", [rid], A)  # forgotten elsewhere meanwhile
    assert not cell.value.ahead
    with pytest.raises(UnknownServer) as typo:
        consent.revoke(store, "fils", [folders[0]])
    assert typo.value.near == ["files"] and not typo.value.ahead
    # the roots are looked up first: a bad root is refused as such
    with pytest.raises(ModelError, match="no root matches"):
        consent.revoke(store, "fils", ["nothing-by-this-name"])
    assert store.path.read_bytes() == before
    done = consent.revoke(store, "files", [folders[0]])
    assert (done.server, done.revoked, [r.path for r in done.roots]) == ("files", 1, [folders[0]])


def test_forget_and_approve_find_a_stored_odd_name_by_how_it_shows(
    store: Store, folders: list[str]
) -> None:
    consent.grant(store, "fs", folders, new=True)
    with store.transaction() as state:  # a name a store may hold from before it was refused
        state.servers["fs\u200b"] = Server(name="fs\u200b")
    with pytest.raises(UnknownServer) as typo:
        servers.forget(store, "fss")
    assert typo.value.near == ["fs"] and not typo.value.ahead
    assert servers.forget(store, "fs\\u200b") == servers.Forgotten("fs\u200b", 0)
    assert servers.forget(store, "fs") == servers.Forgotten("fs", 2)
    assert store.read().servers == {}
    with pytest.raises(UnknownServer):
        servers.approve(store, "fs")


@pytest.mark.parametrize(
    "change",
    [
        lambda store, name, new: confinement.confine(store, name, True, new=new),
        lambda store, name, new: confinement.set_network(store, name, True, new=new),
        lambda store, name, new: confinement.set_restart_on_revoke(store, name, True, new=new),
    ],
    ids=["confine", "network", "restart-on-revoke"],
)
def test_a_setting_for_a_server_nobody_has_seen_is_refused_unless_meant_ahead(
    store: Store, change: Setting
) -> None:
    known(store, "files")
    before = store.path.read_bytes()
    with pytest.raises(UnknownServer) as typo:
        change(store, "fils", False)
    assert typo.value.near == ["files"] and typo.value.ahead
    assert store.path.read_bytes() == before  # no phantom "fils"
    # a name that can never be a server's, or that looks like a known one, whatever new says
    with pytest.raises(ModelError, match="text-direction characters"):
        change(store, "files\u202egnp", True)
    with pytest.raises(ModelError, match="looks like the known server 'files'"):
        change(store, "fil\u0435s", True)
    assert store.path.read_bytes() == before
    srv = change(store, "next", True)
    assert srv.name == "next" and "next" in store.read().servers
    assert change(store, "files", False).name == "files"


def test_confine_edits_the_extra_paths_and_the_switch_keeps_the_default(
    store: Store, tmp_path: Path
) -> None:
    known(store, "fs")
    extra = str(tmp_path / "models")
    srv = confinement.confine(store, "fs", True, allow_read=[extra])
    assert srv.confine and srv.allow_read == [extra]
    assert confinement.confine(store, "fs", forget=[extra]).allow_read == []
    # confined, the default is on: the switch shown on keeps the default
    assert confinement.switch_restart_on_revoke(store, "fs", True).restart_on_revoke is None
    assert confinement.switch_restart_on_revoke(store, "fs", False).restart_on_revoke is False
    assert confinement.switch_restart_on_revoke(store, "fs", True).restart_on_revoke is None
    confinement.confine(store, "fs", False)
    assert confinement.switch_restart_on_revoke(store, "fs", True).restart_on_revoke is True
    assert store.read().servers["fs"].restarts_on_revoke


@only_on_linux("learning confines, and confinement by default needs Landlock")
def test_learning_a_server_not_decided_yet_puts_the_default_back(store: Store) -> None:
    """A server whose first start has not decided its confinement: learning turns it on, and
    when nothing is accepted it is left to the default again, not turned off for good."""
    from roots_manager.actions import learning

    known(store, "fresh")
    assert store.read().servers["fresh"].confine is None
    run = learning.start(store, "fresh")
    assert run.turned_on and store.read().servers["fresh"].confine is True
    done = learning.finish(store, run, [])
    assert done.restored and store.read().servers["fresh"].confine is None
    # one the user had turned off goes back off
    confinement.confine(store, "fresh", False)
    done = learning.finish(store, learning.start(store, "fresh"), [])
    assert store.read().servers["fresh"].confine is False


@only_on_linux("learning confines, and confinement by default needs Landlock")
def test_learning_accepted_makes_a_servers_own_folder_and_allows_it(
    store: Store, tmp_path: Path
) -> None:
    """A proposal to make the server's own folder (``~/.serena``) accepted: the folder is made,
    private, and is a writable path of the server's confinement, not a root."""
    from roots_manager.actions import learning
    from roots_manager.core.confinement.learning import Kind, Proposed

    known(store, "serena")
    own = tmp_path / "home" / ".serena"
    own.parent.mkdir()
    proposed = Proposed(str(own), Kind.CREATE, False, ("create",), 1)
    done = learning.finish(store, learning.start(store, "serena"), [proposed])
    assert done.granted == (proposed,) and done.confined
    assert own.is_dir() and own.stat().st_mode & 0o777 == 0o700
    state = store.read()
    assert state.servers["serena"].allow_write == [str(own)] and not state.roots


def network_refusal(server: str, domain: str) -> dict[str, object]:
    """The proxy's refusal of *domain* to *server*, as the bridge logs it."""
    return {
        "kind": "denial",
        "server": server,
        "path": f"network: {domain}:443",
        "folder": "",
        "operation": "connect",
        "domain": domain,
        "port": 443,
    }


def test_allow_domain_adds_the_refused_domain_and_nothing_else(
    store: Store, layout: Layout
) -> None:
    """Allow domain from a refusal of the proxy: the domain joins the server's domains (its
    network stays limited), no root and no path is granted; allowed for the run, nothing is
    saved."""
    from roots_manager.actions import refusals
    from roots_manager.core.confinement.offers import Offer
    from roots_manager.support.refusal import Refusal

    known(store, "web")
    confinement.set_domains(store, "web", ["api.github.com"])
    done = refusals.allow(store, network_refusal("web", "Registry.NPMjs.org"), Offer.DOMAIN)
    assert (done.server, done.offer, done.target) == ("web", Offer.DOMAIN, "registry.npmjs.org")
    state = store.read()
    srv = state.servers["web"]
    assert srv.network_domains == ["api.github.com", "registry.npmjs.org"]
    assert srv.network == "domains" and not srv.allow_read and not srv.allow_write
    assert not state.roots and not state.grants
    with pytest.raises(Refusal):  # no path of it is offered
        refusals.allow(store, network_refusal("web", "x.example"), Offer.FOLDER)
    # for the run: asked of each running bridge of it (none here), nothing saved
    waiting, runs = refusals.allow_waiting(
        layout, network_refusal("web", "x.example"), Offer.DOMAIN, "run", "app"
    )
    assert (waiting.target, runs) == ("x.example", [])
    assert store.read().servers["web"].network_domains == srv.network_domains


def test_allow_domain_never_limits_a_server_whose_whole_network_is_allowed_since(
    store: Store,
) -> None:
    """A refusal from when the server was limited, allowed after its network was allowed
    whole: the click that allows must not take the rest of the network away."""
    from roots_manager.actions import refusals
    from roots_manager.core.confinement.offers import Offer

    known(store, "web")
    confinement.set_domains(store, "web", ["api.github.com"])
    confinement.set_network(store, "web", False)  # allowed whole, the list kept
    refusals.allow(store, network_refusal("web", "registry.npmjs.org"), Offer.DOMAIN)
    srv = store.read().servers["web"]
    assert srv.network == "allowed"
    assert srv.network_domains == ["api.github.com", "registry.npmjs.org"]  # kept for later
    # a blocked one asked to allow a domain is limited to its domains, as `domains --allow`
    confinement.set_network(store, "web", True)
    refusals.allow(store, network_refusal("web", "x.example"), Offer.DOMAIN)
    assert store.read().servers["web"].network == "domains"


@only_on_linux("learning confines, and confinement by default needs Landlock")
def test_learning_accepted_adds_a_domain_to_the_servers_domains(store: Store) -> None:
    from roots_manager.actions import learning
    from roots_manager.core.confinement.learning import Kind, Proposed

    known(store, "web")
    confinement.set_domains(store, "web", ["api.github.com"])
    proposed = Proposed("registry.npmjs.org", Kind.DOMAIN, False, ("connect",), 2)
    done = learning.finish(store, learning.start(store, "web"), [proposed])
    assert done.granted == (proposed,)
    state = store.read()
    assert state.servers["web"].network_domains == ["api.github.com", "registry.npmjs.org"]
    assert not state.roots and not state.servers["web"].allow_read
