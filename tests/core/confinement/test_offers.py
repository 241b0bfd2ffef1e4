"""One-click grants from a denial: offered for a user's files, never for a secret."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from roots_manager.core.confinement.offers import Offer, allow_command, offers, secret
from tests.conftest import only_on_linux

HOME = "/home/me"
ALL = (Offer.FOLDER, Offer.READ_ONLY, Offer.FILE)


def denial(path: str, operation: str = "read") -> dict[str, object]:
    return {"kind": "denial", "path": path, "operation": operation}


def test_a_refused_file_in_a_project_may_be_allowed_three_ways() -> None:
    got = offers(denial("/home/me/notes/todo.md"), home=HOME)
    assert got.offers == ALL
    assert (got.folder, got.file) == ("/home/me/notes", "/home/me/notes/todo.md")


def test_a_write_is_not_offered_read_only_and_a_new_file_only_its_folder() -> None:
    assert offers(denial("/home/me/notes/todo.md", "write"), home=HOME).offers == (
        Offer.FOLDER,
        Offer.FILE,
    )
    made = offers(denial("/home/me/notes/new.md", "create"), home=HOME)
    assert made.offers == (Offer.FOLDER,) and made.file is None


def test_a_protected_place_kept_from_being_made_is_offered_nothing() -> None:
    """Granting the folder would not help: the name is kept whatever is granted."""
    kept = {**denial("/home/me/proj/.envrc", "create"), "protected": True}
    got = offers(kept, home=HOME)
    assert got.offers == () and "protected place" in str(got.refused)
    assert offers(denial("/home/me/proj/.envrc", "create"), home=HOME).offers == (Offer.FOLDER,)


def test_a_refused_listing_offers_that_folder() -> None:
    got = offers(denial("/srv/data", "list"), home=HOME)
    assert got.folder == "/srv/data" and Offer.FILE not in got.offers


@pytest.mark.parametrize("path", ["/", "/home", HOME])
def test_a_folder_too_broad_is_not_offered_as_a_file_either(path: str) -> None:
    """Read as a file (opened, not listed), the root, the home or a folder holding it would be
    offered as the file: a rule on a folder's path is a rule on the whole folder."""
    got = offers(denial(path), home=HOME)
    assert got.offers == () and got.refused, got
    assert allow_command("fs", denial(path), home=HOME)[0] is None


@pytest.mark.parametrize(
    "path",
    [
        "/home/me/.ssh/id_ed25519",
        "/home/me/.ssh",
        "/home/me/.gnupg/private-keys-v1.d/x.key",
        "/home/me/.local/share/keyrings/login.keyring",
        "/home/me/.password-store/bank.gpg",
        "/home/me/.aws/credentials",
        "/home/me/.config/gcloud/credentials.db",
        "/home/me/.kube/config",
        "/home/other/notes.txt",
        "/root/.bashrc",
    ],
)
def test_secrets_and_other_users_files_are_never_offered(path: str) -> None:
    got = offers(denial(path), home=HOME)
    assert got.offers == () and got.refused, got


def test_a_file_beside_the_home_folders_secrets_offers_no_folder_that_holds_them() -> None:
    # ~/.bashrc: its folder is the home, which holds ~/.ssh: only the file itself
    got = offers(denial("/home/me/.bashrc"), home=HOME)
    assert got.offers == (Offer.FILE,) and got.folder is None
    # the home folder itself, listed: nothing
    assert offers(denial("/home/me", "list"), home=HOME).offers == ()
    assert offers(denial("/", "list"), home=HOME).offers == ()


@pytest.mark.parametrize(
    ("path", "why"),
    [("/", "the whole file system"), ("/home", "a folder holding it"), (HOME, "the home folder")],
)
def test_a_broad_folder_refused_says_it_is_broad_not_what_it_holds(path: str, why: str) -> None:
    """The root holds Roots Manager's own folder too; the reason a user needs is the first."""
    own = (f"{HOME}/.local/share/roots-manager",)
    for operation in ("list", "read"):
        got = offers(denial(path, operation), home=HOME, own=own)
        assert got.offers == () and why in str(got.refused), got


