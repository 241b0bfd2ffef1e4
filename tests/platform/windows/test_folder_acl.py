"""The per-user folder's access list on Windows: the parts that run anywhere.

The calls to Windows (``platform/windows/acl_calls.py``) cannot run here; what decides and builds the access
list can, and runs below against a stand-in for those calls over real folders.
"""

from __future__ import annotations

import json
import logging
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from roots_manager.core.directory.layout import Layout, home_or_root
from roots_manager.platform.windows import folder_acl as acl
from roots_manager.platform.windows.folder_acl import AclOutcome, AclStep, SidError

USER = "S-1-5-21-3623811015-3361044348-30300820-1013"
PRIVATE = f"D:P(A;OICI;FA;;;{USER})(A;OICI;FA;;;SY)"


def test_the_access_list_grants_the_user_and_system_only_and_is_inherited() -> None:
    assert acl.private_sddl(USER) == PRIVATE
    # an Entra ID (Azure AD) account, a service's virtual account, LocalSystem
    for sid in (
        "S-1-12-1-1234567890-1234567890-1234567890-1234567890",
        "S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464",
        "S-1-5-18",
        "S-1-5-21-1-2-3-4-5-6-7-8-9-10-11-12-13-14",  # fifteen parts after the authority
        "S-1-5-21-4294967295",
    ):
        assert acl.private_sddl(sid) == f"D:P(A;OICI;FA;;;{sid})(A;OICI;FA;;;SY)"


@pytest.mark.parametrize(
    "sid",
    [
        "",
        "WD",  # Everyone, as an SDDL alias
        "BA",
        "S-1-1-0",  # Everyone
        "S-1-5-11",  # Authenticated Users
        "S-1-5-32-544",  # Administrators
        "S-1-5-32-545",  # Users
        "S-1-5-7",  # Anonymous
        "S-1-3-0",  # Creator Owner
        f"{USER})(A;OICI;FA;;;WD",  # an entry for Everyone smuggled in
        f"{USER};",
        f" {USER}",
        f"{USER}\n",
        f"{USER}\x00",
        USER.lower(),
        "S-1-5-21-１２３",  # full-width digits
        "S-1-5-21-4294967296",  # past 32 bits
        "S-1-4294967296-21-1",
        "S-1-5-21-",
        "S-1-5-21--1",
        "S-1-5-21-+1",
        "S-2-5-21-1-2-3",  # revision 2 does not exist
        "S-1-5-21-1-2-3-4-5-6-7-8-9-10-11-12-13-14-15",  # sixteen parts
    ],
)
def test_what_is_not_a_users_sid_is_refused(sid: str) -> None:
    with pytest.raises(SidError):
        acl.private_sddl(sid)


@pytest.mark.parametrize(
    ("current", "private"),
    [
        (PRIVATE, True),
        # Windows marks inheritance as computed, and may list the entries in its own order
        (f"D:PAI(A;OICI;FA;;;SY)(A;OICI;FA;;;{USER})", True),
        (f"D:PAR(A;OICI;FA;;;{USER})(A;OICI;FA;;;SY)", True),
        # inherited from the parent: not protected
        (f"D:AI(A;OICIID;FA;;;{USER})(A;OICIID;FA;;;SY)", False),
        (f"D:(A;OICI;FA;;;{USER})(A;OICI;FA;;;SY)", False),
        # one entry more, one less, or another right
        (f"{PRIVATE}(A;OICI;FA;;;BA)", False),
        (f"D:P(A;OICI;FA;;;{USER})", False),
        (f"D:P(A;OICI;FR;;;{USER})(A;OICI;FA;;;SY)", False),
        ("D:NO_ACCESS_CONTROL", False),
        ("D:P", False),
        ("", False),
    ],
)
def test_a_folder_read_back_is_private_only_with_exactly_those_entries(
    current: str, private: bool
) -> None:
    assert acl.same_private_dacl(current, PRIVATE) is private


class FakeWindows:
    """The calls of ``platform/windows/acl_calls.py``, over real folders: each folder's DACL in a dict."""

    def __init__(self, sid: str = USER, fail: Exception | None = None) -> None:
        self.sid = sid
        self.fail = fail
        self.dacls: dict[Path, str] = {}

    def current_user_sid(self) -> str:
        return self.sid

    def canonical(self, sddl: str) -> str:
        return sddl

    def read_dacl(self, path: Path) -> str:
        assert path.is_dir()
        return self.dacls.get(path, "D:AI(A;OICIID;FA;;;BA)(A;OICIID;FA;;;WD)")

    def set_protected_dacl(self, path: Path, sddl: str) -> None:
        if self.fail is not None:
            raise self.fail
        self.dacls[path] = sddl.replace("D:P", "D:PAI")


