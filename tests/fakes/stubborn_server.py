"""A server that never reads its stdin, shrugs off every polite signal, and keeps a child of its
own (``python -c "import time; time.sleep(600)"``): only SIGKILL ends it, and its child with it
only if the tree is killed."""

import signal
import subprocess
import sys
import time


def main() -> None:
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    time.sleep(600)


if __name__ == "__main__":
    main()
