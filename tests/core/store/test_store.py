"""The store: atomic saves under SIGKILL, no lost update between processes, bad files kept."""

from __future__ import annotations

import json
import os
import random
import select
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from roots_manager.core.directory.layout import Layout, SharedDirectoryError
from roots_manager.core.store.file import Store, StoreChanged, StoreError, StoreUnreadable
from roots_manager.core.store.grants import Decision, Scope
from roots_manager.core.store.schema import SCHEMA_VERSION
from roots_manager.core.store.state import State
from tests.conftest import run_cli


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_files_are_private(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "proj"
    folder.mkdir()
    with store.transaction() as s:
        s.add_root(str(folder))
    with store.transaction() as s:
        s.set_policy("deny")
    lay = store.layout
    assert _mode(lay.home) == 0o700
    assert _mode(lay.logs) == 0o700 and _mode(lay.live) == 0o700
    for f in (lay.store, lay.store_backup, lay.store_lock):
        assert _mode(f) == 0o600, f
    assert not [p for p in lay.home.iterdir() if p.name.endswith(".tmp")]


def test_existing_home_with_loose_permissions_is_tightened(tmp_path: Path) -> None:
    home = tmp_path / "loose"
    home.mkdir(mode=0o755)
    home.chmod(0o755)
    Store(Layout(home))
    assert _mode(home) == 0o700


def test_a_shared_or_home_folder_is_never_made_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "like-tmp"
    shared.mkdir()
    shared.chmod(0o1777)
    with pytest.raises(SharedDirectoryError, match="shared folder"):
        Store(Layout(shared))
    assert _mode(shared) == 0o1777 and not list(shared.iterdir())
    home = tmp_path / "me"
    home.mkdir()
    home.chmod(0o755)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("ROOTS_MANAGER_HOME", str(home))
    proc = run_cli("roots", "list", check=False)
    assert proc.returncode == 1 and "your home folder" in proc.stderr
    assert "ROOTS_MANAGER_HOME" in proc.stderr
    assert _mode(home) == 0o755 and not list(home.iterdir())


def test_revision_and_last_good_copy(store: Store) -> None:
    with store.transaction() as s:
        s.set_policy("deny")
    with store.transaction() as s:
        s.set_policy("allow-all")
    assert store.read().revision == 2
    backup = json.loads(store.layout.store_backup.read_text())
    assert backup["settings"]["policy"] == "deny" and backup["revision"] == 1


def test_unchanged_transaction_writes_nothing(store: Store) -> None:
    with store.transaction() as s:
        s.set_policy("deny")
    before = store.path.stat().st_mtime_ns
    with store.transaction() as s:
        s.set_policy("deny")
    assert store.path.stat().st_mtime_ns == before
    assert store.read().revision == 1


def test_a_list_changed_in_place_is_saved(store: Store, tmp_path: Path) -> None:
    # a while-running grant that lasts for two bridge runs loses one when it ends: the grant's
    # list of runs shrinks in place, the only change the transaction makes
    folder = tmp_path / "proj"
    folder.mkdir()
    with store.transaction() as s:
        root = s.add_root(str(folder))
        s.grant("fs", [root.id], Scope.WHILE_RUNNING, ["r-1", "r-2"])
    with store.transaction() as s:
        s.run_ended("fs", "r-1")
    assert [g.runs for g in store.read().grants] == [["r-2"]]
    assert store.read().revision == 2
    with store.transaction() as s:  # and a command line edited in place, the same
        s.servers["fs"].command = ["server"]
    with store.transaction() as s:
        command = s.servers["fs"].command
        assert command is not None
        command.append("--flag")
    assert store.read().servers["fs"].command == ["server", "--flag"]


def test_failed_transaction_saves_nothing(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction() as s:
        s.set_policy("deny")
        raise RuntimeError("boom")
    assert not store.path.exists()


def test_a_store_changed_by_a_writer_without_the_lock_is_not_saved_over(
    store: Store, tmp_path: Path
) -> None:
    """An editor saving store.json by hand (a rename, no lock) while a command holds the store:
    the command saves nothing over it, says so, and the hand edit stays whole."""
    folder = tmp_path / "proj"
    folder.mkdir()
    with store.transaction() as s:
        s.set_policy("deny")
    edited = store.path.read_text(encoding="utf-8").replace('"deny"', '"allow-all"')
    with pytest.raises(StoreChanged, match="changed by another program"), store.transaction() as s:
        s.add_root(str(folder))
        aside = tmp_path / "editor-save"
        aside.write_text(edited, encoding="utf-8")
        os.replace(aside, store.path)  # as an editor saves, meanwhile
    assert store.path.read_text(encoding="utf-8") == edited
    assert store.read().roots == [] and store.read().policy == "allow-all"
    with store.transaction() as s:  # run again, it is made on the edited store
        s.add_root(str(folder))
    assert store.read().policy == "allow-all" and len(store.read().roots) == 1


def test_the_cli_racing_an_editor_reports_what_happened(rm_home: Path, tmp_path: Path) -> None:
    """An editor saves store.json by rename every few milliseconds while the CLI adds roots:
    every save of the editor's that the CLI did not read first is kept, and each CLI command
    that said it added a root did (exit 0), or said it did not (exit non-zero)."""
    import threading

    store = Store(Layout(rm_home).ensure())
    with store.transaction() as s:
        s.grant("edited", [])
        s.servers["edited"].command = ["edit-none"]
    stop = threading.Event()
    saves = [0]

    def editor() -> None:
        while not stop.is_set():
            try:
                doc = json.loads(store.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            doc["servers"]["edited"]["command"] = [f"edit-{saves[0]}"]
            aside = tmp_path / "edit.tmp"
            aside.write_text(json.dumps(doc), encoding="utf-8")
            os.replace(aside, store.path)
            saves[0] += 1
            time.sleep(0.005)

    thread = threading.Thread(target=editor)
    thread.start()
    said_added = []
    try:
        for i in range(20):
            folder = tmp_path / f"r{i}"
            folder.mkdir()
            done = run_cli("roots", "add", str(folder), check=False)
            if done.returncode == 0:
                said_added.append(str(folder))
            else:
                assert "changed by another program" in done.stderr, done.stderr
        last = saves[0]
        while saves[0] < last + 2:  # the editor's save is the last one made
            time.sleep(0.01)
    finally:
        stop.set()
        thread.join()
    assert saves[0] > 20, saves
    state = store.read()
    assert state.servers["edited"].command == [f"edit-{saves[0] - 1}"]
    # the editor rewrites from what it read: a root the CLI saved may be lost to the editor's
    # next save (its own last-writer-wins); one the CLI said it did not add is never there
    assert {r.path for r in state.roots} <= set(said_added), (state.roots, said_added)


# ---- crash safety -------------------------------------------------------------------------------


def _committed_state(n: int) -> State:
    """The n-th state of the save loop: deterministic, and large enough to take a while to write."""
    s = State()
    s.language = f"state-{n}"
    s.grant("bulk", [])
    s.servers["bulk"].command = [f"arg-{n}-{i}-" + "x" * 40 for i in range(400)]
    return s


def _save_loop(home: Path, notify: int) -> None:  # pragma: no cover - runs in a forked child
    store = Store(Layout(home))
    current = store.read().language
    n = int(current.split("-")[1]) if current else 0
    while True:
        n += 1
        with store.transaction() as s:
            target = _committed_state(n)
            s.language = target.language
            s.servers = target.servers
        os.write(notify, b".")  # one byte per committed save


def test_sigkill_during_saves_never_corrupts_the_store(rm_home: Path) -> None:
    rng = random.Random(1234)
    kills = 0
    mid_save = 0
    seen_leftovers: set[str] = set()
    seen_states: set[str | None] = set()
    # at least 200 kills and 20 of them inside a save: where saves are quick, a kill lands in
    # one less often (19 of 200 in one CI run), and more kills are made, up to 600
    while kills < 600 and (kills < 200 or mid_save < 20):
        progress, notify = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - child
            try:
                os.close(progress)
                _save_loop(rm_home, notify)
            finally:
                os._exit(1)
        os.close(notify)
        # Let the child commit 0 to 3 saves, then kill it a few milliseconds later, which lands
        # inside the next save most of the time; waiting for commits rather than for a fixed
        # time keeps every kill meaningful however loaded the machine is.
        for _ in range(rng.randrange(4)):
            ready, _, _ = select.select([progress], [], [], 120)
            assert ready, "the saving child committed nothing for 120 s"
            assert os.read(progress, 1) == b"."
        time.sleep(rng.uniform(0.0, 0.01))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(progress)
        kills += 1
        # a temporary file not seen before shows that this kill landed inside a save
        leftovers = {p.name for p in rm_home.iterdir() if p.name.endswith(".tmp")}
        mid_save += bool(leftovers - seen_leftovers)
        seen_leftovers |= leftovers
        store = Store(Layout(rm_home))
        if not store.path.exists():
            continue
        state = store.read()  # raises if the file were torn
        assert state.language is not None and state.language.startswith("state-")
        n = int(state.language.split("-")[1])
        expected = _committed_state(n)
        assert state.servers["bulk"].command == expected.servers["bulk"].command
        seen_states.add(state.language)
        # the last good copy is always whole too
        if store.layout.store_backup.exists():
            State.from_json(json.loads(store.layout.store_backup.read_bytes()))
    assert kills >= 200
    assert mid_save >= 20, f"only {mid_save} of {kills} kills landed inside a save"
    assert len(seen_states) > 100, "the kills should land on many different committed states"
    # temporary files orphaned by a kill are swept by the next save
    with Store(Layout(rm_home)).transaction() as s:
        s.set_policy("deny")
    assert not [p.name for p in rm_home.iterdir() if p.name.endswith(".tmp")]


# ---- concurrency --------------------------------------------------------------------------------

WORKER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from roots_manager.core.directory.layout import Layout
    from roots_manager.core.store.file import Store
    from tests.core.store.test_store import apply_op

    home, base, worker = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    store = Store(Layout(home))
    for j in range(100):
        with store.transaction() as state:
            apply_op(state, base, worker, j)
    """
)


def apply_op(state: State, base: Path, worker: int, j: int) -> None:
    """Operation j of a worker: add, grant, grant-or-revoke, rename, on the worker's own items."""
    folder = str(base / f"w{worker}" / f"d{j - j % 4}")
    kind = j % 4
    if kind == 0:
        state.add_root(folder, name=f"w{worker}-d{j}")
    elif kind == 1:
        state.grant(f"server-{worker}", [state.find_root(folder).id])
    elif kind == 2:
        root_id = state.find_root(folder).id
        if j % 8 == 2:
            state.revoke(f"server-{worker}", [root_id])
        else:
            state.grant(f"other-{worker}", [root_id], "session", [f"s{worker}"])
    else:
        state.rename_root(folder, f"renamed {worker}-{j}")


def _summary(state: State) -> tuple[set[tuple[str, str]], set[tuple[str, str, str]], set[str]]:
    ids = {r.id: r.path for r in state.roots}
    roots = {(r.path, r.name) for r in state.roots}
    grants = {(g.server, ids[g.root], g.scope) for g in state.grants}
    return roots, grants, set(state.servers)


def test_concurrent_writers_lose_no_update(rm_home: Path, tmp_path: Path) -> None:
    base = tmp_path / "folders"
    for w in range(8):
        for j in range(0, 100, 4):
            (base / f"w{w}" / f"d{j}").mkdir(parents=True)
    repo = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(rm_home), str(base), str(w)], env=env, cwd=repo
        )
        for w in range(8)
    ]
    for p in procs:
        assert p.wait(timeout=300) == 0
    expected = State()
    for w in range(8):
        for j in range(100):
            apply_op(expected, base, w, j)
    final = Store(Layout(rm_home)).read()
    assert _summary(final) == _summary(expected)
    assert final.revision == 800  # every one of the 800 operations changed the store


