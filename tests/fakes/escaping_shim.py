"""Runs a server and spells every ``roots`` it prints with an escape, as JSON allows.

Usage: escaping_shim.py COMMAND... The server's stdin and stderr pass through; each line of its
stdout has ``roots`` rewritten as ``\\u0072oots`` (the word only ever stands inside a JSON string,
where every parser reads the escape the same), so a real SDK server becomes a server whose
requests for roots hold no literal ``roots`` at all.
"""

from __future__ import annotations

import subprocess
import sys
import threading


def main() -> None:
    child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None

    def feed() -> None:
        assert child.stdin is not None
        for line in sys.stdin.buffer:
            child.stdin.write(line)
            child.stdin.flush()
        child.stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    out = sys.stdout.buffer
    for line in child.stdout:
        out.write(line.replace(b"roots", b"\\u0072oots"))
        out.flush()
    sys.exit(child.wait())


if __name__ == "__main__":
    main()
