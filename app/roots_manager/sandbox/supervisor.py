"""The supervisor: the confined server's parent, which outlives nothing it started.

Between the bridge and the server runs this small process, unconfined and without any
capability. It

- forks the server's process, which starts a new session (no controlling terminal), drops every
  capability, applies the Landlock rules and the seccomp filter, and ``exec``s the server;
- is a *child subreaper*: whatever the server starts and however it detaches (``setsid``, a
  double fork), its orphans become the supervisor's children rather than init's. When the server
  ends, is restarted or its bridge ends, every one of them is killed and reaped, so a revoked
  folder has no writer left;
- watches the bridge through a pidfd: a bridge killed with ``SIGKILL`` still ends the tree;
- passes on the signals the bridge sends (the host's shutdown ladder) to the server's process
  group at once, and ends the tree itself :data:`GRACE` seconds after ``SIGTERM``, before the
  bridge's own ``SIGKILL`` step;
- answers the seccomp filter's notifications (:mod:`roots_manager.sandbox.notified_calls`).

Its exit code is the server's (128 + N for a signal N), or :data:`EXIT_REFUSED` when the
server's process could not be confined.
"""

from __future__ import annotations

import errno
import os
import select
import signal
import sys
import time

from roots_manager.sandbox import landlock, libc, privileges, seccomp

assert sys.platform == "linux", "imported only where Landlock confines (Linux)"

TYPE_CHECKING = False  # not typing's: the exec wrapper must not pay for importing it
if TYPE_CHECKING:
    import socket
    from collections.abc import Callable, Sequence

    from roots_manager.sandbox.making import Kept, Namer
    from roots_manager.sandbox.observer import Observer
    from roots_manager.sandbox.proxy import Proxy

EXIT_REFUSED = 126
EXIT_CANNOT_RUN = 127
GRACE = 0.4
"""Seconds between passing ``SIGTERM`` on and killing the tree: the bridge's pace
(:data:`roots_manager.bridge.run.process.AFTER_SIGNAL`), so that a bridge told to stop ends
within a second whatever its server does."""
END_LIMIT = 10.0
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)


class Plan:
    """What the server's process is to run under."""

    __slots__ = (
        "abi",
        "answers",
        "ask",
        "command",
        "domains",
        "events",
        "executable",
        "filtered",
        "kept",
        "max_processes",
        "network",
        "nofile",
        "own",
        "rules",
        "sockets",
        "writable",
    )

    def __init__(
        self,
        rules: list[tuple[int, int]],
        writable: list[tuple[str, int]],
        sockets: list[str],
        executable: str,
        command: Sequence[str],
        abi: int,
        filtered: bool = True,
        network: bool = True,
        events: int | None = None,
        nofile: int | None = None,
        max_processes: int | None = None,
        kept: Kept | None = None,
        own: str | None = None,
        answers: int | None = None,
        ask: float = 0.0,
        domains: tuple[str, ...] | None = None,
    ) -> None:
        self.rules = rules
        self.domains = domains if filtered and network else None
        """The server reaches the network only through the proxy, and through it these
        domains (:mod:`~roots_manager.sandbox.proxy`), from a network namespace of its own
        (:mod:`~roots_manager.sandbox.netns`); None: the network as *network* says."""
        self.answers = answers if filtered and events is not None else None
        """The bridge's answers (:mod:`~roots_manager.sandbox.asking`): a read the rules refuse
        while a host's request is in flight waits up to *ask* seconds for a folder granted
        that holds it; None: refused at once."""
        self.ask = ask
        self.own = own if filtered else None
        """The server's own temporary folder: Unix stream sockets may be made, and one it
        bound there it may connect to (None: only those the user allowed)."""
        self.kept = kept if filtered else None
        """The names the server may not make (:mod:`roots_manager.sandbox.making`): each of
        its new names is then made by the supervisor; None: none is kept."""
        self.max_processes = max_processes if filtered else None
        """The most processes the server's tree may hold at once (None: no limit); counted by
        the supervisor at each new process, so only where the filter is installed."""
        self.nofile = nofile
        """The soft limit of open files the server gets back before it runs (None: as it is):
        the wrapper raised it to hold its rules."""
        """Descriptors opened on what is allowed, with the Landlock rights for each."""
        self.writable = writable
        """The real path of each folder the server may write (metadata changes go there), and
        a descriptor of it: what lies beneath is judged from that descriptor."""
        self.sockets = sockets
        self.executable = executable
        self.command = list(command)
        self.abi = abi
        self.filtered = filtered
        """Whether the seccomp filter is installed (this kernel has its user notification)."""
        self.network = network
        """The server may open network sockets (False: blocked by the filter and Landlock)."""
        self.events = events if filtered else None
        """A descriptor each refusal is told on, a JSON line (:mod:`~roots_manager.sandbox.
        observer`); None: refusals are not observed."""


