"""The README's instructions agree with what CI really does."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def ci_packages() -> list[str]:
    lines = (REPO / ".ci" / "system-packages").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_the_readme_names_the_system_packages_ci_installs() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    lines = re.findall(r"^sudo apt-get install (?:--no-install-recommends )?(.+)$", readme, re.M)
    assert len(lines) == 1, "the README has one apt-get line"
    assert lines[0].split() == ci_packages()
    assert "libxcb-cursor0" in ci_packages()  # what Qt's xcb plugin misses on a fresh Debian
    run = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert ".ci/system-packages" in run, ".ci/run installs another list than the README's"


def test_the_test_command_says_what_it_needs_and_installs_nothing() -> None:
    script = (REPO / "scripts" / "test").read_text(encoding="utf-8")
    for tool in ("desktop-file-validate", "appstreamcli"):
        assert f"command -v {tool}" in script
    assert not re.search(r"\b(apt-get|brew|pip) install\b", script)


def test_the_readme_is_a_front_door_whose_links_all_lead_somewhere() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150, "the manual belongs in docs/"
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    assert any(link.startswith("docs/") for link in links)
    for link in links:
        if "://" not in link:
            assert (REPO / link).exists(), f"the README links {link}, which does not exist"


def test_ci_installs_with_pipx_what_the_readme_says() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    lines = re.findall(r"^pipx install dist/(\S+)", readme, re.M)
    assert len(lines) == 1, "the README has one pipx install line, the users' first way in"
    run = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert f'pipx install "$out"/{lines[0]}\n' in run, ".ci/run installs another wheel with pipx"
    assert 'check-install --bin "$out/pipx/bin"' in run, ".ci/run does not run what pipx installed"
