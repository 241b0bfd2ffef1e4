"""A hostile confined server tries each way out of its grants that was once found open.

Each test runs the real bridge in front of a real hostile server (:mod:`.hostile_server`) on the
real kernel, confined by the stored setting, one folder granted for writing and one read-only.
The tests where root and an ordinary user differ (sockets and signals, the terminal, the
capabilities) run as both when the suite runs as root. Every one of them got out before the
supervisor, the seccomp filter and the derivation's limits were added.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import only_on_linux
from tests.polling import wait_for
from tests.security.confined import HOSTILE, SECRET, Hostile, World, alive, users

pytestmark = only_on_linux("confinement is tested on Linux (Landlock and seccomp)")
EACCES_OR_EPERM = ("EACCES", "EPERM")


# 2. a file on the command line


def test_a_file_named_on_the_command_line_opens_that_file_alone(world: World) -> None:
    world.setup()
    script = world.home / "server.py"
    shutil.copy(HOSTILE, script)
    # a data file (a database is written with its companions: tests/security/test_own_files.py)
    data = world.home / "settings.json"
    data.write_text("rows\n", encoding="utf-8")
    (world.home / "notes.txt").write_text("private\n", encoding="utf-8")
    host = Hostile(world, [sys.executable, str(script), "--config", str(data)])
    try:
        assert host.attack("read", path=str(data)) == "ok:rows\n"
        assert host.attack("write", path=str(data)) in EACCES_OR_EPERM  # read-only, on its own
        # neither the script's folder nor the data file's, the home, opens
        assert host.attack("read", path=str(world.home / "notes.txt")) == "EACCES"
        assert host.attack("read", path=str(world.key)) == "EACCES"
        assert host.attack("listdir", path=str(world.home)) == "EACCES"
    finally:
        host.close()
    assert "confined without" in host.stderr() and "home folder" in host.stderr()


# 3. a script that rewrites its own shebang


@pytest.mark.parametrize("option", ["-u {home}/x", "-C {home}", "-u /x"])
def test_a_script_rewriting_its_own_shebang_gains_nothing_at_its_next_start(
    world: World, option: str
) -> None:
    world.setup()
    # the system's interpreter: one in a venv is found through the script's shebang alone,
    # which a script in a writable folder is never read for
    python = shutil.which("python3", path="/usr/bin:/bin")
    assert python is not None, "the system's python3 runs this server"
    script = world.granted / "server.py"
    script.write_text(f"#!{python}\n" + HOSTILE.read_text(encoding="utf-8"), "utf-8")
    script.chmod(0o755)
    other = world.base / "work" / "other"
    other.mkdir()
    world.cli("roots", "add", str(other))
    host = Hostile(world, [str(script)])
    try:
        assert host.attack("read", path=str(world.key)) == "EACCES"
        line = f"#!/usr/bin/env -S {option.format(home=world.home)} {python}"
        assert host.attack("rewrite_shebang", path=str(script), line=line) == "ok"
        first = host.pid()
        world.cli("grant", "srv", str(other))
        asked = world.cli_as_owner("restart", "srv")  # the next start, with the new grant
        assert asked.returncode == 0, asked.stderr
        host.restarted(first)
        assert host.attack("read", path=str(world.key)) == "EACCES"
        assert host.attack("listdir", path=str(world.home)) == "EACCES"
        assert host.attack("write", path=str(world.home / "escaped")) == "EACCES"
    finally:
        host.close()
    assert not (world.home / "escaped").exists()


# 4. a detached child outliving a revocation, or its bridge


def _detached(host: Hostile, world: World) -> tuple[int, Path]:
    out = world.granted / "out"
    pid = int(host.attack("detach", path=str(out), pid_file=str(world.granted / "pid"))[3:])
    wait_for(lambda: out.exists() and out.stat().st_size > 3, "the detached child's writes")
    assert alive(pid)
    return pid, out


def _no_longer_grows(out: Path) -> None:
    size = out.stat().st_size
    time.sleep(0.5)
    assert out.stat().st_size == size, "something still writes into the revoked folder"


def test_a_detached_grandchild_ends_when_its_folder_is_revoked(world: World) -> None:
    world.setup()
    host = Hostile(world)
    try:
        pid, out = _detached(host, world)
        first = host.pid()
        world.cli("revoke", "srv", str(world.granted))
        host.restarted(first)
        wait_for(lambda: not alive(pid), "the detached grandchild's end")
        _no_longer_grows(out)
    finally:
        host.close()


def test_a_detached_grandchild_ends_when_its_bridge_is_killed(world: World) -> None:
    world.setup()
    host = Hostile(world)
    try:
        pid, out = _detached(host, world)
        server = host.pid()
        host.proc.kill()  # SIGKILL: the bridge can do nothing about it
        host.proc.wait()
        wait_for(lambda: not alive(pid) and not alive(server), "the server tree's end")
        _no_longer_grows(out)
    finally:
        host.close()


# 5. sockets and signals


class _Bus:
    """A stand-in session bus outside the grants: whoever connects is given the key."""

    def __init__(self, address: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(address)
        self.sock.listen()
        self.served = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.sendall(SECRET.encode())
                self.served += 1

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def bus(world: World) -> Iterator[tuple[str, str]]:
    path = str(world.base / "bus")
    abstract = f"rm-test-bus-{os.getpid()}-{time.monotonic_ns()}"
    buses = [_Bus(path), _Bus("\0" + abstract)]
    os.chmod(path, 0o777)
    yield path, abstract
    for b in buses:
        b.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_unix_sockets_and_signals_lead_nowhere(world: World, bus: tuple[str, str]) -> None:
    path, abstract = bus
    world.setup()
    bystander = subprocess.Popen(["sleep", "300"], preexec_fn=_as(world))
    host = Hostile(world)
    try:
        assert host.attack("unix_connect", path=path) in EACCES_OR_EPERM
        assert host.attack("unix_connect", abstract=abstract) in EACCES_OR_EPERM
        assert host.attack("socketpair") == "ok:ping"  # what runtimes use among themselves
        assert host.attack("kill", pid=bystander.pid) == "EPERM"
        assert bystander.poll() is None
    finally:
        host.close()
        bystander.kill()
        bystander.wait()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_socket_the_user_allowed_is_the_only_one_that_connects(
    world: World, bus: tuple[str, str]
) -> None:
    path, abstract = bus
    world.setup("--allow-socket", path)
    other = str(world.base / "other-bus")
    second = _Bus(other)
    os.chmod(other, 0o777)
    host = Hostile(world)
    try:
        assert host.attack("unix_connect", path=path) == "ok:" + SECRET
        assert host.attack("unix_connect", path=other) in EACCES_OR_EPERM
        assert host.attack("unix_connect", abstract=abstract) in EACCES_OR_EPERM
    finally:
        host.close()
        second.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_socket_of_its_own_connects_and_leads_nowhere_else(
    world: World, bus: tuple[str, str]
) -> None:
    """A server may make Unix sockets for itself (``tsx``'s pipe, a browser's) in its own
    temporary folder and connect to them; a link there to another's socket, or a hard link of
    one, does not reach it."""
    path, _ = bus
    world.setup()
    host = Hostile(world)
    try:
        outcome = host.attack("own_socket", outside=path).split(",")
        assert outcome[:2] == ["ok:mine", "ok:mine"], outcome
        assert outcome[2] in EACCES_OR_EPERM, outcome
        assert outcome[3] in {f"link {e}" for e in (*EACCES_OR_EPERM, "EXDEV")} or outcome[3] in {
            f"linked:{e}" for e in EACCES_OR_EPERM
        }, outcome
        assert host.attack("unix_connect", path=path) in EACCES_OR_EPERM
    finally:
        host.close()


def _as(world: World):  # type: ignore[no-untyped-def]
    """A preexec function running a bystander as the server's user."""
    if world.who != "user" or os.geteuid() != 0:
        return None
    from tests.security.confined import unprivileged_user

    user = unprivileged_user()

    def become() -> None:
        os.setgid(user.pw_gid)
        os.setuid(user.pw_uid)

    return become


