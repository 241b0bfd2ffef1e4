"""A ``uv run --directory DIR`` server (the Python quickstart's launch), or ``uv run`` started
in its project's folder, gets its project's environment layered: Python writes its bytecode there at each start, which read-only it could
not (every module compiled again at every start), and what it writes stays in a layer of its
own: the user's ``.venv`` is never rewritten, and its next start finds its bytecode again. A
layer kept for one project is never laid over another's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import only_on_linux
from tests.security.confined import Hostile, World, derived, run_by, users

pytestmark = only_on_linux("confinement is tested on Linux (Landlock and seccomp)")
REFUSED = ("EROFS", "EBUSY", "EACCES", "EPERM", "EXDEV")


def _project(world: World, name: str, text: str) -> tuple[Path, Path]:
    """A uv project beside the grants, with an environment holding one module; its folder and
    the module's."""
    project = world.home / name
    module = project / ".venv" / "lib" / "python3.11" / "site-packages" / "mcp" / "server.py"
    module.parent.mkdir(parents=True)
    module.write_text(text, encoding="utf-8")
    (project / "pyproject.toml").write_text(f'[project]\nname = "{name}"\n', encoding="utf-8")
    return project, module


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_uv_projects_environment_is_the_servers_to_write_in_a_layer(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    project, module = _project(world, "weather", "# the user's\n")
    other, others = _project(world, "other", "# the other project's\n")
    world.setup()
    command = run_by(world, "uv", "run", "--directory", str(project))
    bytecode = module.parent / "__pycache__" / "server.cpython-311.pyc"
    host = Hostile(world, command)
    try:
        assert host.attack("create", path=str(bytecode)) == "ok"
        assert host.attack("replace", path=str(module)) == "ok"
        assert host.attack("read", path=str(module)) == "ok:planted"
        # the project itself, and the other one, are not its to write
        assert host.attack("create", path=str(project / "planted.py")) in REFUSED
        assert host.attack("replace", path=str(others)) in REFUSED
    finally:
        host.close()
    assert module.read_text(encoding="utf-8") == "# the user's\n"
    assert not bytecode.parent.exists()
    assert not (project / "planted.py").exists()
    shown = derived(world, monkeypatch)
    assert shown[str(project / ".venv")]["access"] == "layered", shown
    assert "bytecode" in shown[str(project / ".venv")]["why"], shown
    # its next start finds its bytecode again
    host = Hostile(world, command)
    try:
        assert host.attack("read", path=str(bytecode)) == "ok:planted"
    finally:
        host.close()
    # run in another project now: the layer kept for the first covers nothing of it
    host = Hostile(world, run_by(world, "uv", "run", "--directory", str(other)))
    try:
        moved = others.parent / "__pycache__" / "server.cpython-311.pyc"
        assert host.attack("read", path=str(moved)) != "ok:planted"
        assert host.attack("read", path=str(others)) == "ok:# the other project's\n"
    finally:
        host.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_uv_run_started_in_its_project_gets_the_project_uv_finds_there_layered(
    world: World,
) -> None:
    """A host that starts the server in its project's folder (``uv run server.py`` there, no
    option naming the project): uv finds the project from the working folder, and so does
    derivation; its environment is layered as a named project's is (before, read-only: every
    module compiled again at each start, 2.4 s a warm start against 0.9 s direct)."""
    project, module = _project(world, "weather", "# the user's\n")
    (project / "tools").mkdir()
    world.setup()
    bytecode = module.parent / "__pycache__" / "server.cpython-311.pyc"
    host = Hostile(world, run_by(world, "uv", "run"), cwd=project / "tools")
    try:
        assert host.attack("create", path=str(bytecode)) == "ok"
        assert host.attack("replace", path=str(module)) == "ok"
        assert host.attack("read", path=str(module)) == "ok:planted"
        assert host.attack("create", path=str(project / "planted.py")) in REFUSED
    finally:
        host.close()
    assert module.read_text(encoding="utf-8") == "# the user's\n"
    assert not bytecode.parent.exists()
    assert not (project / "planted.py").exists()
