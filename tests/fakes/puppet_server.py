"""A stdio "server" the test drives by hand: its stdin goes to the test, the test writes its stdout.

Run as ``python puppet_server.py PORT [--no-read]``. It connects to the test on 127.0.0.1:PORT;
every line it reads on stdin is sent to the test as it is, and every line the test sends is
written to stdout, except control lines starting with ``!!``: ``!!exit N`` exits with code N,
``!!stderr TEXT`` writes TEXT to stderr, ``!!close-stdout`` closes its stdout and lives on.
With ``--no-read`` it never reads its stdin; with ``--ignore-term`` it ignores SIGTERM; with
``--report-signals`` it tells the test ``!!signal N`` on SIGTERM, SIGINT or SIGHUP, and exits 0.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading


def main() -> None:
    port = int(sys.argv[1])
    no_read = "--no-read" in sys.argv[2:]
    if "--ignore-term" in sys.argv[2:]:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(f"!!pid {os.getpid()}\n".encode())
    if "--report-signals" in sys.argv[2:]:

        def report(signum: int, _frame: object) -> None:
            sock.sendall(f"!!signal {signum}\n".encode())
            os._exit(0)

        for name in ("SIGTERM", "SIGINT", "SIGHUP"):
            signal.signal(getattr(signal, name), report)

    def pump_stdin() -> None:
        while True:
            data = os.read(0, 1 << 20)
            if not data:
                sock.sendall(b"!!eof\n")
                return
            sock.sendall(data)

    if not no_read:
        threading.Thread(target=pump_stdin, daemon=True).start()
    reader = sock.makefile("rb")
    out = sys.stdout.buffer
    for line in reader:
        if line.startswith(b"!!exit "):
            if not out.closed:
                out.flush()
            os._exit(int(line.split()[1]))
        if line.startswith(b"!!close-stdout"):
            out.flush()
            out.close()
            os.close(1)  # the standard streams never close their descriptor themselves
            continue
        if line.startswith(b"!!stderr "):
            sys.stderr.buffer.write(line[len(b"!!stderr ") :])
            sys.stderr.flush()
            continue
        if not out.closed:
            out.write(line)
            out.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
