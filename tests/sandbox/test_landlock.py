"""The Landlock binding: rights masked per ABI, and the running kernel's version."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from roots_manager.sandbox import landlock as ll
from roots_manager.sandbox.availability import availability
from roots_manager.sandbox.landlock import MIN_ABI, TEST_ABI_ENV
from tests.conftest import only_on_linux

pytestmark = only_on_linux("Landlock is a Linux kernel feature")


def test_each_abi_handles_the_rights_it_knows() -> None:
    assert ll.handled(1) == (1 << 13) - 1
    assert ll.handled(2) == ll.handled(1) | ll.REFER
    assert ll.handled(3) == ll.handled(2) | ll.TRUNCATE
    assert ll.handled(4) == ll.handled(3)  # ABI 4 added network rights, not handled here
    assert ll.handled(5) == ll.handled(7) == ll.handled(3) | ll.IOCTL_DEV
    assert ll.handled(9) == ll.handled(7)
    with pytest.raises(ValueError):
        ll.handled(0)


def test_this_kernel_offers_landlock_and_a_test_can_only_lower_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert ll.abi_version() >= MIN_ABI
    assert availability().available
    monkeypatch.setenv(TEST_ABI_ENV, "99")
    assert availability().abi == ll.abi_version()
    monkeypatch.setenv(TEST_ABI_ENV, str(MIN_ABI - 1))
    assert not availability().available


ENTRY_BRIDGE = os.path.join(os.path.dirname(__file__), "..", "..", "packaging", "entry_bridge.py")
WRAPPERS = {
    "module": [sys.executable, "-m", "roots_manager.sandbox.confine"],
    # a bundle's roots-bridge is its own wrapper: the same entry point, run as a script here
    "bundled bridge": [sys.executable, ENTRY_BRIDGE, "--exec-confined"],
}


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_the_wrapper_confines_what_it_execs(tmp_path: os.PathLike[str], wrapper: str) -> None:
    inside = os.path.join(tmp_path, "inside")
    os.mkdir(inside)
    script = (
        f"echo in > '{inside}/f' && cat '{inside}/f'; "
        f"echo out > '{tmp_path}/g' || echo refused; truncate -s0 /etc/hostname || echo kept"
    )
    argv = [
        *WRAPPERS[wrapper],
        "--runtime", "/usr", "--runtime", "/bin", "--runtime", "/lib", "--runtime", "/lib64",
        "--read-write", inside, "--device", "/dev/null", "--", "sh", "-c", script,
    ]  # fmt: skip
    out = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["in", "refused", "kept"]
    assert not os.path.exists(os.path.join(tmp_path, "g"))


def test_the_wrapper_refuses_with_126_rather_than_run_unconfined(tmp_path: str) -> None:
    marker = os.path.join(tmp_path, "ran")
    argv = [sys.executable, "-m", "roots_manager.sandbox.confine", "--", "touch", marker]
    out = subprocess.run(
        argv, capture_output=True, text=True, timeout=60, env={**os.environ, TEST_ABI_ENV: "0"}
    )
    assert out.returncode == 126
    assert "cannot be confined" in out.stderr
    assert not os.path.exists(marker)


def test_a_bundle_confines_through_its_own_bridge(monkeypatch: pytest.MonkeyPatch) -> None:
    from roots_manager.bridge.run import confine

    assert confine.wrapper()[:4] == [sys.executable, "-I", "-S", "-c"]
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert confine.wrapper() == [sys.executable, confine.EXEC_CONFINED]


def test_the_wrapper_holds_many_rules_and_the_server_keeps_its_own_limit_of_open_files(
    tmp_path: os.PathLike[str],
) -> None:
    """Started with a soft limit of 256 open files, the wrapper holds 1,000 rules (raising its
    limit as far as the hard one lets it) and the server it runs gets 256 back; with a hard
    limit below its rules, it refuses (126) and says why, never starting with fewer."""
    import resource

    folders = [os.path.join(tmp_path, f"f{i}") for i in range(1000)]
    for f in folders:
        os.mkdir(f)
    argv = [sys.executable, "-m", "roots_manager.sandbox.confine"]
    for path in ("/usr", "/bin", "/lib", "/lib64"):
        argv += ["--runtime", path]
    for f in folders:
        argv += ["--read-only", f]
    argv += ["--device", "/dev/null", "--", "sh", "-c", "ulimit -Sn; ls " + folders[-1]]

    def limited(soft: int, hard: int) -> subprocess.CompletedProcess[str]:
        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

        return subprocess.run(argv, capture_output=True, text=True, timeout=60, preexec_fn=limit)

    top = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    assert top >= 1100
    out = limited(256, top)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["256"]
    out = limited(256, 512)
    assert out.returncode == 126, out.stdout + out.stderr
    assert "no more descriptors may be opened" in out.stderr and "RLIMIT_NOFILE 512" in out.stderr