@only_on_linux("/etc/shadow is the password file of Linux systems")
def test_system_files_only_root_may_read_are_never_offered() -> None:
    assert not os.stat("/etc/shadow").st_mode & 0o004  # the premise, on this machine
    got = offers(denial("/etc/shadow"), home=HOME)
    assert got.offers == () and "others may not read" in str(got.refused)
    # a world-readable one is a file like another
    assert offers(denial("/etc/hostname"), home=HOME).offers == ALL


def test_a_private_file_made_here_is_judged_by_its_real_mode(tmp_path: Path) -> None:
    private = tmp_path / "etc-like"
    private.write_text("x", encoding="utf-8")
    private.chmod(0o600)

    def stat(_: str) -> os.stat_result:  # /etc/secret stands for the private file
        return os.stat(private)

    assert secret("/etc/secret", home=HOME, stat=stat) == "a system file others may not read"
    private.chmod(0o644)
    assert secret("/etc/secret", home=HOME, stat=stat) is None


def test_what_is_not_a_path_is_offered_nothing() -> None:
    assert offers({"operation": "connect", "path": "tcp 127.0.0.1:80"}, home=HOME).offers == ()
    assert offers({"operation": "read", "folder": "/x", "folded": 3}, home=HOME).offers == ()


def test_the_host_logs_command_allows_what_the_click_would() -> None:
    """The line a failed server leaves in the host's log: the folder the one-click offer
    grants, written for reading or reading and writing as the call wanted; or why none is."""
    assert allow_command("fs", denial("/home/me/notes/todo.md"), home=HOME) == (
        "roots-manager servers confine fs --allow-read /home/me/notes",
        "",
    )
    assert allow_command("fs", denial("/home/me/notes/new.md", "create"), home=HOME) == (
        "roots-manager servers confine fs --allow-write /home/me/notes",
        "",
    )
    # a file beside the home's secrets: the file alone, as the click offers it
    assert allow_command("my server", denial("/home/me/.bashrc"), home=HOME) == (
        "roots-manager servers confine 'my server' --allow-read /home/me/.bashrc",
        "",
    )
    command, why = allow_command("fs", denial("/home/me/.ssh/id_rsa"), home=HOME)
    assert command is None and why == "credentials (~/.ssh)"
    # a name made in the home itself: its folder is the home, and no file is there to allow
    assert allow_command("fs", denial("/home/me/x", "create"), home=HOME) == (None, "too broad")


def test_roots_managers_own_code_is_never_offered_as_a_folder() -> None:
    """Issue 38: the banner offered Allow folder for the app's own __pycache__ (write access to
    the code the bridge runs unconfined at the next start). Its package, the folder it is
    installed in, its venv and its per-user directory are offered no folder; a file read there
    may still be allowed alone, or the folder read-only; a write there is offered nothing."""
    import sys

    import roots_manager

    package = os.path.dirname(os.path.realpath(roots_manager.__file__))
    cached = os.path.join(package, "__pycache__", "uri.cpython-311.pyc")
    in_venv = os.path.join(os.path.realpath(sys.prefix), "lib", "site.py")
    for path in (cached, os.path.join(package, "core", "uri.py"), in_venv):
        got = offers(denial(path), home=HOME)
        assert Offer.FOLDER not in got.offers, path
        assert got.offers == (Offer.READ_ONLY, Offer.FILE), path
        assert "Roots Manager's own code" in str(got.refused)
        written = offers(denial(path, "write"), home=HOME)
        assert written.offers == () and "own code" in str(written.refused), path
        assert allow_command("fs", denial(path, "write"), home=HOME)[0] is None
        command, _ = allow_command("fs", denial(path), home=HOME)
        assert command is not None and "--allow-read" in command


@pytest.mark.parametrize(
    "path",
    [
        "/home/me/.config/autostart/evil.desktop",
        "/home/me/.local/bin/tool",
        "/home/me/proj/.git/hooks/pre-commit",
        "/home/me/.vscode/settings.json",
        "/home/me/.config/app.conf",  # ~/.config holds ~/.config/autostart
    ],
)
def test_a_protected_place_is_never_offered_as_a_writable_folder(path: str) -> None:
    got = offers(denial(path), home=HOME, own=())
    assert Offer.FOLDER not in got.offers
    assert "kept read-only" in str(got.refused)
    assert offers(denial(path, "write"), home=HOME, own=()).offers == ()


