"""The log's text search: which events' JSON lines or summaries contain a text, ignoring case.

:meth:`roots_manager.core.logindex.LogIndex.matching` filters rows on the index's columns first,
then hands what is left to a :class:`TextSearch`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from roots_manager.core import events
from roots_manager.core.readahead import ReadAhead

if TYPE_CHECKING:
    from roots_manager.core.logindex import LogIndex

# The kinds whose summary is one of the event's own values (an error's message, a message's
# method), which its JSON holds, or, for a message without a method, the word "response". The
# summary of every other kind is worded by a template, and may hold the text where the JSON
# does not: a row of those kinds is parsed when its JSON does not contain the text.
_PLAIN_KINDS = frozenset({events.MESSAGE, events.ERROR})
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
        summarize: Callable[[dict[str, Any]], str] = events.summarize,
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
        self._in_response = self.text in summarize({"kind": events.MESSAGE, "id": 0}).lower()
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
                or (name == events.MESSAGE and self._in_response)
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
            if isinstance(rec, dict) and text in self.summarize(rec).lower():
                yield i
