"""The test suite is collected on every platform: no test module uses, as it is imported, a
name that only POSIX has (a parametrize list with ``signal.SIGHUP`` stops the whole module from
being collected on Windows, and CI's Windows job with it)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).parent

POSIX_MODULES = {"fcntl", "grp", "posix", "pty", "pwd", "resource", "syslog", "termios", "tty"}
WINDOWS_SIGNALS = {"SIGABRT", "SIGBREAK", "SIGFPE", "SIGILL", "SIGINT", "SIGSEGV", "SIGTERM"}
POSIX_OS = {
    "fork", "getgid", "getpgid", "getuid", "geteuid", "killpg", "mkfifo", "setsid", "sysconf",
    "getloadavg", "O_NOFOLLOW", "O_NONBLOCK", "O_DIRECTORY", "O_CLOEXEC", "WNOHANG",
}  # fmt: skip


def run_on_import(tree: ast.Module) -> Iterator[ast.AST]:
    """The nodes a module runs when imported: all but the bodies of functions (their
    decorators and default values do run, and so do class bodies)."""
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            todo += [*node.decorator_list, *node.args.defaults]
            todo += [d for d in node.args.kw_defaults if d is not None]
            continue
        if isinstance(node, ast.Lambda):
            continue
        yield node
        todo += ast.iter_child_nodes(node)


def posix_signal(name: str) -> bool:
    return name.startswith("SIG") and not name.startswith("SIG_") and name not in WINDOWS_SIGNALS


def posix_only(node: ast.AST) -> str | None:
    if isinstance(node, ast.Import | ast.ImportFrom):
        modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
        for m in modules:
            if m and m.split(".")[0] in POSIX_MODULES:
                return f"import {m}"
        if isinstance(node, ast.ImportFrom) and node.module in ("os", "signal"):
            for a in node.names:
                if a.name in POSIX_OS or posix_signal(a.name):
                    return f"from {node.module} import {a.name}"
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id == "signal" and posix_signal(node.attr):
            return f"signal.{node.attr}"
        if node.value.id == "os" and node.attr in POSIX_OS:
            return f"os.{node.attr}"
    return None


def test_no_test_module_uses_a_posix_only_name_as_it_is_imported() -> None:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        if "node_modules" in path.parts:
            continue
        for node in run_on_import(ast.parse(path.read_text(encoding="utf-8"))):
            name = posix_only(node)
            if name is not None:
                found.append(f"{path.relative_to(TESTS)}:{getattr(node, 'lineno', '?')} {name}")
    assert found == []


def test_the_check_sees_what_it_looks_for() -> None:
    module = ast.parse(
        "import fcntl\nfrom signal import SIGKILL\nimport signal, os, pytest\n"
        "@pytest.mark.parametrize('s', [signal.SIGHUP])\ndef test(s, u=os.getuid()):\n"
        "    signal.SIGUSR1\n"
    )
    names = sorted(n for n in map(posix_only, run_on_import(module)) if n is not None)
    assert names == ["from signal import SIGKILL", "import fcntl", "os.getuid", "signal.SIGHUP"]
