"""The network names a confined server may reach: how a domain is written, and whether one
matches.

A server whose network is limited to domains reaches the network only through Roots Manager's
proxy (:mod:`roots_manager.sandbox.proxy`), which connects to a name or address only when one of
these patterns matches it:

- ``api.github.com``: that name, and nothing else (not ``x.api.github.com``);
- ``*.npmjs.org``: every name beneath it (``registry.npmjs.org``), not ``npmjs.org`` itself;
- an address, ``192.0.2.7`` or ``2001:db8::1``: that address, written as a literal.

An address reached by its number is refused unless it is written here as one: a name granted
does not grant the addresses it resolves to. Names are compared in lower case, without a final
dot, as IDNA writes them (``bücher.example`` as ``xn--bcher-kva.example``).

Kept free of heavy imports: the exec wrapper's proxy imports it at a server's start.
"""

from __future__ import annotations

import ipaddress

LABEL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")
"""What a label of a name may hold (``_`` for service names such as ``_dmarc``)."""


class DomainError(ValueError):
    """A pattern that names no domain (said in words fit for the user)."""


def normal(name: str) -> str:
    """*name* as it is compared: lower case, IDNA, no final dot; an address in its short form.
    Raises :class:`DomainError` for what is neither a name nor an address."""
    text = name.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        pass
    text = text.rstrip(".").lower()
    if not text.isascii():
        try:
            text = text.encode("idna").decode("ascii")
        except UnicodeError as exc:
            raise DomainError(f"{name!r} is not a domain name: {exc}") from None
    if not text or len(text) > 253:
        raise DomainError(f"{name!r} is not a domain name")
    for label in text.split("."):
        if not label or len(label) > 63 or not set(label) <= LABEL_CHARS:
            raise DomainError(f"{name!r} is not a domain name")
        if label.startswith("-") or label.endswith("-"):
            raise DomainError(f"{name!r} is not a domain name")
    return text


def pattern(text: str) -> str:
    """A pattern as it is kept (see the module); raises :class:`DomainError` with the reason
    for one that is not: ``*`` alone, a wildcard over a top-level domain (``*.com``), a
    wildcard inside a name, a port."""
    raw = text.strip()
    wild = raw.startswith("*.")
    body = raw[2:] if wild else raw
    if "*" in body:
        raise DomainError(f"{text!r}: a wildcard is written only at the start, as *.example.com")
    if ":" in body and not body.startswith("[") and body.count(":") == 1:
        raise DomainError(f"{text!r}: a domain is written without a port")
    name = normal(body)
    if wild:
        if is_address(name):
            raise DomainError(f"{text!r}: an address cannot have a wildcard")
        if "." not in name:
            raise DomainError(f"{text!r} would match every name under a top-level domain")
        return "*." + name
    return name


def is_address(name: str) -> bool:
    """Whether *name* (as :func:`normal` writes it) is an IPv4 or IPv6 address."""
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def matches(patterns: tuple[str, ...] | list[str], host: str) -> bool:
    """Whether *host* (a name or an address, as a client asks for it) is one *patterns*
    allow."""
    try:
        name = normal(host)
    except DomainError:
        return False
    for allowed in patterns:
        if allowed.startswith("*."):
            if name.endswith(allowed[1:]) and not is_address(name):
                return True
        elif name == allowed:
            return True
    return False
