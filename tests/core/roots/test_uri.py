"""File URIs: encoding, exact inversion, refusals, and agreement with pathlib."""

from __future__ import annotations

import os
from pathlib import PurePosixPath, PureWindowsPath

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roots_manager.core.roots.uri import UriError, path_to_uri, uri_to_path


@pytest.mark.parametrize(
    ("path", "uri"),
    [
        ("/srv/app/web#staging", "file:///srv/app/web%23staging"),
        ("/home/me/my project", "file:///home/me/my%20project"),
        ("/data/what?", "file:///data/what%3F"),
        ("/data/100%", "file:///data/100%25"),
        (
            "/プロジェクト/日本語",
            "file:///%E3%83%97%E3%83%AD%E3%82%B8%E3%82%A7%E3%82%AF%E3%83%88/"
            "%E6%97%A5%E6%9C%AC%E8%AA%9E",
        ),
        ("/项目/中文", "file:///%E9%A1%B9%E7%9B%AE/%E4%B8%AD%E6%96%87"),
        ("/tab\there", "file:///tab%09here"),
        ("/", "file:///"),
    ],
)
def test_posix_paths_encode_what_must_be_encoded(path: str, uri: str) -> None:
    assert path_to_uri(path, "posix") == uri
    assert uri_to_path(uri, "posix") == path


@pytest.mark.parametrize(
    ("path", "uri"),
    [
        ("C:\\Users\\me", "file:///C:/Users/me"),
        ("C:\\Users\\me\\web#staging", "file:///C:/Users/me/web%23staging"),
        (
            "D:\\プロジェクト\\a b",
            "file:///D:/%E3%83%97%E3%83%AD%E3%82%B8%E3%82%A7%E3%82%AF%E3%83%88/a%20b",
        ),
        ("c:\\", "file:///c:/"),
        ("\\\\fileserver\\share\\team docs", "file://fileserver/share/team%20docs"),
    ],
)
def test_windows_paths_are_pure_strings(path: str, uri: str) -> None:
    assert path_to_uri(path, "windows") == uri
    assert path_to_uri(path, "windows") == PureWindowsPath(path).as_uri()
    assert uri_to_path(uri, "windows") == path


def test_windows_accepts_forward_slashes_and_localhost() -> None:
    assert path_to_uri("C:/Users/me", "windows") == "file:///C:/Users/me"
    assert uri_to_path("file://localhost/C:/x", "windows") == "C:\\x"


@pytest.mark.parametrize(
    ("uri", "words"),
    [
        ("http://example.com/x", "only file://"),
        ("https:///x", "only file://"),
        ("relative/path", "no scheme"),
        ("/absolute/but/no/scheme", "no scheme"),
        ("file:///a?b=1", "query"),
        ("file:///a#frag", "fragment"),
        ("file://otherhost/x", "name this machine"),
        ("file:///a%00b", "NUL"),
        ("file:///a%2Fb", "separator"),
        ("file:///a%2fb", "separator"),
        ("file:relative", "not an absolute"),
        ("file:///a%zz", "broken percent"),
    ],
)
def test_bad_uris_are_refused_with_a_clear_error(uri: str, words: str) -> None:
    with pytest.raises(UriError, match=words):
        uri_to_path(uri, "posix")


def test_windows_refusals() -> None:
    with pytest.raises(UriError, match="separator"):
        uri_to_path("file:///C:/a%5Cb", "windows")
    with pytest.raises(UriError, match="not UTF-8"):
        uri_to_path("file:///C:/%FF", "windows")
    with pytest.raises(UriError, match="drive or UNC"):
        path_to_uri("relative\\dir", "windows")


def test_localhost_and_single_slash_forms_are_accepted() -> None:
    assert uri_to_path("file://localhost/srv/x", "posix") == "/srv/x"
    assert uri_to_path("file:/srv/x", "posix") == "/srv/x"
    assert uri_to_path("FILE:///srv/x", "posix") == "/srv/x"


def test_relative_paths_and_nul_have_no_uri() -> None:
    with pytest.raises(UriError, match="absolute"):
        path_to_uri("relative/dir", "posix")
    with pytest.raises(UriError, match="NUL"):
        path_to_uri("/a\x00b", "posix")


# ---- properties -----------------------------------------------------------------------------

segment_text = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="/\x00"),
    min_size=1,
    max_size=12,
).filter(lambda s: s not in (".", ".."))
posix_paths = st.lists(segment_text, min_size=0, max_size=6).map(lambda segs: "/" + "/".join(segs))
raw_segments = st.binary(min_size=1, max_size=8).filter(
    lambda b: b"/" not in b and b"\x00" not in b and b not in (b".", b"..")
)
raw_posix_paths = st.lists(raw_segments, min_size=1, max_size=5).map(
    lambda segs: os.fsdecode(b"/" + b"/".join(segs))
)