# 6. metadata


def test_metadata_changes_are_refused_outside_the_writable_grants(world: World) -> None:
    world.setup()
    (world.granted / "mine.txt").write_text("x", encoding="utf-8")
    host = Hostile(world)
    ro_file = world.read_only / "notes.txt"
    before = {p: p.stat() for p in (world.key, world.home, ro_file)}
    try:
        for target in (world.key, world.home, ro_file):
            assert host.attack("chmod", path=str(target), mode=0o777) == "EACCES", target
            assert host.attack("utime", path=str(target)) == "EACCES", target
            assert host.attack("setxattr", path=str(target)) == "EACCES", target
            uid = os.stat(target).st_uid
            assert host.attack("chown", path=str(target), uid=uid, gid=-1) == "EACCES", target
        assert host.attack("fchmod_read_only", path=str(ro_file), mode=0o777) == "EACCES"
        assert host.attack(
            "chmod_at", folder=str(world.read_only), name="notes.txt", mode=0o777
        ) == ("EACCES")
        # inside the writable grant, every form works as it would unconfined
        mine = world.granted / "mine.txt"
        assert host.attack("chmod", path=str(mine), mode=0o640) == "ok"
        assert (
            host.attack("chmod_at", folder=str(world.granted), name="mine.txt", mode=0o604) == "ok"
        )
        assert host.attack("utime", path=str(mine)) == "ok"
        assert host.attack("setxattr", path=str(mine)) == "ok"
        assert host.attack("chown", path=str(mine), uid=os.stat(mine).st_uid, gid=-1) == "ok"
        # a link inside the grant to a file outside changes nothing outside
        (world.granted / "key-link").symlink_to(world.key)
        assert host.attack("chmod", path=str(world.granted / "key-link"), mode=0o666) == "EACCES"
    finally:
        host.close()
    for path, st in before.items():
        now = path.stat()
        assert (now.st_mode, now.st_mtime_ns) == (st.st_mode, st.st_mtime_ns), path
        assert "user.hostile" not in os.listxattr(path)
    mine_st = (world.granted / "mine.txt").stat()
    assert stat.S_IMODE(mine_st.st_mode) == 0o604 and int(mine_st.st_mtime) == 1
    assert os.getxattr(world.granted / "mine.txt", "user.hostile") == b"1"


