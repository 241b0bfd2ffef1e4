"""The observer: each refusal of a confined process told, with its path, operation and process,
as root and as an ordinary user, while Landlock alone still decides."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import only_on_linux
from tests.security.confined import _importable, unprivileged_user, user_python, users

pytestmark = only_on_linux("Landlock and seccomp are Linux kernel features")

RUNTIME = ("/usr", "/bin", "/lib", "/lib64", "/etc")


@pytest.fixture(autouse=True, params=["c", "python"])
def judge(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test with the hot path in C (``_fastobserve``, which must have built here) and
    with the Python observer alone: the same refusals are told either way."""
    monkeypatch.delenv("ROOTS_MANAGER_BENCH_OBSERVER_FLOOR", raising=False)
    if request.param == "python":
        monkeypatch.setenv("ROOTS_MANAGER_PURE_OBSERVER", "1")
    else:
        monkeypatch.delenv("ROOTS_MANAGER_PURE_OBSERVER", raising=False)
        try:
            from roots_manager.sandbox import _fastobserve  # noqa: F401
        except ImportError:
            pytest.fail("roots_manager.sandbox._fastobserve did not build (is there a C compiler?)")
    return str(request.param)


@pytest.fixture
def base() -> Iterator[Path]:
    # under /tmp rather than pytest's folder, which only root may enter
    folder = Path(tempfile.mkdtemp(prefix="rm-observer-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def confined(
    base: Path, who: str, script: str
) -> tuple[subprocess.CompletedProcess[str], list[Any]]:
    """``sh -c SCRIPT`` confined to *base*/granted (writable) and the runtime, as *who*; its
    result, and the refusals told on the observer's descriptor."""
    granted = base / "granted"
    read, write = os.pipe()
    argv = [sys.executable, "-m", "roots_manager.sandbox.confine", "--refusals", str(write)]
    for path in RUNTIME:
        argv += ["--runtime", path]
    argv += ["--read-write", str(granted), "--device", "/dev/null", "--", "sh", "-c", script]
    env = dict(os.environ)
    if who == "user" and os.geteuid() == 0:
        user = unprivileged_user()
        for top, folders, files in os.walk(base):
            for name in [top, *(os.path.join(top, n) for n in folders + files)]:
                os.lchown(name, user.pw_uid, user.pw_gid)
        argv = [
            "setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups",
            "--", user_python(), *argv[1:],
        ]  # fmt: skip
        env["PYTHONPATH"] = os.pathsep.join(_importable())
    try:
        done = subprocess.run(
            argv, pass_fds=(write,), capture_output=True, text=True, timeout=120, env=env
        )
    finally:
        os.close(write)
    with os.fdopen(read, "rb") as f:
        lines = [json.loads(line) for line in f]
    return done, lines


def layout(base: Path) -> None:
    folders = ("granted", "secrets", "closed", "others", "programs", "listed", "linked", "links")
    for name in folders:
        (base / name).mkdir()
    (base / "granted" / "mine.txt").write_text("mine\n", encoding="utf-8")
    (base / "granted" / "old.txt").write_text("old\n", encoding="utf-8")
    (base / "secrets" / "key").write_text("the key\n", encoding="utf-8")
    (base / "others" / "theirs").write_text("theirs\n", encoding="utf-8")
    (base / "linked" / "target").write_text("linked\n", encoding="utf-8")
    (base / "granted" / "link").symlink_to(base / "linked" / "target")
    program = base / "programs" / "tool"
    shutil.copy("/bin/true", program)


@pytest.mark.parametrize("who", users())
def test_each_refusal_is_told_with_its_path_operation_and_process(base: Path, who: str) -> None:
    layout(base)
    script = (
        f"cd '{base}/granted' && cat mine.txt && echo new > made.txt && rm old.txt; "
        f"cat ../secrets/key; cat '{base}/secrets/missing'; mkdir '{base}/closed/sub'; "
        f"rm -f '{base}/others/theirs'; ls '{base}/listed'; '{base}/programs/tool'; "
        f"echo x > '{base}/others/new.txt'; cat link; ln -s x '{base}/links/l'; "
        f"/usr/bin/python3 -c 'import os; os.truncate(\"{base}/secrets/key\", 0)'; echo $$"
    )
    started = time.time()
    done, told = confined(base, who, script)
    out = done.stdout.split()
    assert out[:1] == ["mine"], done.stderr
    shell = int(out[-1])
    # Landlock still refused each, as before: the observer decides nothing
    assert done.stderr.count("Permission denied") == 9, done.stderr
    assert (base / "secrets" / "key").read_text(encoding="utf-8") == "the key\n"
    assert (base / "others" / "theirs").exists()
    assert not (base / "closed" / "sub").exists()
    # and allowed each allowed call, observed as it was
    assert (base / "granted" / "made.txt").read_text(encoding="utf-8") == "new\n"
    assert not (base / "granted" / "old.txt").exists()
    # the runtime's own refusals (/proc here) are told too, and folded: not these
    ours = [e for e in told if e.get("path", e.get("folder", "")).startswith(str(base))]
    seen = {(e["operation"], e["path"]) for e in ours}
    assert seen == {
        ("read", f"{base}/secrets/key"),  # named from the working folder
        ("create", f"{base}/closed/sub"),
        ("remove", f"{base}/others/theirs"),
        ("list", f"{base}/listed"),
        ("execute", f"{base}/programs/tool"),
        ("create", f"{base}/others/new.txt"),
        ("read", f"{base}/linked/target"),  # what Landlock judges: the link's target
        ("create", f"{base}/links/l"),
        ("write", f"{base}/secrets/key"),  # truncate(2)
    }
    # nothing allowed is told, nor what fails for another reason (a missing file)
    assert len(ours) == len(seen)
    for event in ours:
        assert started <= event["time"] <= time.time()
        assert event["pid"] == event["tid"] > 0
        assert event["call"] in (
            *("openat", "open", "mkdir", "mkdirat", "unlinkat", "execve", "symlink"),
            *("symlinkat", "truncate"),
        )
    by_path = {(e["operation"], e["path"]): e for e in ours}
    assert by_path["read", f"{base}/linked/target"]["named"] == f"{base}/granted/link"
    assert by_path["read", f"{base}/secrets/key"]["comm"] == "cat"
    assert by_path["write", f"{base}/secrets/key"]["call"] == "truncate"
    # the shell's own redirection is the shell's process: the pid joins it to the request
    assert by_path["create", f"{base}/others/new.txt"]["pid"] == shell


def test_a_flood_of_refusals_is_folded_per_folder_and_counted(base: Path) -> None:
    layout(base)
    many = base / "secrets" / "many"
    many.mkdir()
    for i in range(2000):
        (many / f"f{i}").write_text("x", encoding="utf-8")
    started = time.monotonic()
    walk = f"i=0; while [ $i -lt 2000 ]; do read -r x < '{many}/f'$i; i=$((i+1)); done"
    done, told = confined(base, "root", walk + " 2>/dev/null; true")
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    mine = [e for e in told if e.get("folder", os.path.dirname(e.get("path", ""))) == str(many)]
    # one line per second of the walk, and one at the end for what was folded since
    assert 1 <= len(mine) <= int(took) + 2
    # every refusal is counted: each line with a path is one, plus those folded before it; the
    # last line (a folder, no path) counts those folded since
    assert sum(("path" in e) + e.get("repeated", 0) for e in mine) == 2000
    assert "path" not in mine[-1]
    assert all(e["operation"] == "read" for e in mine)


def test_a_walk_in_and_out_of_its_grant_has_every_refusal_told_and_nothing_else(
    base: Path,
) -> None:
    """A hostile server's walk: 300 files read in its grant (the hot path lets each through
    untold), 300 beside them outside it, and every one of those refused and counted."""
    layout(base)
    inside, outside = base / "granted" / "many", base / "secrets" / "many"
    for folder in (inside, outside):
        folder.mkdir()
        for i in range(300):
            (folder / f"f{i}").write_text("x\n", encoding="utf-8")
    walk = (
        f"i=0; while [ $i -lt 300 ]; do read -r x < '{inside}/f'$i && echo ok; "
        f"read -r x < '{outside}/f'$i; i=$((i+1)); done"
    )
    done, told = confined(base, "root", walk + " 2>/dev/null; true")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok"] * 300  # Landlock allowed the grant's, as ever
    ours = [e for e in told if e.get("path", e.get("folder", "")).startswith(str(base))]
    assert not [e for e in ours if e.get("path", e.get("folder")).startswith(str(inside))]
    refused = [
        e for e in ours if e.get("folder", os.path.dirname(e.get("path", ""))) == str(outside)
    ]
    assert sum(("path" in e) + e.get("repeated", 0) for e in refused) == 300
    assert all(e["operation"] == "read" for e in refused)


def test_the_hot_path_answers_in_the_supervisor(
    base: Path, judge: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Proof that the C loop is the one answering: asked (for the benchmark's floor) to let
    every call through unjudged, it tells nothing, while Landlock still refuses; the Python
    observer alone has no such knob and tells the refusal."""
    layout(base)
    monkeypatch.setenv("ROOTS_MANAGER_BENCH_OBSERVER_FLOOR", "1")
    done, told = confined(base, "root", f"cat '{base}/secrets/key'; echo $?")
    assert done.stdout.split() == ["1"], done.stderr
    assert "Permission denied" in done.stderr
    ours = [e["path"] for e in told if e.get("path", "").startswith(str(base))]
    assert ours == ([] if judge == "c" else [f"{base}/secrets/key"])


def test_the_filesystem_servers_refused_read_is_told_within_its_tool_call(base: Path) -> None:
    """The reference server allowed more than its grants (its folder argument is *base*), asked
    for a file outside them: Landlock refuses its read, and the line told falls within the call,
    which is how the bridge will name the request."""
    from tests.conftest import FILESYSTEM_SERVER

    layout(base)
    peers = Path(os.path.realpath(FILESYSTEM_SERVER)).parents[3]
    read, write = os.pipe()
    argv = [sys.executable, "-m", "roots_manager.sandbox.confine", "--refusals", str(write)]
    for path in RUNTIME:
        argv += ["--runtime", path]
    argv += ["--read-only", str(peers), "--read-write", str(base / "granted"), "--device"]
    argv += ["/dev/null", "--", "node", str(FILESYSTEM_SERVER), str(base)]
    proc = subprocess.Popen(
        argv, pass_fds=(write,), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    os.close(write)
    assert proc.stdin is not None and proc.stdout is not None

    def call(ident: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
        assert proc.stdin is not None and proc.stdout is not None
        message = {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}
        proc.stdin.write(json.dumps(message).encode() + b"\n")
        proc.stdin.flush()
        while True:
            answer: dict[str, Any] = json.loads(proc.stdout.readline())
            if answer.get("id") == ident:
                return answer

    try:
        call(1, "initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "observer-test", "version": "1"},
        })  # fmt: skip
        proc.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        sent = time.time()
        key = str(base / "secrets" / "key")
        answer = call(7, "tools/call", {"name": "read_text_file", "arguments": {"path": key}})
        answered = time.time()
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    assert "EACCES" in json.dumps(answer["result"]), answer  # Landlock refused it, as ever
    with os.fdopen(read, "rb") as f:
        told = [json.loads(line) for line in f]
    mine = [e for e in told if e.get("path") == key]
    assert len(mine) == 1, told
    assert mine[0]["operation"] == "read"
    assert mine[0]["comm"] == "node"
    assert sent <= mine[0]["time"] <= answered


def test_an_observer_that_cannot_tell_is_a_warning_never_a_failed_or_freer_server(
    base: Path,
) -> None:
    layout(base)
    argv = [sys.executable, "-m", "roots_manager.sandbox.confine", "--refusals", "99"]
    for path in RUNTIME:
        argv += ["--runtime", path]
    argv += ["--read-write", str(base / "granted"), "--", "sh", "-c"]
    script = f"cat '{base}/granted/mine.txt' && cat '{base}/secrets/key'; echo $?"
    done = subprocess.run([*argv, script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["mine", "1"]  # ran, and confined as ever
    assert "refusals go untold: [Errno 9] Bad file descriptor" in done.stderr


def test_the_rights_of_a_path_are_those_of_its_rules_and_the_folders_above_it() -> None:
    """Judged from an index of the rules (one look-up per folder, not one per rule): a rule on
    the path itself, a folder rule above it, never a folder that only shares its prefix."""
    from roots_manager.sandbox import landlock as ll
    from roots_manager.sandbox.observer import KEYS_KEPT, Observer, Rule

    rules = [
        Rule("/", ll.READ_DIR, True),
        Rule("/srv/data", ll.READ_FILE, True),
        Rule("/srv/data/", ll.WRITE_FILE, True),  # the same folder twice: both count
        Rule("/srv/data/sub/notes.txt", ll.EXECUTE, False),
        Rule("/srv/data/sub/notes.txt/x", ll.TRUNCATE, False),  # a file rule: nothing beneath
        Rule("/srv/database", ll.REMOVE_FILE, True),
    ]
    read, write = os.pipe()
    try:
        observer = Observer(rules, 5, write)
        unhandled = ~ll.handled(5)
        expected = {
            "/": ll.READ_DIR,
            "/srv": ll.READ_DIR,
            "/srv/data": ll.READ_DIR | ll.READ_FILE | ll.WRITE_FILE,
            "/srv/data/a/b/c": ll.READ_DIR | ll.READ_FILE | ll.WRITE_FILE,
            "/srv/data/sub/notes.txt": ll.READ_DIR | ll.READ_FILE | ll.WRITE_FILE | ll.EXECUTE,
            "/srv/data/sub/notes.txt/x": ll.READ_DIR | ll.READ_FILE | ll.WRITE_FILE | ll.TRUNCATE,
            "/srv/data/sub/notes.txt/x/y": ll.READ_DIR | ll.READ_FILE | ll.WRITE_FILE,
            "/srv/database/f": ll.READ_DIR | ll.REMOVE_FILE,
            "/srv/datab": ll.READ_DIR,
            "//srv/data/f": ll.READ_DIR,  # "/" is above it, "/srv/data" is not
        }
        for _ in range(2):  # the second time from what the first remembered
            for path, rights in expected.items():
                assert observer.allowed(path) == unhandled | rights, path
        # however many folders are met, what is remembered stays bounded, and still right
        for i in range(KEYS_KEPT * 2):
            assert observer.allowed(f"/srv/data/w{i}/f") == observer.allowed("/srv/data/f")
        assert len(observer.above) <= KEYS_KEPT
        for path, rights in expected.items():
            assert observer.allowed(path) == unhandled | rights, path
    finally:
        os.close(read)
        os.close(write)


def test_the_supervisor_is_woken_on_the_callers_cpu() -> None:
    """Each observed call waits for the supervisor: woken on another CPU it waits for that CPU
    to leave idle, twice a call (bench/bench_denials.py's walk: 12x slower, 5x with this). The
    kernel has it since 6.6, where the listener must take the flag."""
    from roots_manager.sandbox import landlock, notified_calls, seccomp

    release = tuple(int(n) for n in os.uname().release.split(".")[:2])
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the filter is for this process only
        try:
            landlock.set_no_new_privs()
            listener = seccomp.install(seccomp.machine(), sockets=False)
            os.write(write, b"1" if notified_calls.synchronous(listener) else b"0")
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        said = f.read()
    os.waitpid(pid, 0)
    assert said == (b"1" if release >= (6, 6) else b"0")
