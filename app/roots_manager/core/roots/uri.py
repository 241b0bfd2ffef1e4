"""Conversion between folder paths and the ``file://`` URIs that roots carry on the wire.

The encoding matches :meth:`pathlib.PurePath.as_uri` byte for byte where that method applies
(but for a POSIX path that starts with exactly two slashes, see :func:`uri_to_path`), and the
decoding is its exact inverse. Both directions take the path *flavour* as an argument
so that Windows drive and UNC paths are handled as pure strings and can be tested anywhere.
"""

from __future__ import annotations

import os
import re
from typing import Literal
from urllib.parse import quote_from_bytes, unquote_to_bytes

from roots_manager.support.refusal import Refusal
from roots_manager.support.translatable import QT_TRANSLATE_NOOP

Flavour = Literal["posix", "windows"]

NATIVE: Flavour = "windows" if os.name == "nt" else "posix"

_DRIVE = re.compile(r"^[A-Za-z]:$")
# a drive in a URI: "C:", or the legacy "C|" that old browsers and some hosts still write
_URI_DRIVE = re.compile(r"^[A-Za-z][:|]$")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")


class UriError(Refusal):
    """A string that is not an acceptable ``file://`` URI for a root, or a path that has none."""


ERROR_TEMPLATES: tuple[str, ...] = (
    QT_TRANSLATE_NOOP("CoreError", "a path cannot contain a NUL character: {path!r}"),
    QT_TRANSLATE_NOOP("CoreError", "not an absolute path: {path!r}"),
    QT_TRANSLATE_NOOP("CoreError", "a UNC path needs a server and a share: {path!r}"),
    QT_TRANSLATE_NOOP("CoreError", "not an absolute Windows path (drive or UNC): {path!r}"),
    QT_TRANSLATE_NOOP("CoreError", "a Windows device or volume path has no file URI: {path!r}"),
    QT_TRANSLATE_NOOP("CoreError", "not a URI (no scheme); a root must be a file:// URI: {uri!r}"),
    QT_TRANSLATE_NOOP("CoreError", "only file:// URIs can be roots, not {scheme}: {uri!r}"),
    QT_TRANSLATE_NOOP("CoreError", "a root URI cannot have a query (an unencoded '?'): {uri!r}"),
    QT_TRANSLATE_NOOP("CoreError", "a root URI cannot have a fragment (an unencoded '#'): {uri!r}"),
    QT_TRANSLATE_NOOP("CoreError", "not an absolute file URI: {uri!r}"),
    QT_TRANSLATE_NOOP("CoreError", "a root URI cannot encode a path separator (%2F): {uri!r}"),
    QT_TRANSLATE_NOOP("CoreError", "a root URI cannot encode a NUL character (%00): {uri!r}"),
    QT_TRANSLATE_NOOP(
        "CoreError", "a root URI must name this machine (no host, or localhost): {uri!r}"
    ),
    QT_TRANSLATE_NOOP("CoreError", "not an absolute Windows file URI (drive or UNC): {uri!r}"),
    QT_TRANSLATE_NOOP("CoreError", "a broken percent escape in {uri!r}"),
    QT_TRANSLATE_NOOP("CoreError", "{uri!r} encodes bytes that are not UTF-8"),
    QT_TRANSLATE_NOOP("CoreError", "{uri!r} holds raw bytes that are not UTF-8"),
)
"""Every message a :class:`UriError` can carry, as a ``str.format`` template."""


def path_to_uri(path: str, flavour: Flavour = NATIVE) -> str:
    """Return the ``file://`` URI of an absolute *path*.

    Everything outside the unreserved set and ``/`` is percent-encoded: space, ``#``, ``?``,
    ``%``, control characters and non-ASCII characters (as UTF-8, or as the raw bytes a POSIX
    file name holds when it is not valid UTF-8).
    """
    if flavour == "posix" and _PLAIN.fullmatch(path) is not None and "//" not in path:
        return "file://" + path  # nothing to encode: what quote_from_bytes would give
    if "\x00" in path:
        raise UriError("a path cannot contain a NUL character: {path!r}", path=path)
    if flavour == "posix":
        if not path.startswith("/"):
            raise UriError("not an absolute path: {path!r}", path=path)
        # "//x" is "/x" (see uri_to_path), so it has the same URI
        return "file://" + quote_from_bytes(os.fsencode(_collapse_slashes(path)))
    return _windows_path_to_uri(path)


