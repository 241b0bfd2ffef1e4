"""Allow domain, as offered for a refusal of the proxy, works: a confined server limited to
domains is refused a name; the command offered for that refusal (the host's log's ``allow
with:``, the same decision as the app's Allow domain) is run as it is, and the server's next
start reaches that name through the proxy, and still nothing else. As root and as an
ordinary user."""

from __future__ import annotations

import shlex
from typing import Any

import pytest

from roots_manager.core.confinement.offers import allow_command
from tests.polling import wait_for
from tests.security.confined import Hostile, World, users
from tests.security.test_network_domains import _limited, site

__all__ = ["site"]  # the fixture, shared


def _refused(world: World, domain: str) -> list[dict[str, Any]]:
    return [d for d in world.denials() if d.get("domain") == domain]


@pytest.mark.parametrize("world", users(), indirect=True)
def test_the_command_offered_for_a_refused_domain_lets_the_next_start_reach_it(
    world: World, site: int
) -> None:
    _limited(world, "allowed.test")
    host = Hostile(world)
    try:
        said = host.attack("fetch", url=f"http://evil.test:{site}/", client="urllib")
    finally:
        host.close()
    assert said.startswith("status 403:"), said
    [refusal, *_] = wait_for(lambda: _refused(world, "evil.test"), "the proxy's refusal")
    command, why = allow_command("srv", refusal, home=str(world.home))
    assert command == "roots-manager servers network srv domains --allow evil.test", why
    assert world.cli(*shlex.split(command)[1:]).returncode == 0
    host = Hostile(world)
    try:
        reached = host.attack("fetch", url=f"http://evil.test:{site}/", client="urllib")
        other = host.attack("fetch", url=f"http://api.allowed.test:{site}/", client="urllib")
    finally:
        host.close()
    assert reached == "ok:reached evil.test", reached
    assert other.startswith("status 403:"), other  # allowed.test alone, not beneath it
