"""A server that is a container, started by ``podman run`` (``docker run`` alike): its grants
are its bind mounts, and its confined client reaches the engine's socket, and nothing else.

Landlock confines the client (``podman --remote``), not the container: the engine starts that,
outside the rules. So ``{roots}`` among the ``run`` options becomes one ``-v DIR:DIR[:ro]`` per
grant, with the places a confined server never rewrites (a project's ``.git/hooks``) mounted
read-only over them, and the engine's socket is derived for the client. Run with Podman from
Debian's packages and an image made here from a tarball (no registry): the host's ``/usr``,
read-only, runs the hostile server's Python.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import only_on_linux, required, unavailable
from tests.security.confined import HOSTILE, Hostile, World, unprivileged_user, users

pytestmark = only_on_linux("confinement is tested on Linux (Landlock and seccomp)")
REFUSED = ("EROFS", "EBUSY", "EACCES", "EPERM", "ENOENT")
IMAGE = "localhost/roots-manager-test:1"


class Engine:
    """A Podman service on a socket of its own, with the test image."""

    def __init__(self, podman: str, folder: Path) -> None:
        self.podman = podman
        self.folder = folder
        self.socket = folder / "podman.sock"
        self.env = {**os.environ, "CONTAINERS_CONF": str(folder / "containers.conf")}
        self.service: subprocess.Popen[bytes] | None = None

    def client(self, *args: str) -> list[str]:
        return [self.podman, "--remote", "--url", f"unix://{self.socket}", *args]

    def start(self) -> None:
        # this machine's limits, which podman would otherwise raise (refused without
        # CAP_SYS_RESOURCE), and runc where crun refuses a hybrid cgroup hierarchy
        import resource  # only here: the module imports on every platform

        nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        nproc = min(resource.getrlimit(resource.RLIMIT_NPROC)[1], 32768)
        conf = f'[containers]\ndefault_ulimits = ["nofile={nofile}:{nofile}", "nproc={nproc}:{nproc}"]\n'
        if shutil.which("runc"):
            conf += '[engine]\nruntime = "runc"\n'
        (self.folder / "containers.conf").write_text(conf, encoding="utf-8")
        root = self.folder / "root"
        for name in ("usr", "tmp", "proc", "dev", "sys", "etc", "srv"):
            (root / name).mkdir(parents=True)
        for name in ("bin", "lib", "lib64"):
            (root / name).symlink_to(f"usr/{name}")
        with tarfile.open(self.folder / "root.tar", "w") as tar:
            tar.add(root, arcname=".")
        subprocess.run(
            [self.podman, "import", str(self.folder / "root.tar"), IMAGE],
            env=self.env, check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        self.service = subprocess.Popen(
            [self.podman, "system", "service", "--time=0", f"unix://{self.socket}"],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while not self.socket.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        probe = subprocess.run(
            self.client("run", "--rm", "--network", "none", "-v", "/usr:/usr:ro", IMAGE, "true"),
            env=self.env, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        if probe.returncode != 0:
            self.stop()
            unavailable(
                f"podman cannot run a container here: {probe.stderr.strip()}",
                f"podman cannot run a container here: {probe.stderr.strip()}",
            )

    def stop(self) -> None:
        if self.service is not None:
            self.service.terminate()
            self.service.wait(30)
        subprocess.run(
            [self.podman, "rmi", "-f", IMAGE], env=self.env, capture_output=True, check=False
        )


@pytest.fixture(scope="module")
def engine() -> Iterator[Engine]:
    podman = required("podman", "podman", "a container server's grants as its mounts")
    if os.geteuid() != 0:
        unavailable("the engine test runs as root", "the engine test runs a root Podman service")
    folder = Path(tempfile.mkdtemp(prefix="rm-engine-"))
    folder.chmod(0o755)
    found = Engine(podman, folder)
    found.start()
    try:
        yield found
    finally:
        found.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _hand_socket(world: World, engine: Engine) -> None:
    """The engine's socket given to whoever runs the server, as the docker group gives it (a
    confined root holds no capability that would pass over its owner)."""
    user = unprivileged_user() if world.who == "user" else None
    os.chown(engine.socket, user.pw_uid if user else 0, user.pw_gid if user else 0)


def _server(engine: Engine) -> list[str]:
    return engine.client(
        "run", "-i", "--rm", "--network", "none", "-v", "/usr:/usr:ro",
        "-v", f"{HOSTILE.parent}:/srv:ro", "{roots}", IMAGE, "/usr/bin/python3",
        f"/srv/{HOSTILE.name}",
    )  # fmt: skip


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_container_gets_its_grants_as_mounts_and_its_client_the_socket(
    world: World, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    _hand_socket(world, engine)
    hooks = world.granted / ".git" / "hooks"
    hooks.mkdir(parents=True)
    (world.granted / "notes.txt").write_text("granted\n", encoding="utf-8")
    world.setup()
    host = Hostile(world, _server(engine))
    try:
        # in the container: the writable grant, the read-only one, nothing else of the machine
        assert host.attack("read", path=str(world.granted / "notes.txt")) == "ok:granted\n"
        assert host.attack("create", path=str(world.granted / "made.txt")) == "ok"
        assert host.attack("read", path=str(world.read_only / "notes.txt")) == "ok:reference\n"
        assert host.attack("create", path=str(world.read_only / "x")) in REFUSED
        assert host.attack("read", path=str(world.sibling / "notes.txt")) in REFUSED
        assert host.attack("read", path=str(world.key)) in REFUSED
        # a place a confined server never rewrites, inside the grant: mounted read-only
        assert host.attack("create", path=str(hooks / "pre-commit")) in REFUSED
    finally:
        host.close()
    assert (world.granted / "made.txt").read_text(encoding="utf-8") == "planted"
    assert not (hooks / "pre-commit").exists()
    assert not (world.read_only / "x").exists()
    monkeypatch.setenv("HOME", str(world.home))
    shown = json.loads(world.cli("servers", "show", "srv", "--json").stdout)
    sockets = [d["path"] for d in shown["derived"] if d["access"] == "socket"]
    assert sockets == [str(engine.socket)], shown["derived"]


@pytest.mark.parametrize("world", users(), indirect=True)
def test_the_engines_socket_is_the_clients_alone(world: World, engine: Engine) -> None:
    """Another confined server, which is no engine's client, cannot reach the engine (whose
    socket would let it start a container with any folder mounted)."""
    _hand_socket(world, engine)
    world.setup()
    host = Hostile(world)
    try:
        assert host.attack("unix_connect", path=str(engine.socket)) in REFUSED
    finally:
        host.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_the_socket_named_through_a_link_is_reached(world: World, engine: Engine) -> None:
    """The client names the socket through a link among its folders, as ``docker`` names
    ``/var/run/docker.sock`` (``/var/run`` a link to ``/run``): the socket is derived by its
    real folders, and the supervisor connects the client to that very socket."""
    _hand_socket(world, engine)
    run = world.base / "var-run"
    run.symlink_to(engine.folder)
    world.setup()
    command = _server(engine)
    command[command.index("--url") + 1] = f"unix://{run / engine.socket.name}"
    host = Hostile(world, command)
    try:
        assert host.attack("read", path=str(world.read_only / "notes.txt")) == "ok:reference\n"
    finally:
        host.close()