def _server_process(
    plan: Plan, supervisor: int, to_parent: int, from_parent: int, fallback: int
) -> None:
    """In the forked child: confine this process and exec the server. Never returns.
    *fallback*: the port of the supervisor's proxy on the machine's loopback, for a server
    limited to domains where no network namespace can be made."""
    step = "a new session"
    try:
        os.setsid()
        step = "the parent-death signal"
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != supervisor:
            os._exit(EXIT_REFUSED)
        proxy = -1
        port: int | None = None  # the proxy's port on the machine's loopback (None: not there)
        if plan.domains is not None:
            from roots_manager.sandbox import netns

            step = "a network of its own"
            try:
                netns.enter()
                proxy = netns.proxy_listener()
                os.environ.update(netns.environment())
            except netns.NamespaceError as exc:
                if plan.abi < landlock.NET_ABI:  # TCP Fast Open connects past the supervisor
                    raise OSError(
                        f"{exc.strerror}, and Landlock ABI {plan.abi} cannot hold TCP to the "
                        f"proxy (ABI {landlock.NET_ABI}, Linux 6.7)"
                    ) from None
                port = fallback
                os.environ.update(netns.environment(port))
                _quietly_write(2, (f"roots-manager confine: {exc.strerror}; the server reaches "
                                   "its proxy on this machine's loopback\n").encode())  # fmt: skip
        step = "dropping the bounding capabilities"
        privileges.drop_bounding()
        step = "the Landlock rules"
        landlock.restrict_self(plan.rules, plan.abi, network=plan.network, proxy=port)
        step = "the seccomp filter"
        listener = -1
        if plan.filtered:
            observe = plan.events is not None
            listener = seccomp.install(
                seccomp.machine(),
                sockets=bool(plan.sockets) or plan.own is not None or plan.domains is not None,
                network=plan.network,
                observe=observe,
                processes=plan.max_processes is not None,
                guard=plan.kept is not None,
                writes=plan.kept is not None and plan.kept.writes,
                removes=plan.kept is not None and bool(plan.kept.beneath or plan.kept.files),
                families=seccomp.NAMESPACED if plan.domains is not None else None,
                streams=seccomp.INET if port is not None else (),
            )
        os.write(to_parent, b"L%d %d\n" % (listener, proxy))
        if os.read(from_parent, 1) != b"k":
            os._exit(EXIT_REFUSED)
        if listener >= 0:
            os.close(listener)  # whoever holds it answers for the filter: the supervisor only
        if proxy >= 0:
            os.close(proxy)  # the proxy's to accept on, never the server's
        step = "dropping the capabilities"
        privileges.drop_all()
        for fd, _ in plan.rules:
            os.close(fd)
        if plan.nofile is not None:
            step = "the limit of open files"
            import resource

            resource.setrlimit(
                resource.RLIMIT_NOFILE,
                (plan.nofile, resource.getrlimit(resource.RLIMIT_NOFILE)[1]),
            )
        for sig in FORWARDED:
            signal.signal(sig, signal.SIG_DFL)
    except BaseException as exc:  # the child must never return into the caller
        _quietly_write(to_parent, f"E{step}: {exc}\n".encode(errors="replace"))
        os._exit(EXIT_REFUSED)
    try:
        from roots_manager.support.bundle import restore_user_environment

        restore_user_environment(os.environ)
        os.execv(plan.executable, plan.command)
    except BaseException as exc:
        message = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        _quietly_write(to_parent, f"X{plan.command[0]}: {message}\n".encode(errors="replace"))
        os._exit(EXIT_CANNOT_RUN)


def _quietly(call: Callable[..., object], *args: object) -> None:
    """*call* with *args*, whatever error it raises (contextlib would cost the wrapper 2 ms)."""
    try:
        call(*args)
    except OSError:
        return


def _quietly_write(fd: int, data: bytes) -> None:
    _quietly(os.write, fd, data)  # nobody to tell when it fails


def _read_all(fd: int) -> bytes:
    out = b""
    while chunk := os.read(fd, 4096):
        out += chunk
        if out.endswith(b"\n") and out.startswith(b"L"):
            break
    return out


