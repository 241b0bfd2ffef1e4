"""A compact index of the event files, so a view can show millions of events in little memory.

The index keeps, per event, only where it lives (file number, byte offset, length), its time and
small integer codes for its server and kind: about 27 bytes an event in flat arrays, instead of
the parsed records. Views read a record back from its file when they need more (a row becomes
visible, a detail pane, an export), and filter by server and kind on the codes without parsing
any JSON.

The index only grows: `scan` appends the events written since the last scan, and rows already
published never move, so one thread may scan while another reads rows below `len(index)`.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import json
import os
import re
import threading
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, cast

from roots_manager.core.directory.layout import Layout
from roots_manager.core.directory.records import EventKind, EventRecord
from roots_manager.core.log import events
from roots_manager.core.log.event_time import LINE, epoch_of, slow_fields

# Reading a file in bounded chunks keeps the peak memory of a first scan of huge files small.
DEFAULT_CHUNK = 4 * 1024 * 1024
# Windows refuses to delete a file another process holds open, and a bridge rotating its parts
# must be able to delete them, so handles are only kept open where that is harmless.
_KEEP_HANDLES = os.name != "nt"
_MAX_HANDLES = 16


@dataclass
class _File:
    path: Path
    no: int
    ident: tuple[int, int]  # (device, inode): a new file at the same path is a new file
    pos: int = 0  # bytes indexed so far, always at a line start


class LogIndex:
    """An append-only index of every event in a logs directory."""

    def __init__(self, layout: Layout, *, chunk: int = DEFAULT_CHUNK) -> None:
        self.layout = layout
        self.chunk = chunk
        self.servers: list[str] = []
        self.kinds: list[str] = list(EventKind)
        self._server_codes: dict[str, int] = {}
        self._kind_codes: dict[str, int] = {k: i for i, k in enumerate(self.kinds)}
        # the same codes by the names' bytes as the lines spell them (no decoding per line)
        self._server_raw: dict[bytes, int] = {}
        self._kind_raw: dict[bytes, int] = {}
        self._files: list[_File] = []
        self._by_path: dict[Path, _File] = {}
        # one entry per event, all of the same length
        self.file_no = array("I")
        self.offset = array("Q")
        self.length = array("I")
        self.server = array("H")
        self.kind = array("H")
        self.ts = array("d")
        self._published = 0
        self._rotor = 0
        self.behind = False  # the last scan stopped at its byte budget with more to read
        self._handles: OrderedDict[int, IO[bytes]] = OrderedDict()
        self._lock = threading.Lock()  # guards the read-back handles, not the arrays

    def __len__(self) -> int:
        """The number of events published to readers."""
        return self._published

    def server_code(self, name: str) -> int:
        """The code of server *name*, allocated on first sight."""
        code = self._server_codes.get(name)
        if code is None:
            code = len(self.servers)
            self.servers.append(name)
            self._server_codes[name] = code
        return code

    def kind_code(self, name: str) -> int:
        """The code of event kind *name*, allocated on first sight."""
        code = self._kind_codes.get(name)
        if code is None:
            code = len(self.kinds)
            self.kinds.append(name)
            self._kind_codes[name] = code
        return code

    def code_of_server(self, name: str) -> int | None:
        """The code of server *name*, or None if no event of it has been indexed."""
        return self._server_codes.get(name)

    def code_of_kind(self, name: str) -> int | None:
        """The code of event kind *name*, or None if it is unknown."""
        return self._kind_codes.get(name)

    def latest_of_kind(self, kind: str, start: int = 0) -> dict[str, float]:
        """The time of the newest event of *kind* per server, among rows from *start* on."""
        code = self.code_of_kind(kind)
        if code is None:
            return {}
        newest: dict[int, float] = {}
        kinds, servers, ts = self.kind, self.server, self.ts
        for i in range(start, self._published):
            if kinds[i] == code:
                s = servers[i]
                if ts[i] > newest.get(s, 0.0):
                    newest[s] = ts[i]
        return {self.servers[s]: t for s, t in newest.items()}

    def rows_of_kind(self, kind: str, start: int = 0) -> list[int]:
        """The rows of the events of *kind*, among rows from *start* on."""
        code = self.code_of_kind(kind)
        if code is None:
            return []
        kinds = self.kind
        return [i for i in range(start, self._published) if kinds[i] == code]

    def last_of_server(self, name: str, count: int) -> list[int]:
        """The rows of the newest *count* events of server *name*, oldest first (the server's
        recent activity), found from the end: as fast for a long log as for a short one when
        the server was busy lately."""
        code = self.code_of_server(name)
        if code is None or count <= 0:
            return []
        servers = self.server
        found: list[int] = []
        for i in range(self._published - 1, -1, -1):
            if servers[i] == code:
                found.append(i)
                if len(found) == count:
                    break
        found.reverse()
        return found

    def path_of(self, row: int) -> Path:
        """The file event *row* was read from."""
        return self._files[self.file_no[row]].path

    # -- scanning ---------------------------------------------------------------------------

    def scan(self, max_bytes: int | None = None) -> int:
        """Index the complete events written since the last scan; returns how many were added.

        With *max_bytes*, stop after reading about that much (`behind` then says more is
        waiting), so a caller on a GUI thread can index in slices between paints. Events of
        several files read in one scan are merged by time, so concurrent runs interleave as
        they happened. A line without its newline yet is left for the next scan.
        """
        start = len(self.file_no)
        runs: list[tuple[int, int]] = []
        budget = max_bytes if max_bytes is not None else -1
        self.behind = False
        files = events.log_files(self.layout)
        if max_bytes is not None and files:
            # start where the last sliced scan stopped, so busy files cannot starve the others
            k = self._rotor % len(files)
            files = files[k:] + files[:k]
            self._rotor += 1
        for path in files:
            found = self._file_for(path)
            if found is None:
                continue
            if budget == 0:
                self.behind = True
                break
            f, size = found
            before = len(self.file_no)
            cut = 0 <= budget < size - f.pos
            used = self._read_new(f, budget if cut else size - f.pos)
            if budget > 0:
                budget = max(budget - used, 0)
                self.behind = self.behind or (cut and f.pos < size)
            if len(self.file_no) > before:
                runs.append((before, len(self.file_no)))
        if len(runs) > 1 and not self._ordered(runs):
            self._merge_tail(start, runs)
        self._published = len(self.file_no)
        return self._published - start

    def _file_for(self, path: Path) -> tuple[_File, int] | None:
        try:
            st = path.stat()
        except OSError:
            return None
        ident = (st.st_dev, st.st_ino)
        f = self._by_path.get(path)
        if f is not None and (f.ident != ident or st.st_size < f.pos):
            # replaced or truncated: what was indexed from it can no longer be read back
            f = None
        if f is None:
            f = _File(path, len(self._files), ident)
            self._files.append(f)
            self._by_path[path] = f
        return (f, st.st_size) if st.st_size > f.pos else None

    def _read_new(self, f: _File, limit: int) -> int:
        # Reads about *limit* bytes (more only to finish a line longer than a chunk); returns
        # the bytes read.
        try:
            fh = open(f.path, "rb")  # noqa: SIM115 - closed below, read in a loop
        except OSError:
            return 0
        used = 0
        with fh:
            fh.seek(f.pos)
            while used < limit:
                want = min(self.chunk, limit - used)
                data = fh.read(want)
                if not data:
                    break
                used += len(data)
                end = data.rfind(b"\n") + 1
                if end == 0:
                    if len(data) < self.chunk:
                        break  # a line still being written, or the budget ends mid-line
                    # one line longer than a chunk: read on until its end
                    more = data
                    while b"\n" not in data:
                        data = fh.read(self.chunk)
                        if not data:
                            return used
                        used += len(data)
                        more += data
                    data = more
                    end = data.rfind(b"\n") + 1
                self._index_lines(f, data[:end])
                f.pos += end
                if end < len(data):
                    fh.seek(f.pos)
        return used

    def _index_lines(self, f: _File, data: bytes) -> None:
        # The hot loop of a first scan over a million events, and of following a flood: locals
        # only, one regular expression over the chunk, names coded by their bytes.
        servers_raw = self._server_raw
        kinds_raw = self._kind_raw
        a_file, a_off, a_len = self.file_no.append, self.offset.append, self.length.append
        a_srv, a_kind, a_ts = self.server.append, self.kind.append, self.ts.append
        epoch = epoch_of
        no = f.no
        base = f.pos
        last_second = b""
        last_epoch = 0.0
        for m in LINE.finditer(data):
            second, frac, srv_raw, kind_raw = m.groups()
            start, end = m.span()
            if second is not None:
                if second != last_second:
                    last_second, last_epoch = second, epoch(second)
                t = last_epoch + float(frac) if frac else last_epoch
                s = servers_raw.get(srv_raw)
                if s is None:
                    s = servers_raw[srv_raw] = self.server_code(srv_raw.decode("utf-8", "replace"))
                k = kinds_raw.get(kind_raw)
                if k is None:
                    k = kinds_raw[kind_raw] = self.kind_code(kind_raw.decode("utf-8", "replace"))
            else:
                got = slow_fields(data[start : end - 1])
                if got is None:
                    continue  # not an event (as events.read_events skips it)
                srv, kind, t = got
                s = self.server_code(srv)
                k = self.kind_code(kind)
            a_file(no)
            a_off(base + start)
            a_len(end - start - 1)
            a_srv(s)
            a_kind(k)
            a_ts(t)

    def _ordered(self, runs: list[tuple[int, int]]) -> bool:
        ts = self.ts
        return all(ts[a[1] - 1] <= ts[b[0]] for a, b in itertools.pairwise(runs))

    def _merge_tail(self, start: int, runs: list[tuple[int, int]]) -> None:
        # Each run (one file's new lines) is already in time order: a k-way merge, stable, so
        # events with equal times keep file order.
        ts = self.ts
        order = array(
            "Q",
            heapq.merge(*(range(a, b) for a, b in runs), key=ts.__getitem__),
        )
        for name in ("file_no", "offset", "length", "server", "kind", "ts"):
            old: array[Any] = getattr(self, name)
            tail = array(old.typecode, (old[i] for i in order))
            del old[start:]
            old.extend(tail)

    # -- reading back -----------------------------------------------------------------------

    def line(self, row: int) -> bytes | None:
        """The raw JSON line of event *row*, or None if its file is gone."""
        no = self.file_no[row]
        off = self.offset[row]
        n = self.length[row]
        with self._lock:
            fh = self._handle(no)
            if fh is None:
                return None
            try:
                fh.seek(off)
                data = fh.read(n)
            except OSError:
                return None
            finally:
                if not _KEEP_HANDLES:
                    fh.close()
        return data if len(data) == n else None

    def lines(self, rows: Iterable[int]) -> Iterator[tuple[int, bytes | None]]:
        """The raw lines of *rows*, in the order given."""
        for row in rows:
            yield row, self.line(row)

    def record(self, row: int) -> EventRecord | None:
        """The event record at *row*, or None if it cannot be read back."""
        data = self.line(row)
        if data is None:
            return None
        try:
            rec = json.loads(data)
        except ValueError:
            return None
        return cast(EventRecord, rec) if isinstance(rec, dict) else None

    def _handle(self, no: int) -> IO[bytes] | None:
        fh = self._handles.get(no)
        if fh is not None:
            self._handles.move_to_end(no)
            return fh
        f = self._files[no]
        try:
            fh = open(f.path, "rb")  # noqa: SIM115 - kept in the handle cache
            st = os.fstat(fh.fileno())
        except OSError:
            return None
        if (st.st_dev, st.st_ino) != f.ident:
            fh.close()
            return None  # a different file now has that name
        if _KEEP_HANDLES:
            self._handles[no] = fh
            while len(self._handles) > _MAX_HANDLES:
                _, old = self._handles.popitem(last=False)
                old.close()
        return fh

    # -- filtering --------------------------------------------------------------------------

    def matching(
        self,
        start: int,
        stop: int,
        *,
        servers: set[int] | None = None,
        kinds: set[int] | None = None,
        text: str | TextSearch = "",
    ) -> array[int]:
        """The rows in ``[start, stop)`` whose server and kind codes are in the given sets
        (None: any) and whose JSON line or summary contains *text*, ignoring case.

        Pass a `TextSearch` as *text* to search a long range in several calls: it keeps the
        file windows it has read between calls.
        """
        rows = range(start, min(stop, self._published))
        srv, knd = self.server, self.kind
        if servers is not None and kinds is not None:
            cand: Iterable[int] = (i for i in rows if srv[i] in servers and knd[i] in kinds)
        elif servers is not None:
            cand = (i for i in rows if srv[i] in servers)
        elif kinds is not None:
            cand = (i for i in rows if knd[i] in kinds)
        else:
            cand = rows
        if not text:
            return array("Q", cand)
        search = text if isinstance(text, TextSearch) else TextSearch(self, text)
        return array("Q", search.rows(cand))

    def read_at(self, no: int, off: int, need: int) -> bytes:
        """At least *need* bytes of file *no* from *off* (a chunk more, to serve the lines
        after it; see :class:`ReadAhead`); fewer at its end."""
        with self._lock:
            fh = self._handle(no)
            if fh is None:
                return b""
            try:
                fh.seek(off)
                data = fh.read(max(self.chunk, need))
            except OSError:
                data = b""
            finally:
                if not _KEEP_HANDLES:
                    fh.close()
        return data

    def close(self) -> None:
        """Close the read-back handles."""
        with self._lock:
            for fh in self._handles.values():
                with contextlib.suppress(OSError):
                    fh.close()
            self._handles.clear()


class ReadAhead:
    """The lines of rows of a `LogIndex`, read through windows of its files."""

    MAX_WINDOWS = 8  # interleaved runs need one window each; a few suffice

    def __init__(self, index: LogIndex, *, lower: bool = False) -> None:
        self.index = index
        self.lower = lower
        """Lower-case the windows (what a case-insensitive search compares)."""
        self._windows: OrderedDict[int, tuple[bytes, int]] = OrderedDict()

    def forget(self) -> None:
        """Drop the windows read so far (the next rows read what they need afresh)."""
        self._windows.clear()

    def line(self, row: int) -> bytes:
        """The line of *row*; shorter than its length in the index if its file was cut, empty
        if the file is gone."""
        ix = self.index
        no, off, n = ix.file_no[row], ix.offset[row], ix.length[row]
        windows = self._windows
        window = windows.get(no)
        if window is None or not (window[1] <= off and off + n <= window[1] + len(window[0])):
            data = ix.read_at(no, off, n)
            window = (data.lower() if self.lower else data, off)
            windows[no] = window
            while len(windows) > self.MAX_WINDOWS:
                windows.popitem(last=False)
        elif len(windows) > 1:
            windows.move_to_end(no)
        lo = off - window[1]
        return window[0][lo : lo + n]


# The kinds whose summary is one of the event's own values (an error's message, a message's
# method), which its JSON holds, or, for a message without a method, the word "response". The
# summary of every other kind is worded by a template, and may hold the text where the JSON
# does not: a row of those kinds is parsed when its JSON does not contain the text.
_PLAIN_KINDS = frozenset({EventKind.MESSAGE, EventKind.ERROR})
_RESPONSE: EventRecord = {"ts": "", "server": "", "session": "", "kind": EventKind.MESSAGE, "id": 0}
"""A response's event: its summary is the same for every response."""
# JSON writes these characters escaped, so a value holding them is not found in the raw line.
_ESCAPED = re.compile(r'["\\\x00-\x1f]')


