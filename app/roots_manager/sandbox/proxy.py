"""The proxy a server limited to domains reaches the network through, run by its supervisor.

It accepts on the listener the server's process made in its own network namespace
(:mod:`roots_manager.sandbox.netns`), so only that server's tree reaches it, and speaks what
clients speak to a proxy, on the one port:

- HTTP ``CONNECT host:port`` (HTTPS, and any TCP a client tunnels);
- plain HTTP in absolute form (``GET http://host/path``), sent on with ``Connection: close``;
- SOCKS5 ``CONNECT`` (no authentication), by name or by address.

It connects only where :func:`~roots_manager.support.domains.matches` allows, resolving names
itself (the server has no name server to ask). Anything else is answered with a refusal (HTTP
403, SOCKS reply 2) and told on the supervisor's refusals descriptor as a line like the
observer's (:mod:`roots_manager.sandbox.observer`): the bridge ties it to the MCP request that
was running and records it as a denial, with ``domain`` and ``port`` for the offer to allow it.

Each connection is served by threads of the supervisor's (one a direction, blocking sockets,
no event loop to import at the wrapper's start): a slow or hostile client holds only its own.
"""

from __future__ import annotations

import _thread
import contextlib
import errno
import fcntl
import ipaddress
import json
import os
import socket
import struct
import sys
import threading
import time

from roots_manager.support.domains import matches

PURE_ENV = "ROOTS_MANAGER_PURE_PROXY"
"""Set: the connections' bytes are moved by the loop in Python alone (:func:`_carry_here`),
as where the C mover is not built; ``bench/bench_proxy.py`` measures both."""

try:
    from roots_manager.sandbox import _fastcarry
except ImportError:  # not built (no C compiler, a pure wheel): the loop runs in Python
    _fastcarry = None  # type: ignore[assignment]
if os.environ.get(PURE_ENV):
    _fastcarry = None  # type: ignore[assignment]

assert sys.platform == "linux", "imported only where a server can have a network of its own"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from roots_manager.sandbox.asking import Asker

HEADER_LIMIT = 64 * 1024
"""The most an HTTP request's head may hold before it is refused (431)."""
CHUNK = 1024 * 1024
"""The most moved at once, and the size of each direction's pipe (``F_SETPIPE_SZ``: up to
``/proc/sys/fs/pipe-max-size``, 1 MiB by default, for an ordinary user too)."""
F_SETPIPE_SZ = 1031
SPLICE_F_MOVE = 1
CONNECT_TIMEOUT = 30.0
HANDSHAKE_TIMEOUT = 30.0
CONNECTIONS = 256
"""Connections served at once (two threads each), at most: a server opening more gets the
next ones closed, and the supervisor's threads stay bounded."""
WINDOW = 1.0
"""Refusals of one address within this many seconds are told once, with their count."""
TEST_HOSTS_ENV = "ROOTS_MANAGER_TEST_PROXY_HOSTS"
"""Test-only: a file of ``ADDRESS NAME...`` lines (as ``/etc/hosts``) the proxy resolves by
before the system's resolver, so that tests reach named hosts on the loopback."""

SOCKS_REFUSED = 0x02  # connection not allowed by ruleset
SOCKS_UNREACHABLE = 0x04
SOCKS_CONNECTION_REFUSED = 0x05
SOCKS_NO_COMMAND = 0x07
SOCKS_NO_ADDRESS_TYPE = 0x08
REASONS = {400: "Bad Request", 403: "Forbidden", 431: "Request Header Fields Too Large"}


class _Closed(Exception):
    """The client ended (or said nothing in time) before its request was whole."""


