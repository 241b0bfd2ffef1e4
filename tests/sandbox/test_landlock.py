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
    assert ll.handled(8) == ll.handled(7)
    # ABI 9 (Linux 7.1): a Unix socket connected to by its path needs a right on it
    assert ll.handled(9) == ll.handled(7) | ll.RESOLVE_UNIX == 0x1FFFF
    assert ll.handled(10) == ll.handled(12) == ll.handled(9)  # 10 added UDP, a network right
    with pytest.raises(ValueError):
        ll.handled(0)


@pytest.mark.parametrize(
    ("abi", "blocked"),
    [
        (3, 0),
        (4, ll.NET_BIND_TCP | ll.NET_CONNECT_TCP),
        (9, 0b0011),
        (10, ll.NET_BIND_TCP | ll.NET_CONNECT_TCP | ll.NET_BIND_UDP | ll.NET_CONNECT_SEND_UDP),
        (11, 0b1111),
    ],
)
def test_a_blocked_network_is_handled_by_what_each_abi_knows(abi: int, blocked: int) -> None:
    assert ll.handled_net(abi, network=False) == blocked
    assert ll.handled_net(abi, network=True) == 0  # an allowed network: no network right


def test_a_socket_the_user_allowed_gets_a_rule_only_where_the_kernel_knows_the_right(
    tmp_path: os.PathLike[str],
) -> None:
    """Before ABI 9 the socket's right is masked out: a rule with no right would be refused by
    the kernel (ENOMSG), so none is added, and the ruleset is made as without it."""
    import socket

    path = os.path.join(tmp_path, "agent.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(path)
        fd = os.open(path, os.O_PATH | os.O_NOFOLLOW)
        try:
            made = ll.ruleset([(fd, ll.SOCKET)], min(ll.usable_abi(), 8), network=True)
            os.close(made)
        finally:
            os.close(fd)


def test_each_protection_names_what_holds_it_by_abi() -> None:
    from roots_manager.sandbox.availability import _linux_protections

    def said(abi: int, name: str) -> str:
        return next(p.detail for p in _linux_protections(abi) if p.name == name)

    assert "Landlock ABI 9 (the kernel) and the supervisor" in said(9, "Unix sockets by path")
    assert "Landlock" not in said(8, "Unix sockets by path").split("held by")[1].split("(")[0]
    assert "from Landlock ABI 9" in said(8, "Unix sockets by path")
    assert "no UDP port bound, connected or sent to (Landlock ABI 10)" in said(
        10, "network, when blocked"
    )
    assert "from Landlock ABI 10" in said(7, "network, when blocked")
    assert "only through Roots Manager's proxy" in said(7, "network, when limited to domains")
    assert "unless blocked or limited to domains" in said(7, "network")


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
