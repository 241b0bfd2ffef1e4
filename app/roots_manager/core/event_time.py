"""When an event happened: its ``ts`` read back as seconds since the epoch.

The common form (ISO 8601 UTC with a fraction and a Z, as :func:`roots_manager.core.events.event`
stamps it) is read without ``datetime`` parsing each value; anything else goes through
``datetime.fromisoformat``.
"""

from __future__ import annotations

import re
from datetime import datetime

# the form above, split into the whole second and the fraction
ISO_Z = re.compile(rb"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z$")


def parse_ts(raw: bytes | str) -> float:
    """Seconds since the epoch for an event's ``ts``; 0.0 when it is not a timestamp."""
    data = raw.encode() if isinstance(raw, str) else raw
    m = ISO_Z.match(data)
    try:
        if m:
            secs = epoch_of(m.group(1))
            frac = m.group(2)
            return secs + float(frac) if frac else secs
        return datetime.fromisoformat(data.decode()).timestamp()
    except (ValueError, UnicodeDecodeError):
        return 0.0


_epoch_cache: dict[bytes, float] = {}


def epoch_of(second: bytes) -> float:
    """Seconds since the epoch for a whole UTC second written ``YYYY-MM-DDTHH:MM:SS``."""
    # Events come in bursts within the same second: parse each second once.
    got = _epoch_cache.get(second)
    if got is None:
        if len(_epoch_cache) > 4096:
            _epoch_cache.clear()
        got = datetime.fromisoformat(second.decode() + "+00:00").timestamp()
        _epoch_cache[second] = got
    return got
