"""How long a bridge takes to end once its host asks, behind a server that floods requests and
never reads, against the same bridge behind a quiet server, in the same run.

Run: ``python bench/bench_stop.py [--runs N] [--flood SECONDS]``

Each run starts a bridge (confined and not), hands it the host's ``initialize``, lets the server
run for ``--flood`` seconds, then asks the bridge to end the way hosts do: ``SIGTERM`` (Claude
Code's and the SDKs' second step, the first for many), or its stdin closed (the SDKs' first
step). It times the bridge's exit from that moment and checks that the log's last event is the
session's end. The quiet server (``bench/echo_server.py``) is the baseline; the flooding one
(``bench/flood_peer.py forever``) writes ``roots/list`` requests as fast as it can and reads
nothing; the stubborn one reads nothing either and ignores every signal but ``SIGKILL``, as
does the child it starts: the bridge's ladder runs to its end for it; the deaf one reads its
input but does not end with it (as a Node server with a timer), and a polite signal ends it. Hosts kill at 0.5 s
(Claude Code, from SIGINT) or 2 s (the SDKs, from SIGTERM); a bridge told to stop ends within a
second, whatever its server does.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUIET = [sys.executable, str(HERE / "echo_server.py")]
FLOOD = [sys.executable, str(HERE / "flood_peer.py"), "forever", "0"]
STUBBORN = [
    sys.executable,
    "-c",
    "import signal, subprocess, sys, time\n"
    "for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):\n"
    "    signal.signal(sig, signal.SIG_IGN)\n"
    "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
    "time.sleep(600)\n",
]
DEAF = [
    sys.executable,
    "-c",
    "import sys, threading, time\n"
    "threading.Thread(target=lambda: [None for _ in sys.stdin], daemon=True).start()\n"
    "time.sleep(600)\n",
]
INITIALIZE = (
    b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
    b'"capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"bench","version":"1"}}}\n'
)


def stop_once(home: str, server: str, command: list[str], how: str, flood: float) -> float:
    """Seconds from the host's ask (*how*: ``SIGTERM`` or ``stdin``) to the bridge's exit."""
    env = dict(os.environ, ROOTS_MANAGER_HOME=home)
    proc = subprocess.Popen(
        [sys.executable, "-m", "roots_manager.bridge", "--server", server, "--", *command],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(INITIALIZE)
    proc.stdin.flush()
    out = proc.stdout
    threading.Thread(target=lambda: [None for _ in iter(lambda: out.read(65536), b"")]).start()
    time.sleep(flood)
    start = time.perf_counter()
    if how == "SIGTERM":
        proc.send_signal(signal.SIGTERM)
    else:
        proc.stdin.close()
    proc.wait(60)
    took = time.perf_counter() - start
    logs = glob.glob(f"{home}/logs/**/*.jsonl", recursive=True)
    last = max(logs, key=os.path.getmtime)
    with open(last, encoding="utf-8") as f:
        kinds = [json.loads(line).get("kind") for line in f if line.strip()]
    assert kinds[-1] == "session-end", kinds[-3:]
    return took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--flood", type=float, default=2.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, ROOTS_MANAGER_HOME=home)
        cli = [sys.executable, "-m", "roots_manager.cli"]
        for server, on in (
            ("quiet", "off"),
            ("flood", "off"),
            ("quiet-c", "on"),
            ("flood-c", "on"),
            ("stubborn", "off"),
            ("stubborn-c", "on"),
            ("deaf", "off"),
            ("deaf-c", "on"),
        ):
            subprocess.run([*cli, "servers", "confine", server, on, "--new"], env=env, check=True,
                           capture_output=True)  # fmt: skip
        for how in ("SIGTERM", "stdin"):
            for suffix, label in (("", "unconfined"), ("-c", "confined")):
                quiet: list[float] = []
                flooded: list[float] = []
                stubborn: list[float] = []
                deaf: list[float] = []
                for _ in range(args.runs):
                    quiet.append(stop_once(home, "quiet" + suffix, QUIET, how, args.flood))
                    flooded.append(stop_once(home, "flood" + suffix, FLOOD, how, args.flood))
                    stubborn.append(stop_once(home, "stubborn" + suffix, STUBBORN, how, args.flood))
                    deaf.append(stop_once(home, "deaf" + suffix, DEAF, how, args.flood))
                q, f = statistics.median(quiet), statistics.median(flooded)
                st, d = statistics.median(stubborn), statistics.median(deaf)
                print(
                    f"ended after {how}, {label}: quiet server p50 {q:.2f} s, flooding server "
                    f"p50 {f:.2f} s (max {max(flooded):.2f} s), ratio {f / q:.2f}x; a server "
                    f"ignoring every signal p50 {st:.2f} s (max {max(stubborn):.2f} s), ratio "
                    f"{st / q:.2f}x; one reading its input but not its end p50 {d:.2f} s (max "
                    f"{max(deaf):.2f} s); the log ends with the session's end every time"
                )


if __name__ == "__main__":
    main()