class Proxy:
    """One server's proxy: its listener, the domains it may reach, and where refusals go."""

    def __init__(
        self,
        listener: int,
        allowed: tuple[str, ...],
        tell: Callable[[dict[str, object]], bool] | None = None,
        owner: Callable[[int], tuple[int, str] | None] | None = None,
    ) -> None:
        self.listener = socket.socket(fileno=listener)
        self.listener.setblocking(True)
        self.allowed = allowed
        self.tell = tell
        """Called with each refusal's line (from a connection's thread)."""
        self.owner = owner
        """The process (pid, name) whose connection comes from this loopback port, if known."""
        self.hosts = _test_hosts()
        self.folded: dict[str, list[float]] = {}
        self.lock = threading.Lock()
        self.slots = threading.BoundedSemaphore(CONNECTIONS)
        self.asker: Asker | None = None
        """The supervisor's asker, for a server that asks (:mod:`~roots_manager.sandbox.
        asking`): a connection refused waits while the user is asked, and the domains allowed
        since the start, which it holds, are reached too."""

    def start(self) -> None:
        """Accept in a thread of its own (a daemon: it ends with the supervisor)."""
        threading.Thread(target=self._accept, name="roots-proxy", daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError as exc:
                if exc.errno in (errno.EBADF, errno.EINVAL, errno.ENOTSOCK):
                    return  # the listener is gone: the supervisor is ending
                time.sleep(0.05)  # out of descriptors, or a client gone first: not the end
                continue
            if not self.slots.acquire(blocking=False):
                client.close()  # past CONNECTIONS at once: this one is refused
                continue
            # not threading.Thread: its start waits for the thread to run (~100 us here, on
            # the way to the first byte); this one is started and left to run
            _thread.start_new_thread(self._serve, (client,))

    def _serve(self, client: socket.socket) -> None:
        upstream = None
        try:
            client.settimeout(HANDSHAKE_TIMEOUT)
            first = _exactly(client, 1)
            upstream = self._socks(client) if first == b"\x05" else self._http(first, client)
            if upstream is not None:
                client.settimeout(None)
                upstream.settimeout(None)
                _pipe(client, upstream)
        except (OSError, _Closed, ValueError, UnicodeError):
            pass
        finally:
            client.close()
            if upstream is not None:
                upstream.close()
            self.slots.release()

    # the two ways in

    def _http(self, first: bytes, client: socket.socket) -> socket.socket | None:
        head = bytearray(first)
        while b"\r\n\r\n" not in head:
            if len(head) > HEADER_LIMIT:
                _reply(client, 431, "the request's head is too long")
                return None
            data = client.recv(4096)
            if not data:
                raise _Closed
            head += data
        end = head.index(b"\r\n\r\n") + 4
        rest = bytes(head[end:])  # a body, or what a client sent on at once
        lines = head[:end].decode("latin-1").split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/"):
            _reply(client, 400, "not an HTTP request")
            return None
        method, target, version = parts
        if method == "CONNECT":
            host, port = _host_port(target, None)
            if host is None or port is None:
                _reply(client, 400, f"CONNECT needs host:port, not {target}")
                return None
            upstream = self._open(host, port, method, client)
            if upstream is not None:
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                if rest:
                    upstream.sendall(rest)
            return upstream
        scheme, _, after = target.partition("://")
        if scheme.lower() != "http" or not after:
            _reply(client, 400, f"a proxy is asked for http://host/path, not {target}")
            return None
        authority, slash, path = after.partition("/")
        host, port = _host_port(authority, 80)
        if host is None or port is None:
            _reply(client, 400, f"no host in {target}")
            return None
        upstream = self._open(host, port, method, client)
        if upstream is None:
            return None
        dropped = ("proxy-connection", "proxy-authorization", "connection", "keep-alive")
        kept = [
            line
            for line in lines[1:]
            if line and line.split(":", 1)[0].strip().lower() not in dropped
        ]
        sent = [f"{method} {slash}{path} {version}", *kept, "Connection: close", "", ""]
        upstream.sendall("\r\n".join(sent).encode("latin-1") + rest)
        return upstream

    def _socks(self, client: socket.socket) -> socket.socket | None:
        methods = _exactly(client, _exactly(client, 1)[0])
        if 0 not in methods:
            client.sendall(b"\x05\xff")
            return None
        client.sendall(b"\x05\x00")
        version, command, _, kind = _exactly(client, 4)
        if kind == 1:
            host = socket.inet_ntop(socket.AF_INET, _exactly(client, 4))
        elif kind == 3:
            host = _exactly(client, _exactly(client, 1)[0]).decode("idna")
        elif kind == 4:
            host = socket.inet_ntop(socket.AF_INET6, _exactly(client, 16))
        else:
            _socks_reply(client, SOCKS_NO_ADDRESS_TYPE)
            return None
        port = int.from_bytes(_exactly(client, 2), "big")
        if version != 5 or command != 1:  # CONNECT only: no BIND, no UDP ASSOCIATE
            _socks_reply(client, SOCKS_NO_COMMAND)
            return None
        upstream = self._open(host, port, "SOCKS5", client)
        if upstream is not None:
            _socks_reply(client, 0)
        return upstream

    # where the connection goes

    def _open(self, host: str, port: int, call: str, client: socket.socket) -> socket.socket | None:
        """The connection to *host*:*port* if the domains allow it; None once the client was
        answered with why not."""
        socks = call == "SOCKS5"
        if not 0 < port < 65536 or not (
            self._allows(host) or self._asked(host, port, call, client)
        ):
            if socks:
                _socks_reply(client, SOCKS_REFUSED)
            else:
                _reply(
                    client,
                    403,
                    f"{host}:{port} is not among the domains this server may reach "
                    "(roots-manager servers network NAME domains --allow DOMAIN)",
                )
            return None
        address = self.hosts.get(host.lower().rstrip("."), host)
        try:
            return _connect(address, port)
        except OSError as exc:
            if socks:
                code = SOCKS_CONNECTION_REFUSED
                if isinstance(exc, socket.gaierror | TimeoutError):
                    code = SOCKS_UNREACHABLE
                _socks_reply(client, code)
            else:
                why = "timed out" if isinstance(exc, TimeoutError) else str(exc)
                _reply(client, 502, f"{host}:{port} cannot be reached: {why}")
            return None

    def _allows(self, host: str) -> bool:
        """Whether *host* is among the domains: those of the start, or those the bridge said
        since (a domain allowed while the server runs)."""
        if matches(self.allowed, host):
            return True
        asker = self.asker
        return asker is not None and asker.domains is not None and matches(asker.domains, host)

    def _asked(self, host: str, port: int, call: str, client: socket.socket) -> bool:
        """Tell the refusal of *host*:*port*; for a server that asks, the connection waits
        while the user is asked: True if a domain allowed meanwhile lets it go on."""
        if self.asker is None or self.tell is None or not 0 < port < 65536:
            self._refused(host, port, call, client)
            return False
        told = False

        def tell(waits: float) -> bool:
            nonlocal told
            told = True
            return self._refused(host, port, call, client, waits=waits)

        if self.asker.connection(_path(host, port), lambda d: matches(d, host), tell):
            return True
        if not told:  # refused at once (a question unanswered before, too many waiting)
            self._refused(host, port, call, client)
        return False

    def _refused(
        self, host: str, port: int, call: str, client: socket.socket, *, waits: float = 0.0
    ) -> bool:
        """Tell the refusal (one a :data:`WINDOW` for an address, unless it waits for the
        user's answer); False: not told."""
        if self.tell is None:
            return False
        address = _path(host, port).removeprefix("network: ")
        now = time.time()
        with self.lock:
            window = self.folded.get(address)
            if not waits and window is not None and now - window[0] < WINDOW:
                window[1] += 1
                return False
            repeated = int(window[1]) if window is not None else 0
            self.folded[address] = [now, 0]
        event: dict[str, object] = {
            "time": round(now, 6),
            "operation": "connect",
            "path": f"network: {address}",
            "domain": host,
            "port": port,
            "call": call,
        }
        if repeated:
            event["repeated"] = repeated
        if waits:
            event["waits"] = waits
        with contextlib.suppress(OSError):
            found = self.owner(client.getpeername()[1]) if self.owner is not None else None
            if found is not None:
                event["pid"], event["comm"] = found
        return self.tell(event)


def _connect(address: str, port: int) -> socket.socket:
    """``socket.create_connection`` to *address*:*port*, each address it resolves to tried
    with a connect that blocks at most :data:`CONNECT_TIMEOUT` seconds (``SO_SNDTIMEO``,
    which bounds a connect on Linux) rather than in Python's timeout mode (a non-blocking
    connect, then a poll: ~50 us more before a request's first byte); ``TimeoutError`` past it."""
    seconds, fraction = divmod(CONNECT_TIMEOUT, 1)
    timeout = struct.pack("@ll", int(seconds), int(fraction * 1_000_000))
    failed: OSError = OSError(errno.EADDRNOTAVAIL, f"{address} has no address")
    for family, kind, proto, _, where in socket.getaddrinfo(address, port, 0, socket.SOCK_STREAM):
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, timeout)
            sock.connect(where)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, struct.pack("@ll", 0, 0))
            return sock
        except OSError as exc:
            sock.close()
            failed = TimeoutError(errno.ETIMEDOUT, "timed out") if _timed_out(exc) else exc
    raise failed