@given(posix_paths)
def test_posix_round_trip_and_pathlib_agreement(path: str) -> None:
    uri = path_to_uri(path, "posix")
    assert uri.startswith("file:///")
    assert uri_to_path(uri, "posix") == path
    assert uri == PurePosixPath(path).as_uri()
    # nothing that would end the path early or change its meaning is left unencoded
    body = uri[len("file://") :]
    assert not any(c in body for c in " #?") and all(ord(c) < 128 for c in body)


@given(raw_posix_paths)
def test_non_utf8_file_names_round_trip(path: str) -> None:
    assert uri_to_path(path_to_uri(path, "posix"), "posix") == path


windows_segment = st.text(
    alphabet=st.characters(blacklist_categories=["Cs", "Cc"], blacklist_characters='\\/:*?"<>|'),
    min_size=1,
    max_size=10,
).filter(lambda s: s.strip(" .") == s and s not in (".", ".."))


@given(st.sampled_from("CDEZcz"), st.lists(windows_segment, min_size=1, max_size=5))
def test_windows_drive_round_trip_and_pathlib_agreement(drive: str, segs: list[str]) -> None:
    path = f"{drive}:\\" + "\\".join(segs)
    uri = path_to_uri(path, "windows")
    assert uri == PureWindowsPath(path).as_uri()
    assert uri_to_path(uri, "windows") == path


@given(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=10),
    st.lists(windows_segment, min_size=1, max_size=4),
)
def test_unc_round_trip(host: str, segs: list[str]) -> None:
    path = f"\\\\{host}\\" + "\\".join(segs)
    if len(segs) < 2:
        path += "\\share"
    uri = path_to_uri(path, "windows")
    assert uri_to_path(uri, "windows") == path


# ---- odd but legal paths -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "uri"),
    [
        # a trailing slash and dot segments are kept as written: the URI is the exact inverse,
        # and folding them is the store's job (it normalises every path it keeps)
        ("/srv/app/", "file:///srv/app/"),
        ("/srv/./app/../web", "file:///srv/./app/../web"),
        ("/line\nbreak", "file:///line%0Abreak"),
        ("/cr\rand\x1b[31mescape", "file:///cr%0Dand%1B%5B31mescape"),
        ("/del\x7f", "file:///del%7F"),
        (
            "/a+b;c=d&e,f@g$h!i'j(k)l*m~n",
            "file:///a%2Bb%3Bc%3Dd%26e%2Cf%40g%24h%21i%27j%28k%29l%2Am~n",
        ),
        ("/bidi\u202eevil", "file:///bidi%E2%80%AEevil"),
    ],
)
def test_odd_posix_paths_round_trip_exactly(path: str, uri: str) -> None:
    assert path_to_uri(path, "posix") == uri
    assert uri_to_path(uri, "posix") == path


def test_a_very_long_path_round_trips() -> None:
    path = "/" + "/".join(["日本語 #%?" * 20] * 40)
    uri = path_to_uri(path, "posix")
    assert len(uri) > 30_000 and uri == PurePosixPath(path).as_uri()
    assert uri_to_path(uri, "posix") == path


def test_a_uri_cannot_smuggle_a_newline_or_a_percent_escape_unencoded() -> None:
    assert uri_to_path("file:///a%0Ab", "posix") == "/a\nb"
    with pytest.raises(UriError, match="broken percent"):
        uri_to_path("file:///100%", "posix")


# ---- Windows long paths, UNC spellings, drive letters ------------------------------------------


@pytest.mark.parametrize(
    ("path", "uri", "back"),
    [
        (
            "\\\\?\\C:\\Users\\me\\長い",
            "file:///C:/Users/me/%E9%95%B7%E3%81%84",
            "C:\\Users\\me\\長い",
        ),
        ("\\\\?\\c:", "file:///c:/", "c:\\"),
        ("\\\\.\\D:\\work", "file:///D:/work", "D:\\work"),
        (
            "\\\\?\\UNC\\fileserver\\share\\team docs",
            "file://fileserver/share/team%20docs",
            "\\\\fileserver\\share\\team docs",
        ),
        ("\\\\?\\unc\\srv\\share", "file://srv/share", "\\\\srv\\share"),
        ("//srv/share/a", "file://srv/share/a", "\\\\srv\\share\\a"),
    ],
)
def test_windows_long_and_device_prefixes_name_the_plain_folder(
    path: str, uri: str, back: str
) -> None:
    # \\?\C:\x and C:\x are one folder: one URI, and the URI comes back without the prefix
    assert path_to_uri(path, "windows") == uri
    assert uri_to_path(uri, "windows") == back
    assert path_to_uri(back, "windows") == uri


def test_a_long_windows_path_round_trips_through_its_plain_form() -> None:
    deep = "C:\\" + "\\".join(["フォルダ name"] * 40)
    assert len(deep) > 260
    uri = path_to_uri("\\\\?\\" + deep, "windows")
    assert uri == PureWindowsPath(deep).as_uri()
    assert uri_to_path(uri, "windows") == deep


