"""How a domain a confined server may reach is written and matched (roots_manager.support.domains)."""

from __future__ import annotations

import pytest

from roots_manager.core.confinement.rules import Rules
from roots_manager.support.domains import DomainError, matches, pattern


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("api.github.com", "api.github.com"),
        ("API.GitHub.com.", "api.github.com"),
        ("*.npmjs.org", "*.npmjs.org"),
        ("bücher.example", "xn--bcher-kva.example"),
        ("192.0.2.7", "192.0.2.7"),
        ("[2001:db8::1]", "2001:db8::1"),
        ("2001:0db8:0:0:0:0:0:1", "2001:db8::1"),
        ("_dmarc.example.com", "_dmarc.example.com"),
    ],
)
def test_a_domain_is_kept_in_normal_form(given: str, kept: str) -> None:
    assert pattern(given) == kept


@pytest.mark.parametrize(
    ("given", "why"),
    [
        ("*", "only at the start"),
        ("*.com", "top-level"),
        ("api.*.com", "only at the start"),
        ("evil.example:443", "without a port"),
        ("*.192.0.2.7", "address cannot have a wildcard"),
        ("a..b", "not a domain"),
        ("-a.example", "not a domain"),
        ("a b.example", "not a domain"),
        ("", "not a domain"),
        ("x" * 64 + ".example", "not a domain"),
    ],
)
def test_what_names_no_domain_is_refused_with_why(given: str, why: str) -> None:
    with pytest.raises(DomainError, match=why):
        pattern(given)


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("api.github.com", True),
        ("API.github.com.", True),
        ("x.api.github.com", False),  # a name, not what is beneath it
        ("github.com", False),
        ("registry.npmjs.org", True),
        ("a.b.npmjs.org", True),
        ("npmjs.org", False),  # *. is what is beneath, not the name itself
        ("evilnpmjs.org", False),
        ("npmjs.org.evil.example", False),
        ("192.0.2.7", True),
        ("192.0.2.8", False),
        ("::ffff:192.0.2.7", False),
        ("127.0.0.1", False),
        ("bücher.example", True),
        ("", False),
        ("a..b", False),
    ],
)
def test_a_host_matches_only_what_was_granted(host: str, allowed: bool) -> None:
    granted = ("api.github.com", "*.npmjs.org", "192.0.2.7", "xn--bcher-kva.example")
    assert matches(granted, host) is allowed


def test_the_domains_travel_to_the_exec_wrapper_and_back() -> None:
    for domains in (("api.github.com", "*.npmjs.org"), ()):
        rules = Rules(read_write=("/w",), domains=domains)
        back, command = Rules.from_args([*rules.to_args(), "--", "srv"])
        assert back == rules and back.domains == domains and command == ["srv"]
    unlimited, _ = Rules.from_args(["--", "srv"])
    assert unlimited.domains is None
    blocked = Rules(network=False, domains=("x.example",))  # blocked wins: nothing travels
    assert Rules.from_args([*blocked.to_args(), "--", "srv"])[0].domains is None
