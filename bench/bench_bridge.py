"""Benchmark of the stdio bridge against a direct pipe to the same server, in the same run.

Run: ``python bench/bench_bridge.py`` (``--quick`` for fewer rounds, ``--json`` to end with the
headline figures as one JSON line, for comparing runs).

Every round-trip figure is measured along several routes in alternating blocks, so that drift on
a noisy machine hits all alike: *direct* (the host speaks to the server itself), *any hop*
(``bench/pump_hop.py``, a bare two-thread byte pump: the floor for any extra Python process
between host and server) and *bridge*. Where a C compiler is found, two compiled floors join the
echo comparison (``bench/c_hop.c``): *C hop*, the same bare pump in C, and *C spin*, a C relay
that busy-polls for 50 us after each chunk instead of sleeping, which avoids the wake-ups an
extra process costs at the price of CPU time. Each route's CPU per small round trip is shown
beside its times.

Against ``bench/echo_server.py``, a trivial echo (the pipe comparison the bridge is held to),
along two further routes, *confined*: the bridge in front of a server confined as a new server
is by default (restart on revoke on), and *conf. fixed*: the same with restart on revoke off
(the other bridge routes run it unconfined, the relay alone):
- small request round trips, one at a time (target: bridge/direct <= 1.3), and pipelined
  (32 in flight);
- 1 MiB payload round trips (target: bridge/direct <= 1.05).

Against ``bench/sdk_echo_server.py``, an SDK ``MCPServer`` with an echo tool called through
``tools/call`` (the realistic baseline: real servers do work per request): small and 1 MiB
round trips.

With the SDK as the host (``bench/sdk_host.py``), ``tools/call`` small and 256 KiB round trips to
the SDK echo server along direct, the bridge, and FastMCP's stdio proxy (``fastmcp`` 4.x
``create_proxy``, installed from the registry into a venv of its own the first time; what a user
would put there instead).

Then, for the bridge alone:
- roots/list answered by the bridge: the time inside the bridge (from the event log, p50/p99,
  target p99 < 1 ms) and the round trip seen by the server;
- a grant written by the CLI (``roots-manager grant``/``revoke``) to list_changed on the
  server's stdin (target p50 < 150 ms), and the same with the store API in a separate process;
- start-up: launching the bridge until the server runs, against launching the server directly,
  and until the host's ``initialize`` is answered (target: +40 ms from an installed wheel),
  with the server unconfined and confined (see *Start-up* below);
- the bridge's peak RSS, against the echo server's (a bare Python process with json).

The run ends with the table of targets (``bench/bridge_targets.py``): each row a ratio measured
in this run, its target, and pass or fail; ``--json`` prints it as JSON too.

Start-up is measured from two Pythons, each against the same server started directly by that
Python, so that the difference is the bridge's alone (its interpreter, its imports, its read of
the store, the server's spawn): the server writes the time it began (``BENCH_START_FILE``) and
the direct route is the time it takes to begin without a bridge in front of it.

- *installed*: a venv made for this run, with the project installed from the wheel built from
  this source, and ``roots-bridge`` its console script, as pipx installs it (the .deb holds the
  frozen bundle instead, which this does not build). This is what a user runs, so the target is
  judged on it. Only the wheel is installed in it; the dependencies are found through a ``.pth``
  line naming this environment's site-packages, which site adds to ``sys.path`` without running
  the ``.pth`` files inside it (about 15 s to make: ``--no-installed`` leaves it out).
- *dev venv*: ``python -m roots_manager.bridge`` from this environment, an editable install,
  whose finder's ``.pth`` imports pathlib, ``re`` and ``urllib.parse`` into every Python that
  starts (about 13 ms on a slow machine): the direct server pays it too, but the bridge's own
  interpreter is what the row measures, so it counts once, and is not what users run.

Each launch also sends ``initialize`` at once, as a host does, and the time to its answer is
shown beside (what a host really waits for: the server started and its answer relayed, which
the bridge does while the rest of it still loads, ``bridge/transport/early.py``).
Beside each, the floor: a Python that does nothing but import ``subprocess`` and start the
server (``SPAWN_FLOOR``), what any Python program in front of the server costs before it can
start it; and for the confined start, a Python that only confines the server as a bridge does
and starts it (``CONFINE_FLOOR``: the exec wrapper started, the rules computed from the store
while its Python loads, then the kernel's rules before the server's start), the floor of that
row; and below it the wrapper alone, its rules worked out beforehand (``WRAPPER_FLOOR``): what
confining costs a start however fast the rules were made, the exec wrapper being a Python of
its own. The bridge's
row is more than its own time to the spawn: it goes on loading the rest
of itself while the server starts (so that a host waits for the slower of the two, not their
sum), and where few cores are free the two starts share them, while the floor, waiting, takes
nothing from the server. The routes alternate round by round, 11 rounds (21 without
``--quick``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir

import bridge_targets
import sdk_host
from roots_manager.bridge.transport.writer import fastrelay

HERE = Path(__file__).resolve().parent
ECHO = [sys.executable, str(HERE / "echo_server.py")]
SDK_ECHO = [sys.executable, str(HERE / "sdk_echo_server.py")]
HOP = [sys.executable, str(HERE / "pump_hop.py")]
SPIN_US = 50
"""How long the compiled busy-polling floor keeps polling after each chunk."""

Routes = dict[str, list[str]]
"""Route name -> the command put in front of the server (empty: the server itself)."""


def bridge_cmd(name: str, server: list[str] = ECHO) -> list[str]:
    return [sys.executable, "-m", "roots_manager.bridge", "--server", name, "--", *server]


def build_c_hop(tmp: Path) -> Path | None:
    """Compile bench/c_hop.c with the machine's C compiler; None when there is none."""
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None or not sys.platform.startswith("linux"):
        return None
    exe = tmp / "c_hop"
    done = subprocess.run(
        [cc, "-O2", "-pthread", "-o", str(exe), str(HERE / "c_hop.c")],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        print(f"c_hop.c did not build, the compiled floors are left out:\n{done.stderr}")
        return None
    return exe


def routes_for(c_hop: Path | None, *, floors: bool) -> Routes:
    """Direct, the bridge, and (with *floors*) the bare pumps that show what any hop costs."""
    routes: Routes = {"direct": []}
    if floors:
        routes["hop"] = HOP
        routes["hop1"] = [*HOP, "--single"]
        if c_hop is not None:
            routes["c-hop"] = [str(c_hop)]
            routes["c-spin"] = [str(c_hop), "--spin", str(SPIN_US)]
            routes["c-hold"] = [str(c_hop), "--hold"]
        if fastrelay is not None:
            routes["bridge-py"] = []  # the bridge with its Python relay alone
    routes["bridge"] = []
    return routes


def route_cmd(route: str, prefix: list[str], name: str, server: list[str]) -> list[str]:
    if route in ("bridge", "confined", "confined-fixed"):
        return bridge_cmd(name, server)
    if route == "bridge-py":
        return ["env", "ROOTS_MANAGER_PURE_RELAY=1", *bridge_cmd(name, server)]
    return [*prefix, *server]


def cpu_seconds(pid: int) -> float:
    """CPU time of one process's threads so far (not of its children).

    From the scheduler's per-thread nanosecond counters where Linux has them: the tick-based
    user and system times are counted in 10 ms steps, too coarse for a block of round trips.
    """
    total = 0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            total += int((task / "schedstat").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        import psutil

        t = psutil.Process(pid).cpu_times()
        return float(t.user + t.system)
    return total / 1e9


class Peer:
    """A process spoken to over its stdio, line by line."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.w = self.proc.stdin
        self.r = self.proc.stdout
        self.notes: list[dict[str, Any]] = []

    def send(self, data: bytes) -> None:
        self.w.write(data)
        self.w.flush()

    def read(self) -> dict[str, Any]:
        while True:
            msg = json.loads(self.r.readline())
            if msg.get("method") == "bench/list_changed":
                self.notes.append(msg)
                continue
            return msg  # type: ignore[no-any-return]

    def handshake(self) -> None:
        self.send(
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 0,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-11-25",
                        "capabilities": {},
                        "clientInfo": {"name": "bench", "version": "1"},
                    },
                }
            ).encode()
            + b"\n"
        )
        self.read()
        self.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

    def close(self) -> int:
        self.w.close()
        return self.proc.wait(30)


def small_rtts(peer: Peer, n: int, start: int) -> list[float]:
    times = []
    for i in range(start, start + n):
        line = (
            b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"i":%d}}}\n'
            % (i, i)
        )
        t0 = time.perf_counter()
        peer.send(line)
        peer.read()
        times.append(time.perf_counter() - t0)
    return times


def pipelined(peer: Peer, n: int, window: int, start: int) -> float:
    t0 = time.perf_counter()
    sent = got = 0
    while got < n:
        while sent < n and sent - got < window:
            i = start + sent
            peer.w.write(b'{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"i":%d}}\n' % (i, i))
            sent += 1
        peer.w.flush()
        peer.read()
        got += 1
    return n / (time.perf_counter() - t0)


def echoed_blob(msg: dict[str, Any]) -> str:
    """The blob a reply of either echo server carries."""
    result = msg["result"]
    if "echo" in result:
        return str(result["echo"]["arguments"]["blob"])
    return str(result["content"][0]["text"])


def big_rtts(peer: Peer, n: int, start: int, size: int) -> list[float]:
    blob = "x" * size
    times = []
    for i in range(start, start + n):
        line = (
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": i,
                    "method": "tools/call",
                    "params": {"name": "echo", "arguments": {"blob": blob}},
                }
            ).encode()
            + b"\n"
        )
        t0 = time.perf_counter()
        peer.send(line)
        msg = peer.read()
        times.append(time.perf_counter() - t0)
        assert len(echoed_blob(msg)) == size
    return times


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def peak_rss(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import psutil

    return float(psutil.Process(pid).memory_info().rss) / 2**20


SPAWN_FLOOR = "import subprocess, sys; sys.exit(subprocess.Popen(sys.argv[1:]).wait())"
"""A Python that only starts the server and waits for it: the start-up floor of any Python in
front of a server (``python -c SPAWN_FLOOR SERVER...``)."""


CONFINE_FLOOR = (
    "import subprocess, sys\n"
    "from roots_manager.bridge.run import confine\n"
    "confine.spawn = lambda argv, pass_fds=(): subprocess.Popen(\n"
    "    argv, pass_fds=pass_fds, start_new_session=True)\n"
    "proc, _ = confine.spawned(sys.argv[2:], sys.argv[1], False)\n"
    "sys.exit(proc.wait())"
)
"""A Python that only confines the server as a bridge does (``confine.spawned``: the exec
wrapper started, the rules computed from the store meanwhile) and starts it, with the host's
own pipes: the floor of a confined start, which no bridge can go below (``python -c
CONFINE_FLOOR NAME SERVER...``)."""


WRAPPER_FLOOR = (
    "import os, subprocess, sys\n"
    "rules = os.open(sys.argv[1], os.O_RDONLY)\n"
    "heard, told = os.pipe()\n"  # the refusals, which the wrapper writes
    "asks, answered = os.pipe()\n"  # the user's answers, which it reads
    "end = sys.argv.index('--')\n"
    "given = (told, asks, rules)\n"
    "argv = [*sys.argv[2:end], '--parent', str(os.getpid()), '--refusals', str(told),\n"
    "        '--answers', f'{asks}:30', '--rules-fd', str(rules), *sys.argv[end:]]\n"
    "proc = subprocess.Popen(argv, pass_fds=given, start_new_session=True)\n"
    "for fd in given:\n"
    "    os.close(fd)\n"
    "sys.exit(proc.wait())"
)
"""A Python that only starts the exec wrapper, its rules worked out before (read from a file:
``python -c WRAPPER_FLOOR RULES WRAPPER... -- SERVER...``), with its refusals and answers pipes
as a bridge gives them: what confinement costs a start with no rules to work out, however fast
they were made. The wrapper is a Python of its own (``-I -S``), which loads the sandbox's
modules, confines the server's process and supervises it from its first call."""

RULES_MADE = (
    "import json, os, sys\n"
    "from roots_manager.bridge.run import confine\n"
    "out = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)\n"
    "launch = confine.wrapped(sys.argv[3:], sys.argv[2], False, rules_to=out)\n"
    "os.close(out)\n"
    "print(json.dumps(confine.wrapper() if launch.key is not None else None))"
)
"""Write the rules a confined start of a server (``RULES_MADE FILE NAME SERVER...``) would
have to FILE, as the bridge writes them to its wrapper, and print the wrapper's command."""


def startup_routes(python: str, bridge: list[str], env: Mapping[str, str], rules: Path) -> Routes:
    """The start-up routes from *python* (*bridge*: how it starts the bridge, before its
    options): the echo server started directly, through the floor, through the bridge, through
    the bridge confining it (as a new server is by default), through the confined floor, and
    through the wrapper alone, its rules made beforehand (written to *rules*, with *env*)."""
    server = [python, str(HERE / "echo_server.py")]
    made = subprocess.run(
        [python, "-c", RULES_MADE, str(rules), "startup-confined", *server],
        env=dict(env),
        capture_output=True,
        text=True,
        check=True,
    )
    wrapper = json.loads(made.stdout.splitlines()[-1])
    if wrapper is None:
        raise SystemExit(f"startup-confined is not confined: {made.stderr}")
    return {
        "direct": server,
        "floor": [python, "-c", SPAWN_FLOOR, *server],
        "bridge": [*bridge, "--server", "startup", "--", *server],
        "confined": [*bridge, "--server", "startup-confined", "--", *server],
        "floor-confined": [python, "-c", CONFINE_FLOOR, "startup-confined", *server],
        "floor-wrapper": [python, "-c", WRAPPER_FLOOR, str(rules), *wrapper, "--", *server],
    }


def without_source(env: Mapping[str, str]) -> dict[str, str]:
    """*env* without ``PYTHONPATH``, which may put this source's tree (``app/``) before an
    installed copy of the package."""
    return {k: v for k, v in env.items() if k != "PYTHONPATH"}


def installed_venv(tmp: Path) -> tuple[str, list[str]] | None:
    """A venv with this source installed from its wheel, as a user's (see the module's
    docstring): its Python and its ``roots-bridge``; None, with the reason printed, when it
    cannot be made."""
    import sysconfig
    import venv

    print("building the wheel and a venv to start the installed bridge from ...", flush=True)
    wheels, env_dir = tmp / "wheels", tmp / "installed-venv"
    built = subprocess.run(
        [
            *(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps"),
            *("-w", str(wheels), str(HERE.parent)),
        ],
        capture_output=True,
        text=True,
    )
    if built.returncode != 0:
        print(f"the wheel did not build, the installed start-up is left out:\n{built.stderr}")
        return None
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / ("Scripts" if sys.platform == "win32" else "bin")
    python = str(bin_dir / ("python.exe" if sys.platform == "win32" else "python"))
    wheel = next(wheels.glob("roots_manager-*.whl"))
    done = subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
        capture_output=True,
        text=True,
        env=without_source(os.environ),  # else pip finds this source's metadata and skips it
    )
    if done.returncode != 0:
        print(f"the wheel did not install, the installed start-up is left out:\n{done.stderr}")
        return None
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = {sysconfig.get_paths()[k] for k in ("purelib", "platlib")}
    Path(site, "bench-dependencies.pth").write_text("".join(f"{p}\n" for p in sorted(ours)))
    return python, [str(bin_dir / "roots-bridge")]


INITIALIZE = (
    b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
    b'"capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}\n'
)


def startup(argv: list[str], env: dict[str, str], tmp: Path) -> tuple[float, float]:
    """Seconds from launching *argv* to the echo server's first line, and to the answer to
    an ``initialize`` sent at once, as a host sends it (what the host waits for). The server
    writes the time it began in *tmp* (a folder a confined server is granted)."""
    stamp = tmp / "started"
    stamp.unlink(missing_ok=True)
    e = dict(env, BENCH_START_FILE=str(stamp))
    t0 = time.monotonic()
    peer = Peer(argv, e)
    peer.send(INITIALIZE)
    deadline = time.monotonic() + 60
    while not stamp.exists() or not stamp.read_text():
        if time.monotonic() > deadline:
            raise RuntimeError("the server never started")
        time.sleep(0.001)
    started = float(stamp.read_text())
    peer.read()
    answered = time.monotonic()
    peer.close()
    return started - t0, answered - t0


def startup_row(
    name: str, times: dict[str, list[float]], floor: str, route: str = "bridge"
) -> tuple[str, ...]:
    """A start-up row of the table: *times* by route (direct, floor, *route*), their p50s."""
    direct, bridge, least = (statistics.median(times[r]) for r in ("direct", route, "floor"))
    return (
        f"{name}, p50",
        f"{direct * 1e3:.0f} ms",
        f"{bridge * 1e3:.0f} ms",
        f"{bridge / direct:.2f}",
        f"+{(bridge - direct) * 1e3:.0f} ms ({floor}: +{(least - direct) * 1e3:.0f} ms)",
    )


def change_latency(
    peer: Peer, env: dict[str, str], home: Path, root: str, rounds: int, via_cli: bool
) -> list[float]:
    """Grant and revoke *root* alternately; time from the store save to list_changed seen."""
    store = home / "store.json"
    lat = []
    for k in range(rounds):
        op = "grant" if k % 2 == 0 else "revoke"
        before = len(peer.notes)
        if via_cli:
            subprocess.run(
                [sys.executable, "-m", "roots_manager.cli", op, "bench", root],
                env=env,
                check=True,
                capture_output=True,
            )
            written = os.stat(store).st_mtime
        else:
            code = (
                "import time,sys\n"
                "from roots_manager.core.store.file import Store\n"
                "st=Store()\n"
                "with st.transaction() as s:\n"
                f"    rid=s.find_root({root!r}).id\n"
                f"    s.{op}('bench',[rid])\n"
                "print(time.time())\n"
            )
            out = subprocess.run(
                [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
            ).stdout
            written = float(out.split()[-1])
        # the server echoes list_changed as a notification; a ping makes the host read it
        deadline = time.monotonic() + 30
        while len(peer.notes) == before:
            if time.monotonic() > deadline:
                raise RuntimeError("no list_changed arrived")
            peer.send(b'{"jsonrpc":"2.0","id":"p","method":"ping"}\n')
            peer.read()
            time.sleep(0.005)
        lat.append(peer.notes[-1]["params"]["wall"] - written)
        time.sleep(0.15)  # let the server fetch the list before the next change
    return lat


def compare(
    server: list[str],
    routes: Routes,
    env: dict[str, str],
    blocks: int,
    n_small: int,
    n_big: int,
    size: int,
    *,
    pipeline: bool,
) -> dict[str, dict[str, list[float]]]:
    """Round trips to *server* along every route, in alternating blocks.

    Besides the times, the CPU the process in front of the server spent per round trip (for
    *direct*, the server's own).
    """
    peers = {r: Peer(route_cmd(r, pre, "bench-" + r, server), env) for r, pre in routes.items()}
    out: dict[str, dict[str, list[float]]] = {
        r: {"small": [], "big": [], "tp": [], "cpu": [], "cpu_big": []} for r in routes
    }
    for p in peers.values():
        p.handshake()
        small_rtts(p, 100, 1)  # warm up every path
        big_rtts(p, 2, 101, size)
    nid = 1000
    for block in range(blocks):
        # the routes take turns going first and last: one always timed right after another
        # pays for what that one left behind (its buffers freed, its pages written)
        order = list(peers.items()) if block % 2 == 0 else list(peers.items())[::-1]
        for r, p in order:
            cpu = cpu_seconds(p.proc.pid)
            out[r]["small"] += small_rtts(p, n_small, nid)
            out[r]["cpu"].append((cpu_seconds(p.proc.pid) - cpu) / n_small)
        nid += n_small
        if pipeline:
            for r, p in order:
                out[r]["tp"].append(pipelined(p, 2000, 32, nid))
            nid += 2000
        for r, p in order:
            cpu = cpu_seconds(p.proc.pid)
            out[r]["big"] += big_rtts(p, n_big, nid, size)
            out[r]["cpu_big"].append((cpu_seconds(p.proc.pid) - cpu) / n_big)
        nid += n_big
    for r, p in peers.items():
        out[r]["rss"] = [peak_rss(p.proc.pid)]
        p.close()
    return out


ROUTE_TITLES = {
    "direct": "direct",
    "hop": "any hop",
    "hop1": "1-thr hop",
    "c-hop": "C hop",
    "c-spin": "C spin",
    "c-hold": "C hold",
    "bridge-py": "py relay",
    "bridge": "bridge",
    "confined": "confined",
    "confined-fixed": "conf.fixed",
}


def print_rtt_table(title: str, data: dict[str, dict[str, list[float]]], *, targets: bool) -> None:
    """One server's round trips along every route, and each route's ratio to direct."""
    med = statistics.median
    names = list(data)
    others = names[1:]
    print(title)
    head = " ".join(f"{ROUTE_TITLES[r]:>9}" for r in names)
    ratios = " ".join(f"{ROUTE_TITLES[r] + '/dir':>12}" for r in others)
    print(f"  {'measure':31} {head} {ratios}  {'target' if targets else ''}")

    def row(
        name: str, pick: Callable[[list[float]], float], what: str, unit: str, tgt: str
    ) -> None:
        scale = {"us": 1e6, "ms": 1e3}[unit]
        values = [pick(data[r][what]) for r in names]
        cells = " ".join(f"{v * scale:>6.{0 if unit == 'us' else 2}f} {unit}" for v in values)
        rel = " ".join(f"{v / values[0]:>12.2f}" if values[0] else f"{'-':>12}" for v in values[1:])
        print(f"  {name:31} {cells} {rel}  {tgt if targets else ''}")

    row("small round trip, p50", med, "small", "us", "bridge <= 1.3")
    row("small round trip, p99", lambda v: pct(v, 99), "small", "us", "")
    row("CPU per small round trip", med, "cpu", "us", "")
    if data["direct"]["tp"]:
        # shown as time per request, so that the ratios read like the others
        row("pipelined (32 in flight), per req", lambda v: 1 / med(v), "tp", "us", "")
    row("1 MiB round trip, p50", med, "big", "ms", "bridge <= 1.05")
    row("CPU per 1 MiB round trip", med, "cpu_big", "ms", "")
    if "hop" in data:
        b, h = data["bridge"], data["hop"]
        print(
            f"  bridge / any hop: small {med(b['small']) / med(h['small']):.2f}, "
            f"1 MiB {med(b['big']) / med(h['big']):.2f} "
            "(1.00 = the bridge costs no more than the floor)"
        )
    for route, what in bridge_targets.CONFINED_ROUTES.items():
        if route not in data or "c-hop" not in data:
            continue
        c, h, b = data[route], data["c-hop"], data["bridge"]
        print(
            f"  {what} / C hop: small "
            f"{med(c['small']) / med(h['small']):.2f}, 1 MiB {med(c['big']) / med(h['big']):.2f}, "
            f"CPU per small {med(c['cpu']) / med(h['cpu']):.2f} (goals 1.10, 1.05, 1.3); "
            f"/ bridge unconfined: small {med(c['small']) / med(b['small']):.2f}"
        )
    print("  (CPU: the process in front of the server; for direct, the server itself)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer rounds")
    ap.add_argument("--json", action="store_true", help="end with the headline figures as JSON")
    ap.add_argument(
        "--no-fastmcp", action="store_true", help="leave out the FastMCP proxy (no install)"
    )
    ap.add_argument(
        "--no-installed",
        action="store_true",
        help="leave out the start-up of the bridge installed from the wheel (no venv made)",
    )
    args = ap.parse_args()
    blocks = 3 if args.quick else 6
    n_small = 300 if args.quick else 500
    n_big = 6 if args.quick else 10
    size = 1024 * 1024

    tmp = Path(tempfile.mkdtemp(prefix="bench-bridge-"))
    home = tmp / "home"
    env = dict(os.environ, ROOTS_MANAGER_HOME=str(home))
    folders = [tmp / "granted", tmp / "toggled"]
    for f in folders:
        f.mkdir()
    # the relay alone, and beside it the default a new server starts with: confined (what
    # confinement costs the server itself is bench_confine's and bench_denials' to measure)
    for argv in (
        *(["roots", "add", str(f)] for f in folders),
        ["policy", "--confine-new", "off"],
        ["grant", "--new", "bench-confined", str(folders[0])],
        ["servers", "confine", "bench-confined", "on"],
        ["grant", "--new", "bench-confined-fixed", str(folders[0])],
        ["servers", "confine", "bench-confined-fixed", "on"],
        ["servers", "restart-on-revoke", "bench-confined-fixed", "off"],
        ["grant", "--new", "startup-confined", str(folders[0])],
        ["servers", "confine", "startup-confined", "on"],
        # the venv the installed bridge starts the server from links to this Python's install,
        # which may be in the home (pyenv): confinement reads no install there unless told;
        # the server writes when it began in the granted folder; the dev venv's PYTHONPATH
        ["servers", "confine", "startup-confined", "--allow-read", sys.base_prefix],
        ["servers", "confine", "startup-confined", "--allow-write", str(folders[0])],
        ["servers", "confine", "startup-confined", "--allow-read", str(HERE.parent)],
    ):
        subprocess.run(
            [sys.executable, "-m", "roots_manager.cli", *argv],
            env=env,
            check=True,
            capture_output=True,
        )
    subprocess.run(
        [sys.executable, "-m", "roots_manager.cli", "grant", "--new", "bench", str(folders[0])],
        env=env,
        check=True,
        capture_output=True,
    )

    c_hop = build_c_hop(tmp)
    echo_routes = {**routes_for(c_hop, floors=True), "confined": [], "confined-fixed": []}
    echo = compare(ECHO, echo_routes, env, blocks, n_small, n_big, size, pipeline=True)
    sdk_routes = routes_for(c_hop, floors=True)
    sdk = compare(SDK_ECHO, sdk_routes, env, blocks, n_small // 2, n_big, size, pipeline=False)
    host_routes = {"direct": SDK_ECHO, "bridge": bridge_cmd("bench-host", SDK_ECHO)}
    if c_hop is not None:  # the floors: any compiled hop, and one holding the server's lines
        host_routes["c-hop"] = [str(c_hop), *SDK_ECHO]
        host_routes["c-hold"] = [str(c_hop), "--hold", *SDK_ECHO]
    proxy = (
        None
        if args.no_fastmcp
        else sdk_host.fastmcp_python(Path(user_cache_dir("roots-manager-bench")))
    )
    if proxy is not None:
        host_routes["fastmcp"] = [str(proxy), str(HERE / "fastmcp_proxy.py"), *SDK_ECHO]
    host = sdk_host.compare(host_routes, env, blocks, n_small // 6, n_big, 256 * 1024)
    bridged = Peer(bridge_cmd("bench"), env)
    bridged.handshake()
    direct = Peer(ECHO, env)
    direct.handshake()
    small_rtts(bridged, 100, 1)
    small_rtts(direct, 100, 1)

    # roots/list answered inside the bridge
    bridged.send(b'{"jsonrpc":"2.0","id":"r","method":"bench/roots","params":{"n":1000}}\n')
    seen_by_server = bridged.read()["result"]["times"]
    inside = []
    for path in sorted((home / "logs").glob("*.jsonl")):
        for line in path.read_text().splitlines():
            e = json.loads(line)
            if e.get("kind") == "roots-list-answered" and e.get("server") == "bench":
                inside.append(e["us"] / 1e6)
    inside = inside[1:]  # the first answer parses the store from cold

    rounds = 10 if args.quick else 20
    cli_lat = change_latency(bridged, env, home, str(folders[1]), rounds, via_cli=True)
    api_lat = change_latency(bridged, env, home, str(folders[1]), rounds, via_cli=False)

    # after 1 MiB messages both ways: the most the bridge held
    rss_bridge = echo["bridge"]["rss"][0]
    rss_echo = echo["direct"]["rss"][0]
    direct.close()
    bridged.close()

    plain_env = without_source(env)
    start_routes = {
        "dev venv": startup_routes(
            sys.executable, bridge_cmd("startup")[:3], env, tmp / "rules-dev"
        )
    }
    installed = None if args.no_installed else installed_venv(tmp)
    if installed is not None:
        start_routes = {
            "installed": startup_routes(*installed, plain_env, tmp / "rules-installed"),
            **start_routes,
        }
    starts: dict[str, dict[str, list[float]]] = {
        where: {r: [] for r in routes} for where, routes in start_routes.items()
    }
    answers: dict[str, dict[str, list[float]]] = {
        where: {r: [] for r in routes} for where, routes in start_routes.items()
    }
    for k in range(11 if args.quick else 21):
        for where, routes in start_routes.items():
            order = list(routes) if k % 2 == 0 else list(routes)[::-1]
            for r in order:
                e = plain_env if where == "installed" else env
                started, answered = startup(routes[r], e, folders[0])
                starts[where][r].append(started)
                answers[where][r].append(answered)

    med = statistics.median
    print()
    print_rtt_table(
        "Trivial echo server (bench/echo_server.py): the pipe comparison", echo, targets=True
    )
    print()
    print_rtt_table(
        "SDK MCPServer with an echo tool called through tools/call (bench/sdk_echo_server.py)",
        sdk,
        targets=False,
    )
    print()
    rows = [
        startup_row(
            f"start-up to server running, {where}{how}",
            s,
            "floor, a Python that only starts it",
            route,
        )
        for where, s in starts.items()
        for route, how in (("bridge", ""), ("confined", ", confined"))
    ]
    rows += [
        startup_row(f"start-up to initialize answered, {where}{how}", a, "floor", route)
        for where, a in answers.items()
        for route, how in (("bridge", ""), ("confined", ", confined"))
    ]
    rows += [
        (
            "peak RSS after 1 MiB traffic (echo vs bridge)",
            f"{rss_echo:.1f} MiB",
            f"{rss_bridge:.1f} MiB",
            f"{rss_bridge / rss_echo:.2f}",
            "",
        ),
    ]
    print(f"{'measure':50} {'direct':>12} {'bridge':>12} {'ratio':>7}")
    for r in rows:
        print(f"{r[0]:50} {r[1]:>12} {r[2]:>12} {r[3]:>7}  {r[4]}")
    print()
    print(f"{'measure':42} {'p50':>10} {'p99':>10}  target")
    print(
        f"{'roots/list answer inside the bridge':42} {med(inside) * 1e6:>8.0f}us "
        f"{pct(inside, 99) * 1e6:>8.0f}us  p99 < 1 ms"
    )
    print(
        f"{'roots/list round trip seen by the server':42} {med(seen_by_server) * 1e6:>8.0f}us "
        f"{pct(seen_by_server, 99) * 1e6:>8.0f}us"
    )
    print(
        f"{'grant by CLI -> list_changed on stdin':42} {med(cli_lat) * 1e3:>8.0f}ms "
        f"{pct(cli_lat, 99) * 1e3:>8.0f}ms  p50 < 150 ms"
    )
    print(
        f"{'store API (other process) -> list_changed':42} {med(api_lat) * 1e3:>8.0f}ms "
        f"{pct(api_lat, 99) * 1e3:>8.0f}ms"
    )
    e, k = echo, sdk
    print(
        f"\nadded by the bridge per small round trip: echo "
        f"{(med(e['bridge']['small']) - med(e['direct']['small'])) * 1e6:.0f} us "
        f"(any hop: {(med(e['hop']['small']) - med(e['direct']['small'])) * 1e6:.0f} us), "
        f"SDK {(med(k['bridge']['small']) - med(k['direct']['small'])) * 1e6:.0f} us; "
        f"per 1 MiB round trip: echo "
        f"{(med(e['bridge']['big']) - med(e['direct']['big'])) * 1e3:.2f} ms, SDK "
        f"{(med(k['bridge']['big']) - med(k['direct']['big'])) * 1e3:.2f} ms"
    )
    print()
    print("SDK host, tools/call to the SDK echo server (bench/sdk_host.py), p50:")
    for route, d in host.items():
        print(
            f"  {route:8} small {med(d['small']) * 1e3:7.2f} ms   "
            f"256 KiB {med(d['big']) * 1e3:7.2f} ms"
        )
    rows = bridge_targets.judge(echo, sdk, host, roots_inside=inside, rss_mib=rss_bridge, pct=pct)
    for where, s in starts.items():
        added = (med(s["bridge"]) - med(s["direct"])) * 1e3
        floor = (med(s["floor"]) - med(s["direct"])) * 1e3
        detail = f"{med(s['bridge']) * 1e3:.0f} vs {med(s['direct']) * 1e3:.0f} ms"
        rows.append(
            bridge_targets.Row(
                f"start-up added by the bridge, {where}, p50",
                added,
                "ms",
                30 if where == "installed" else None,
                detail,
            )
        )
        rows.append(
            bridge_targets.Row(
                f"floor: start-up added by a Python that only starts the server, {where}",
                floor,
                "ms",
                None,
            )
        )
        # what the host waits for at each start: its initialize answered, confined and not
        a = answers[where]
        for route, how in (("bridge", ""), ("confined", ", confined")):
            rows.append(
                bridge_targets.Row(
                    f"initialize answered, added by the bridge{how}, {where}, p50",
                    (med(a[route]) - med(a["direct"])) * 1e3,
                    "ms",
                    40 if where == "installed" else None,
                    f"{med(a[route]) * 1e3:.0f} vs {med(a['direct']) * 1e3:.0f} ms",
                )
            )
        rows.append(
            bridge_targets.Row(
                f"floor: initialize answered, added by a Python that only starts the server, "
                f"{where}",
                (med(a["floor"]) - med(a["direct"])) * 1e3,
                "ms",
                None,
            )
        )
        rows.append(
            bridge_targets.Row(
                f"floor: initialize answered, confined, added by a Python that only confines "
                f"and starts the server, {where}",
                (med(a["floor-confined"]) - med(a["direct"])) * 1e3,
                "ms",
                None,
            )
        )
        rows.append(
            bridge_targets.Row(
                f"floor: initialize answered, confined, added by the wrapper alone, its rules "
                f"made beforehand, {where}",
                (med(a["floor-wrapper"]) - med(a["direct"])) * 1e3,
                "ms",
                None,
            )
        )
    print()
    print("Targets (every ratio from this run):")
    bridge_targets.print_table(rows)
    if args.json:
        figures = {
            f"{label}_{what}_{route}": med(data[route][what]) / med(data["direct"][what])
            for label, data in (("echo", echo), ("sdk", sdk))
            for what in ("small", "big")
            for route in data
            if route != "direct"
        }
        figures.update(
            echo_small_bridge_vs_hop=med(e["bridge"]["small"]) / med(e["hop"]["small"]),
            roots_p99_us=pct(inside, 99) * 1e6,
            grant_p50_ms=med(cli_lat) * 1e3,
            rss_mib=rss_bridge,
        )
        for where, s in starts.items():
            key = where.replace(" ", "_")
            figures[f"startup_added_ms_{key}"] = (med(s["bridge"]) - med(s["direct"])) * 1e3
            figures[f"startup_floor_ms_{key}"] = (med(s["floor"]) - med(s["direct"])) * 1e3
            a = answers[where]
            figures[f"initialize_added_ms_{key}"] = (med(a["bridge"]) - med(a["direct"])) * 1e3
            figures[f"initialize_added_ms_{key}_confined"] = (
                med(a["confined"]) - med(a["direct"])
            ) * 1e3
            figures[f"initialize_floor_ms_{key}"] = (med(a["floor"]) - med(a["direct"])) * 1e3
            figures[f"initialize_floor_ms_{key}_confined"] = (
                med(a["floor-confined"]) - med(a["direct"])
            ) * 1e3
            figures[f"initialize_floor_ms_{key}_wrapper"] = (
                med(a["floor-wrapper"]) - med(a["direct"])
            ) * 1e3
        print(json.dumps({"targets": bridge_targets.as_json(rows), "figures": figures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
