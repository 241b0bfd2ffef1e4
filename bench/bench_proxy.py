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
  the throughput of each; and, as the floor of any relay, the same download direct through
  ``socat`` forwarding to the web server (one more loopback crossing, no logic);
- a 1-byte request's time to its first byte: the latency the proxy adds, in milliseconds.

On the loopback the download is as fast as this machine copies memory, so any relay shows at
its worst there; over a real network the link's own time dwarfs it.

Then memory: ``--servers`` confined servers (a ``sleep``) limited to domains, and as many with
the whole network, each pair measured in the same run; the supervisors' proportional set size
(PSS: shared pages split among their users), summed, per server, and the difference: what the
proxy (its threads, its modules) costs each server.

Run: python bench/bench_proxy.py [--rounds N] [--downloads N] [--servers N] [--quick]
"""

from __future__ import annotations

import argparse
import os
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
        [sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()  # "Serving HTTP on 127.0.0.1 port N ..."
    return proc, int(line.split(" port ")[1].split()[0])


def _relay(port: int) -> tuple[subprocess.Popen[bytes] | None, int]:
    """``socat`` forwarding a port of its own to *port* (None where there is no socat)."""
    import shutil
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


def _downloads(server: str, url: str, count: int) -> list[tuple[float, float]]:
    from roots_manager.bridge.run.confine import wrapped

    argv = wrapped(["sh", "-c", CURL.format(n=count), "sh", url], server, True).argv
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False)
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
    from roots_manager.sandbox.proxy import TEST_HOSTS_ENV

    with tempfile.TemporaryDirectory(prefix="rm-bench-proxy-") as top:
        folder = Path(top)
        _store(str(folder / "home"))
        (folder / "hosts").write_text("127.0.0.1 bench.test\n", encoding="ascii")
        os.environ[TEST_HOSTS_ENV] = str(folder / "hosts")
        (folder / "www").mkdir()
        web, port = _web(folder / "www")
        relay, relayed = _relay(port)
        floor: list[tuple[float, float]] = []
        try:
            direct: dict[str, list[tuple[float, float]]] = {"big": [], "small": []}
            proxied: dict[str, list[tuple[float, float]]] = {"big": [], "small": []}
            for _ in range(args.rounds):
                for body in ("big", "small"):
                    n = args.downloads
                    direct[body] += _downloads("direct", f"http://127.0.0.1:{port}/{body}", n)
                    proxied[body] += _downloads("limited", f"http://bench.test:{port}/{body}", n)
                if relay is not None:
                    floor += _downloads("direct", f"http://127.0.0.1:{relayed}/big", n)
        finally:
            for proc in (web, relay):
                if proc is not None:
                    proc.terminate()
                    proc.wait(10)
        d_big = statistics.median(t for t, _ in direct["big"])
        p_big = statistics.median(t for t, _ in proxied["big"])
        d_first = statistics.median(f for _, f in direct["small"]) * 1000
        p_first = statistics.median(f for _, f in proxied["small"]) * 1000
        ratio = p_big / d_big
        print(
            f"10 MiB download ({args.rounds} rounds of {args.downloads}, in turns): direct "
            f"{d_big * 1000:.1f} ms ({BIG / d_big / 2**20:.0f} MiB/s), through the proxy "
            f"{p_big * 1000:.1f} ms ({BIG / p_big / 2**20:.0f} MiB/s): ratio {ratio:.2f} "
            f"(goal {GOAL}) {'met' if ratio <= GOAL else 'NOT met'}"
        )
        if floor:
            f_big = statistics.median(t for t, _ in floor)
            print(
                f"  the floor of any relay: direct through socat {f_big * 1000:.1f} ms, "
                f"{f_big / d_big:.2f} of direct; the proxy is {p_big / f_big:.2f} of it"
            )
        print(
            f"1-byte request, time to first byte: direct {d_first:.2f} ms, through the proxy "
            f"{p_first:.2f} ms (+{p_first - d_first:.2f} ms)"
        )
        plain = _memory("idle-direct", args.servers)
        limited = _memory("idle-limited", args.servers)
        print(
            f"memory at {args.servers} servers, each supervisor's PSS: whole network "
            f"{plain:.2f} MiB, limited to domains {limited:.2f} MiB: the proxy "
            f"+{limited - plain:.2f} MiB a server, {(limited - plain) * args.servers:.1f} MiB "
            f"for {args.servers}"
        )
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
