"""The code map in docs/development.md names every package and module under app/roots_manager,
and nothing that is not there.

The map is the fenced block that starts with ``app/roots_manager/``. A package is a line whose
first word ends in ``/``, indented two spaces per level below ``app/roots_manager/``; the lines
after it, up to the next package, are its description, and name its modules as ``name.py`` (or
``name.c`` for a C hot path). ``__init__.py`` need not be named. The block ends at the next line
that starts in the first column (``resources/``, ``tests/``, ...).
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "app" / "roots_manager"
DEVELOPMENT = REPO / "docs" / "development.md"
ROOT = "app/roots_manager/"

PACKAGE_LINE = re.compile(r"^(?P<indent> +)(?P<name>[a-z_][a-z0-9_]*)/(?:\s|$)")
MODULE = re.compile(r"(?<![\w/.])(?P<name>[A-Za-z_]\w*)\.(?:py|c)\b")
DEEPEST = 3
"""Package lines are indented at most this many levels: a description's lines, indented
further, are never taken for a package even when a word of theirs ends in ``/``."""

Names = dict[str, set[str]]
"""Each package (its path below app/roots_manager, ``""`` for the package itself) and the
module names it holds or is said to hold (``uri.py``)."""


def map_lines(text: str) -> list[str]:
    """The lines of the code map: from ``app/roots_manager/`` to the next unindented line."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.rstrip() == ROOT]
    assert len(starts) == 1, f"docs/development.md has no single code map starting {ROOT}"
    block = []
    for line in lines[starts[0] + 1 :]:
        if line.startswith("```") or (line and not line[0].isspace()):
            break
        block.append(line)
    return block


def mapped(text: str) -> Names:
    """The packages the map names, and the modules named in each one's description."""
    names: Names = {"": set()}
    stack = [""]  # the package at each level, the root first
    current = ""
    for line in map_lines(text):
        found = PACKAGE_LINE.match(line)
        indent = len(found.group("indent")) if found else 0
        if found and indent <= 2 * DEEPEST:
            assert indent % 2 == 0, f"a package line is indented two spaces a level: {line!r}"
            level = indent // 2
            assert level <= len(stack), f"a package below no package: {line!r}"
            del stack[level:]
            current = "/".join(filter(None, [stack[-1], found.group("name")]))
            assert current not in names, f"{current}/ is in the map twice"
            names[current] = set()
            stack.append(current)
            line = line[found.end() :]
        names[current] |= {m.group(0) for m in MODULE.finditer(line)}
    return names


def on_disk(package: Path) -> Names:
    """Every package under *package* (a folder holding Python or C, with or without an
    ``__init__.py``) and the modules each holds (``__init__.py`` left out)."""
    names: Names = {}
    for folder in [package, *sorted(package.rglob("*"))]:
        if not folder.is_dir() or "__pycache__" in folder.parts:
            continue
        sources = {p.name for p in folder.iterdir() if p.is_file() and p.suffix in (".py", ".c")}
        if sources:
            key = folder.relative_to(package).as_posix()
            names["" if key == "." else key] = sources - {"__init__.py"}
    return names


def differences(map_names: Names, disk_names: Names) -> list[str]:
    """What the map lacks and what it names that is not there, one sentence each."""
    out = []
    for package in sorted(disk_names.keys() - map_names.keys()):
        out.append(f"the map has no line for the package {package}/")
    for package in sorted(map_names.keys() - disk_names.keys()):
        out.append(f"the map names the package {package}/, which does not exist")
    for package in sorted(map_names.keys() & disk_names.keys()):
        where = f"{package}/" if package else ROOT
        for module in sorted(disk_names[package] - map_names[package]):
            out.append(f"the map does not name {module} in {where}")
        for module in sorted(map_names[package] - disk_names[package]):
            out.append(f"the map names {module} in {where}, which is not there")
    return out


def test_the_code_map_names_every_package_and_module_and_nothing_else() -> None:
    problems = differences(mapped(DEVELOPMENT.read_text(encoding="utf-8")), on_disk(PACKAGE))
    assert not problems, "docs/development.md's code map is out of date:\n" + "\n".join(problems)


SAMPLE = """\
Text before.

```
app/roots_manager/
  top.py        a module of the package itself
  a/            one.py and two.py; tests/a/test_one.py is not a module of a/
    b/          three.py, and a word/ that is no package
                lines/ of its own are its description too: four.c
  c/            five.py
resources/      six.py is outside the map
```
"""


def test_the_reader_finds_packages_by_indentation_and_modules_by_name() -> None:
    assert mapped(SAMPLE) == {
        "": {"top.py"},
        "a": {"one.py", "two.py"},
        "a/b": {"three.py", "four.c"},
        "c": {"five.py"},
    }


def test_a_module_added_or_gone_is_told(tmp_path: Path) -> None:
    for folder in (".", "a", "a/b", "c"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "__init__.py").write_text("")
    for name in ("top.py", "a/one.py", "a/two.py", "a/b/three.py", "a/b/four.c", "c/five.py"):
        (tmp_path / name).write_text("")
    assert differences(mapped(SAMPLE), on_disk(tmp_path)) == []
    (tmp_path / "a" / "b" / "new.py").write_text("")
    (tmp_path / "c" / "five.py").unlink()
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "__init__.py").write_text("")
    assert differences(mapped(SAMPLE), on_disk(tmp_path)) == [
        "the map has no line for the package d/",
        "the map does not name new.py in a/b/",
        "the map names five.py in c/, which is not there",
    ]
