"""Help text that keeps its lists: both commands' ``--help`` ends with a list of exit codes.

argparse fills a description or an epilog as one paragraph, so a list of codes would run
together into one line; RawDescriptionHelpFormatter would keep it but fill nothing, and a
long line would then run past the terminal's edge.
"""

from __future__ import annotations

import argparse
import re


class LinesHelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, but each line of a description or an epilog is filled on its own,
    so that a list (the exit codes) stays a list: an indented line's first word stands out and
    the rest of it hangs beside that word."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap  # as argparse does: only when help is shown

        out = []
        for line in text.splitlines():
            hanging = re.match(r"\s+\S+\s+", line)
            head = hanging.group(0) if hanging else ""
            words = " ".join(line[len(head) :].split())
            out.append(
                textwrap.fill(
                    words,
                    width,
                    initial_indent=indent + head,
                    subsequent_indent=indent + " " * len(head),
                    break_on_hyphens=False,
                )
                if words
                else ""
            )
        return "\n".join(out)