_PLAIN = re.compile(r"/[A-Za-z0-9_.~/-]*", re.ASCII)
"""An absolute POSIX path of the characters :func:`urllib.parse.quote_from_bytes` leaves as
they are (its unreserved set and ``/``): most roots, whose URI is then the path itself (30,000
roots took a tenth of a second more to encode)."""

_SLASHES = re.compile(r"/{2,}")


def _collapse_slashes(path: str) -> str:
    return _SLASHES.sub("/", path) if "//" in path else path


_EXTENDED = ("\\\\?\\", "\\\\.\\")
r"""The prefixes of Windows' extended-length (``\\?\``) and device (``\\.\``) paths."""


def plain_windows_path(path: str) -> str:
    r"""*path* without the ``\\?\`` (or ``\\.\``) prefix that Windows puts on long paths.

    ``\\?\C:\x`` is ``C:\x`` and ``\\?\UNC\server\share`` is ``\\server\share``: one
    folder, so one URI and one root. Any other path, a device or volume path
    (``\\?\Volume{...}``, ``\\.\pipe\x``) among them, is returned as it is.
    """
    for prefix in _EXTENDED:
        if path.startswith(prefix):
            rest = path[len(prefix) :]
            if rest[:4].upper() == "UNC\\":
                return "\\\\" + rest[4:]
            if len(rest) == 2 and _DRIVE.match(rest):
                return rest + "\\"
            if len(rest) >= 3 and _DRIVE.match(rest[:2]) and rest[2] == "\\":
                return rest
    return path


def _windows_path_to_uri(path: str) -> str:
    p = plain_windows_path(path)
    if p.startswith(_EXTENDED):
        raise UriError("a Windows device or volume path has no file URI: {path!r}", path=path)
    p = p.replace("/", "\\")
    if p.startswith("\\\\"):
        parts = p[2:].split("\\")
        if len(parts) < 2 or not parts[0] or not parts[1]:
            raise UriError("a UNC path needs a server and a share: {path!r}", path=path)
        host, rest = parts[0], "/" + "/".join(parts[1:])
        return "file://" + quote_from_bytes(host.encode("utf-8")) + _quote_utf8(rest)
    if len(p) >= 3 and _DRIVE.match(p[:2]) and p[2] == "\\":
        return "file:///" + p[:2] + _quote_utf8(p[2:].replace("\\", "/"))
    raise UriError("not an absolute Windows path (drive or UNC): {path!r}", path=path)


def _quote_utf8(text: str) -> str:
    return quote_from_bytes(text.encode("utf-8", "surrogatepass"))