@pytest.mark.parametrize(
    ("uri", "path"),
    [
        # the four-slash form (Windows Explorer, .NET) and Mozilla's five slashes are UNC
        ("file:////fileserver/share/team%20docs", "\\\\fileserver\\share\\team docs"),
        ("file://///fileserver/share/x", "\\\\fileserver\\share\\x"),
        ("file:////fileserver/share", "\\\\fileserver\\share"),
        ("file://fileserver/share", "\\\\fileserver\\share"),
        # a drive: the legacy "C|", a drive in the host's place, localhost, an encoded colon
        ("file:///C|/Users/me", "C:\\Users\\me"),
        ("file://C:/Users/me", "C:\\Users\\me"),
        ("file://localhost/d:/x", "d:\\x"),
        ("file:///C%3A/x", "C:\\x"),
        ("file:///C:", "C:\\"),
        # a UNC server called localhost is still a server (\\localhost\share is an admin share)
        ("file://localhost/share/x", "\\\\localhost\\share\\x"),
        # an encoded long-path prefix is the folder it names
        ("file:////%3F/C:/x", "C:\\x"),
        ("file:////%3F/UNC/srv/share", "\\\\srv\\share"),
    ],
)
def test_windows_uri_spellings_are_accepted(uri: str, path: str) -> None:
    assert uri_to_path(uri, "windows") == path


@pytest.mark.parametrize(
    ("uri", "words"),
    [
        ("file://srv/", "server and a share"),
        ("file:////srv", "server and a share"),
        ("file:////srv/", "server and a share"),
        ("file:///C:relative", "drive or UNC"),
        ("file:///share/x", "drive or UNC"),
        ("file:////%3F/Volume%7B0b1c%7D/x", "device or volume"),
        ("file:////./pipe/x", "device or volume"),
    ],
)
def test_windows_uris_that_name_no_folder_are_refused(uri: str, words: str) -> None:
    with pytest.raises(UriError, match=words):
        uri_to_path(uri, "windows")


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("\\\\?\\Volume{0b1c}\\x", "device or volume"),
        ("\\\\.\\pipe\\roots", "device or volume"),
        ("C:", "drive or UNC"),
        ("C:relative", "drive or UNC"),
        ("\\\\server", "server and a share"),
        ("\\\\?\\UNC\\server", "server and a share"),
    ],
)
def test_windows_paths_that_have_no_uri_are_refused(path: str, words: str) -> None:
    with pytest.raises(UriError, match=words):
        path_to_uri(path, "windows")


@pytest.mark.parametrize(
    ("uri", "path"),
    [
        # an empty host, then "//tmp/x": one folder, /tmp/x, as Linux and macOS read it
        ("file:////tmp/x", "/tmp/x"),
        ("file://///tmp/x", "/tmp/x"),
        ("file://localhost/tmp/x", "/tmp/x"),
        ("file://localhost//tmp/x", "/tmp/x"),
        ("file:/tmp/x", "/tmp/x"),
        ("file:////tmp//x//", "/tmp/x/"),
        # percent-encoding decodes as in the three-slash form
        ("file:////tmp/my%20dir/web%23staging", "/tmp/my dir/web#staging"),
        ("file://localhost/tmp/100%25", "/tmp/100%"),
        ("file:////%E6%97%A5%E6%9C%AC", "/日本"),
    ],
)
def test_posix_reads_every_run_of_slashes_as_one(uri: str, path: str) -> None:
    assert uri_to_path(uri, "posix") == path


def test_posix_four_slash_forms_keep_their_refusals() -> None:
    with pytest.raises(UriError, match="separator"):
        uri_to_path("file:////tmp/a%2Fb", "posix")
    with pytest.raises(UriError, match="NUL"):
        uri_to_path("file:////tmp/a%00", "posix")
    with pytest.raises(UriError, match="broken percent"):
        uri_to_path("file:////tmp/a%2", "posix")


def test_a_double_slash_posix_path_has_the_uri_of_its_folder() -> None:
    # "//tmp/x" is /tmp/x: one URI, which reads back as the folder
    assert path_to_uri("//tmp/x", "posix") == "file:///tmp/x"
    assert uri_to_path(path_to_uri("//tmp/x", "posix"), "posix") == "/tmp/x"


@given(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=10),
    st.lists(windows_segment, min_size=2, max_size=4),
)
def test_unc_in_every_spelling_is_one_folder(host: str, segs: list[str]) -> None:
    path = f"\\\\{host}\\" + "\\".join(segs)
    uri = path_to_uri(path, "windows")
    assert path_to_uri(f"\\\\?\\UNC\\{host}\\" + "\\".join(segs), "windows") == uri
    four_slash = "file:////" + uri[len("file://") :]
    assert uri_to_path(four_slash, "windows") == uri_to_path(uri, "windows") == path
