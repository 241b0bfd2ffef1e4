"""What a confined server may put in a git folder: nothing the user's own ``git`` would run.

git trusts a repository's git folder whole: its ``config`` names commands (``core.fsmonitor``
runs at every ``git status``, ``core.pager`` at every ``git log``, a ``credential.helper``, a
``diff`` driver), its ``hooks`` are programs, ``commondir`` names the folder whose ``config``
applies, and a folder holding ``HEAD``, ``objects`` and ``refs`` is a repository of its own
wherever it is (a bare one, found by any ``git`` run inside). Shell prompts and editors run
``git status`` in every folder the user opens. So a repository a confined server makes in a
writable grant (``git init``, ``git clone``) would run the server's commands outside its box
the next time the user, or their prompt, looks at it. The supervisor (:mod:`roots_manager.
sandbox.making`) holds every git folder in a grant to these rules, whoever made it:

- its ``config`` and ``config.worktree`` are never opened to write, linked or made directly:
  only renamed into place (git's own ``config.lock``), and then only if every setting in them
  is one of :data:`SETTINGS` (what ``git init``, ``git clone`` and ``git config user.name``
  write); the supervisor writes the checked bytes as a new, read-only file of its own, so a
  descriptor the server kept on what it renamed writes nothing that git reads, and the server
  (with no capability, and refused a change of its mode or ACL) cannot open it to write;
- nothing is made in its ``hooks`` but git's samples (``*.sample``, which git never runs), and
  ``hooks`` is only ever made as a new, empty folder;
- no ``commondir`` is made (a worktree's pointer to the folder whose ``config`` applies);
- no ``HEAD`` is made outside a git folder (a bare repository), and no folder is moved into or
  out of one (a git folder is only made where it is).

A *git folder* is any folder with ``.git`` among the parts of its path: ``.git`` itself and
everything in it (``modules/*``, ``worktrees/*``).
"""

from __future__ import annotations

import re

GIT = b".git"
CONFIGS = (b"config", b"config.worktree")
HOOKS = b"hooks"
SAMPLE = b".sample"
NEVER_MADE = (b"commondir",)
BARE = b"HEAD"
"""The name whose making outside a git folder makes a bare repository (with ``objects`` and
``refs``, which are ordinary names anywhere)."""
MODE = 0o444
"""A checked config's mode: readable, written by no one but by a rename (as git writes it)."""
SIZE = 1 << 20
"""The largest ``config`` read to be checked; a larger one is refused."""

SETTINGS: dict[str, frozenset[str]] = {
    # section (lower case; "*" after the dot: any subsection) -> its keys (lower case)
    "core": frozenset(
        {
            "repositoryformatversion",
            "filemode",
            "bare",
            "logallrefupdates",
            "ignorecase",
            "precomposeunicode",
            "symlinks",
            "autocrlf",
            "eol",
            "safecrlf",
            "sparsecheckout",
            "sparsecheckoutcone",
            "compression",
            "quotepath",
            "checkstat",
            "trustctime",
            "abbrev",
            "sharedrepository",
        }
    ),
    "extensions": frozenset(
        {"objectformat", "worktreeconfig", "refstorage", "partialclone", "preciousobjects"}
    ),
    "remote.*": frozenset(
        {"url", "pushurl", "fetch", "push", "tagopt", "mirror", "prune", "promisor"}
        | {"partialclonefilter"}
    ),
    "branch.*": frozenset({"remote", "merge", "rebase", "pushremote", "description"}),
    "user": frozenset({"name", "email"}),
    "init": frozenset({"defaultbranch"}),
    "submodule.*": frozenset({"url", "active", "branch"}),
    "pull": frozenset({"rebase", "ff"}),
    "push": frozenset({"default", "autosetupremote"}),
    "fetch": frozenset({"prune"}),
    "lfs": frozenset({"repositoryformatversion"}),
}
"""The settings a confined server may write in a git folder's ``config``: none runs a
command, names a program or a file of settings, or sends the user's fetches elsewhere than the
remote itself (no ``url.*.insteadOf``, ``http.*``, ``include``, ``core.fsmonitor``,
``core.hooksPath``, ``core.pager``, ``core.sshCommand``, ``credential.*``, ``diff.*``,
``filter.*``, ``merge.*``, ``submodule.*.update``, ``remote.*.vcs``, ``remote.*.uploadpack``).
Any other setting refuses the whole file, named in the refusal."""

_SECTION = re.compile(rb'\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\\n]|\\.)*)")?\s*\]\s*(?:[#;].*)?')
_KEY = re.compile(rb"([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?")


def in_git_folder(where: str) -> bool:
    """Whether the folder at path *where* is a git folder (``.git`` among its parts)."""
    return "/.git/" in where + "/"


def refused_setting(data: bytes) -> str | None:
    """Why the git ``config`` *data* may not be written by a confined server: the first
    setting outside :data:`SETTINGS`, or a line this check does not read as git does (it reads
    a strict part of git's syntax: a line is a section, a ``key = value`` or a comment); None
    when it may."""
    if len(data) > SIZE:
        return f"more than {SIZE} bytes"
    if b"\0" in data:
        return "a NUL byte"
    section: str | None = None
    for number, raw in enumerate(data.split(b"\n"), 1):
        line = raw.rstrip(b"\r").strip(b" \t")
        if not line or line[:1] in (b"#", b";"):
            continue
        if line.startswith(b"["):
            head = _SECTION.fullmatch(line)
            if head is None:
                return f"line {number} is not a section git and this check read alike"
            name = head.group(1).decode("ascii").lower()
            if "." in name:  # the old [section.subsection] spelling
                return f"line {number} names a section the old way ({name})"
            section = name if head.group(2) is None else f"{name}.*"
            continue
        entry = _KEY.fullmatch(line)
        if entry is None or section is None:
            return f"line {number} is not a setting git and this check read alike"
        value = entry.group(2) or b""
        trailing = len(value) - len(value.rstrip(b"\\"))
        if trailing % 2:  # a value continued on the next line
            return f"line {number} goes on to the next"
        key = entry.group(1).decode("ascii").lower()
        if key not in SETTINGS.get(section, frozenset()):
            shown = section.replace(".*", ".<name>")
            return f"the setting {shown}.{key}, not one a confined server may write"
    return None
