"""A bridge run's id and the name of its live marker: both needed around the server's start (its
warden, started right after, keeps the marker), so this module imports nothing that start would
wait for."""

from __future__ import annotations

import os
import time


def new_run_id() -> str:
    """A new run id, which sorts by start time (log files are listed by name)."""
    # os.urandom is what secrets.token_hex draws from; secrets itself would load hashlib and
    # hmac before the server starts
    return time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + "-" + os.urandom(4).hex()


def marker_name(run: str) -> str:
    """The file name of run *run*'s live marker, in the live folder."""
    return f"bridge-{run}.json"