class TextSearch:
    """A case-insensitive search for a text in events' JSON lines and in their summaries (what
    the log shows), over rows of a `LogIndex`.

    Each row is first tested on its raw line, which needs no parsing; only rows whose summary
    could hold the text where their JSON does not (kinds outside `_PLAIN_KINDS`) are parsed.
    The search keeps the windows of file bytes it has read, so one search can go through a
    long range in several calls; `forget` drops them.
    """

    def __init__(
        self,
        index: LogIndex,
        text: str,
        summarize: Callable[[EventRecord], str] = events.summarize,
    ) -> None:
        self.index = index
        self.text = text.lower()
        self.summarize = summarize
        # matched both as UTF-8 and as JSON's \\u escapes would write it
        self._needles = (
            self.text.encode("utf-8"),
            json.dumps(self.text)[1:-1].encode("ascii").lower(),
        )
        escaped = _ESCAPED.search(self.text) is not None
        self._in_response = self.text in summarize(_RESPONSE).lower()
        # per kind code: parse rows of that kind whose line does not contain the text
        self._parse: list[bool] = []
        self._escaped = escaped
        self._reader = ReadAhead(index, lower=True)

    def forget(self) -> None:
        """Drop the file windows read so far (the next rows read what they need afresh)."""
        self._reader.forget()

    def _parse_kind(self, code: int) -> bool:
        parse = self._parse
        kinds = self.index.kinds
        while len(parse) < len(kinds):
            name = kinds[len(parse)]
            parse.append(
                self._escaped
                or name not in _PLAIN_KINDS
                or (name == EventKind.MESSAGE and self._in_response)
            )
        return parse[code]

    def rows(self, rows: Iterable[int]) -> Iterator[int]:
        """Those of *rows* whose line or summary contains the text, in the order given."""
        ix = self.index
        line = self._reader.line
        n1, n2 = self._needles
        length, kind = ix.length, ix.kind
        parse = self._parse
        text = self.text
        for i in rows:
            n = length[i]
            piece = line(i)
            if n1 in piece or n2 in piece:
                yield i
                continue
            k = kind[i]
            if not (parse[k] if k < len(parse) else self._parse_kind(k)) or len(piece) < n:
                continue
            try:
                # the window is lower-cased, which leaves JSON's syntax and keys as they are
                rec = json.loads(piece)
            except ValueError:
                continue
            if isinstance(rec, dict) and text in self.summarize(cast(EventRecord, rec)).lower():
                yield i
