"""Linux: a process's fields in ``/proc/<pid>/stat``, read as the kernel writes them."""

from __future__ import annotations


def stat_fields(pid: int | str) -> list[bytes] | None:
    """The fields after the command name (state first, then ppid, pgrp, ...; field 3 of the
    line is index 0); None when the process is gone or cannot be read.

    The command name, in parentheses, may hold spaces and parentheses: the fields follow the
    last one."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    return stat[stat.rfind(b")") + 2 :].split()
