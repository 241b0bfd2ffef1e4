"""A bridge on a machine whose inotify instances are used up still holds its server to its
grants: every watcher falls back to looking, and a revocation still reaches the server.

The kernel's limit is per user (128 by default on Debian), and a bridge holds up to three
instances (the store's folder, its folders' parents, the answer's paths): a user with a few
dozen servers open, beside an editor's own watchers, can use them all up. The bridge here runs
in a user namespace of its own whose limit is 0, so ``inotify_init1`` fails with ``EMFILE`` in
it as it would for a user out of instances, and nothing else on the machine is touched.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from roots_manager.core.log import events as ev
from roots_manager.core.runs import live
from roots_manager.core.store.file import Store
from tests.bridge.wire import Bridged, events, grant_folder, is_method
from tests.conftest import only_on_linux, unavailable

LIMITED = """
import ctypes, os, sys

libc = ctypes.CDLL(None, use_errno=True)
uid, gid = os.getuid(), os.getgid()
if libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER
    sys.exit(f"unshare: {os.strerror(ctypes.get_errno())}")
for path, text in (("/proc/self/setgroups", "deny"), ("/proc/self/uid_map", f"0 {uid} 1"),
                   ("/proc/self/gid_map", f"0 {gid} 1"),
                   ("/proc/sys/user/max_inotify_instances", LIMIT)):
    with open(path, "w") as f:
        f.write(text)
"""
"""Python in a user namespace of its own that allows ``LIMIT`` inotify instances."""

RUN_BRIDGE = """
import runpy
runpy.run_module("roots_manager.bridge", run_name="__main__", alter_sys=True)
"""


def limited(left: int, then: str = "") -> str:
    """The code of :data:`LIMITED` with *left* instances allowed, followed by *then*."""
    return f'LIMIT = "{left}"\n{LIMITED}{then}'


def _namespace_refused() -> str | None:
    """Why this kernel makes no user namespace for this test (None: it does)."""
    done = subprocess.run([sys.executable, "-c", limited(0)], capture_output=True, text=True)
    return None if done.returncode == 0 else done.stderr.strip().splitlines()[-1]


def _inotify_fds(pid: int) -> int:
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(FileNotFoundError):  # closed since it was listed (a read)
            count += os.readlink(fd) == "anon_inode:inotify"
    return count


@only_on_linux("inotify and user namespaces are Linux's")
@pytest.mark.parametrize("left", [0, 1], ids=["none left", "one left"])
def test_a_bridge_short_of_inotify_still_tells_its_server_of_a_revocation_and_a_request(
    store: Store, tmp_path: Path, left: int
) -> None:
    refused = _namespace_refused()
    if refused is not None:
        unavailable(
            f"a user namespace is needed here, to limit inotify for one bridge: {refused}",
            f"this kernel makes no user namespace, the test's only way to limit inotify for one "
            f"process ({refused}; user.max_user_namespaces, or an AppArmor or Debian setting "
            "that keeps them from ordinary users)",
        )
    uri = grant_folder(store, tmp_path, "pup", "work")
    grant_folder(store, tmp_path, "other", "not-its")
    pair = Bridged(run=("-c", limited(left, then=RUN_BRIDGE)))
    try:
        pair.handshake()
        assert pair.ask(1) == [uri]
        assert _inotify_fds(pair.bridge.proc.pid) == left  # the limit holds
        # a list_changed asked for (roots-manager notify): a file beside the store
        [marker] = live.bridge_markers(store.layout)
        live.ask_list_changed(store.layout, marker.run, "cli")
        pair.server.expect(is_method("notifications/roots/list_changed"), "the notice asked for")
        assert pair.ask(4) == [uri]
        with store.transaction() as s:
            s.revoke("pup", [r.id for r in s.roots if r.uri == uri])
        pair.server.expect(is_method("notifications/roots/list_changed"), "the revocation")
        assert pair.ask(2) == []
        # and a grant comes back the same way
        with store.transaction() as s:
            s.grant("pup", [r.id for r in s.roots if r.uri == uri])
        pair.server.expect(is_method("notifications/roots/list_changed"), "the new grant")
        assert pair.ask(3) == [uri]
    finally:
        pair.close()
    # said once, with what the user can change
    said = [e["message"] for e in events(store.layout, ev.ERROR)]
    assert said == [
        "the store's folder cannot be watched: this user has no inotify instance left, the "
        "limit being fs.inotify.max_user_instances; changes and requests are looked for every "
        "second instead"
    ]
