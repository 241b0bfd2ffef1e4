"""What a running bridge keeps in memory for its life: nothing of the parser that read its
command line, none of the modules it has no use for, and one malloc arena for all its threads.

A bridge lives for hours, fifty of them at a time on a busy machine. argparse's classes and
functions were 0.6 MiB of an idle bridge, and glibc's arena per thread about 0.2 MiB
(``bench/bench_idle.py`` shows the whole). These run a real bridge in front of a real server
and look inside it once it is up: the parser's module is gone and nothing holds it alive; the
process maps no arena heap of its own for a thread, even after relaying in both directions.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.bridge.wire import bridge_argv
from tests.polling import WAIT

SERVER = [
    sys.executable,
    "-c",
    "import sys\nfor line in sys.stdin: sys.stdout.write(line); sys.stdout.flush()",
]

PROBE = textwrap.dedent(
    """
    import gc, os, sys, threading, time, weakref
    import argparse
    module = weakref.ref(argparse)
    parsers = weakref.WeakSet()
    real_init = argparse.ArgumentParser.__init__
    def init(self, *a, **kw):
        parsers.add(self)
        real_init(self, *a, **kw)
    argparse.ArgumentParser.__init__ = init
    del argparse
    def look():
        deadline = time.monotonic() + float(sys.argv[1])
        while gc.get_freeze_count() == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        found = {
            "frozen": gc.get_freeze_count() > 0,
            "in_modules": "argparse" in sys.modules,
            "module_alive": module() is not None,
            "parsers_alive": len(parsers),
        }
        os.write(2, ("probe " + repr(found) + "\\n").encode())
    threading.Thread(target=look, daemon=True).start()
    from roots_manager.bridge.main import main
    sys.argv = ["roots-bridge", *sys.argv[2:]]
    sys.exit(main())
    """
)


def test_a_running_bridge_holds_no_argparse(rm_home: Path, advisory_new_servers: None) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", PROBE, str(WAIT), "--server", "echo", "--", *SERVER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    ping = {"jsonrpc": "2.0", "id": 7, "method": "ping"}
    proc.stdin.write(json.dumps(ping).encode() + b"\n")
    proc.stdin.flush()
    echoed = proc.stdout.readline()
    proc.stdin.close()
    proc.wait(timeout=WAIT)
    assert proc.stderr is not None
    err = proc.stderr.read()
    assert json.loads(echoed) == ping  # the bridge relays without it
    [probe] = [line for line in err.decode().splitlines() if line.startswith("probe ")]
    assert probe == (
        "probe {'frozen': True, 'in_modules': False, 'module_alive': False, 'parsers_alive': 0}"
    ), err.decode()


UNUSED = ("filelock", "secrets", "platform", "decimal", "hmac", "random")
"""Modules a bridge gets on without, all its life, though a store change is made under a lock
and new ids are random: filelock 4 (and the platform and decimal modules it brings) is 1.2
MiB of an idle bridge, ``secrets`` loads hmac, random and base64 to hex what ``os.urandom``
gives (:mod:`roots_manager.support.lockfile`)."""

AT_EXIT = textwrap.dedent(
    """
    import atexit, os, sys
    unused = sys.argv[1].split(",")
    atexit.register(
        lambda: os.write(2, ("loaded " + ",".join(m for m in unused if m in sys.modules)).encode())
    )
    from roots_manager.bridge.main import main
    sys.argv = ["roots-bridge", *sys.argv[2:]]
    sys.exit(main())
    """
)


def test_a_bridge_never_loads_what_it_has_no_use_for(
    rm_home: Path, advisory_new_servers: None
) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", AT_EXIT, ",".join(UNUSED), "--server", "echo", "--", *SERVER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    ping = {"jsonrpc": "2.0", "id": 7, "method": "ping"}
    out, err = proc.communicate(json.dumps(ping).encode() + b"\n", timeout=WAIT)
    assert json.loads(out) == ping
    # its start and its end were recorded in the store, under its lock
    assert '"echo"' in (rm_home / "store.json").read_text()
    assert err.decode().splitlines()[-1] == "loaded ", err.decode()


HEAP = 64 << 20
"""The size and alignment of a glibc arena heap for a thread (HEAP_MAX_SIZE on 64-bit)."""


def _arena_heaps(pid: int) -> int:
    """How many thread arena heaps process *pid* maps: anonymous, writable, 64 MiB aligned."""
    count = 0
    with open(f"/proc/{pid}/maps") as maps:
        for line in maps:
            fields = line.split()
            start = int(fields[0].split("-")[0], 16)
            if len(fields) == 5 and fields[1].startswith("rw") and start % HEAP == 0:
                count += 1
    return count


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.confstr("CS_GNU_LIBC_VERSION") is None,
    reason="glibc's arenas: Linux with glibc only",
)
def test_a_bridge_s_threads_share_one_malloc_arena(
    rm_home: Path, advisory_new_servers: None
) -> None:
    proc = subprocess.Popen(
        bridge_argv("echo", SERVER), stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for n in range(40):  # both relay threads and the loop allocate: lines of 5 kB each way
            ping = {"jsonrpc": "2.0", "id": n, "method": "ping", "params": {"pad": "x" * 5000}}
            proc.stdin.write(json.dumps(ping).encode() + b"\n")
            proc.stdin.flush()
            assert json.loads(proc.stdout.readline()) == ping
        assert _arena_heaps(proc.pid) == 0
    finally:
        proc.stdin.close()
        proc.wait(timeout=WAIT)
