"""A confined browser server (Playwright MCP, Chrome DevTools MCP) gets its browser folders
with nothing for the user to do, and nothing it writes there reaches anyone else.

The folders are derived from the package the command line runs: Playwright MCP's profiles
(``~/.cache/ms-playwright-mcp``) and Playwright's browsers with its registry of running
browsers (``~/.cache/ms-playwright``, whose ``b`` entries name the code the user's next
Playwright loads), Chrome DevTools MCP's profile (``~/.cache/chrome-devtools-mcp``), made when
missing and layered as a package cache is; Puppeteer's browsers read-only. A profile's
``NativeMessagingHosts`` names programs the user's next, unconfined browser runs: a write there
lands in the server's own layer.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import only_on_linux
from tests.security.confined import Hostile, World, derived, run_by, users

pytestmark = only_on_linux("confinement is tested on Linux (Landlock and seccomp)")
REFUSED = ("EROFS", "EBUSY", "EACCES", "EPERM", "EXDEV")


@pytest.mark.parametrize("world", users(), indirect=True)
def test_playwright_mcp_gets_its_profiles_made_and_layered(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = world.home / ".cache"
    profiles = cache / "ms-playwright-mcp"
    browsers = cache / "ms-playwright"
    chrome = browsers / "chromium-1200" / "chrome-linux" / "chrome"
    chrome.parent.mkdir(parents=True)
    chrome.write_text("# the user's browser\n", encoding="utf-8")
    (browsers / "b").mkdir()
    world.env.pop("XDG_CACHE_HOME", None)
    world.env.pop("PLAYWRIGHT_BROWSERS_PATH", None)
    world.setup()
    assert not profiles.exists()
    host = Hostile(world, run_by(world, "playwright-mcp"))
    try:
        # made by the bridge before the start, then the server's to fill, as Playwright does
        profile = profiles / "mcp-chrome-5129c93"
        assert host.attack("create", path=str(profile / "Default" / "Preferences")) == "ok"
        native = profile / "NativeMessagingHosts" / "com.example.json"
        assert host.attack("create", path=str(native)) == "ok"
        assert host.attack("create", path=str(browsers / "b" / "guid")) == "ok"
        assert host.attack("read", path=str(chrome)) == "ok:# the user's browser\n"
        assert host.attack("replace", path=str(chrome)) == "ok"
        # the rest of the cache folder, and the home, are not its
        assert host.attack("create", path=str(cache / "other" / "x")) in REFUSED
        assert host.attack("read", path=str(world.key)) in REFUSED
    finally:
        host.close()
    # what it wrote is in a layer of its own: the user's next Playwright sees none of it
    assert profiles.is_dir() and list(profiles.iterdir()) == []
    assert list((browsers / "b").iterdir()) == []
    assert chrome.read_text(encoding="utf-8") == "# the user's browser\n"
    shown = derived(world, monkeypatch)
    for folder in (profiles, browsers):
        assert shown[str(folder)]["access"] == "layered", shown
        assert "@playwright/mcp" in shown[str(folder)]["why"], shown
    # its next start finds its profile again
    host = Hostile(world, run_by(world, "playwright-mcp"))
    try:
        assert host.attack("read", path=str(native)) == "ok:planted"
    finally:
        host.close()


@pytest.mark.parametrize("world", users(), indirect=True)
def test_chrome_devtools_mcp_gets_its_profile_and_reads_puppeteers_browsers(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = world.home / ".cache" / "chrome-devtools-mcp"
    puppeteer = world.home / ".cache" / "puppeteer" / "chrome" / "linux-1" / "chrome"
    puppeteer.parent.mkdir(parents=True)
    puppeteer.write_text("# the user's browser\n", encoding="utf-8")
    world.env.pop("PUPPETEER_CACHE_DIR", None)
    world.setup()
    host = Hostile(world, run_by(world, "chrome-devtools-mcp"))
    try:
        latest = own / "latest.json"
        assert host.attack("create", path=str(latest)) == "ok"
        assert host.attack("create", path=str(own / "chrome-profile" / "Local State")) == "ok"
        assert host.attack("read", path=str(puppeteer)) == "ok:# the user's browser\n"
        assert host.attack("replace", path=str(puppeteer)) in REFUSED
        assert host.attack("create", path=str(puppeteer.parent / "more")) in REFUSED
    finally:
        host.close()
    assert own.is_dir() and list(own.iterdir()) == []
    assert puppeteer.read_text(encoding="utf-8") == "# the user's browser\n"
    shown = derived(world, monkeypatch)
    assert shown[str(own)]["access"] == "layered", shown
    assert shown[str(puppeteer.parents[2])]["access"] == "read-only", shown


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_browser_folder_put_on_the_home_is_refused(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the environment puts a browser folder decides nothing unsafe: at the home
    folder, a secret or a place that runs later, it is refused and said, never granted."""
    world.env["PLAYWRIGHT_BROWSERS_PATH"] = str(world.home)
    world.env["PWMCP_PROFILES_DIR_FOR_TEST"] = str(world.home / ".ssh")
    world.env["XDG_CACHE_HOME"] = str(world.home / ".local" / "bin")
    world.setup()
    host = Hostile(world, run_by(world, "playwright-mcp"))
    try:
        assert host.attack("create", path=str(world.home / "planted")) in REFUSED
        assert host.attack("read", path=str(world.key)) in REFUSED
        assert host.attack("create", path=str(world.home / ".ssh" / "more")) in REFUSED
    finally:
        host.close()
    assert not (world.home / "planted").exists()
    assert not (world.home / ".local" / "bin").exists()
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(world.home))
    monkeypatch.setenv("PWMCP_PROFILES_DIR_FOR_TEST", str(world.home / ".ssh"))
    shown = derived(world, monkeypatch)
    assert shown[str(world.home)]["access"] == "refused", shown
    assert shown[str(world.home / ".ssh")]["access"] == "refused", shown


@pytest.mark.parametrize("world", users(), indirect=True)
def test_a_socket_deep_in_its_own_temporary_folder_can_be_named(world: World) -> None:
    """The server's temporary folder lies deep in the user's folder; it is told a short name,
    so that a socket a browser binds in a folder of its own there still fits in the 107 bytes
    of a socket's path (Chromium's ``SingletonSocket``: "Socket path too long", and no
    browser), and is still its own: made there, and connected to."""
    world.setup()
    host = Hostile(world)
    try:
        environ = host.attack("read", path="/proc/self/environ")
        told = next(v.split("=", 1)[1] for v in environ.split("\0") if v.startswith("TMPDIR="))
        real = os.path.realpath(told)
        assert real.startswith(str(world.rm_home)), told
        name = "org.chromium.Chromium." + "x" * 40
        assert len(os.path.join(real, name, "SingletonSocket")) > 107  # too long as it is
        assert host.attack("deep_socket", name=name) == "ok:mine", told
        assert Path(real, name, "SingletonSocket").is_socket()
        # the short name leads nowhere else, and others cannot take it
        assert os.lstat(told).st_uid == os.lstat(real).st_uid
        assert host.attack("create", path=os.path.join(os.path.dirname(told), "x")) in REFUSED
    finally:
        host.close()
