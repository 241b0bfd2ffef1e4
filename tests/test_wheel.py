"""The wheels PyPI takes, as packaging/build-wheels makes them: each installed in a fresh venv
(with its dependencies, as a user's pip would), a real bridge run through it by
packaging/check-install, and the resources (an icon, the Japanese translation) opened from the
installed package through importlib.resources."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# Runs inside the fresh venv, far from the source tree; its argument is the relay expected.
PROBE = textwrap.dedent(
    """
    import os, sys
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    import roots_manager
    from roots_manager import APP_ID
    from roots_manager.support import resources

    where = os.path.dirname(roots_manager.__file__)
    assert "site-packages" in where, f"roots_manager imported from {where}, not the wheel"
    print("package:", where)

    icon = resources.icon_png(64)
    data = icon.read_bytes()
    assert data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", f"{icon} is not a PNG"
    svg = resources.icon_svg().read_text(encoding="utf-8")
    assert "<svg" in svg
    assert resources.desktop_entry().is_file() and resources.metainfo().is_file()

    qm = resources.translation_file("ja")
    if not qm.is_file():
        sys.exit(f"FAIL: {qm} is not in the installed package (run scripts/update-translations)")

    from PySide6.QtCore import QCoreApplication, QTranslator
    from PySide6.QtGui import QImage

    app = QCoreApplication([])
    image = QImage()
    assert image.loadFromData(data, "PNG") and image.width() == 64, "the icon does not load"

    translator = QTranslator()
    qm_bytes = qm.read_bytes()
    assert translator.load(qm_bytes), f"{qm} is not a valid .qm catalogue"
    assert not translator.isEmpty(), f"{qm} holds no translation"
    assert translator.language() == "ja", translator.language()
    text = translator.translate("ConnectDialog", "Connect a server")
    assert text and text != "Connect a server", f"no Japanese for 'Connect a server': {text!r}"
    QCoreApplication.installTranslator(translator)
    assert QCoreApplication.translate("ConnectDialog", "Connect a server") == text
    print("translation:", text)

    from roots_manager.bridge.transport import writer
    if sys.argv[1] == "c" and writer.fastrelay is None:
        sys.exit("FAIL: the wheel has no C hot path (roots_manager.bridge.transport._fastrelay)")
    if sys.argv[1] == "python" and writer.fastrelay is not None:
        sys.exit(f"FAIL: the pure wheel carries the C hot path: {writer.fastrelay.__file__}")
    print("OK")
    """
)


def run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, (
        f"{' '.join(argv)} exited {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    )
    return proc


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheels, built once by the script a release runs."""
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, str(REPO / "packaging" / "build-wheels"), "--outdir", str(out)], cwd=out)
    return out


def one(dist: Path, pattern: str) -> Path:
    found = sorted(dist.glob(pattern))
    assert len(found) == 1, f"expected one {pattern} in {dist}, found {found}"
    return found[0]


def install_and_check(wheel: Path, tmp_path: Path, relay: str) -> None:
    """A fresh venv holding *wheel* and its dependencies runs a bridge with *relay* and opens
    the resources; every module of the source tree and both commands are installed."""
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path)
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    py = scripts / ("python.exe" if os.name == "nt" else "python")
    pip = [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    run([*pip, str(wheel)], cwd=tmp_path)

    check = [sys.executable, str(REPO / "packaging" / "check-install"), "--bin", str(scripts)]
    out = run([*check, "--relay", relay], cwd=tmp_path).stdout
    assert "answered roots/list with no root, then the granted one" in out, out

    probe = tmp_path / "probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    out = run([str(py), str(probe), relay], cwd=tmp_path).stdout
    assert out.rstrip().endswith("OK"), out
    assert str(REPO) not in out
    # every module of the source tree is in the wheel (the packages are listed by hand)
    installed = Path(out.split("package:", 1)[1].splitlines()[0].strip())
    source = REPO / "app" / "roots_manager"
    missing = [
        str(module.relative_to(source))
        for module in source.rglob("*.py")
        if not (installed / module.relative_to(source)).is_file()
    ]
    assert not missing, f"the wheel lacks {missing}: list their packages in pyproject.toml"
    for script in ("roots-manager", "roots-bridge"):
        assert any(scripts.glob(f"{script}*")), f"the wheel installs no {script} command"


def compiled(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return [n for n in archive.namelist() if n.endswith((".so", ".pyd", ".dylib"))]


@pytest.mark.timeout(1800)
def test_the_pure_wheel_relays_in_python(dist: Path, tmp_path: Path) -> None:
    wheel = one(dist, "roots_manager-*-py3-none-any.whl")
    assert not compiled(wheel), f"the pure wheel holds compiled code: {compiled(wheel)}"
    one(dist, "roots_manager-*.tar.gz")
    install_and_check(wheel, tmp_path, "python")


@pytest.mark.skipif(os.name != "posix", reason="the C path is built on POSIX only (setup.py)")
@pytest.mark.timeout(1800)
def test_the_platform_wheel_relays_with_its_c_path(dist: Path, tmp_path: Path) -> None:
    wheels = [w for w in dist.glob("roots_manager-*.whl") if not w.name.endswith("-none-any.whl")]
    assert len(wheels) == 1, f"expected one platform wheel in {dist}, found {wheels}"
    wheel = wheels[0]
    # the supervisor's hot paths (the observer's, the proxy's) are built for Linux only
    expected = (
        ["_fastcarry", "_fastmake", "_fastobserve", "_fastrelay"]
        if sys.platform.startswith("linux")
        else ["_fastrelay"]
    )
    assert sorted(Path(n).name.split(".")[0] for n in compiled(wheel)) == expected
    if sys.platform.startswith("linux"):
        # repaired to the lowest manylinux tag its symbols allow, the one PyPI takes
        shown = run([sys.executable, "-m", "auditwheel", "show", "--json", str(wheel)], cwd=dist)
        lowest = json.loads(shown.stdout)["overall_tag"]
        tags = re.findall(r"manylinux_\d+_\d+_\w+?(?=[.-]|\.whl)", wheel.name)
        assert tags == [lowest], f"{wheel.name} is tagged {tags}; its symbols allow {lowest}"
    install_and_check(wheel, tmp_path, "c")


def test_every_package_of_the_source_is_one_the_wheels_carry() -> None:
    """pyproject.toml lists the packages by hand: a new one left out installs as a module that
    is not there (the wheels' roots-manager failed on roots_manager.actions)."""
    import tomllib

    listed = set(
        tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    source = REPO / "app"
    found = {
        ".".join(init.parent.relative_to(source).parts) for init in source.rglob("__init__.py")
    }
    assert found - listed == set(), f"packages missing from pyproject.toml: {found - listed}"
