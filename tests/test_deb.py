"""packaging/build-deb on a small stand-in for the bundle: the layout, the control file with the
glibc its programs need, and lintian. The real bundle's package is installed, run and removed
by packaging/check-deb in .ci/run (as root, system-wide: not a test to run on a developer's
machine)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
APP_ID = "io.github.rootsmanager.RootsManager"
PROGRAMS = ("roots-manager", "roots-manager-app", "roots-bridge", "roots-demo-server")

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux")
    or (shutil.which("dpkg-deb") is None and not os.environ.get("ROOTS_MANAGER_REQUIRE_PEERS")),
    reason="a .deb is built on Debian and its derivatives (CI, on Debian, always runs this)",
)


def newest_glibc(program: Path) -> str:
    """The newest GLIBC_ version among the symbols *program* imports (objdump -T: another
    reading than build-deb's version references)."""
    symbols = subprocess.run(
        ["objdump", "-T", str(program)], capture_output=True, text=True, check=True
    ).stdout
    versions = set(re.findall(r"GLIBC_(\d+(?:\.\d+)+)", symbols))
    return max(versions, key=lambda v: tuple(int(p) for p in v.split(".")))


@pytest.mark.timeout(600)
def test_the_package_holds_the_bundle_its_links_and_desktop_files(tmp_path: Path) -> None:
    bundle = tmp_path / "dist" / "roots-manager"
    (bundle / "_internal").mkdir(parents=True)
    true = Path(shutil.which("true") or "/bin/true").resolve()
    for name in PROGRAMS:
        shutil.copy2(true, bundle / name)
    (bundle / "_internal" / "base_library.zip").write_bytes(b"PK\x05\x06" + bytes(18))
    out = tmp_path / "out"
    build = [sys.executable, str(REPO / "packaging" / "build-deb"), "--bundle", str(bundle)]
    proc = subprocess.run([*build, "--outdir", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    (deb,) = out.glob("roots-manager_*.deb")

    def field(name: str) -> str:
        argv = ["dpkg-deb", "--field", str(deb), name]
        return subprocess.run(argv, capture_output=True, text=True, check=True).stdout.strip()

    version = re.search(
        r'^__version__ = "([^"]+)"',
        (REPO / "app" / "roots_manager" / "__init__.py").read_text(encoding="utf-8"),
        re.M,
    )
    assert version is not None
    assert field("Package") == "roots-manager" and field("Version") == version[1]
    assert field("Depends") == f"libc6 (>= {newest_glibc(true)})", field("Depends")
    assert re.fullmatch(r".+ <[^@\s]+@[^@\s]+>", field("Maintainer")), field("Maintainer")

    listing = subprocess.run(
        ["dpkg-deb", "--contents", str(deb)], capture_output=True, text=True, check=True
    ).stdout
    entries = {
        line.split(None, 5)[5].removeprefix("./"): line.split()[:2] for line in listing.splitlines()
    }
    for name in PROGRAMS:
        assert entries[f"opt/roots-manager/{name}"] == ["-rwxr-xr-x", "root/root"]
    assert entries["opt/roots-manager/_internal/base_library.zip"][0] == "-rw-r--r--"
    for name in ("roots-manager", "roots-bridge"):
        assert f"usr/bin/{name} -> /opt/roots-manager/{name}" in entries
    share = "usr/share"
    for path in (
        f"{share}/applications/{APP_ID}.desktop",
        f"{share}/metainfo/{APP_ID}.metainfo.xml",
        f"{share}/icons/hicolor/scalable/apps/{APP_ID}.svg",
        *(f"{share}/icons/hicolor/{n}x{n}/apps/{APP_ID}.png" for n in (16, 48, 256, 512)),
        f"{share}/doc/roots-manager/copyright",
        f"{share}/doc/roots-manager/changelog.gz",
    ):
        assert entries.get(path, ["?"])[0] == "-rw-r--r--", f"the package lacks {path}"
    assert all(owner == "root/root" for _, owner in entries.values())

    if shutil.which("lintian") is not None:  # CI installs it (.ci/system-packages)
        lint = subprocess.run(
            ["lintian", "--fail-on", "error", str(deb)], capture_output=True, text=True
        )
        assert lint.returncode == 0, lint.stdout + lint.stderr