def test_io_uring_cannot_go_around_the_filter(world: World) -> None:
    world.setup()
    host = Hostile(world)
    try:
        assert host.attack("io_uring") == "EPERM"
    finally:
        host.close()


# 7. the terminal


@pytest.mark.parametrize("world", users(), indirect=True)
def test_nothing_is_pushed_into_the_terminal_the_server_writes_to(world: World) -> None:
    import pty

    world.setup()
    master, slave = pty.openpty()
    if world.who == "user" and os.geteuid() == 0:
        from tests.security.confined import unprivileged_user

        os.fchown(slave, unprivileged_user().pw_uid, -1)
    host = Hostile(world, stderr=slave)
    try:
        outcome = host.attack("inject", text="echo INJECTED\n", fd=2)
        assert outcome in ("EPERM", "EIO", "ENOTTY"), outcome
    finally:
        host.close()
    # what was pushed would be waiting as the terminal's input, read from its slave side
    os.set_blocking(slave, False)
    try:
        pushed = os.read(slave, 1024)
    except BlockingIOError:
        pushed = b""
    os.close(slave)
    os.close(master)
    assert b"INJECTED" not in pushed


# 8. privileges


@pytest.mark.parametrize("world", users(), indirect=True)
def test_the_server_holds_no_capability(world: World) -> None:
    """As root the server would hold them all; a user's bridge may hold an ambient one."""
    world.setup()
    as_user = world.who == "user" and os.geteuid() == 0
    host = Hostile(world, ambient="net_bind_service" if as_user else "")
    try:
        caps = json.loads(host.attack("capabilities")[3:])
        # changing a file's owner needs CAP_CHOWN, which root lost
        target = world.granted / "owned"
        target.write_text("x", encoding="utf-8")
        chown = host.attack("chown", path=str(target), uid=12345, gid=-1)
    finally:
        host.close()
    for key in ("CapEff", "CapPrm", "CapInh", "CapAmb"):
        assert int(caps[key], 16) == 0, caps
    if world.who == "root":
        assert int(caps["CapBnd"], 16) == 0, caps  # nothing an exec could give back
        assert chown == "EPERM"
        assert os.stat(target).st_uid == 0


# 9. a word on the command line


def test_the_word_npx_on_the_command_line_opens_no_cache(world: World) -> None:
    world.setup()
    npm = world.home / ".npm"
    npm.mkdir()
    host = Hostile(world, [sys.executable, str(HOSTILE), "npx", "-y"])
    try:
        assert host.attack("write", path=str(npm / "planted")) == "EACCES"
    finally:
        host.close()
    assert not (npm / "planted").exists()


