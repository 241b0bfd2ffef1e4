"""A unified diff of two versions of a host file, made quickly however big the file is.

``difflib`` looks for the best match of every line among all the others: for Claude Code's
``~/.claude.json``, a hundred megabytes of project history in which a wrap changes a few lines,
that takes minutes. The two texts are cut first where they are the same (the common start and
end, then stretches of one found in the other by ``str.find``, in C); difflib compares only the
lines left between, and the context around them is taken from the text as it is, so that the
hunks are those of the whole file. Lines end at ``\\n`` only, as they do for ``diff`` and
``patch``.
"""

from __future__ import annotations

import difflib
from typing import Literal

CONTEXT = 3
"""Lines of context around each change, as ``diff -u`` gives."""
SMALL = 1 << 16
"""Characters difflib compares at once without taking long."""
PROBE = 1 << 10
"""Characters of a stretch looked for in the other text to cut both there."""
CHUNK = 1 << 16

Opcode = tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]
"""What difflib says of lines ``a[i1:i2]`` and ``b[j1:j2]`` (tag, i1, i2, j1, j2)."""
Region = tuple[int, int, int, int]
"""``a[a0:a1]`` became ``b[b0:b1]``; the texts between two regions are the same."""


def unified(a: str, b: str, name: str) -> str:
    """The change from *a* to *b*, the text of file *name*, as a unified diff ("" if none)."""
    regions: list[Region] = []
    _regions(a, b, (0, len(a), 0, len(b)), regions)
    if not regions:
        return ""
    out = [f"--- {name}\n", f"+++ {name}\n"]
    line_a = line_b = at_a = at_b = 0
    for spans in _windows(a, _spans(a, b, regions)):
        wa0 = _up(a, spans[0][0], CONTEXT)
        wb0 = spans[0][2] - (spans[0][0] - wa0)
        wa1 = _down(a, spans[-1][1], CONTEXT)
        wb1 = spans[-1][3] + (wa1 - spans[-1][1])
        line_a += a.count("\n", at_a, wa0)
        line_b += b.count("\n", at_b, wb0)
        at_a, at_b = wa0, wb0
        lines_a, lines_b = _lines(a[wa0:wa1]), _lines(b[wb0:wb1])
        ops = _Known(_opcodes(a, b, (wa0, wb0), spans, len(lines_a), len(lines_b)))
        for group in ops.get_grouped_opcodes(CONTEXT):
            first, last = group[0], group[-1]
            out.append(
                f"@@ -{_range(first[1], last[2], line_a)} +{_range(first[3], last[4], line_b)} @@\n"
            )
            for tag, i1, i2, j1, j2 in group:
                if tag == "equal":
                    out += _marked(" ", lines_a[i1:i2])
                    continue
                out += _marked("-", lines_a[i1:i2])
                out += _marked("+", lines_b[j1:j2])
    return "".join(out)


class _Known(difflib.SequenceMatcher[str]):
    """difflib's grouping of changes into hunks, over changes found here."""

    def __init__(self, opcodes: list[Opcode]) -> None:
        super().__init__(None, [], [])
        self.known = opcodes

    def get_opcodes(self) -> list[Opcode]:
        return self.known


def _opcodes(
    a: str, b: str, start: tuple[int, int], spans: list[Region], len_a: int, len_b: int
) -> list[Opcode]:
    """The changes of a window (from *start*, of *len_a* and *len_b* lines), line by line."""
    out: list[Opcode] = []

    def add(
        tag: Literal["replace", "delete", "insert", "equal"], i1: int, i2: int, j1: int, j2: int
    ) -> None:
        if tag == "equal" and out and out[-1][0] == "equal":
            i1, j1 = out.pop()[1::2]
        if i1 < i2 or j1 < j2:
            out.append((tag, i1, i2, j1, j2))

    i = j = 0
    at = start[0]
    for a0, a1, b0, b1 in spans:
        same = a.count("\n", at, a0)
        add("equal", i, i + same, j, j + same)
        i, j = i + same, j + same
        old, new = _lines(a[a0:a1]), _lines(b[b0:b1])
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new).get_opcodes():
            add(tag, i + i1, i + i2, j + j1, j + j2)
        i, j, at = i + len(old), j + len(new), a1
    add("equal", i, len_a, j, len_b)
    return out


def _range(start: int, stop: int, moved: int) -> str:
    """Lines *start* to *stop* of a window that starts at line *moved*, as difflib writes them."""
    length = stop - start
    if length == 1:
        return str(start + 1 + moved)
    return f"{start + moved + (1 if length else 0)},{length}"


def _marked(mark: str, lines: list[str]) -> list[str]:
    # the last line of a file without a line break is marked as diff marks it
    return [
        mark + line if line.endswith("\n") else f"{mark}{line}\n\\ No newline at end of file\n"
        for line in lines
    ]


