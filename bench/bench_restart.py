"""Restart latency: from a revocation written to the store to the new server's first answer.

A bridge runs a server whose consent changes: confined (every grant change restarts it) or with
restart on revoke (a revoked folder it was told restarts it). Each round revokes a folder by a
store transaction, waits until the bridge says it is restarting (the host's messages are held
from then on), sends ``tools/list`` and stops the clock when the answer arrives: it can only come
from the new server, after the replayed handshake. The baseline, measured in the same run, is a
cold start of the same server without a bridge: spawn, ``initialize``, ``initialized`` and the
same ``tools/list``. The goal is a p50 under 1 s for a Python SDK server.

A bridge that may restart its server reads every message both ways (to know what is open and
what the host set up); what that costs is measured too: small and 256 KiB round trips to an
echo server, directly, through a bridge, and through a bridge that may restart it, in
interleaved blocks.

Run: python bench/bench_restart.py [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
FILESYSTEM = REPO / "tests/peers/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
SDK_SERVER = REPO / "tests/fakes/file_tool_server.py"
GOAL_MS = 1000.0
INIT = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"},
}


class Peer:
    """A process spoken to line by line, as a host would."""

    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(json.loads(line))

    def send(self, method: str, params: Any = None, *, notify: bool = False) -> int:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        if not notify:
            self.next_id += 1
            msg["id"] = self.next_id
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()
        return self.next_id

    def answer(self, msg_id: int, timeout: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            msg = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            if msg.get("id") == msg_id and "method" not in msg:
                return msg

    def handshake(self) -> None:
        self.answer(self.send("initialize", INIT))
        self.send("notifications/initialized", notify=True)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def cold_start(command: list[str]) -> float:
    """Seconds from spawning *command* to its answer to tools/list, no bridge."""
    start = time.perf_counter()
    peer = Peer(command)
    peer.handshake()
    peer.answer(peer.send("tools/list"))
    took = time.perf_counter() - start
    peer.close()
    return took


def count(kind: str) -> list[dict[str, Any]]:
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.log import events as ev

    return [e for e in ev.iter_events(Layout.default()) if e.get("kind") == kind]


def wait_count(kind: str, n: int, timeout: float = 30.0) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while True:
        found = count(kind)
        if len(found) >= n:
            return found
        if time.monotonic() > deadline:
            raise SystemExit(f"no {kind} #{n} within {timeout:.0f} s")
        time.sleep(0.002)


def restarts(
    command: list[str], folders: dict[str, str], rounds: int, confined: bool
) -> dict[str, list[float]]:
    from roots_manager.core.confinement.confined import set_confinement, set_restart_on_revoke
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.store.file import Store

    store = Store(Layout.default().ensure())
    with store.transaction() as state:
        for path in folders.values():
            root = state.add_root(path)
            state.grant("srv", [root.id])
        set_confinement(state, "srv", confined)
        set_restart_on_revoke(state, "srv", True)
    taken = next(r.id for r in store.read().roots if r.path == folders["taken"])
    bridge = Peer([sys.executable, "-m", "roots_manager.bridge", "--server", "srv", "--", *command])
    bridge.handshake()
    asks = command[0] == "node"  # the SDK server never asks for its roots
    answered = len(wait_count("roots-list-answered", 1)) if asks else 0
    latencies, held = [], []
    for i in range(rounds):
        time.sleep(1.1)  # restarts start at least a second apart
        start = time.perf_counter()
        with store.transaction() as state:
            state.revoke("srv", [taken])
        wait_count("server-restarting", 2 * i + 1 if confined else i + 1)
        bridge.answer(bridge.send("tools/list"))
        latencies.append(time.perf_counter() - start)
        done = wait_count("server-restarted", 2 * i + 1 if confined else i + 1)
        held.append(done[-1]["held_ms"])
        if asks:  # the new server's first roots/list
            answered = len(wait_count("roots-list-answered", answered + 1))
        with store.transaction() as state:
            state.grant("srv", [taken])
        if confined:  # a grant restarts a confined server too
            wait_count("server-restarted", 2 * i + 2)
        if asks:  # told the folder again (a list_changed, or the restart)
            answered = len(wait_count("roots-list-answered", answered + 1))
    bridge.close()
    return {"latencies": latencies, "held": held}


def report(label: str, command: list[str], rounds: int, confined: bool) -> None:
    with tempfile.TemporaryDirectory() as home:
        os.environ["ROOTS_MANAGER_HOME"] = str(Path(home) / "rm")
        folders = {}
        for name in ("kept", "taken"):
            path = Path(home) / name
            path.mkdir()
            (path / "hello.txt").write_text(name)
            folders[name] = str(path)
        full = [*command, folders["kept"]] if command[0] == "node" else command
        cold = [cold_start(full) for _ in range(rounds)]
        got = restarts(full, folders, rounds, confined)
    lat = sorted(got["latencies"])
    p50 = statistics.median(lat) * 1000
    p95 = lat[min(len(lat) - 1, round(0.95 * (len(lat) - 1)))] * 1000
    base = statistics.median(cold) * 1000
    verdict = "within" if p50 < GOAL_MS else "OVER"
    print(
        f"{label}: restart p50 {p50:.0f} ms, p95 {p95:.0f} ms ({verdict} the {GOAL_MS:.0f} ms "
        f"goal); host held p50 {statistics.median(got['held']):.0f} ms; cold start without "
        f"the bridge p50 {base:.0f} ms; ratio {p50 / base:.2f}x"
    )


ECHO = [sys.executable, str(REPO / "bench" / "echo_server.py")]


def round_trips(peer: Peer, count: int, size: int) -> list[float]:
    payload = {"blob": "x" * size}
    out = []
    for _ in range(count):
        start = time.perf_counter()
        peer.answer(peer.send("bench/echo", payload))
        out.append(time.perf_counter() - start)
    return out


def tracking_cost(blocks: int) -> None:
    """Round trips directly, through a bridge, and through one that may restart its server."""
    from roots_manager.core.confinement.confined import set_restart_on_revoke
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.store.file import Store

    with tempfile.TemporaryDirectory() as home:
        os.environ["ROOTS_MANAGER_HOME"] = str(Path(home) / "rm")
        with Store(Layout.default().ensure()).transaction() as state:
            set_restart_on_revoke(state, "tracked", True)
        bridge = [sys.executable, "-m", "roots_manager.bridge", "--server"]
        routes = {
            "direct": ECHO,
            "bridge": [*bridge, "plain", "--", *ECHO],
            "bridge, may restart": [*bridge, "tracked", "--", *ECHO],
        }
        peers = {name: Peer(argv) for name, argv in routes.items()}
        for peer in peers.values():
            peer.handshake()
            round_trips(peer, 50, 10)  # warm
        times: dict[str, dict[int, list[float]]] = {n: {10: [], 256 * 1024: []} for n in peers}
        for _ in range(blocks):
            for name, peer in peers.items():
                times[name][10] += round_trips(peer, 200, 10)
                times[name][256 * 1024] += round_trips(peer, 20, 256 * 1024)
        for peer in peers.values():
            peer.close()
    base = {size: statistics.median(times["direct"][size]) for size in (10, 256 * 1024)}
    for name in peers:
        small = statistics.median(times[name][10])
        big = statistics.median(times[name][256 * 1024])
        print(
            f"{name}: small round trip p50 {small * 1e6:.0f} us ({small / base[10]:.2f}x direct), "
            f"256 KiB {big * 1e3:.2f} ms ({big / base[256 * 1024]:.2f}x direct)"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    tracking_cost(max(3, args.rounds // 2))
    sdk = [sys.executable, str(SDK_SERVER)]
    # it never asks for its roots, so only confinement restarts it
    report("Python SDK server, confined", sdk, args.rounds, True)
    if FILESYSTEM.exists():
        fs = ["node", str(FILESYSTEM)]
        report("npm filesystem server, restart on revoke", fs, args.rounds, False)
        report("npm filesystem server, confined", fs, args.rounds, True)


if __name__ == "__main__":
    main()
