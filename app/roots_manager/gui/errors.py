"""The core's error messages in the user's language.

A :class:`~roots_manager.core.refusal.Refusal` carries a template from
:data:`roots_manager.core.store.state.ERROR_TEMPLATES` or :data:`roots_manager.core.uri.ERROR_TEMPLATES`
and its values; the templates are listed here for Qt's translation tools (a test checks that the
lists stay the same), and translated in the ``CoreError`` context.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from roots_manager.core.refusal import Refusal

CORE_ERROR_TEMPLATES = (
    QT_TRANSLATE_NOOP(
        "CoreError",
        "several roots are named {ref!r} ({paths}); name one by its path",
    ),
    QT_TRANSLATE_NOOP("CoreError", "no root matches {ref!r} (roots-manager roots list shows them)"),
    QT_TRANSLATE_NOOP("CoreError", "cannot add {path}: it does not exist"),
    QT_TRANSLATE_NOOP("CoreError", "cannot add {path}: it is not a folder"),
    QT_TRANSLATE_NOOP(
        "CoreError",
        "refusing to add {path}: it is the root of the file system: every server "
        "granted it could be pointed at every file. Add a project folder instead, or "
        "pass --allow-broad if you really mean it",
    ),
    QT_TRANSLATE_NOOP(
        "CoreError",
        "refusing to add {path}: it is your home folder: every server granted it could "
        "be pointed at all your files. Add a project folder instead, or pass "
        "--allow-broad if you really mean it",
    ),
    QT_TRANSLATE_NOOP(
        "CoreError",
        "refusing to add {path}: it holds your home folder ({home}): every server "
        "granted it could be pointed at all your files. Add a project folder instead, "
        "or pass --allow-broad if you really mean it",
    ),
    QT_TRANSLATE_NOOP("CoreError", "{path} is already a root, named {name!r}"),
    QT_TRANSLATE_NOOP(
        "CoreError",
        "no server named {name!r} is known (roots-manager servers list shows them)",
    ),
    QT_TRANSLATE_NOOP("CoreError", "unknown policy {policy!r}; choose one of {choices}"),
    QT_TRANSLATE_NOOP("CoreError", "no pending consent request for {ref!r}"),
    QT_TRANSLATE_NOOP("CoreError", "server {name!r} has not run yet; there is nothing to approve"),
    QT_TRANSLATE_NOOP(
        "CoreError",
        "{given!r} is not a command fingerprint (64 hexadecimal digits; "
        "roots-manager servers list --json shows each server's)",
    ),
    QT_TRANSLATE_NOOP(
        "CoreError",
        "server {name!r} last ran with another command line than the one expected: "
        "{command} (fingerprint {seen}); look at it again before approving",
    ),
    QT_TRANSLATE_NOOP("CoreError", "a root's name cannot be empty"),
    QT_TRANSLATE_NOOP(
        "CoreError",
        "a root's name cannot hold control or text-direction characters ({chars})",
    ),
    QT_TRANSLATE_NOOP("CoreError", "{name!r} is not a usable server name: it is empty"),
    QT_TRANSLATE_NOOP(
        "CoreError",
        "{name!r} is not a usable server name: it holds control or text-direction "
        "characters ({chars})",
    ),
    QT_TRANSLATE_NOOP(
        "CoreError",
        "{name!r} is not a usable server name: it holds characters that cannot be seen "
        "({chars}), so it would look like another name",
    ),
    QT_TRANSLATE_NOOP(
        "CoreError",
        "{name!r} is not a usable server name: it begins or ends with a space, so it would "
        "look like another name",
    ),
    QT_TRANSLATE_NOOP(
        "CoreError",
        "the traffic log size limit must be a whole number of MiB from 0 (no limit) to {top}, "
        "not {value!r}",
    ),
    QT_TRANSLATE_NOOP(
        "CoreError",
        "the traffic log age limit must be a whole number of days from 0 (no limit) to {top}, "
        "not {value!r}",
    ),
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


def _translate(template: str) -> str:
    return QCoreApplication.translate("CoreError", template)


def error_text(exc: Exception) -> str:
    """What to tell the user about *exc*: a core refusal in their language, else its message."""
    if isinstance(exc, Refusal):
        return exc.translated(_translate)
    return str(exc)