def test_signal_forwarding_ends_the_tree_within_the_hosts_ladder(world: World) -> None:
    """The bridge's SIGTERM reaches the server, and the supervisor ends what it left."""
    world.setup()
    host = Hostile(world)
    try:
        pid, _ = _detached(host, world)
        host.proc.send_signal(signal.SIGTERM)
        host.proc.wait(timeout=15)
        wait_for(lambda: not alive(pid), "the detached grandchild's end")
    finally:
        host.close()


def test_a_kernel_without_a_feature_confines_with_what_it_has_and_says_what_is_missing(
    world: World,
) -> None:
    from roots_manager.sandbox.landlock import TEST_ABI_ENV
    from roots_manager.sandbox.seccomp import TEST_OFF_ENV

    world.setup()
    world.env = {**world.env, TEST_ABI_ENV: "5", TEST_OFF_ENV: "1"}
    host = Hostile(world)
    try:
        assert host.attack("read", path=str(world.key)) == "EACCES"  # the files still hold
        assert host.attack("write", path=str(world.granted / "a")) == "ok"
    finally:
        host.close()
    said = host.stderr()
    for name in ("abstract Unix sockets", "signals", "Unix sockets by path", "metadata"):
        assert f"without this protection ({name})" in said, said
    shown = subprocess.run(
        [sys.executable, "-m", "roots_manager.cli", "servers", "show", "srv", "--json"],
        capture_output=True,
        text=True,
        env=world.env,
        check=True,
    )
    missing = {p["name"] for p in json.loads(shown.stdout)["protections"] if not p["enforced"]}
    assert {"signals", "metadata", "network"} <= missing


# found by a second look: the supervisor as a deputy, and what else a user's process reaches


def test_addresses_that_lead_nowhere_get_an_error_and_leave_the_supervisor_standing(
    world: World,
) -> None:
    world.setup()
    target = world.granted / "t"
    target.write_text("x", encoding="utf-8")
    host = Hostile(world)
    try:
        assert host.attack("bad_pointers", path=str(target)) == "EFAULT,EFAULT"
        # the supervisor still answers, and still ends what the server leaves behind
        assert host.attack("chmod", path=str(target), mode=0o600) == "ok"
        pid, out = _detached(host, world)
        server = host.pid()
        host.proc.kill()
        host.proc.wait()
        wait_for(lambda: not alive(pid) and not alive(server), "the server tree's end")
        _no_longer_grows(out)
    finally:
        host.close()


def test_no_limit_priority_or_keyring_of_another_process_is_reached(world: World) -> None:
    world.setup()
    bystander = subprocess.Popen(["sleep", "300"])
    host = Hostile(world)
    try:
        supervisor = int(
            Path(f"/proc/{host.pid()}/stat").read_bytes().rsplit(b")", 1)[1].split()[1]
        )
        assert host.attack("prlimit", pid=supervisor) == "EPERM"
        assert host.attack("prlimit", pid=bystander.pid) == "EPERM"
        assert host.attack("renice_user") == "EPERM"
        assert host.attack("keyring") == "EPERM"
        limits = Path(f"/proc/{bystander.pid}/limits").read_text(encoding="ascii")
        assert [line.split()[3] for line in limits.splitlines() if "open files" in line] != ["3"]
    finally:
        host.close()
        bystander.kill()
        bystander.wait()


def test_no_user_namespace_and_so_no_mount_of_its_own(world: World) -> None:
    """A detached mount's paths read like the grants' own: the supervisor would be misled."""
    world.setup()
    host = Hostile(world)
    try:
        assert host.attack("user_namespace") == "EPERM,ENOSYS,EPERM"
    finally:
        host.close()


def test_file_attributes_and_set_id_bits_are_not_the_servers_to_set(world: World) -> None:
    world.setup()
    ro_file = world.read_only / "notes.txt"
    host = Hostile(world)
    try:
        assert host.attack("chattr", path=str(ro_file)) == "EPERM"
        assert host.attack("file_setattr", path=str(ro_file)) == "ENOSYS"
        made = world.granted / "tool"
        assert host.attack("setuid_file", path=str(made)) == "ok:0o755,EPERM"
    finally:
        host.close()
    assert not (made.stat().st_mode & 0o6000)
    assert not (world.granted / "tool.new").exists()


