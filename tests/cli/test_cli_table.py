"""The tables the commands print: aligned by the columns a cell takes on a terminal, every cell
made safe to show, the same text whether every cell is plain ASCII (measured in C) or not."""

from __future__ import annotations

import pytest

from roots_manager.cli.text import shown, table, width


def _reference(rows: list[list[str]], headers: list[str]) -> str:
    """The table cell by cell: each made safe, measured, padded; each line's end trimmed."""
    cells = [headers, *[[shown(c) for c in row] for row in rows]]
    widths = [max(width(r[i]) for r in cells) for i in range(len(headers))]
    lines = [
        "  ".join(c + " " * (w - width(c)) for c, w in zip(r, widths, strict=True)) for r in cells
    ]
    return "\n".join(line.rstrip() for line in lines) + "\n"


PLAIN = [
    ["a", "/x/y", "yes", "fs, git (while running)", "file:///x/y"],
    ["bb", "/", "no", "-", "u"],
]
CASES = {
    "plain": PLAIN,
    "spaces at the ends": [[" a ", "b ", "", "c  ", "d "], ["e", "", " ", "", ""]],
    "a wide name": [*PLAIN, ["日本語", "/日本", "yes", "-", "file:///%E6%97%A5"]],
    "a control character": [*PLAIN, ["a\x1b[31m", "/x\ty", "yes", "-", "u"]],
    "a byte that is not UTF-8": [["n\udcff", "/p", "yes", "-", "u"]],
    "a combining mark": [["e\u0301", "/p", "yes", "-", "u"], *PLAIN],
    "no rows": [],
}


@pytest.mark.parametrize("rows", CASES.values(), ids=CASES.keys())
def test_a_table_is_aligned_and_safe_whatever_its_cells(
    rows: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    headers = ["NAME", "PATH", "AVAILABLE", "GRANTED TO", "URI"]
    table(rows, headers)
    assert capsys.readouterr().out == _reference(rows, headers)