def _descendants(root: int) -> list[int]:
    """Every process below *root*, from the process table (parents before children)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(name))
    out: list[int] = []
    todo = list(children.get(root, ()))
    while todo:
        pid = todo.pop(0)
        out.append(pid)
        todo += children.get(pid, ())
    return out


class Supervisor:
    """One confined server's supervision, from its fork to the end of its tree."""

    def __init__(self, plan: Plan, parent: int | None) -> None:
        self.plan = plan
        self.parent = parent
        self.server = -1
        self.status: int | None = None
        self.exec_pipe = -1
        """Where the server's process says why its ``exec`` failed (closed by a successful one),
        read while the notifications are answered: the ``exec`` itself may be one."""
        self.observer: Observer | None = None
        self.ruleset = -1
        """The server's Landlock ruleset, for the thread that makes its names (-1: none)."""
        self.proxy_listener = -1
        """The listener the server's process made in its network namespace, taken over for
        the proxy (-1: none)."""
        self.proxy: Proxy | None = None
        """The proxy of a server limited to domains (None: not limited)."""
        self.proxy_port: int | None = None
        """For :attr:`~roots_manager.sandbox.notified_calls.NotifiedCalls.proxy`: 0 in a
        namespace of the server's own, the proxy's port on the machine's loopback without one,
        None when the network is not limited to domains."""

    @staticmethod
    def _fallback_listener() -> socket.socket:
        """A listener on the machine's loopback, for the proxy of a server limited to domains
        where no network namespace can be made (closed where one is)."""
        import socket  # only here: most confined servers have no proxy

        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind(("127.0.0.1", 0))
        s.listen(128)
        return s

    def _parent_fd(self) -> int | None:
        if self.parent is None:
            return None
        try:
            fd = os.pidfd_open(self.parent)
        except OSError:
            return -1
        if os.getppid() != self.parent:  # it ended before we watched it
            os.close(fd)
            return -1
        return fd

    def run(self) -> int:
        """Start the server confined and supervise it; returns the exit code."""
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1)
        parent_fd = self._parent_fd()
        if parent_fd == -1:
            os.write(2, b"roots-manager confine: the bridge that started the server is gone\n")
            return EXIT_REFUSED
        up_r, up_w = os.pipe()
        down_r, down_w = os.pipe()
        me = os.getpid()
        if self.plan.events is not None:
            # before the fork: a descriptor marked after it would be the server's too, and the
            # refusals it wrote there would be read as the kernel's (a bad one is said by the
            # observer, below)
            _quietly(os.set_inheritable, self.plan.events, False)
        if self.plan.answers is not None:
            _quietly(os.set_inheritable, self.plan.answers, False)
        fallback = self._fallback_listener() if self.plan.domains is not None else None
        pid = os.fork()
        if pid == 0:
            os.close(up_r)
            os.close(down_w)
            for fd in (self.plan.events, self.plan.answers):
                if fd is not None:
                    _quietly(os.close, fd)
            port = fallback.getsockname()[1] if fallback is not None else 0
            if fallback is not None:
                fallback.close()
            _server_process(self.plan, me, up_w, down_r, port)
        self.server = pid
        os.close(up_w)
        os.close(down_r)
        if self.plan.events is not None:
            self.observer = self._observer(self.plan.events)
        if self.plan.kept is not None:
            # the server's own ruleset, for the thread that makes its names (started once
            # this process has no capability left, which the thread then lacks too)
            try:
                self.ruleset = landlock.ruleset(
                    self.plan.rules, self.plan.abi, network=self.plan.network
                )
            except OSError as exc:
                _quietly_write(2, f"roots-manager confine: no name can be made: {exc}\n".encode())
        for fd, _ in self.plan.rules:
            os.close(fd)
        listener = self._handshake(up_r, down_w)
        if listener is None:
            return self._wait_failed()
        # the supervisor acts for the server from now on: with its credentials, no more
        privileges.drop_bounding()
        privileges.drop_all()
        if fallback is not None and self.plan.domains is not None:
            if self.proxy_listener < 0:  # no namespace: the proxy is on the machine's loopback
                self.proxy_port = fallback.getsockname()[1]
                self.proxy_listener = fallback.detach()
            else:
                self.proxy_port = 0
                fallback.close()
            from roots_manager.sandbox.proxy import Proxy, owner_of, teller

            owner = owner_of(self.server, _descendants)
            self.proxy = Proxy(
                self.proxy_listener, self.plan.domains, teller(self.plan.events), owner
            )
            self.proxy.start()
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)  # the server's stdout is its own: ours would hold the pipe open
        os.close(null)
        try:
            return self._supervise(listener, parent_fd)
        except BaseException:
            self._end_tree()  # whatever ended the supervision ends the tree with it
            raise

    def _observer(self, events: int) -> Observer | None:
        """The observer of the server's refusals; None (said on stderr) if it cannot be made:
        the server then runs confined as ever, its refusals untold."""
        from roots_manager.sandbox.observer import Observer, rules_of

        try:
            os.set_blocking(events, False)
            return Observer(rules_of(self.plan.rules, self.plan.abi), self.plan.abi, events)
        except OSError as exc:
            _quietly_write(2, f"roots-manager confine: refusals go untold: {exc}\n".encode())
            return None

    def _handshake(self, up: int, down: int) -> int | None:
        """Take the filter's notification descriptor from the server's process; None if it
        failed to confine (said on stderr). With the filter, *up* stays open as
        :attr:`exec_pipe`."""
        try:
            message = _read_all(up)
            if not message.startswith(b"L"):
                self._say(message)
                return None
            numbers = [int(n) for n in message[1:].split()]
            if numbers[0] < 0:  # no filter: nothing to take over (nor a proxy: it needs one)
                os.write(down, b"k")
                if rest := _read_all(up):
                    self._say(rest)
                return -1
            pidfd = os.pidfd_open(self.server)
            try:
                got = libc.pidfd_getfd(pidfd, numbers[0])
                if len(numbers) > 1 and numbers[1] >= 0:
                    self.proxy_listener = libc.pidfd_getfd(pidfd, numbers[1])
            except OSError:
                got = -1
            finally:
                os.close(pidfd)
            if got < 0:
                self._say(b"Ethe seccomp filter's descriptor cannot be taken over\n")
                os.kill(self.server, signal.SIGKILL)
                return None
            os.write(down, b"k")
            self.exec_pipe, up = up, -1
            return int(got)
        finally:
            if up >= 0:
                os.close(up)
            os.close(down)

    @staticmethod
    def _say(message: bytes) -> None:
        text = message[1:].decode(errors="replace").strip()
        if message.startswith(b"E"):
            text = f"roots-manager confine: the server cannot be confined: {text}"
        else:
            text = f"roots-manager confine: {text}"
        _quietly_write(2, text.encode(errors="replace") + b"\n")

    def _wait_failed(self) -> int:
        _, status = os.waitpid(self.server, 0)
        self._end_tree()
        return os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else EXIT_REFUSED

    def _supervise(self, listener: int, parent_fd: int | None) -> int:
        from roots_manager.sandbox.notified_calls import Notification, NotifiedCalls, synchronous

        wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)
        for sig in (*FORWARDED, signal.SIGCHLD):
            signal.signal(sig, lambda *_: None)
        observe = self.observer.observe if self.observer is not None else None
        namer = self._namer(listener)
        returned = namer.returned_fd if namer is not None else -1
        """Readable while names the C thread was to make and answer come back: answered
        again from the start here."""
        calls = NotifiedCalls(
            listener,
            self.plan.writable,
            self.plan.sockets,
            seccomp.machine(),
            network=self.plan.network,
            observe=observe,
            max_processes=self.plan.max_processes,
            namer=namer,
            own=self.plan.own,
            proxy=self.proxy_port,
            on_network=self.observer.tell_network if self.observer is not None else None,
        )
        if listener >= 0 and self.observer is not None:
            # without the bridge's answers (a server that asks nothing) it holds nothing, and
            # still stands the empty folder in for the start folder
            from functools import partial

            from roots_manager.sandbox.asking import STAND_IN, Asker
            from roots_manager.sandbox.making import send_descriptor

            send = partial(send_descriptor, listener)
            own = self.plan.own
            empty = None if own is None else os.path.join(os.path.dirname(own), STAND_IN)
            calls.asker = Asker(self.plan.answers, self.plan.ask, self.observer, calls, send, empty)
            if self.proxy is not None and self.plan.answers is not None:
                # a connection refused is asked about too
                self.proxy.asker = calls.asker
        if listener >= 0:
            synchronous(listener)
        fast = None
        if listener >= 0 and self.observer is not None:
            # the observer's hot path in C waits instead of the poll below, and answers there
            # the calls Landlock provably allows; everything else comes back here
            from roots_manager.sandbox.observer import fast_path

            try:
                writes = self.plan.kept is not None and self.plan.kept.writes
                fast = fast_path(self.observer, listener, seccomp.machine(), writes=writes)
            except Exception as exc:  # the Python observer judges every call, as without it
                _quietly_write(2, f"roots-manager confine: observing in Python: {exc!r}\n".encode())
        poll = select.poll()
        poll.register(wake_r, select.POLLIN)
        if self.exec_pipe >= 0:
            poll.register(self.exec_pipe, select.POLLIN)
        if listener >= 0:
            poll.register(listener, select.POLLIN)
        if parent_fd is not None:
            poll.register(parent_fd, select.POLLIN)
        if returned >= 0:
            poll.register(returned, select.POLLIN)
        watched = [
            fd for fd in (wake_r, self.exec_pipe, parent_fd, returned) if fd is not None and fd >= 0
        ]
        """What the hot path watches besides the listener (what the poll watches)."""
        deadline: float | None = None
        while True:
            # an exit before the handlers were set sent no wake-up: the first turn reaps anyway;
            # after it, SIGCHLD wakes the poll, which otherwise sleeps (no timer for idle servers)
            self._reap()
            if self.status is None:
                wait = (
                    None if deadline is None else max(0, int((deadline - time.monotonic()) * 1000))
                )
                if fast is not None:
                    events, raw = fast.serve(watched, -1 if wait is None else wait)
                    if raw is not None:
                        calls.answer(Notification(raw))
                else:
                    events = poll.poll(wait)
            else:
                events = []
            for fd, event in events:
                if fd == wake_r:
                    deadline = self._pass_signals(wake_r, deadline)
                elif fd == listener:
                    if event & select.POLLIN:
                        calls.handle()
                    elif event & (select.POLLHUP | select.POLLERR):
                        poll.unregister(listener)
                        fast = None  # nothing more to answer: the poll waits on the rest
                elif fd == self.exec_pipe:
                    if not self._exec_said():
                        poll.unregister(fd)
                        watched.remove(fd)
                elif fd == returned and namer is not None:
                    for note in namer.returned():
                        calls.answer(note, again=True)
                elif fd == parent_fd:  # the bridge is gone, however it ended
                    self._end_tree()
                    return EXIT_REFUSED
            self._reap()
            if self.status is not None:
                while self._exec_said():
                    continue
                self._end_tree()
                if self.observer is not None:
                    self.observer.close()
                if os.WIFEXITED(self.status):
                    return os.WEXITSTATUS(self.status)
                return 128 + os.WTERMSIG(self.status)
            if deadline is not None and time.monotonic() > deadline:
                self._end_tree()

    def _namer(self, listener: int) -> Namer | None:
        """What makes the server's names, where some are kept from it (None: none is)."""
        if self.plan.kept is None or listener < 0:
            return None
        from roots_manager.sandbox.making import Namer, maker

        if self.ruleset < 0:  # no ruleset to make them under: none is made (EPERM)
            self.ruleset = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        tell = self.observer.tell_kept if self.observer is not None else None
        return Namer(listener, self.plan.kept, maker(self.ruleset), tell)

    def _exec_said(self) -> bool:
        """Pass on what the server's process said of its ``exec``; False once it is closed
        (by the ``exec``, or the process's end)."""
        if self.exec_pipe < 0:
            return False
        said = os.read(self.exec_pipe, 4096)
        if said:
            self._say(said)
            return True
        os.close(self.exec_pipe)
        self.exec_pipe = -1
        return False

    def _pass_signals(self, wake: int, deadline: float | None) -> float | None:
        try:
            received = os.read(wake, 64)
        except BlockingIOError:
            return deadline
        for sig in set(received):
            if sig == signal.SIGCHLD:
                continue
            try:
                os.killpg(self.server, sig)
            except (ProcessLookupError, PermissionError):
                continue  # the server is gone: its end is seen by the wait
            if deadline is None:
                deadline = time.monotonic() + GRACE
        return deadline

    def _reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if pid == self.server:
                self.status = status

    def _end_tree(self) -> None:
        """Kill and reap every process below this one, however it detached."""
        limit = time.monotonic() + END_LIMIT
        while time.monotonic() < limit:
            try:
                below = _descendants(os.getpid())
            except OSError:  # the process table cannot be read: the children at least
                below = [self.server]
            for pid in below:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    continue  # ended already
            try:
                while True:
                    pid, status = os.waitpid(-1, os.WNOHANG)
                    if pid == 0:
                        break
                    if pid == self.server:
                        self.status = status
            except ChildProcessError:
                return
            time.sleep(0.01)


def supervise(plan: Plan, parent: int | None) -> int:
    """Start the server under *plan* and supervise it (see the module's text)."""
    try:
        return Supervisor(plan, parent).run()
    except OSError as exc:
        if exc.errno == errno.EINVAL:
            os.write(2, f"roots-manager confine: cannot supervise the server: {exc}\n".encode())
            return EXIT_REFUSED
        raise
