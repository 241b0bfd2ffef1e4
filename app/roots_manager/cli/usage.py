"""Usage mistakes on the ``roots-manager`` command line, answered with what was probably meant.

``argparse`` says "invalid choice" or "unrecognized arguments" and stops; it suggests a near miss
only from Python 3.14 on, and only for choices. :class:`Parser` adds a "did you mean" line,
found with :mod:`difflib` over the parser tree itself: a mistyped command (``grnat``), a
mistyped option (``--jsn``), an option given to a group that only its actions take
(``servers --json``: ``servers list --json``). Under ``--json`` the mistake is one error
document on stdout, as every other failure is.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import re
import shlex
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, TypeAlias

from roots_manager.cli.errors import EXIT_USAGE, error_json
from roots_manager.cli.text import print_json

_ARGUMENT = re.compile(r"argument (?P<name>[^:]+): ")
_INVALID_CHOICE = re.compile(r"invalid choice: (?P<value>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")


# argparse has no public view of its own tree; ``_actions`` and ``_SubParsersAction`` are what
# every tool that reads a parser (shtab, argparse-manpage, sphinx-argparse) reads.


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The subcommands of *parser* by name (none for a leaf command)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def options(parser: argparse.ArgumentParser) -> list[str]:
    """The long options *parser* takes, as typed (hidden ones too: they still work)."""
    return [s for a in parser._actions for s in a.option_strings if s.startswith("--")]


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors say what was probably meant."""

    def __init__(self, *args: Any, top: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.top = top
        """Whether this is the whole command line's parser, not a command's."""
        self._argv: list[str] = []
        self._json = True

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        # each parser of the tree keeps what it was given: its error looks at those words
        self._argv = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(self._argv, namespace)

    def refuse(self, argv: Sequence[str], message: str) -> NoReturn:
        """Fail as a usage error of *argv*, a command line this parser did not read itself: the
        desktop app's, which takes no ``--json`` (given there, it is the mistake)."""
        self._argv = list(argv)
        self._json = False
        self.error(message)

    def error(self, message: str) -> NoReturn:
        """Print the usage error with a "did you mean" when one is close, and exit 2."""
        meant = did_you_mean(self, self._argv, message)
        if self._json and "--json" in self._argv:
            print_json(error_json("usage", message, did_you_mean=meant))
        else:
            self.print_usage(sys.stderr)
            print(f"{self.prog}: error: {message}", file=sys.stderr)
            for line in meant:
                print(f"did you mean: {line}", file=sys.stderr)
        self.exit(EXIT_USAGE)


Subcommands: TypeAlias = "argparse._SubParsersAction[Parser]"
"""The subcommands of a parser, as each command group's ``add_commands`` fills them."""


def did_you_mean(parser: argparse.ArgumentParser, argv: Sequence[str], message: str) -> list[str]:
    """Whole command lines close to *argv*, which *parser* refused with *message*."""
    words = list(argv)
    choice = _INVALID_CHOICE.search(message)
    if choice is not None:
        value = ast.literal_eval(choice.group("value"))
        named = _ARGUMENT.match(message)
        with_choices = [a for a in parser._actions if a.choices is not None]
        of = [a for a in with_choices if named is not None and _name(a) == named.group("name")]
        candidates = [str(c) for a in of or with_choices for c in a.choices or ()]
        return [
            _line(parser, words, value, near)
            for near in difflib.get_close_matches(value, candidates, n=3)
        ]
    # walk down the commands the words name, then look at the options none of them takes
    path = [parser]
    for w in words:
        sub = subcommands(path[-1])
        if w in sub:
            path.append(sub[w])
    known = {o for p in path for a in p._actions for o in a.option_strings}
    unknown = [w for w in words if w.startswith("--") and w.split("=")[0] not in known]
    leaf = path[-1]
    out = []
    for w in unknown:
        name, eq, value = w.partition("=")
        near = difflib.get_close_matches(name, options(leaf), n=1)
        if near:
            out.append(_line(parser, words, w, near[0] + eq + value))
            continue
        # an option of a group's actions, given to the group: name the action it belongs to
        # (not at the top, where every command would do)
        group = {} if getattr(leaf, "top", False) else subcommands(leaf)
        for action in sorted(group, key=lambda n: n != "list"):  # the report first
            near = difflib.get_close_matches(name, options(group[action]), n=1)
            if near:
                out.append(_line(parser, words, w, [action, near[0] + eq + value]))
                break
    return out


def _name(action: argparse.Action) -> str:
    """What argparse calls *action* in its messages ("argument NAME: ...")."""
    if action.option_strings:
        return "/".join(action.option_strings)
    if action.metavar not in (None, argparse.SUPPRESS):
        return str(action.metavar)
    return str(action.dest)


def _line(
    parser: argparse.ArgumentParser, words: list[str], wrong: str, right: str | list[str]
) -> str:
    """The command line of *words* with the word *wrong* (or the value of ``--opt=wrong``)
    replaced by *right*."""
    fixed = list(words)
    for i, w in enumerate(words):
        if w == wrong:
            fixed[i : i + 1] = [right] if isinstance(right, str) else right
            break
        if w.startswith("--") and w.endswith("=" + wrong) and isinstance(right, str):
            fixed[i] = w[: -len(wrong)] + right
            break
    return " ".join([parser.prog, *map(shlex.quote, fixed)])
