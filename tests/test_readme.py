"""The README's instructions agree with what CI really does."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def ci_packages() -> list[str]:
    lines = (REPO / ".ci" / "system-packages").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def apt_lines(text: str) -> list[str]:
    """What each ``sudo apt-get install`` line of *text* installs, as written."""
    return re.findall(r"^sudo apt-get install (?:--no-install-recommends )?(.+)$", text, re.M)


def test_the_app_and_the_development_page_name_every_package_ci_installs_once() -> None:
    # the README's first line installs what the app needs, the development page's what the
    # tests and the packaging need besides: together, in order, the list CI installs
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    development = (REPO / "docs" / "development.md").read_text(encoding="utf-8")
    assert len(apt_lines(readme)) == 2, "the README has two apt-get lines: the app's, the tests'"
    app = apt_lines(readme)[0].split()
    [others] = apt_lines(development)
    assert app + others.split() == ci_packages()
    assert "libxcb-cursor0" in app  # what Qt's xcb plugin misses on a fresh Debian
    assert "python3-venv" in app  # the README's venv, on the system's Python
    run = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert ".ci/system-packages" in run, ".ci/run installs another list than the README's"


def commands(text: str) -> list[list[str]]:
    """The lines of each shell code block of *text*."""
    return [
        block.strip().splitlines() for block in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)
    ]


def test_the_readme_installs_before_it_runs_the_app_and_the_tests() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = commands(readme)
    app, tests = blocks[0], blocks[1]
    assert len(app) == 2 and app[0].startswith("sudo apt-get install ")
    assert app[1].endswith("pip install -e . && roots-manager --demo")
    assert len(tests) == 2 and tests[1].endswith("scripts/test")
    # the tests' apt-get line installs every package CI installs: what it expands to, in bash
    [listed] = re.findall(r"^sudo apt-get install --no-install-recommends (\$\(.*\))$", tests[0])
    out = subprocess.run(
        ["bash", "-c", f"printf '%s\\n' {listed}"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split() == ci_packages()


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