def _lines(text: str) -> list[str]:
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def _regions(a: str, b: str, span: Region, out: list[Region]) -> None:
    """Add the regions where ``a[a0:a1]`` and ``b[b0:b1]`` differ to *out*, in order."""
    a0, a1, b0, b1 = span
    same = _common_start(a, a0, a1, b, b0, b1)
    a0, b0 = a0 + same, b0 + same
    same = _common_end(a, a0, a1, b, b0, b1)
    a1, b1 = a1 - same, b1 - same
    if a0 == a1 and b0 == b1:
        return
    if (a1 - a0) + (b1 - b0) > SMALL:
        anchor = _anchor(a, a0, a1, b, b0, b1)
        if anchor is not None:
            at_a, at_b = anchor
            _regions(a, b, (a0, at_a, b0, at_b), out)
            _regions(a, b, (at_a + PROBE, a1, at_b + PROBE, b1), out)
            return
    out.append((a0, a1, b0, b1))


def _anchor(a: str, a0: int, a1: int, b: str, b0: int, b1: int) -> tuple[int, int] | None:
    """Where a stretch of ``b[b0:b1]`` stands, once only, in ``a[a0:a1]`` (and once in b)."""
    for part in sorted(range(1, 16), key=lambda n: abs(n - 8)):  # from the middle outwards
        at_b = b0 + (b1 - b0 - PROBE) * part // 16
        if at_b < b0:
            return None
        probe = b[at_b : at_b + PROBE]
        at_a = a.find(probe, a0, a1)
        if (
            at_a >= 0
            and a.find(probe, at_a + 1, a1) < 0
            and b.find(probe, b0, b1) == at_b
            and b.find(probe, at_b + 1, b1) < 0
        ):
            return at_a, at_b
    return None


def _common_start(a: str, a0: int, a1: int, b: str, b0: int, b1: int) -> int:
    """How many characters ``a[a0:a1]`` and ``b[b0:b1]`` start with alike."""
    n, done, step = min(a1 - a0, b1 - b0), 0, CHUNK
    while done < n and step:
        step = min(step, n - done)
        if a[a0 + done : a0 + done + step] == b[b0 + done : b0 + done + step]:
            done += step
        else:
            step //= 2
    return done


def _common_end(a: str, a0: int, a1: int, b: str, b0: int, b1: int) -> int:
    """How many characters ``a[a0:a1]`` and ``b[b0:b1]`` end with alike."""
    n, done, step = min(a1 - a0, b1 - b0), 0, CHUNK
    while done < n and step:
        step = min(step, n - done)
        if a[a1 - done - step : a1 - done] == b[b1 - done - step : b1 - done]:
            done += step
        else:
            step //= 2
    return done


def _starts_line(text: str, at: int) -> bool:
    return at == 0 or text[at - 1] == "\n"


def _spans(a: str, b: str, regions: list[Region]) -> list[Region]:
    """The regions widened to the whole lines they touch, joined where they share a line.

    Each end is moved through the text between two regions, which is the same on both sides, so
    a span starts and ends at the start of a line in both.
    """
    out: list[Region] = []
    for a0, a1, b0, b1 in regions:
        if not out:
            start = a.rfind("\n", 0, a0) + 1
            out.append((start, a1, b0 - (a0 - start), b1))
            continue
        p0, p1, q0, q1 = out[-1]
        ends_line = _starts_line(a, p1) and _starts_line(b, q1)
        first, last = a.find("\n", p1, a0), a.rfind("\n", p1, a0)
        if last < 0 and not ends_line:
            out[-1] = (p0, a1, q0, b1)  # one line holds the end of one and the start of the other
            continue
        end = p1 if ends_line else first + 1
        out[-1] = (p0, end, q0, q1 + (end - p1))
        start = p1 if last < 0 else last + 1
        out.append((start, a1, b0 - (a0 - start), b1))
    p0, p1, q0, q1 = out[-1]
    end = p1 if _starts_line(a, p1) and _starts_line(b, q1) else _down(a, p1, 1)
    out[-1] = (p0, end, q0, q1 + (end - p1))
    return out


def _windows(a: str, spans: list[Region]) -> list[list[Region]]:
    """The spans in groups that share their context (the lines between are few)."""
    out: list[list[Region]] = []
    for span in spans:
        if out and a.count("\n", out[-1][-1][1], span[0]) <= 2 * CONTEXT:
            out[-1].append(span)
        else:
            out.append([span])
    return out


def _up(text: str, at: int, count: int) -> int:
    """The start of the line *count* lines above the one starting at *at* (or of the first)."""
    for _ in range(count):
        if at == 0:
            break
        at = text.rfind("\n", 0, at - 1) + 1
    return at


def _down(text: str, at: int, count: int) -> int:
    """The start of the line *count* lines below the one starting at *at* (or the end)."""
    for _ in range(count):
        found = text.find("\n", at)
        if found < 0:
            return len(text)
        at = found + 1
    return at


def line_kind(line: str) -> Literal["header", "hunk", "added", "removed", "context"]:
    """What a line of :func:`unified`'s diff is, for showing it."""
    if line.startswith(("--- ", "+++ ")):
        return "header"
    if line.startswith("@@"):
        return "hunk"
    if line.startswith("+"):
        return "added"
    if line.startswith("-"):
        return "removed"
    return "context"
