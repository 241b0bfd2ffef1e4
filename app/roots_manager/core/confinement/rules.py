"""The rules a confined server runs under, and how they travel to the exec wrapper.

Kept apart from the computation (:mod:`roots_manager.core.confinement.derive`) and free of heavy
imports (no dataclasses, no typing, no re): the wrapper imports this on every confined server's start-up.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: the exec wrapper must not pay for importing it
if TYPE_CHECKING:
    from collections.abc import Sequence

_OPTIONS = {
    "--read-write": "read_write",
    "--read-only": "read_only",
    "--runtime": "runtime",
    "--listing": "listing",
    "--device": "devices",
    "--expect": "expect",
    "--allow-socket": "sockets",
    "--protect": "protect",
    "--hide": "hide",
    "--pin": "pin",
    "--guard": "guard",
    "--layer": "layer",
    "--repositories-beneath": "repositories_beneath",
    "--own-file": "own_files",
}
"""The exec wrapper's option for each kind of path in :class:`Rules`."""
MAX_PROCESSES = 1024
"""The most processes a confined server's tree holds at once, unless its setting says
otherwise: far above what real servers start (an npx server runs 2 to 4, a browser under
Playwright about 20), far below what exhausts the user's process table."""
COMPANIONS = ("-journal", "-wal", "-shm")
"""What SQLite makes beside a database, named after it (its rollback journal, its write-ahead
log and that log's index), made and removed as it writes: an own file's
(:attr:`Rules.own_files`) are the server's too."""
NO_NETWORK = "--no-network"
"""The exec wrapper's option for a server whose network is blocked."""
DOMAINS_ONLY = "--domains-only"
"""The exec wrapper's option for a server whose network is limited to domains (each one a
``--domain`` option; none: every connection refused, and told)."""


