"""Confinement on by default: a server first seen starts confined where the machine can confine,
a server known before keeps its setting, and the user can turn either off.

A real bridge starts a real SDK server (its tools read any path they are given) on this kernel;
what refuses it is Landlock, decided by the default alone: no ``--confine``, no stored setting.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
from mcp import Client

from roots_manager.core.directory.layout import Layout
from roots_manager.core.roots.root import Root
from roots_manager.core.store.file import Store
from roots_manager.core.store.state import now_iso
from roots_manager.sandbox.landlock import TEST_ABI_ENV
from tests.conftest import only_on_linux, run_cli
from tests.fakes import FAKES
from tests.fakes.sdk_host import bridged, text

FILE_TOOL = FAKES / "file_tool_server.py"

pytestmark = only_on_linux("confinement is tested on Linux (Landlock); macOS's is untested")


def _places(tmp_path: Path) -> tuple[Path, Path]:
    """A granted folder's file and a file of the user's outside every grant."""
    granted = tmp_path / "granted"
    granted.mkdir()
    (granted / "notes.txt").write_text("granted\n", encoding="utf-8")
    home = tmp_path / "home"
    (home / ".config").mkdir(parents=True)
    (home / ".config" / "secret.txt").write_text("secret\n", encoding="utf-8")
    return granted / "notes.txt", home / ".config" / "secret.txt"


def _read_both(
    name: str, inside: Path, outside: Path, env: dict[str, str] | None = None
) -> list[str]:
    """What server *name* reads, started by a bridge with no ``--confine``: the granted file,
    then the other one."""
    home = outside.parent.parent
    params = bridged([sys.executable, str(FILE_TOOL)], name=name, home=home)
    params.env = {**(params.env or {}), **(env or {})}
    out: list[str] = []

    async def scenario() -> None:
        async with Client(params) as client:
            for path in (inside, outside):
                out.append((await text(client, "read_file", path=str(path))).strip())

    anyio.run(scenario)
    return out


def _stored_confine(name: str) -> object:
    doc = json.loads(Layout.default().store.read_text(encoding="utf-8"))
    return doc["servers"][name]["confine"]


def test_a_server_first_seen_starts_confined_and_keeps_that_decision(tmp_path: Path) -> None:
    inside, outside = _places(tmp_path)
    run_cli("grant", "--new", "fresh", str(inside.parent))
    assert _stored_confine("fresh") is None  # remembered ahead: its first start decides
    shown = json.loads(run_cli("servers", "show", "fresh", "--json").stdout)
    assert shown["confine"] is True and shown["confine_decided"] is False
    assert _read_both("fresh", inside, outside) == ["granted", "EACCES"]
    assert _stored_confine("fresh") is True  # decided for good by that start
    # the user turns it off for this server: advice only, as before
    run_cli("servers", "confine", "fresh", "off")
    assert _read_both("fresh", inside, outside) == ["granted", "secret"]
    assert _stored_confine("fresh") is False


def test_a_server_known_before_keeps_its_setting(tmp_path: Path) -> None:
    inside, outside = _places(tmp_path)
    run_cli("roots", "add", str(inside.parent))
    store = Store(Layout.default().ensure())
    doc = json.loads(store.path.read_text(encoding="utf-8"))
    root = doc["roots"][0]["id"]
    # a store of schema 7, written before the default: its server has confinement off
    doc["schema"] = 7
    doc["servers"]["old"] = {"confine": False}
    doc["grants"] = [{"server": "old", "root": root, "scope": "always", "sessions": []}]
    store.path.write_text(json.dumps(doc), encoding="utf-8")
    assert _read_both("old", inside, outside) == ["granted", "secret"]
    assert _stored_confine("old") is False
    # a server first seen beside it does start confined
    run_cli("grant", "--new", "new", str(inside.parent))
    assert _read_both("new", inside, outside) == ["granted", "EACCES"]


def test_the_default_can_be_turned_off_for_new_servers(tmp_path: Path) -> None:
    inside, outside = _places(tmp_path)
    run_cli("policy", "--confine-new", "off")
    policy = json.loads(run_cli("policy", "--json").stdout)
    assert policy["confine_new"] is False and policy["confines_here"] is False
    run_cli("grant", "--new", "loose", str(inside.parent))
    assert _read_both("loose", inside, outside) == ["granted", "secret"]
    assert _stored_confine("loose") is False  # the setting decided it


def test_a_machine_that_cannot_confine_starts_the_server_and_leaves_it_undecided(
    tmp_path: Path,
) -> None:
    """The default is not a request: no refusal (exit 126) where Landlock is missing, and the
    server is confined once the kernel can."""
    inside, outside = _places(tmp_path)
    run_cli("grant", "--new", "later", str(inside.parent))
    no_landlock = {TEST_ABI_ENV: "0"}
    assert _read_both("later", inside, outside, no_landlock) == ["granted", "secret"]
    assert _stored_confine("later") is None
    assert _read_both("later", inside, outside) == ["granted", "EACCES"]
    assert _stored_confine("later") is True


def test_a_server_granted_more_folders_than_a_command_line_holds_starts_confined(
    tmp_path: Path,
) -> None:
    """12,000 granted folders with long names make rules of about 2.8 MiB, more than the
    kernel takes on a command line (E2BIG, "cannot start the server"): the wrapper reads them
    from a descriptor, holds a descriptor for each (raising its limit of open files as far as
    it may), and the server starts held to them all, with its own limit of open files."""
    inside, outside = _places(tmp_path)
    many = tmp_path / ("a folder of many projects, each with a long name " * 3).strip()
    name = "project with a name long enough to make a long rule on the command line " * 2
    folders = [many / f"{name}{i:05d}" for i in range(12_000)]
    for folder in folders:
        folder.mkdir(parents=True)
    assert sum(len(str(f)) + len("--read-only") + 2 for f in folders) > 2 * 2**20
    with Store(Layout.default().ensure()).transaction() as state:
        added = now_iso()  # made as roots add makes them, without its look for duplicates
        state.roots += [
            Root(id=f"{i:012x}", path=str(f), name=f.name, added_at=added, real=str(f))
            for i, f in enumerate(folders)
        ]
        ids = [r.id for r in state.roots]
        state.grant("many", ids, read_only=True)  # one descriptor each (a writable one: two)
        state.grant("many", [state.add_root(str(inside.parent)).id], read_only=True)
    assert _read_both("many", inside, outside) == ["granted", "EACCES"]
    assert _stored_confine("many") is True
