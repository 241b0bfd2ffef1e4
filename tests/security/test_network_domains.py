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
from collections.abc import Iterator

import pytest

from roots_manager.sandbox.netns import PROXY_HOST, PROXY_PORT
from roots_manager.sandbox.proxy import TEST_HOSTS_ENV
from tests.polling import wait_for
from tests.security.confined import Hostile, World, users

EACCES_OR_EPERM = ("EACCES", "EPERM")


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


def _limited(world: World, *domains: str) -> None:
    hosts = world.base / "hosts"
    hosts.write_text("127.0.0.1 allowed.test api.allowed.test evil.test\n", encoding="utf-8")
    world.env[TEST_HOSTS_ENV] = str(hosts)
    # the clients' packages, in this environment's site-packages (a user's server runs the
    # system's python with them on PYTHONPATH, which the derivation does not follow)
    world.setup("--allow-read", sysconfig.get_paths()["purelib"])
    allow = [a for d in domains for a in ("--allow", d)]
    assert world.cli("servers", "network", "srv", "domains", *allow).returncode == 0


def _outcomes(said: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in said.split())


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_granted_domain_is_reached_through_the_proxy_by_every_client(
    world: World, site: int
) -> None:
    _limited(world, "allowed.test", "*.allowed.test")
    host = Hostile(world)
    try:
        url = f"http://allowed.test:{site}/"
        for client in ("urllib", "httpx", "requests"):
            assert host.attack("fetch", url=url, client=client) == "ok:reached allowed.test", client
        sub = f"http://api.allowed.test:{site}/"
        assert host.attack("fetch", url=sub, client="urllib") == "ok:reached api.allowed.test"
        curl = shutil.which("curl")
        if curl is not None:  # as the environment says (http_proxy), by CONNECT, by SOCKS5
            proxy = f"{PROXY_HOST}:{PROXY_PORT}"
            for extra in ([], ["-p", "-x", f"http://{proxy}"], ["-x", f"socks5h://{proxy}"]):
                said = host.attack("run", argv=[curl, "-sS", *extra, url], cwd="/")
                assert said == "ok:reached allowed.test", (extra, said)
    finally:
        host.close()
    assert not [d for d in world.denials() if d.get("operation") == "connect"]


@pytest.mark.parametrize("world", users(), indirect=True)
def test_every_other_way_out_is_refused_and_each_refusal_is_told(world: World, site: int) -> None:
    _limited(world, "allowed.test")
    host = Hostile(world)
    try:
        evil = host.attack("fetch", url=f"http://evil.test:{site}/", client="urllib")
        literal = host.attack("fetch", url=f"http://127.0.0.1:{site}/", client="urllib")
        by_proxy = host.attack(
            "run",
            argv=["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--noproxy", "", "-x",
                  f"http://{PROXY_HOST}:{PROXY_PORT}", f"http://127.0.0.1:{site}/"],
            cwd="/",
        )  # fmt: skip
        socks = host.attack(
            "run",
            argv=["curl", "-sS", "-x", f"socks5h://{PROXY_HOST}:{PROXY_PORT}",
                  f"http://evil.test:{site}/"],
            cwd="/",
        )  # fmt: skip
        direct = host.attack("direct", host="127.0.0.1", port=site)
        outside = host.attack("direct", host="203.0.113.80", port=443)
        dns = host.attack("resolve", name="registry.npmjs.org")
        families = _outcomes(host.attack("network", port=site))
    finally:
        host.close()
    assert evil.startswith("status 403:") and "evil.test" in evil, evil
    # an address is reached directly (NO_PROXY), in a namespace where nothing listens
    assert "Connection refused" in literal, literal
    assert by_proxy == "ok:403", by_proxy  # asked of the proxy by its number: refused
    assert socks.startswith("exit "), socks
    assert direct == "ECONNREFUSED", direct
    assert outside == "ENETUNREACH", outside
    assert "name resolution" in dns and not dns.startswith("ok"), dns
    assert "reached" not in families["tcp_connect"], families
    for way in ("packet", "vsock"):
        assert families[way] in EACCES_OR_EPERM, (way, families)
    assert families["raw"] in EACCES_OR_EPERM, families  # no capability for it
    refused = wait_for(
        lambda: [d for d in world.denials() if str(d.get("path", "")).startswith("network: ")],
        "the proxy's refusals in the log",
    )
    named = {d["path"] for d in refused}
    assert f"network: evil.test:{site}" in named, refused
    assert f"network: 127.0.0.1:{site}" in named, refused
    told = next(d for d in refused if d["path"] == f"network: evil.test:{site}")
    assert told["operation"] == "connect" and told["domain"] == "evil.test", told
    assert told["port"] == site, told
    assert told["requests"][0]["method"] == "tools/call", told
    assert told.get("process"), told  # the process that asked


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
