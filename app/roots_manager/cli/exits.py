"""The exit codes of ``roots-manager``, and the list of them that ``--help`` ends with.

Scripts and hosts branch on these numbers, so they are a contract: each is named once here, and
the help text is made from the same names, so the two cannot drift apart.
"""

from __future__ import annotations

EXIT_DONE = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_STORE = 3
EXIT_INTERRUPTED = 130

MEANINGS = {
    EXIT_DONE: "done (also when a reader such as head quits early, and when log --follow or "
    "effective --watch is stopped with Ctrl-C)",
    EXIT_REFUSED: "refused or failed: the message says why (a probe that did not complete, a "
    "notify some bridge did not take, a restart some bridge did not do, a host file that could "
    "not be changed or, for hosts list, read)",
    EXIT_USAGE: "bad usage: an unknown command or option, or a missing argument",
    EXIT_STORE: "the store cannot be used as it is: the message names the file and the way out "
    "(store check exits 3 for a damaged store)",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C)",
}

EPILOG = (
    "exit codes:\n"
    + "\n".join(f"  {code:<3}  {text}" for code, text in MEANINGS.items())
    + "\nroots-manager bridge exits as roots-bridge does (roots-bridge --help lists its codes)."
)