def test_a_datagram_pair_sends_to_no_socket_by_path(world: World) -> None:
    world.setup()
    received: list[bytes] = []
    path = str(world.base / "log")
    sink = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sink.bind(path)
    os.chmod(path, 0o777)
    sink.settimeout(1)
    host = Hostile(world)
    try:
        assert host.attack("datagram", path=path) == "EACCES"
    finally:
        host.close()
    with contextlib.suppress(TimeoutError):
        received.append(sink.recv(100))
    sink.close()
    assert received == []


def test_an_allowed_socket_swapped_for_a_link_connects_nowhere(
    world: World, bus: tuple[str, str]
) -> None:
    outside, _ = bus
    allowed = world.granted / "allowed.sock"
    mine = _Bus(str(allowed))
    world.setup("--allow-socket", str(allowed))
    host = Hostile(world)
    try:
        assert host.attack("unix_connect", path=str(allowed)) == "ok:" + SECRET
        outcome = host.attack("swap_socket", path=str(allowed), target=outside)
        assert outcome in ("EACCES", "ECONNREFUSED"), outcome
    finally:
        host.close()
        mine.close()


def test_a_connect_that_never_completes_holds_up_nothing(world: World) -> None:
    """With sockets allowed the supervisor connects for the server; one that waits for ever
    does not keep it from ending the tree when the bridge goes."""
    path = str(world.base / "slow.sock")
    slow = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    slow.bind(path)
    slow.listen(0)  # never accepted: the backlog fills
    os.chmod(path, 0o777)
    world.setup("--allow-socket", path)
    host = Hostile(world)
    try:
        assert host.attack("connect_and_hang", path=path).startswith("ok:")
        assert host.attack("pid").startswith("ok:")  # the supervisor answers meanwhile
        server = host.pid()
        host.proc.kill()
        host.proc.wait()
        wait_for(lambda: not alive(server), "the server's end while a connect waits")
    finally:
        host.close()
        slow.close()


# found by a third look


def test_no_file_system_ioctl_that_writes_reaches_a_file(world: World) -> None:
    """fscrypt's keys (removing one locks the user's encrypted files), ext4's versions, btrfs's
    subvolumes (one in a read-only grant could be deleted), f2fs's: none is the server's."""
    world.setup()
    host = Hostile(world)
    try:
        outcome = host.attack("fs_ioctls", path=str(world.read_only / "notes.txt"))
        assert outcome == ",".join(["EPERM"] * 6), outcome
        assert host.attack("lease", path=str(world.read_only / "notes.txt")) == "EPERM"
    finally:
        host.close()


def test_system_v_shared_memory_of_another_process_is_out_of_reach(world: World) -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    ident = libc.shmget(0, 4096, 0o1000 | 0o600)  # IPC_PRIVATE, IPC_CREAT
    assert ident >= 0
    libc.shmat.restype = ctypes.c_void_p
    address = libc.shmat(ident, None, 0)
    ctypes.memmove(address, b"outside secret\0", 15)
    world.setup()
    host = Hostile(world)
    try:
        assert host.attack("shared_memory", ident=ident) == "EPERM"
    finally:
        host.close()
        libc.shmdt(ctypes.c_void_p(address))
        libc.shmctl(ident, 0, None)  # IPC_RMID


def test_a_descriptor_named_through_proc_self_is_the_callers_own(world: World) -> None:
    """The supervisor resolves what the server names: /proc/self there would be its own."""
    world.setup()
    mine = world.granted / "mine"
    mine.write_text("x", encoding="utf-8")
    mine.chmod(0o644)
    before = stat.S_IMODE(world.granted.stat().st_mode)
    host = Hostile(world)
    try:
        assert host.attack("chmod_own_descriptor", path=str(mine), mode=0o600) == "ok"
        outside = world.read_only / "notes.txt"
        assert host.attack("chmod_own_descriptor", path=str(outside), mode=0o600) == "EACCES"
    finally:
        host.close()
    assert stat.S_IMODE(mine.stat().st_mode) == 0o600
    assert stat.S_IMODE(world.granted.stat().st_mode) == before


