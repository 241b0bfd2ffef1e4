"""A running bridge keeps nothing of the parser that read its command line.

A bridge lives for hours and reads its command line once; argparse's classes and functions were
0.6 MiB of an idle bridge's memory (``bench/bench_idle.py``). This runs a real bridge process in
front of a real server, and once the bridge is up (its modules frozen for its life) looks inside
it: the module is gone, nothing holds it alive, and the bridge still relays.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

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