def _timed_out(exc: OSError) -> bool:
    """Whether a connect bounded by ``SO_SNDTIMEO`` ended by it (``EINPROGRESS``)."""
    return exc.errno in (errno.EINPROGRESS, errno.EAGAIN)


def _path(host: str, port: int) -> str:
    """How a refusal of *host*:*port* is named in its line (its ``path``)."""
    return f"network: [{host}]:{port}" if ":" in host else f"network: {host}:{port}"


def _exactly(client: socket.socket, count: int) -> bytes:
    data = b""
    while len(data) < count:
        chunk = client.recv(count - len(data))
        if not chunk:
            raise _Closed
        data += chunk
    return data


def _pipe(client: socket.socket, upstream: socket.socket) -> None:
    """Carry bytes both ways until both ends have finished (each end's close passed on). The
    answer's way starts at once, here: the request's, mostly sent already, gets a thread whose
    start is not waited for (``threading.Thread.start`` waits; the first byte waited with it)."""
    sent = threading.Lock()
    sent.acquire()

    def request() -> None:
        try:
            _carry(client, upstream)
        finally:
            sent.release()

    _thread.start_new_thread(request, ())
    _carry(upstream, client)
    sent.acquire()


def _carry(src: socket.socket, dst: socket.socket) -> None:
    """Move what *src* receives to *dst*, in the kernel (``splice`` through a pipe: the bytes
    never reach this process), until *src* ends; then end *dst*'s sending side. An error
    either way ends both sockets both ways, so that the other direction ends too.

    In C (``_fastcarry.c``, the interpreter lock released once for the whole connection) where
    it is built; else :func:`_carry_here`, its loop in Python."""
    if _fastcarry is None:
        _carry_here(src, dst)
    else:
        _fastcarry.carry(src.fileno(), dst.fileno(), CHUNK)


