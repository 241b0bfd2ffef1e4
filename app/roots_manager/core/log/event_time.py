"""An event line read back for the log index: when it happened (its ``ts`` as seconds since the
epoch), and its server and kind without parsing the line when it is laid out as
:class:`roots_manager.core.log.events.EventWriter` writes it.

The common form (ISO 8601 UTC with a fraction and a Z, as :func:`roots_manager.core.log.events.event`
stamps it) is read without ``datetime`` parsing each value; anything else goes through
``datetime.fromisoformat``.
"""

from __future__ import annotations

import json
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


# EventWriter writes these keys first and in this order (json.dumps keeps insertion order), so
# most lines can be indexed with one regular expression instead of a full JSON parse; anything
# else (escapes, other writers, other key orders) falls back to json.loads.
FAST = re.compile(
    rb'\{"ts": "([^"\\]*)", "server": "([^"\\]*)", "session": "[^"\\]*", "kind": "([^"\\]*)"'
)
# One line of a chunk, with the fields of `FAST` when the line starts as EventWriter writes it
# and its time is as events.event() stamps it: the whole chunk is indexed by one `finditer`,
# without a bytes object per line (the other lines go through `FAST` and json.loads).
LINE = re.compile(
    rb'(?:\{"ts": "(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z", "server": "([^"\\\n]*)", '
    rb'"session": "[^"\\\n]*", "kind": "([^"\\\n]*)")?[^\n]*\n'
)


def slow_fields(line: bytes) -> tuple[str, str, float] | None:
    """Server, kind and time of an event *line* not laid out or stamped as EventWriter does it;
    None when the line is not an event."""
    m = FAST.match(line)
    if m is not None:
        ts_raw, srv_raw, kind_raw = m.groups()
        return (
            srv_raw.decode("utf-8", "replace"),
            kind_raw.decode("utf-8", "replace"),
            parse_ts(ts_raw),
        )
    try:
        rec = json.loads(line)
    except ValueError:
        return None
    if not isinstance(rec, dict):
        return None
    return str(rec.get("server", "")), str(rec.get("kind", "")), parse_ts(str(rec.get("ts", "")))
