"""Finding project folders in a generated tree."""

from __future__ import annotations

import os
from pathlib import Path

from roots_manager.core.roots.projects import ScanProgress, project_markers, scan


def make_tree(base: Path) -> dict[str, Path]:
    """A tree of projects of several kinds, with traps the scan must not fall into."""
    p = {
        "git": base / "code" / "app-git",
        "worktree": base / "code" / "worktree",
        "py": base / "code" / "python-lib",
        "node": base / "web" / "site",
        "rust": base / "deep" / "a" / "b" / "c" / "crate",
        "dotnet": base / "dotnet" / "Solution",
        "go": base / "go-svc",
    }
    (p["git"] / ".git").mkdir(parents=True)
    p["worktree"].mkdir(parents=True)
    (p["worktree"] / ".git").write_text("gitdir: /elsewhere/.git/worktrees/w\n")
    p["py"].mkdir(parents=True)
    (p["py"] / "pyproject.toml").write_text("[project]\nname='x'\n")
    # a project inside a project: not offered separately
    (p["py"] / "sub" / "inner").mkdir(parents=True)
    (p["py"] / "sub" / "inner" / "package.json").write_text("{}")
    p["node"].mkdir(parents=True)
    (p["node"] / "package.json").write_text("{}")
    p["rust"].mkdir(parents=True)
    (p["rust"] / "Cargo.toml").write_text("[package]\n")
    p["dotnet"].mkdir(parents=True)
    (p["dotnet"] / "App.sln").write_text("")
    p["go"].mkdir(parents=True)
    (p["go"] / "go.mod").write_text("module x\n")
    # traps: dependencies and virtual environments full of markers
    nm = base / "web" / "node_modules" / "left-pad"
    nm.mkdir(parents=True)
    (nm / "package.json").write_text("{}")
    venv = base / "myenv"
    (venv / "lib" / "site" / "pkg").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr\n")
    (venv / "lib" / "site" / "pkg" / "setup.py").write_text("")
    # a link loop must not make the scan run forever
    os.symlink(base, base / "code" / "loop")
    (base / "empty" / "nothing").mkdir(parents=True)
    return p


def test_scan_finds_every_kind_of_project_and_skips_traps(tmp_path: Path) -> None:
    p = make_tree(tmp_path)
    reports: list[tuple[int, int]] = []
    result = scan(str(tmp_path), progress=lambda s: reports.append((s.done, s.total)))
    found = {proj.path: proj.markers for proj in result.projects}
    assert set(found) == {str(v) for v in p.values()}
    assert found[str(p["git"])] == (".git",)
    assert found[str(p["worktree"])] == (".git",)
    assert found[str(p["dotnet"])] == ("App.sln",)
    assert not result.cancelled
    assert reports[-1][0] == reports[-1][1] == len(os.listdir(tmp_path)) - 0
    assert result.visited > 5


def test_a_project_at_the_top_is_the_only_result(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "package.json").write_text("{}")
    result = scan(str(tmp_path))
    assert [pr.path for pr in result.projects] == [str(tmp_path)]
    assert project_markers(str(tmp_path)) == ("pyproject.toml",)


def test_cancel_stops_the_scan_and_keeps_what_was_found(tmp_path: Path) -> None:
    for i in range(30):
        d = tmp_path / f"p{i:02d}"
        d.mkdir()
        (d / "go.mod").write_text("")
    seen: list[ScanProgress] = []

    def cancelled() -> bool:
        return len(seen) > 0 and seen[-1].done >= 5

    result = scan(
        str(tmp_path),
        cancelled=cancelled,
        progress=lambda s: seen.append(ScanProgress(s.done, s.total, s.visited, s.current)),
    )
    assert result.cancelled
    assert 5 <= len(result.projects) < 30
    assert [pr.name for pr in result.projects][:5] == ["p00", "p01", "p02", "p03", "p04"]


def test_depth_limit_and_unreadable_folders(tmp_path: Path) -> None:
    deep = tmp_path.joinpath(*[f"d{i}" for i in range(12)])
    deep.mkdir(parents=True)
    (deep / "Cargo.toml").write_text("")
    assert scan(str(tmp_path), max_depth=4).projects == []
    assert [pr.path for pr in scan(str(tmp_path), max_depth=20).projects] == [str(deep)]
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        result = scan(str(tmp_path), max_depth=20)
    finally:
        locked.chmod(0o700)
    assert [pr.path for pr in result.projects] == [str(deep)]