def made(path: str, call: str = "mkdir") -> dict[str, object]:
    return {**denial(path, "create"), "call": call}


def test_a_servers_own_state_folder_in_the_home_is_offered_to_be_made_alone() -> None:
    """Issue 37: a server refused making ``~/.serena`` (the home: too broad) or
    ``~/.cache/chrome-devtools-mcp`` (a cache every program shares) was offered nothing, or all
    of ``~/.cache``; now that folder alone, made and allowed, and the host's log says how."""
    got = offers(made("/home/me/.serena"), home=HOME)
    assert got.offers == (Offer.CREATE,) and got.create == "/home/me/.serena"
    cache = offers(made("/home/me/.cache/chrome-devtools-mcp", "mkdirat"), home=HOME)
    assert cache.offers[0] is Offer.CREATE and cache.create == "/home/me/.cache/chrome-devtools-mcp"
    assert allow_command("serena", made("/home/me/.serena"), home=HOME) == (
        "roots-manager servers confine serena --allow-write /home/me/.serena --create",
        "",
    )
    # deeper in a folder of its own: that folder is offered as before, nothing is made
    deeper = offers(made("/home/me/.serena/memories"), home=HOME)
    assert Offer.CREATE not in deeper.offers and deeper.folder == "/home/me/.serena"
    # a file made in the home, a project's folder: not a state folder
    assert offers(denial("/home/me/test.db", "create"), home=HOME).offers == ()
    assert Offer.CREATE not in offers(made("/home/me/proj/build"), home=HOME).offers


@pytest.mark.parametrize(
    "path",
    ["/home/me/.ssh", "/home/me/.aws", "/home/me/.config", "/home/me/.local",
     "/home/me/.config/autostart", "/home/me/.config/systemd", "/home/me/.vscode"],
)  # fmt: skip
def test_a_secret_or_a_kept_place_is_never_offered_to_be_made(path: str) -> None:
    assert Offer.CREATE not in offers(made(path), home=HOME).offers, path


def refused_domain(domain: str, port: int = 443) -> dict[str, object]:
    """The proxy's refusal of *domain*, as the bridge logs it (core/log/denials.py)."""
    return {
        "kind": "denial",
        "path": f"network: {domain}:{port}",
        "folder": "",
        "operation": "connect",
        "domain": domain,
        "port": port,
    }


def test_a_domain_the_proxy_refused_is_offered_as_a_domain_never_as_a_path() -> None:
    got = offers(refused_domain("API.Example.COM."), home=HOME)
    assert got.offers == (Offer.DOMAIN,)
    assert got.domain == "api.example.com"  # as it is kept: lower case, no final dot
    assert (got.folder, got.file, got.create) == (None, None, None)
    # an address asked of the proxy by its number: that address, as a literal
    assert offers(refused_domain("2001:DB8::1"), home=HOME).domain == "2001:db8::1"


def test_a_domain_that_is_none_is_offered_nothing_and_says_so() -> None:
    for bad in ("exa mple.com", "-x.example", "", "*"):
        got = offers(refused_domain(bad), home=HOME)
        assert got.offers == () and got.domain is None, bad
        assert str(got.refused).startswith("not a domain"), bad
    # a domain on another operation is no refusal of the proxy's
    odd = {**refused_domain("example.com"), "operation": "read", "path": "/home/me/x"}
    assert offers(odd, home=HOME).offers == ()


def test_the_host_logs_command_for_a_domain_adds_it_to_the_servers_domains() -> None:
    assert allow_command("fs", refused_domain("api.example.com"), home=HOME) == (
        "roots-manager servers network fs domains --allow api.example.com",
        "",
    )
    assert allow_command("my server", refused_domain("192.0.2.7", 80), home=HOME) == (
        "roots-manager servers network 'my server' domains --allow 192.0.2.7",
        "",
    )
    command, why = allow_command("fs", refused_domain("exa mple.com"), home=HOME)
    assert command is None and why == "not a domain (exa mple.com)"
