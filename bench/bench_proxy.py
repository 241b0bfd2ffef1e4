"""What limiting a confined server's network to domains costs: downloads through the proxy
against the same downloads made directly, and the proxy's memory at many servers.

Two servers confined the same way, started as the bridge starts them (``bridge.confine.
wrapped``), each running ``curl`` in a loop inside its tree: one with the whole network, which
fetches from the local web server by its address, and one limited to ``bench.test``, which
fetches ``http://bench.test/`` through the proxy (the name resolved to the loopback by the
proxy's test hosts file), from its own network namespace. The web server, another process,
serves a 10 MiB body and a 1-byte one. In turns (A B A B), ``--rounds`` rounds of
``--downloads`` downloads each:

- the 10 MiB download's total time, median, through the proxy / direct (goal at most 1.1), and
  the throughput of each, on the loopback at the speed this machine copies memory; beside it, in
  the same turns, the same through the proxy with its bytes moved in Python (``ROOTS_MANAGER_
  PURE_PROXY``: as where its C mover, ``sandbox/_fastcarry.c``, is not built), and direct
  through two relays that only move bytes: the floor of any relay (``bench/splice_relay.c``,
  what the proxy does once a connection is allowed, in C: one more loopback crossing, no
  language, no request read) and ``socat``, the usual relay;
- the same download over a 1 Gbit/s link: the web server's socket paced by the kernel
  (``SO_MAX_PACING_RATE``), as a fast real link would deliver it (goal at most 1.1);
- a 1-byte request's time to its first byte: the latency the proxy adds, in milliseconds, and
  beside it the floor relay's (which connects on as the client connects, where a proxy must
  read the request first, then connect).

On the loopback any relay shows at its worst, and the floor's figure says what no relay can go
below there on this machine at this moment; over a real link the link's own time dwarfs it.

Then memory: ``--servers`` confined servers (a ``sleep``) limited to domains, and as many with
the whole network, each pair measured in the same run; the supervisors' proportional set size
(PSS: shared pages split among their users), summed, per server, and the difference: what the
proxy (its threads, its modules) costs each server.

Run: python bench/bench_proxy.py [--rounds N] [--downloads N] [--servers N] [--quick]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "app"))

GOAL = 1.1
BIG = 10 * 1024 * 1024
LINK = 125_000_000
"""The link the paced downloads come over, in bytes a second: 1 Gbit/s."""
WEB = """
import http.server, socket, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    def do_GET(self):
        if self.path.startswith("/paced/"):  # as if over a link of that speed
            self.connection.setsockopt(socket.SOL_SOCKET, 47, int(sys.argv[2]))  # SO_MAX_PACING_RATE
            self.path = self.path.removeprefix("/paced")
        super().do_GET()
    def log_message(self, *args):
        pass
