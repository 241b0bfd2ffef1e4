"""Every refusal of the state carries one of the listed templates, so front ends can translate it."""

from __future__ import annotations

import copy
import os
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest

from roots_manager.core.roots import uri
from roots_manager.core.roots.root import Root, broad_reason
from roots_manager.core.store.state import ERROR_TEMPLATES, State, fingerprint, server_name_error
from roots_manager.support.refusal import ModelError


def refusals(work: Path) -> list[Callable[[], object]]:
    """One operation per template that the state refuses with it."""
    s = State()
    folder = work / "proj"
    folder.mkdir()
    (work / "twin").mkdir()
    (work / "file.txt").write_text("x")
    root = s.add_root(str(folder), "proj")
    s.add_root(str(work / "twin"), "twin")
    # two roots of one name, as a store written before names were kept apart may hold
    s.roots.append(Root(id="0" * 12, path=str(work), real=str(work), name="twin", added_at=""))
    s.server_started("fs", ["fs-server"], "s1")
    s.server_started("fs", ["fs-server", "--other"], "s2")
    s.grant("fresh", [root.id])  # known by name, never run
    home = os.path.realpath(os.path.expanduser("~"))
    return [
        lambda: s.find_root("twin"),
        lambda: s.find_root("nothing-by-this-name"),
        lambda: s.add_root(str(work / "missing")),
        lambda: s.add_root(str(work / ("n" * 300))),  # longer than any file system's names
        lambda: s.add_root(str(work / "file.txt")),
        lambda: s.add_root(os.sep),
        lambda: s.add_root(home),
        lambda: s.add_root(os.path.dirname(home)),
        lambda: s.add_root(str(folder)),
        lambda: s.server("ghost"),
        lambda: s.set_policy("maybe"),
        lambda: s.pending_request("ghost"),
        lambda: s.approve("fresh"),
        lambda: s.approve("fs", "abc"),
        lambda: s.approve("fs", fingerprint(["fs-server"])),
        lambda: s.rename_root("proj", "  "),
        lambda: s.rename_root("proj", "bad\x1bname"),
        lambda: s.grant("", [root.id]),
        lambda: s.grant("evil\u202ename", [root.id]),
        lambda: s.grant("fs\u200b", [root.id]),
        lambda: s.server_started("fs ", ["fs-server"], "s3"),
        lambda: s.grant("f\u0455", [root.id]),  # a Cyrillic dze: it looks like "fs"
        lambda: s.rename_root("proj", "tw\u0456n"),  # a Cyrillic i: it looks like "twin"
        lambda: s.set_log_retention(max_mib=-1),
        lambda: s.set_log_retention(max_days=10**6),
    ]


def test_every_refusal_uses_a_listed_template_and_every_template_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a home two levels down, so that a folder holding it is not the file system root
    home = tmp_path / "h" / "users" / "me"
    home.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    work = tmp_path / "w"
    work.mkdir()
    used = []
    for refuse in refusals(work):
        with pytest.raises(ModelError) as caught:
            refuse()
        exc = caught.value
        assert exc.template in ERROR_TEMPLATES, exc.template
        assert str(exc) == exc.template.format(**exc.values)
        used.append(exc.template)
    assert sorted(used) == sorted(ERROR_TEMPLATES)


URI_REFUSALS: list[Callable[[], object]] = [
    lambda: uri.path_to_uri("/a\x00b", "posix"),
    lambda: uri.path_to_uri("relative/dir", "posix"),
    lambda: uri.path_to_uri("\\\\server", "windows"),
    lambda: uri.path_to_uri("relative\\dir", "windows"),
    lambda: uri.path_to_uri("\\\\?\\Volume{0b1c}\\x", "windows"),
    lambda: uri.uri_to_path("just-a-name", "posix"),
    lambda: uri.uri_to_path("http://example.com/x", "posix"),
    lambda: uri.uri_to_path("file:///a?b", "posix"),
    lambda: uri.uri_to_path("file:///a#b", "posix"),
    lambda: uri.uri_to_path("file:relative", "posix"),
    lambda: uri.uri_to_path("file:///a%2Fb", "posix"),
    lambda: uri.uri_to_path("file:///a%00b", "posix"),
    lambda: uri.uri_to_path("file://example.com/a", "posix"),
    lambda: uri.uri_to_path("file:///relative", "windows"),
    lambda: uri.uri_to_path("file:///a%zz", "posix"),
    lambda: uri.uri_to_path("file:///a%ff", "windows"),
    lambda: uri.uri_to_path("file:///tmp/\udcff", "posix"),  # a non-UTF-8 byte from argv
]


def test_every_uri_refusal_uses_a_listed_template_and_every_template_is_used() -> None:
    used = []
    for refuse in URI_REFUSALS:
        with pytest.raises(uri.UriError) as caught:
            refuse()
        exc = caught.value
        assert str(exc) == exc.template.format(**exc.values)
        used.append(exc.template)
    assert sorted(used) == sorted(uri.ERROR_TEMPLATES)


def test_a_uri_refusal_through_the_state_keeps_its_template() -> None:
    with pytest.raises(ModelError) as caught:
        State().add_root("http://example.com/x")
    assert caught.value.template == "only file:// URIs can be roots, not {scheme}: {uri!r}"
    assert caught.value.values == {"scheme": "http", "uri": "http://example.com/x"}


def test_translated_fills_the_same_values_and_survives_a_broken_translation() -> None:
    exc = ModelError("no pending consent request for {ref!r}", ref="fs")
    assert str(exc) == "no pending consent request for 'fs'"
    assert (
        exc.translated(lambda t: "保留中の要求はありません: {ref!r}")
        == "保留中の要求はありません: 'fs'"
    )
    # a translation that lost or renamed a placeholder: the English message, not a crash
    assert exc.translated(lambda t: "{server}") == str(exc)
    assert exc.translated(lambda t: "{") == str(exc)
    assert exc.translated(lambda t: "{ref.real}") == str(exc)


def test_a_refusal_survives_pickling_and_copying_with_braces_in_its_values() -> None:
    exc = ModelError("no root matches {ref!r} (roots-manager roots list shows them)", ref="{x}")
    for again in (pickle.loads(pickle.dumps(exc)), copy.copy(exc)):
        assert isinstance(again, ModelError)
        assert (again.template, again.values, str(again)) == (exc.template, exc.values, str(exc))
    bad = uri.UriError("a broken percent escape in {uri!r}", uri="file:///{%}")
    again_uri = pickle.loads(pickle.dumps(bad))
    assert type(again_uri) is uri.UriError and str(again_uri) == str(bad)


def test_broad_reason_and_server_name_error_match_the_refusals(tmp_path: Path) -> None:
    assert broad_reason(os.sep) is not None and "root of the file system" in broad_reason(os.sep)
    assert broad_reason(str(tmp_path)) is None
    assert server_name_error("fs") is None
    error = server_name_error("a\x07b")
    assert error is not None and error.values["chars"] == "U+0007"
    assert str(error) == (
        "'a\\x07b' is not a usable server name: it holds control or "
        "text-direction characters (U+0007)"
    )