class Rules:
    """The paths a confined server may use, and how (immutable)."""

    __slots__ = (
        "devices",
        "domains",
        "expect",
        "guard",
        "hide",
        "layer",
        "layers",
        "listing",
        "max_processes",
        "network",
        "own_files",
        "pin",
        "protect",
        "read_only",
        "read_write",
        "repositories_beneath",
        "runtime",
        "sockets",
        "tmpdir",
    )
    read_write: tuple[str, ...]
    """Granted roots, extra writable paths, the temporary directory, package caches."""
    read_only: tuple[str, ...]
    """Read-only grants and extra readable paths: read, never written, never executed."""
    runtime: tuple[str, ...]
    """What the server needs to run: read and execute."""
    listing: tuple[str, ...]
    """Directories whose names may be listed, though some of their files are closed."""
    devices: tuple[str, ...]
    """Device files read and written (``/dev/null``, the terminal)."""
    expect: tuple[str, ...]
    """``DEV:INO:PATH`` for each granted path as it was checked
    (:class:`~roots_manager.support.nofollow.Identity`): the wrapper opens that object or none."""
    sockets: tuple[str, ...]
    """Unix sockets, by path, the server may connect to (every other one is refused)."""
    tmpdir: str | None
    """The private temporary directory, exported to the server as ``TMPDIR``."""
    network: bool
    """The server may open network sockets (False: ``servers network NAME blocked``)."""
    domains: tuple[str, ...] | None
    """With :attr:`network`: the server reaches the network only through the proxy, and
    through it only these domains (:mod:`roots_manager.core.confinement.domains`); None: the
    network as :attr:`network` says."""
    max_processes: int | None
    """The most processes its tree may hold at once (None: no limit)."""
    protect: tuple[str, ...]
    """Places inside a writable rule that stay read-only, and cannot be renamed or replaced
    (:mod:`roots_manager.core.confinement.protected`)."""
    hide: tuple[str, ...]
    """Places inside a rule that the server cannot read (secrets)."""
    layer: tuple[str, ...]
    """``VARIABLE:PATH`` for each shared package cache the server fills (``npm_config_cache:
    ~/.npm``): it sees the cache, and writes to a layer of its own over it, in *layers*
    (:data:`~roots_manager.core.confinement.protected.LAYERED`). Where no layer can be made, the
    variable names a cache of the server's own instead."""
    layers: str | None
    """The folder of the server's layers, one folder in it per cache (named by its variable)."""
    pin: tuple[str, ...]
    """Folders that keep their rights but cannot be renamed away (on the way to a protected
    place), or stay writable inside one (the server's own folder)."""
    repositories_beneath: tuple[str, ...]
    """Writable grants whose repositories were not all looked for (too many folders, or too
    deep): beneath them, every repository's ``.git/hooks`` and ``.git/config`` there before
    the server, and the ``.git`` that holds them, are kept by the supervisor, which makes each
    of the server's new names, writes and removals itself (:mod:`roots_manager.sandbox.
    making`)."""
    own_files: tuple[str, ...]
    """Files named on the command line that the server writes (a database), in folders it may
    not otherwise write: each is read and written on its own, and its SQLite companions
    beside it (``-journal``, ``-wal``, ``-shm``) with it; the supervisor makes these names in
    that folder, and removes the companions, on the folder it checked and nothing else there
    (:mod:`roots_manager.sandbox.making`)."""
    guard: tuple[str, ...]
    """Protected places no mount can hold, in a writable rule: one not there (``.envrc``,
    ``.vscode``), or a symbolic link (``~/.bashrc`` kept in a dotfiles folder). The server may
    not make such a name, by any call (create, ``mkdir``, ``rename`` or ``link`` onto it): the
    supervisor makes each of the server's new names itself (:mod:`roots_manager.sandbox.
    notified_calls`)."""

    def __init__(
        self,
        read_write: tuple[str, ...] = (),
        read_only: tuple[str, ...] = (),
        runtime: tuple[str, ...] = (),
        listing: tuple[str, ...] = (),
        devices: tuple[str, ...] = (),
        tmpdir: str | None = None,
        expect: tuple[str, ...] = (),
        sockets: tuple[str, ...] = (),
        network: bool = True,
        protect: tuple[str, ...] = (),
        hide: tuple[str, ...] = (),
        pin: tuple[str, ...] = (),
        max_processes: int | None = None,
        guard: tuple[str, ...] = (),
        layer: tuple[str, ...] = (),
        layers: str | None = None,
        repositories_beneath: tuple[str, ...] = (),
        own_files: tuple[str, ...] = (),
        domains: tuple[str, ...] | None = None,
    ) -> None:
        values = (
            devices,
            domains,
            expect,
            guard,
            hide,
            layer,
            layers,
            listing,
            max_processes,
            network,
            own_files,
            pin,
            protect,
            read_only,
            read_write,
            repositories_beneath,
            runtime,
            sockets,
            tmpdir,
        )
        for name, value in zip(self.__slots__, values, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Rules are immutable; use replace()")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"Rules({fields})"

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, n) for n in self.__slots__)

    def replace(self, **changes: object) -> Rules:
        """A copy with *changes* made."""
        values = {n: getattr(self, n) for n in self.__slots__}
        values.update(changes)
        return Rules(**values)

    def to_args(self) -> list[str]:
        """The rules as options of the exec wrapper (read back by :meth:`from_args`)."""
        out: list[str] = []
        for option, name in _OPTIONS.items():
            for path in getattr(self, name):
                out += [option, path]
        if self.tmpdir is not None:
            out += ["--tmpdir", self.tmpdir]
        if self.layers is not None:
            out += ["--layers", self.layers]
        if not self.network:
            out.append(NO_NETWORK)
        elif self.domains is not None:
            out.append(DOMAINS_ONLY)
            for domain in self.domains:
                out += ["--domain", domain]
        if self.max_processes is not None:
            out += ["--max-processes", str(self.max_processes)]
        return out

    @classmethod
    def from_args(cls, args: Sequence[str]) -> tuple[Rules, list[str]]:
        """The rules and the command from the wrapper's arguments (``OPTIONS -- COMMAND``)."""
        lists: dict[str, list[str]] = {name: [] for name in _OPTIONS.values()}
        tmpdir = None
        layers = None
        network = True
        domains: list[str] | None = None
        named: list[str] = []
        max_processes: int | None = None
        i = 0
        while i < len(args) and args[i] != "--":
            option = args[i]
            if option in (NO_NETWORK, DOMAINS_ONLY):
                if option == NO_NETWORK:
                    network = False
                else:
                    domains = named
                i += 1
                continue
            if i + 1 >= len(args):
                raise ValueError(f"{option} needs a path")
            if option == "--tmpdir":
                tmpdir = args[i + 1]
            elif option == "--layers":
                layers = args[i + 1]
            elif option == "--domain":
                named.append(args[i + 1])
            elif option == "--max-processes":
                if not args[i + 1].isdigit() or int(args[i + 1]) < 1:
                    raise ValueError(f"--max-processes needs a whole number, not {args[i + 1]}")
                max_processes = int(args[i + 1])
            elif option in _OPTIONS:
                lists[_OPTIONS[option]].append(args[i + 1])
            else:
                raise ValueError(f"unknown option {option}")
            i += 2
        for entry in lists["layer"]:
            if ":" not in entry:
                raise ValueError(f"--layer needs VARIABLE:PATH, not {entry}")
        command = list(args[i + 1 :])
        if not command:
            raise ValueError("give the server's command after --")
        rules = cls(
            **{k: tuple(v) for k, v in lists.items()},
            tmpdir=tmpdir,
            layers=layers,
            network=network,
            max_processes=max_processes,
            domains=tuple(domains) if domains is not None else None,
        )
        return rules, command