def uri_to_path(uri: str, flavour: Flavour = NATIVE) -> str:
    """Return the absolute path a ``file://`` URI names; the inverse of :func:`path_to_uri`.

    Raises :class:`UriError` for another scheme, a relative reference, a query or fragment,
    a host other than empty or ``localhost`` (a UNC server is accepted for Windows paths),
    and an encoded NUL or path separator.

    A POSIX path keeps no run of slashes: ``file:////tmp/x`` (an empty host, then the path
    ``//tmp/x``) is ``/tmp/x``. Windows reads that form as a UNC share (RFC 8089, E.3.2); POSIX
    has no shares, and Linux and macOS read a leading ``//`` as ``/``. Kept as ``//tmp/x``, it
    was a second root for the folder ``/tmp/x``, answered twice to a server.
    """
    m = _SCHEME.match(uri)
    if not m:
        raise UriError("not a URI (no scheme); a root must be a file:// URI: {uri!r}", uri=uri)
    if m.group(1).lower() != "file":
        raise UriError(
            "only file:// URIs can be roots, not {scheme}: {uri!r}", scheme=m.group(1), uri=uri
        )
    if "?" in uri:
        raise UriError("a root URI cannot have a query (an unencoded '?'): {uri!r}", uri=uri)
    if "#" in uri:
        raise UriError("a root URI cannot have a fragment (an unencoded '#'): {uri!r}", uri=uri)
    rest = uri[len(m.group(0)) :]
    if rest.startswith("//"):
        authority, slash, encoded = rest[2:].partition("/")
        encoded = slash + encoded
    elif rest.startswith("/"):
        authority, encoded = "", rest
    else:
        raise UriError("not an absolute file URI: {uri!r}", uri=uri)
    host = _utf8(_decode(authority, uri), uri) if authority else ""
    segments = encoded.split("/")
    for seg in segments:
        low = seg.lower()
        if "%2f" in low or (flavour == "windows" and "%5c" in low):
            raise UriError("a root URI cannot encode a path separator (%2F): {uri!r}", uri=uri)
    raw = _decode(encoded, uri)
    if b"\x00" in raw:
        raise UriError("a root URI cannot encode a NUL character (%00): {uri!r}", uri=uri)
    if flavour == "posix":
        if host and host.lower() != "localhost":
            raise UriError(
                "a root URI must name this machine (no host, or localhost): {uri!r}", uri=uri
            )
        if not raw.startswith(b"/"):
            raise UriError("not an absolute file URI: {uri!r}", uri=uri)
        return os.fsdecode(re.sub(rb"/{2,}", b"/", raw))
    return _windows_uri_path(host, _utf8(raw, uri), uri)


def _windows_uri_path(host: str, text: str, uri: str) -> str:
    """The Windows path of a file URI's (decoded) host and path: a drive path, or UNC."""
    if _URI_DRIVE.match(host):
        # "file://C:/x": a drive written where the host goes
        text, host = "/" + host + text, ""
    if host.lower() == "localhost" and _URI_DRIVE.match(text[1:3]):
        host = ""
    if len(text) >= 3 and text[0] == "/" and _URI_DRIVE.match(text[1:3]):
        if text[3:4] not in ("", "/"):
            raise UriError("not an absolute Windows file URI (drive or UNC): {uri!r}", uri=uri)
        return text[1] + ":" + (text[3:] or "/").replace("/", "\\")
    if not host and text.startswith("//"):
        # "file:////server/share" (and Mozilla's five slashes): UNC with an empty authority
        host, _, text = text.lstrip("/").partition("/")
        text = "/" + text
    if host and len(text) > 1 and text.split("/")[1]:
        unc = plain_windows_path("\\\\" + host + text.replace("/", "\\"))
        if unc.startswith(_EXTENDED):
            raise UriError("a Windows device or volume path has no file URI: {path!r}", path=uri)
        return unc
    if host:
        raise UriError("a UNC path needs a server and a share: {path!r}", path=uri)
    raise UriError("not an absolute Windows file URI (drive or UNC): {uri!r}", uri=uri)


def _decode(encoded: str, uri: str) -> bytes:
    if re.search(r"%(?![0-9A-Fa-f]{2})", encoded):
        raise UriError("a broken percent escape in {uri!r}", uri=uri)
    try:
        return unquote_to_bytes(encoded)
    except UnicodeEncodeError:
        # a URI given on a command line with bytes that are not UTF-8 (lone surrogates here):
        # a URI holds such bytes percent-encoded, never raw
        raise UriError("{uri!r} holds raw bytes that are not UTF-8", uri=uri) from None


def _utf8(raw: bytes, uri: str) -> str:
    try:
        return raw.decode("utf-8", "strict")
    except UnicodeDecodeError as exc:
        raise UriError("{uri!r} encodes bytes that are not UTF-8", uri=uri) from exc