def test_a_folder_is_given_the_list_once(tmp_path: Path) -> None:
    windows = FakeWindows()
    home = tmp_path / "roots-manager"
    home.mkdir()
    assert acl.make_private(home, lambda: windows, home_or_root(home)) == AclOutcome(AclStep.SET)
    assert windows.dacls == {home: f"D:PAI(A;OICI;FA;;;{USER})(A;OICI;FA;;;SY)"}
    # already private: left alone (setting it again would walk every file inside)
    windows.fail = PermissionError(5, "Access is denied")
    assert acl.make_private(home, lambda: windows, home_or_root(home)) == AclOutcome(AclStep.KEEP)


def test_the_home_folder_and_a_drives_root_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    me = tmp_path / "me"
    me.mkdir()
    monkeypatch.setenv("HOME", str(me))
    windows = FakeWindows()
    for folder in (me, Path("/")):
        outcome = acl.make_private(folder, lambda: windows, home_or_root(folder))
        assert outcome.step is AclStep.REFUSED
        assert outcome.reason == "it is your home folder or the root of the file system"
    assert windows.dacls == {}
    assert home_or_root(me / "AppData" / "roots-manager") is None


def test_a_failure_is_returned_and_said_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(acl, "_said", [])
    windows = FakeWindows(fail=PermissionError(5, "SetNamedSecurityInfoW failed: Access is denied"))
    folders = [tmp_path / name for name in ("home", "logs", "live")]
    outcomes = []
    for folder in folders:
        folder.mkdir()
        outcomes.append(acl.make_private(folder, lambda: windows, None))
    assert {o.step for o in outcomes} == {AclStep.FAILED}
    assert "Access is denied" in (outcomes[0].reason or "")
    with caplog.at_level(logging.WARNING):
        said = [acl.say_failure_once(f, o) for f, o in zip(folders, outcomes, strict=True)]
    assert said == [True, False, False]
    assert [r.getMessage() for r in caplog.records] == [
        f"{tmp_path / 'home'} is not made private to you: its access list could not be set "
        "([Errno 5] SetNamedSecurityInfoW failed: Access is denied). It is used all the same, "
        "with the permissions it inherits from its parent folder."
    ]
    # nothing was lost: the folders are still there, empty as they were
    assert all(f.is_dir() for f in folders)


def test_calls_that_cannot_even_be_loaded_are_a_failure_said_not_raised(tmp_path: Path) -> None:
    def broken() -> FakeWindows:
        raise AttributeError("function 'SetNamedSecurityInfoW' not found")

    outcome = acl.make_private(tmp_path, broken, None)
    assert outcome == AclOutcome(AclStep.FAILED, "function 'SetNamedSecurityInfoW' not found")
    windows = FakeWindows(fail=TypeError())  # a wrong ctypes declaration, say
    assert acl.make_private(tmp_path, lambda: windows, None) == AclOutcome(
        AclStep.FAILED, "TypeError"
    )


def test_a_token_whose_user_is_not_a_user_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(acl, "_said", [])
    windows = FakeWindows(sid="S-1-1-0")
    outcome = acl.make_private(tmp_path, lambda: windows, None)
    assert outcome.step is AclStep.FAILED and "S-1-1-0" in (outcome.reason or "")
    assert windows.dacls == {}
    assert acl.say_failure_once(tmp_path, AclOutcome(AclStep.KEEP)) is False


def test_posix_folders_stay_mode_0700_and_never_load_the_windows_code(tmp_path: Path) -> None:
    script = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from roots_manager.core.directory.layout import Layout\n"
        "Layout(Path(sys.argv[1])).ensure()\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('roots_manager'))))\n"
    )
    home = tmp_path / "home"
    done = subprocess.run(
        [sys.executable, "-c", script, str(home)], capture_output=True, text=True, check=True
    )
    loaded = json.loads(done.stdout)
    assert "roots_manager.core.directory.layout" in loaded
    assert (
        "roots_manager.platform.windows.folder_acl" not in loaded
        and "roots_manager.platform.windows.acl_calls" not in loaded
    )
    lay = Layout(home)
    assert {stat.S_IMODE(p.stat().st_mode) for p in (lay.home, lay.logs, lay.live)} == {0o700}
    assert done.stderr == ""
