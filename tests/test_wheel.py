"""The built wheel carries the resources: install it in a fresh venv and open an icon and the
Japanese translation from the installed package through importlib.resources."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from importlib.metadata import version
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# Runs inside the fresh venv, far from the source tree.
PROBE = textwrap.dedent(
    """
    import os, sys
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    import roots_manager
    from roots_manager import APP_ID
    from roots_manager.core import resources

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
    if os.name == "posix" and writer.fastrelay is None:
        sys.exit("FAIL: the wheel has no C hot path (roots_manager.bridge.transport._fastrelay)")
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


@pytest.mark.timeout(1800)
def test_wheel_ships_icon_and_translations(tmp_path: Path) -> None:
    # Build from a copy, so that the build's scratch files never land in the working tree.
    src = tmp_path / "src"
    src.mkdir()
    for name in ("app", "resources"):
        shutil.copytree(
            REPO / name,
            src / name,
            # the C hot path is compiled by the build, not taken from an in-place build here
            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.so", "*.pyd"),
        )
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        if (REPO / name).exists():
            shutil.copy2(REPO / name, src / name)
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(src)], cwd=src)
    wheels = list(dist.glob("roots_manager-*.whl"))
    assert len(wheels) == 1, f"expected one wheel, found {wheels}"

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path)
    py = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    pip = [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    run([*pip, "--no-deps", str(wheels[0])], cwd=tmp_path)
    # only Qt, to load the translation: the same version as here, so pip's cache serves it
    qt = [
        f"PySide6-Essentials=={version('PySide6-Essentials')}",
        f"shiboken6=={version('shiboken6')}",
    ]
    run([*pip, "--no-deps", *qt], cwd=tmp_path)

    probe = tmp_path / "probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    out = run([str(py), str(probe)], cwd=tmp_path).stdout
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
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    for script in ("roots-manager", "roots-bridge"):
        assert any(scripts.glob(f"{script}*")), f"the wheel installs no {script} command"