def _carry_here(src: socket.socket, dst: socket.socket) -> None:
    """:func:`_carry` in Python: the interpreter lock taken back at each chunk."""
    into, out = os.pipe()
    try:
        with contextlib.suppress(OSError):
            fcntl.fcntl(into, F_SETPIPE_SZ, CHUNK)
        while moved := os.splice(src.fileno(), out, CHUNK, flags=SPLICE_F_MOVE):
            while moved:
                moved -= os.splice(into, dst.fileno(), moved, flags=SPLICE_F_MOVE)
        dst.shutdown(socket.SHUT_WR)
    except OSError:
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_RDWR)  # the other direction ends too
            src.shutdown(socket.SHUT_RDWR)
    finally:
        os.close(into)
        os.close(out)


def _reply(client: socket.socket, status: int, text: str) -> None:
    body = f"roots-manager: {text}\n".encode()
    head = (
        f"HTTP/1.1 {status} {REASONS.get(status, 'Bad Gateway')}\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    with contextlib.suppress(OSError):
        client.sendall(head.encode() + body)


def _socks_reply(client: socket.socket, code: int) -> None:
    with contextlib.suppress(OSError):
        client.sendall(bytes((5, code, 0, 1, 0, 0, 0, 0, 0, 0)))


def _host_port(authority: str, default: int | None) -> tuple[str | None, int | None]:
    """The host and port of ``host[:port]`` or ``[v6]:port``; (None, None) if there is none."""
    if authority.startswith("["):
        host, _, rest = authority[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
    elif authority.count(":") == 1:
        host, _, port_text = authority.partition(":")
    else:
        host, port_text = authority, ""
    if not host:
        return None, None
    if not port_text:
        return host, default
    if not port_text.isdigit():
        return None, None
    return host, int(port_text)


def _test_hosts() -> dict[str, str]:
    path = os.environ.get(TEST_HOSTS_ENV)
    if not path:
        return {}
    out = {}
    with contextlib.suppress(OSError), open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if len(words) >= 2:
                ipaddress.ip_address(words[0])
                for name in words[1:]:
                    out[name.lower()] = words[0]
    return out


def owner_of(
    server: int, descendants: Callable[[int], list[int]]
) -> Callable[[int], tuple[int, str] | None]:
    """For the proxy's :attr:`Proxy.owner`: the process of *server*'s tree (*descendants*
    lists the rest) that holds the connection from a loopback port, found by the socket's
    inode in its namespace's table. Looked for only on a refusal."""

    def find(port: int) -> tuple[int, str] | None:
        inode = _inode(server, port)
        if inode is None:
            return None
        target = f"socket:[{inode}]"
        for pid in (server, *descendants(server)):
            with contextlib.suppress(OSError):
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    with contextlib.suppress(OSError):
                        if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                            with open(f"/proc/{pid}/comm", encoding="utf-8") as f:
                                return pid, f.read().strip()
        return None

    return find


def _inode(server: int, port: int) -> str | None:
    for table in ("tcp", "tcp6"):
        with contextlib.suppress(OSError), open(f"/proc/{server}/net/{table}") as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port:
                    return fields[9]
    return None


def teller(fd: int | None) -> Callable[[dict[str, object]], bool] | None:
    """What tells a refusal on the supervisor's refusals descriptor *fd* (None: untold): one
    JSON line each, written whole (a line far below the pipe's atomic size); False: not
    written (the pipe is full, or nobody reads it)."""
    if fd is None:
        return None

    def tell(event: dict[str, object]) -> bool:
        try:
            os.write(fd, json.dumps(event).encode() + b"\n")
        except OSError:
            return False
        return True

    return tell