handler = lambda *a, **k: Handler(*a, directory=sys.argv[1], **k)
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"""
CURL = (
    'for i in $(seq {n}); do curl -s -o /dev/null -w "%{{time_total}} %{{time_starttransfer}}\\n" '
    '"$1" || echo fail; done'
)


def _store(home: str) -> None:
    from roots_manager.actions.confinement import confine, set_domains
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.store.file import Store

    os.environ["ROOTS_MANAGER_HOME"] = home
    store = Store(Layout.default().ensure())
    for server in ("direct", "limited", "idle-direct", "idle-limited"):
        confine(store, server, True, new=True)
    set_domains(store, "limited", ["bench.test"], new=True)
    set_domains(store, "idle-limited", ["bench.test"], new=True)


def _web(folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    (folder / "big").write_bytes(os.urandom(BIG))
    (folder / "small").write_bytes(b"x")
    proc = subprocess.Popen(
        [sys.executable, "-c", WEB, str(folder), str(LINK)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline())


def _socat(port: int) -> tuple[subprocess.Popen[str] | None, int]:
    """``socat`` forwarding a port of its own to *port* (None where there is no socat)."""
    import socket

    socat = shutil.which("socat")
    if socat is None:
        return None, 0
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]
    proc = subprocess.Popen(
        [socat, f"TCP-LISTEN:{free},bind=127.0.0.1,reuseaddr,fork", f"TCP:127.0.0.1:{port}"]
    )
    time.sleep(0.3)
    return proc, free


def _splice_relay(port: int, folder: Path) -> tuple[subprocess.Popen[str] | None, int]:
    """``bench/splice_relay.c``, built with the machine's C compiler, carrying a port of its own
    to *port* (None where there is no compiler)."""
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None:
        return None, 0
    exe = folder / "splice_relay"
    built = subprocess.run(
        [cc, "-O2", "-pthread", "-o", str(exe), str(REPO / "bench" / "splice_relay.c")],
        check=False,
    )
    if built.returncode != 0:
        print("bench_proxy: bench/splice_relay.c did not build; no floor measured", flush=True)
        return None, 0
    proc = subprocess.Popen([str(exe), str(port)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline())


def _downloads(
    server: str, url: str, count: int, env: dict[str, str] | None = None
) -> list[tuple[float, float]]:
    from roots_manager.bridge.run.confine import wrapped

    argv = wrapped(["sh", "-c", CURL.format(n=count), "sh", url], server, True).argv
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False, env=env)
    lines = done.stdout.split()
    if "fail" in lines or done.returncode != 0:
        raise SystemExit(f"{server}: curl failed: {done.stdout}{done.stderr}")
    numbers = [float(x) for x in lines]
    return list(zip(numbers[::2], numbers[1::2], strict=True))


def _pss(pid: int) -> int:
    with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
        for line in f:
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    return 0


def _memory(server: str, count: int) -> float:
    """The mean PSS, in MiB, of *count* supervisors of *server* started at once."""
    from roots_manager.bridge.run.confine import wrapped

    argv = wrapped(["sleep", "120"], server, True).argv
    procs = [subprocess.Popen(argv, stdin=subprocess.DEVNULL) for _ in range(count)]
    try:
        time.sleep(3.0 + count * 0.05)  # every supervisor past its start, its proxy serving
        return sum(_pss(p.pid) for p in procs) / count / 2**20
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--downloads", type=int, default=10)
    parser.add_argument("--servers", type=int, default=50)
    parser.add_argument("--quick", action="store_true", help="2 rounds, 5 downloads, 10 servers")
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.downloads, args.servers = 2, 5, 10
    from roots_manager.sandbox.proxy import PURE_ENV, TEST_HOSTS_ENV

    with tempfile.TemporaryDirectory(prefix="rm-bench-proxy-") as top:
        folder = Path(top)
        _store(str(folder / "home"))
        (folder / "hosts").write_text("127.0.0.1 bench.test\n", encoding="ascii")
        os.environ[TEST_HOSTS_ENV] = str(folder / "hosts")
        (folder / "www").mkdir()
        web, port = _web(folder / "www")
        relays = {"C": _splice_relay(port, folder), "socat": _socat(port)}
        direct = f"http://127.0.0.1:{port}"
        named = f"http://bench.test:{port}"
        times: dict[str, list[tuple[float, float]]] = {}

        pure = dict(os.environ, **{PURE_ENV: "1"})

        def turn(
            route: str, server: str, url: str, count: int, env: dict[str, str] | None = None
        ) -> None:
            times.setdefault(route, []).extend(_downloads(server, url, count, env))

        try:
            n = args.downloads
            for _ in range(args.rounds):
                turn("direct", "direct", f"{direct}/big", n)
                turn("proxy", "limited", f"{named}/big", n)
                turn("proxy in Python", "limited", f"{named}/big", n, pure)
                for name, (proc, relayed) in relays.items():
                    if proc is not None:
                        turn(name, "direct", f"http://127.0.0.1:{relayed}/big", n)
                turn("direct small", "direct", f"{direct}/small", n)
                turn("proxy small", "limited", f"{named}/small", n)
                if relays["C"][0] is not None:
                    turn("C small", "direct", f"http://127.0.0.1:{relays['C'][1]}/small", n)
                turn("direct link", "direct", f"{direct}/paced/big", max(2, n // 3))
                turn("proxy link", "limited", f"{named}/paced/big", max(2, n // 3))
        finally:
            for proc in (web, *(p for p, _ in relays.values())):
                if proc is not None:
                    proc.terminate()
                    proc.wait(10)

        def total(route: str) -> float:
            return statistics.median(t for t, _ in times[route])

        def first(route: str) -> float:
            return statistics.median(f for _, f in times[route]) * 1000

        d_big, p_big = total("direct"), total("proxy")
        print(
            f"10 MiB download on the loopback ({args.rounds} rounds of {n}, in turns): direct "
            f"{d_big * 1000:.1f} ms ({BIG / d_big / 2**20:.0f} MiB/s), through the proxy "
            f"{p_big * 1000:.1f} ms ({BIG / p_big / 2**20:.0f} MiB/s): ratio {p_big / d_big:.2f} "
            f"(goal {GOAL}) {'met' if p_big / d_big <= GOAL else 'NOT met'}"
        )
        relayed_by = (
            ("proxy in Python", "the proxy moving the bytes in Python (no C mover)"),
            ("C", "the floor of any relay (C, splice)"),
            ("socat", "socat"),
        )
        for name, what in relayed_by:
            if name in times:
                r_big = total(name)
                print(
                    f"  {what}: {r_big * 1000:.1f} ms, {r_big / d_big:.2f} of direct; "
                    f"the proxy is {p_big / r_big:.2f} of it"
                )
        d_link, p_link = total("direct link"), total("proxy link")
        ratio = p_link / d_link
        print(
            f"10 MiB download over a {LINK * 8 // 10**9} Gbit/s link (paced by the kernel): "
            f"direct {d_link * 1000:.1f} ms, through the proxy {p_link * 1000:.1f} ms: "
            f"ratio {ratio:.3f} (goal {GOAL}) {'met' if ratio <= GOAL else 'NOT met'}"
        )
        d_first, p_first = first("direct small"), first("proxy small")
        floor = ""
        if "C small" in times:  # no request read, no connection made after it: the floor
            c_first = first("C small")
            floor = f"; through the floor relay {c_first:.2f} ms (+{c_first - d_first:.2f} ms)"
        print(
            f"1-byte request, time to first byte: direct {d_first:.2f} ms, through the proxy "
            f"{p_first:.2f} ms (+{p_first - d_first:.2f} ms){floor}"
        )
        plain = _memory("idle-direct", args.servers)
        limited = _memory("idle-limited", args.servers)
        print(
            f"memory at {args.servers} servers, each supervisor's PSS: whole network "
            f"{plain:.2f} MiB, limited to domains {limited:.2f} MiB: the proxy "
            f"+{limited - plain:.2f} MiB a server, {(limited - plain) * args.servers:.1f} MiB "
            f"for {args.servers}"
        )
    return 0 if max(ratio, p_big / d_big) <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
