"""A network of the server's own: a network namespace holding only a loopback, and the one
listener there that leads out, Roots Manager's proxy (:mod:`roots_manager.sandbox.proxy`).

For a server whose network is limited to domains, its process enters a new network namespace
before it is confined: no interface but ``lo``, no route anywhere, no name server. It makes
the proxy's listening socket there, on :data:`PROXY_PORT` of its loopback, which the
supervisor takes over (``pidfd_getfd``) and accepts on from outside: a socket belongs to the
namespace it was made in, whoever holds it. The server then reaches the proxy at
``127.0.0.1:PROXY_PORT``, and nothing else beyond its own loopback: not by an address, not by
DNS, whatever it tries. Its own loopback is its own (a listener of the user's on
``localhost`` is not there), and so are abstract Unix names.

As root the namespace is made alone; as an ordinary user inside a user namespace of its own,
where the user's ids map to themselves. Where neither may be made (unprivileged user
namespaces turned off), :func:`enter` raises, and the server is not started with a network it
was not given.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import socket
import struct
import sys

from roots_manager.sandbox import libc, privileges

assert sys.platform == "linux", "imported only where a server can have a network of its own"

CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000
SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1
PROXY_PORT = 41339
"""The proxy's port on the server's own loopback: any port would do (nothing else listens in a
namespace just made); one few servers would pick for themselves."""
PROXY_HOST = "127.0.0.1"
NO_NAMESPACE_ENV = "ROOTS_MANAGER_TEST_NO_NETWORK_NAMESPACE"
"""Test-only: act as if no network namespace could be made here."""


class NamespaceError(OSError):
    """A network namespace that could not be made, or its loopback raised."""


def _unshare(flags: int) -> None:
    if libc.libc().unshare(ctypes.c_int(flags)) != 0:
        err = ctypes.get_errno()
        raise NamespaceError(err, os.strerror(err))


def enter() -> None:
    """Move this (single-threaded) process into a new network namespace whose loopback is up.
    Raises :class:`NamespaceError` where none may be made."""
    if os.environ.get(NO_NAMESPACE_ENV):
        raise NamespaceError(errno.EPERM, "refused for a test")
    try:
        _unshare(CLONE_NEWNET)  # root, or a user namespace of ours already (mounts.py)
    except NamespaceError as exc:
        if exc.errno != errno.EPERM:
            raise
        uid, gid = os.geteuid(), os.getegid()
        try:
            _unshare(CLONE_NEWUSER | CLONE_NEWNET)
        except NamespaceError as inner:
            raise NamespaceError(
                inner.errno,
                f"no network namespace can be made here ({inner.strerror}: unprivileged "
                "user namespaces are off)",
            ) from None
        privileges.map_own_ids(uid, gid)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sh22x", b"lo", 0)
        flags = struct.unpack("16sh22x", fcntl.ioctl(s.fileno(), SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(s.fileno(), SIOCSIFFLAGS, struct.pack("16sh22x", b"lo", flags | IFF_UP))


def proxy_listener() -> int:
    """The proxy's listening socket on this namespace's loopback (a descriptor, not
    inheritable: it must not reach the server)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((PROXY_HOST, PROXY_PORT))
        s.listen(128)
    except OSError:
        s.close()
        raise
    return s.detach()


def environment(port: int = PROXY_PORT, host: str = PROXY_HOST) -> dict[str, str]:
    """The variables a server's clients find a proxy by (upper and lower case: curl reads only
    ``http_proxy`` in lower case, others prefer upper), all to the one proxy; its own loopback
    is reached directly. ``ALL_PROXY`` says HTTP too, though the proxy speaks SOCKS5 on the
    same port: httpx makes a transport for every proxy it finds, and one for ``socks5://``
    fails without its optional package. ``NODE_USE_ENV_PROXY`` makes Node's ``fetch`` and
    ``http`` honour them (Node 22.21 and 24.5 on)."""
    http = f"http://{host}:{port}"
    out = {
        "HTTP_PROXY": http,
        "HTTPS_PROXY": http,
        "ALL_PROXY": http,
        "NO_PROXY": "localhost,127.0.0.1,::1",
    }
    out.update({name.lower(): value for name, value in out.items()})
    out["NODE_USE_ENV_PROXY"] = "1"
    return out