def test_no_abstract_socket_name_is_taken_and_paths_bind_in_the_grants_only(world: World) -> None:
    """A name bound inside would be taken by a client outside for the service it expects
    (an X server's, a session's), or keep that service from starting."""
    world.setup()
    name = f"rm-test-squat-{os.getpid()}-{time.monotonic_ns()}"
    host = Hostile(world)
    try:
        outcome = host.attack(
            "bind_names",
            abstract=name,
            inside=str(world.granted / "mine.sock"),
            outside=str(world.sibling / "theirs.sock"),
        )
    finally:
        host.close()
    assert outcome == "EACCES,ok,EACCES,ok", outcome
    assert stat.S_ISSOCK((world.granted / "mine.sock").lstat().st_mode)
    assert not (world.sibling / "theirs.sock").exists()
    # the name is still free for whoever it belongs to
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.bind("\0" + name)


# 19. the network, when the user blocked it


class _Listener:
    """A TCP listener on the loopback that answers each connection with a word, and a UDP
    socket on the same port that counts what reaches it."""

    def __init__(self) -> None:
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.port = self.tcp.getsockname()[1]
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", self.port))
        self.udp.settimeout(0.5)
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.tcp.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"reached")

    def datagrams(self) -> int:
        count = 0
        with contextlib.suppress(OSError):
            while self.udp.recv(64):
                count += 1
        return count

    def close(self) -> None:
        self.tcp.close()
        self.udp.close()


def _outcomes(said: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in said.split())


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_blocked_network_is_refused_every_way_and_an_allowed_one_is_not(world: World) -> None:
    listener = _Listener()
    try:
        world.setup()
        host = Hostile(world)
        try:  # allowed, the default: the same attacks reach the listener
            allowed = _outcomes(host.attack("network", port=listener.port))
        finally:
            host.close()
        assert allowed["tcp_connect"] == "ok:b'reached'", allowed
        assert allowed["tcp_bind"].startswith("ok:") and allowed["udp_send"] == "ok:3", allowed
        assert listener.datagrams() == 1
        world.cli("servers", "network", "srv", "blocked")
        host = Hostile(world)
        try:
            blocked = _outcomes(host.attack("network", port=listener.port))
            blocked6 = _outcomes(host.attack("network", port=listener.port, family="inet6"))
        finally:
            host.close()
        for outcomes in (blocked, blocked6):
            for way in ("tcp_connect", "tcp_bind", "udp_send", "raw", "packet"):
                assert outcomes[way] in EACCES_OR_EPERM, (way, outcomes)
            assert outcomes["netlink"] == "ok", outcomes  # not the network: the kernel's own
        assert listener.datagrams() == 0
    finally:
        listener.close()


def test_a_blocked_network_keeps_the_unix_socket_the_user_allowed(
    world: World, bus: tuple[str, str]
) -> None:
    """The filter's Unix-stream path and its network path are one block: the allowed socket
    still connects, and every network family is still refused (connect is then the
    supervisor's to make, outside the server's Landlock domain)."""
    path, _abstract = bus
    listener = _Listener()
    try:
        world.setup("--allow-socket", path)
        world.cli("servers", "network", "srv", "blocked")
        host = Hostile(world)
        try:
            assert host.attack("unix_connect", path=path) == "ok:" + SECRET
            outcomes = _outcomes(host.attack("network", port=listener.port))
        finally:
            host.close()
        for way in ("tcp_connect", "tcp_bind", "udp_send", "raw", "packet"):
            assert outcomes[way] in EACCES_OR_EPERM, (way, outcomes)
        assert listener.datagrams() == 0
    finally:
        listener.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_shared_memory_is_the_servers_own(world: World) -> None:
    """POSIX semaphores and shared memory (``/dev/shm``: Python's multiprocessing, Chromium)
    work, in a tmpfs of the server's own: another program's segments are not there to read."""
    world.setup()
    theirs = Path("/dev/shm") / f"rm-test-{os.getpid()}-{world.who}"
    theirs.write_text(SECRET, encoding="utf-8")
    theirs.chmod(0o644)
    try:
        host = Hostile(world)
        try:
            mine = f"/dev/shm/sem.rm-test-{world.who}"
            assert host.attack("create", path=mine) == "ok"
            assert host.attack("read", path=mine) == "ok:planted"
            assert host.attack("read", path=str(theirs)) == "ENOENT"
            assert theirs.name not in host.attack("listdir", path="/dev/shm")
        finally:
            host.close()
        assert not Path(mine).exists()  # it was the server's own
        assert theirs.read_text(encoding="utf-8") == SECRET
    finally:
        theirs.unlink()