# ---- bad input ----------------------------------------------------------------------------------

GOOD = {
    "schema": SCHEMA_VERSION,
    "revision": 3,
    "settings": {"policy": "ask"},
    "roots": [],
    "servers": {},
    "grants": [],
    "pending": [],
}

ROOT = {"id": "0123456789ab", "path": "/srv/proj", "name": "proj", "added_at": "2025-01-01T00:00Z"}

BAD_FILES = {
    "truncated": json.dumps(GOOD).encode()[:25],
    "invalid-utf8": b'{"schema": 1, "revision": 1, "settings": {"language": "\xff\xfe"}}',
    "json-array": b"[1, 2, 3]\n",
    "newer-schema": json.dumps({**GOOD, "schema": SCHEMA_VERSION + 1}).encode(),
    "wrong-shape": json.dumps({**GOOD, "roots": [{"nope": 1}]}).encode(),
    "wrong-types": json.dumps(
        {**GOOD, "roots": [{"id": "a", "path": 5, "name": "x", "added_at": ""}]}
    ).encode(),
    "relative-root": json.dumps({**GOOD, "roots": [{**ROOT, "path": "rel/proj"}]}).encode(),
    "nul-in-root": json.dumps({**GOOD, "roots": [{**ROOT, "path": "/srv/a\x00b"}]}).encode(),
    "schema-true": json.dumps({**GOOD, "schema": True}).encode(),
    "revision-1e308": json.dumps(GOOD).replace('"revision": 3', '"revision": 1e308').encode(),
    "long-number": json.dumps(GOOD).replace('"revision": 3', '"revision": ' + "9" * 5000).encode(),
}
EXPECTED_WORDS = {
    "truncated": "not valid JSON",
    "invalid-utf8": "not valid UTF-8",
    "json-array": "the top level is a list, not an object",
    "newer-schema": "newer Roots Manager",
    "wrong-shape": "damaged",
    "wrong-types": "damaged",
    "relative-root": "roots[0].path is not an absolute path: 'rel/proj'",
    "nul-in-root": "roots[0].path holds a NUL character",
    "schema-true": "schema is true or false, not a whole number",
    "revision-1e308": "revision is not a whole number: 1e+308",
    "long-number": "it holds a number too long to read",
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_store_gives_a_clear_error_and_is_kept_byte_for_byte(
    case: str, layout: Layout, tmp_path: Path
) -> None:
    folder = tmp_path / "proj"
    folder.mkdir()
    data = BAD_FILES[case]
    layout.store.write_bytes(data)
    for args in (
        ["roots", "list"],
        ["roots", "add", str(folder)],
        ["grant", "fs", str(folder)],
        ["effective", "fs"],
        ["policy", "deny"],
    ):
        proc = run_cli(*args, check=False)
        assert proc.returncode == 3, (args, proc.stdout, proc.stderr)
        assert EXPECTED_WORDS[case] in proc.stderr
        assert str(layout.store) in proc.stderr
        assert "roots-manager store recover" in proc.stderr
        assert layout.store.read_bytes() == data
    check = run_cli("store", "check", check=False)
    assert check.returncode == 3 and EXPECTED_WORDS[case] in check.stdout
    assert layout.store.read_bytes() == data


def _without_read_override() -> None:  # pragma: no cover - runs in the child before exec
    """Drop root's power to read any file (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    pr_capbset_drop = 24
    for cap in (1, 2):
        if libc.prctl(pr_capbset_drop, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def test_unreadable_store_gives_a_clear_error_and_is_kept(store: Store) -> None:
    with store.transaction() as s:
        s.set_policy("deny")
    data = store.path.read_bytes()
    store.path.chmod(0)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "roots_manager.cli", "roots", "list"],
            capture_output=True,
            text=True,
            timeout=60,
            preexec_fn=_without_read_override if os.geteuid() == 0 else None,
        )
    finally:
        store.path.chmod(0o600)
    assert proc.returncode == 3, proc.stderr
    assert "cannot be read: Permission denied" in proc.stderr
    assert str(store.path) in proc.stderr
    assert store.path.read_bytes() == data


def test_recover_restores_the_last_good_copy_and_keeps_the_bad_one(store: Store) -> None:
    with store.transaction() as s:
        s.set_policy("deny")
    with store.transaction() as s:
        s.set_policy("allow-all")
    bad = b'{"schema": 1, "roots": [tru'
    store.path.write_bytes(bad)
    store.path.chmod(0o644)  # as a hand edit may leave it
    with pytest.raises(StoreUnreadable):
        store.read()
    proc = run_cli("store", "recover")
    assert "restored the last good copy (revision 1)" in proc.stdout
    assert store.read().policy == "deny"
    aside = [p for p in store.layout.home.iterdir() if ".damaged-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes() == bad
    assert _mode(aside[0]) == 0o600 and _mode(store.path) == 0o600
    assert "nothing to recover" in run_cli("store", "recover").stdout


def test_recover_without_a_good_copy_needs_empty(store: Store) -> None:
    store.path.write_bytes(b"garbage")
    with pytest.raises(StoreError, match="--empty"):
        store.recover()
    assert store.path.read_bytes() == b"garbage"
    proc = run_cli("store", "recover", "--empty")
    assert "started an empty store" in proc.stdout
    assert store.read().roots == []
    assert [p.read_bytes() for p in store.layout.home.iterdir() if ".damaged-" in p.name] == [
        b"garbage"
    ]


def test_newer_schema_recover_keeps_the_newer_file_named_newer(store: Store) -> None:
    with store.transaction() as s:
        s.set_policy("deny")
    with store.transaction() as s:
        s.set_policy("ask")
    newer = json.dumps({**GOOD, "schema": SCHEMA_VERSION + 5}).encode()
    store.path.write_bytes(newer)
    proc = run_cli("store", "recover")
    assert store.read().policy == "deny"
    # a store from a newer version is not damaged: it is named and described for what it is
    aside = [p for p in store.layout.home.iterdir() if p.name.startswith("store.json.newer-")]
    assert [p.read_bytes() for p in aside] == [newer]
    assert not [p for p in store.layout.home.iterdir() if ".damaged-" in p.name]
    assert f"the file written by a newer Roots Manager is kept at {aside[0]}" in proc.stdout
    assert "damaged" not in proc.stdout


def test_newer_schema_without_a_good_copy_is_not_called_damaged(store: Store) -> None:
    store.path.write_bytes(json.dumps({**GOOD, "schema": SCHEMA_VERSION + 1}).encode())
    proc = run_cli("store", "recover", check=False)
    assert proc.returncode != 0
    assert "was written by a newer Roots Manager and there is no good copy" in proc.stderr
    assert "damaged" not in proc.stderr
    proc = run_cli("store", "recover", "--empty")
    assert "started an empty store; the file written by a newer Roots Manager" in proc.stdout
    assert [p.name for p in store.layout.home.iterdir() if ".newer-" in p.name]


def test_folder_names_that_are_not_utf8_are_stored_and_read_back(
    store: Store, tmp_path: Path
) -> None:
    raw = os.fsencode(tmp_path) + b"/caf\xe9 \xff#"
    os.mkdir(raw)
    path = os.fsdecode(raw)
    with store.transaction() as s:
        root = s.add_root(path)
        s.grant("fs", [root.id])
    data = store.path.read_bytes()
    data.decode("utf-8")  # the store stays valid UTF-8 JSON
    again = store.read()
    assert again.roots[0].path == path
    assert again.roots[0].uri.endswith("/caf%E9%20%FF%23")
    assert again.roots[0].name == "caf\ufffd \ufffd#"
    with store.transaction() as s:  # an unchanged read-modify-write keeps it byte for byte
        s.find_root(again.roots[0].uri)
    assert store.path.read_bytes() == data


def test_windows_sharing_violations_are_waited_out_and_other_refusals_are_not() -> None:
    """Windows refuses to replace or open a file another process has open, for a moment."""
    from roots_manager.support import statefile

    tries: list[int] = []
    pauses: list[float] = []

    def busy_twice() -> str:
        tries.append(1)
        if len(tries) <= 2:
            raise PermissionError(13, "The process cannot access the file")
        return "done"

    assert statefile.retrying(busy_twice, windows=True, sleep=pauses.append) == "done"
    assert len(tries) == 3 and pauses == list(statefile.SHARING_PAUSES[:2])

    def always_busy() -> None:
        raise PermissionError(13, "denied")

    pauses.clear()
    with pytest.raises(PermissionError):
        statefile.retrying(always_busy, windows=True, sleep=pauses.append)
    assert pauses == list(statefile.SHARING_PAUSES)  # about a second, then the error
    tries.clear()
    with pytest.raises(PermissionError):
        statefile.retrying(busy_twice, windows=False, sleep=pauses.append)  # POSIX: final
    assert len(tries) == 1


def test_a_while_running_grant_keeps_the_stored_words_older_versions_read(
    store: Store, tmp_path: Path
) -> None:
    """The grant scope, its runs and a request's run were stored as "session", "sessions" and
    "session": such a file reads as today's names and is written back in the same words."""
    folder = tmp_path / "proj"
    folder.mkdir()
    root = {**ROOT, "path": str(folder)}
    old = {
        **GOOD,
        "servers": {"fs": {"decision": "session", "decided_at": "2025-01-01T00:00Z"}},
        "roots": [root],
        "grants": [{"server": "fs", "root": root["id"], "scope": "session", "sessions": ["r-1"]}],
        "pending": [
            {
                "id": "abcdef012345",
                "server": "git",
                "reason": "new-server",
                "command": ["git-mcp"],
                "fingerprint": "0" * 64,
                "previous_command": None,
                "requested_at": "2025-01-01T00:00Z",
                "session": "r-2",
            }
        ],
    }
    store.path.write_text(json.dumps(old))
    state = store.read()
    grant = state.grants[0]
    assert grant.scope is Scope.WHILE_RUNNING and grant.runs == ["r-1"]
    assert state.servers["fs"].decision is Decision.WHILE_RUNNING
    assert state.pending[0].run == "r-2"

    with store.transaction() as state:
        state.grant("fs", [root["id"]], Scope.WHILE_RUNNING, ["r-3"])
    saved = json.loads(store.path.read_text())
    assert saved["grants"][0]["scope"] == "session"
    assert saved["grants"][0]["sessions"] == ["r-1", "r-3"]
    assert "runs" not in saved["grants"][0]
    assert saved["servers"]["fs"]["decision"] == "session"
    assert saved["pending"][0]["session"] == "r-2" and "run" not in saved["pending"][0]
