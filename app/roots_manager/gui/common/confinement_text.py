"""What confinement means, and whether this machine can do it, in the user's language.

The explanations are the core's (:mod:`roots_manager.core.confinement.confined`), so that the app, the
CLI and the docs say the same; the core marks them for Qt's translation tools, in the
``CoreText`` context, where they are translated here.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from roots_manager.core.confinement import confined
from roots_manager.core.servers.names import visible
from roots_manager.sandbox.availability import Availability
from roots_manager.support.translatable import Words

_OPERATIONS = {
    "read": str(QT_TRANSLATE_NOOP("Confinement", "read")),
    "write": str(QT_TRANSLATE_NOOP("Confinement", "write")),
    "list": str(QT_TRANSLATE_NOOP("Confinement", "list")),
    "execute": str(QT_TRANSLATE_NOOP("Confinement", "execute")),
    "create": str(QT_TRANSLATE_NOOP("Confinement", "create")),
    "remove": str(QT_TRANSLATE_NOOP("Confinement", "remove")),
    "connect": str(QT_TRANSLATE_NOOP("Confinement", "connect")),
}


def operation_text(operation: str) -> str:
    """A refused operation (read, write, ...) in the user's language; one not known, escaped as
    it came (a refusal's fields come from the server's side)."""
    if operation in _OPERATIONS:
        return QCoreApplication.translate("Confinement", _OPERATIONS[operation])
    return visible(operation)


def _core(text: str) -> str:
    return QCoreApplication.translate("CoreText", text)


def means(is_confined: bool, network: str = "allowed") -> str:
    """One line on what the setting does, confined or not; *network* is the server's
    (``allowed``, ``blocked``, ``domains``, as
    :func:`~roots_manager.core.confinement.confined.network_state` says)."""
    return _core(confined.confined_means(network) if is_confined else confined.ADVISORY_MEANS)


def next_start(restarts: bool = True) -> str:
    """When a change to a confined server's rules takes effect."""
    return _core(confined.NEXT_START if restarts else confined.NEXT_START_NO_RESTART)


def platforms() -> str:
    """Where confinement exists at all."""
    return QCoreApplication.translate(
        "Confinement",
        "Confinement works on Linux (Landlock); on macOS it is untested; on Windows it is "
        "unavailable.",
    )


def availability_text(found: Availability) -> str:
    """Whether this machine can confine, and why not, in one line."""
    if found.available and found.mechanism == "landlock":
        return QCoreApplication.translate(
            "Confinement", "This machine can confine servers (Landlock ABI {abi})."
        ).format(abi=found.abi)
    if found.available:
        return QCoreApplication.translate(
            "Confinement",
            "This machine can confine servers with sandbox-exec (untested on a real Mac).",
        )
    why = found.reason  # a failed check or a missing tool: the core's own words say what
    if found.mechanism == "landlock" and found.abi is not None:
        # imported here: the Landlock module loads the C library, which Windows lacks
        from roots_manager.sandbox import landlock

        if found.reason == landlock.refusal(0):
            why = QCoreApplication.translate(
                "Confinement",
                "this Linux kernel has no Landlock (it needs Linux 5.13 or newer with Landlock "
                "enabled)",
            )
        elif found.abi > 0 and found.reason == landlock.refusal(found.abi):
            why = QCoreApplication.translate(
                "Confinement",
                "this Linux kernel's Landlock is ABI {abi}; confinement needs ABI {need} "
                "(Linux 6.2 or newer)",
            ).format(abi=found.abi, need=landlock.MIN_ABI)
    elif found.mechanism == "none":
        why = QCoreApplication.translate(
            "Confinement", "confinement is not available on this system (Linux and macOS only)"
        )
    return QCoreApplication.translate(
        "Confinement", "This machine cannot confine servers: {reason}."
    ).format(reason=why)


def reason_text(reason: str) -> str:
    """Why a refusal is not offered or proposed (:mod:`roots_manager.core.confinement.offers`,
    :mod:`~roots_manager.core.confinement.learning`), in the user's language; as it is when it
    was not made of marked words."""
    if not isinstance(reason, Words):
        return reason
    try:
        return QCoreApplication.translate(reason.context, reason.template).format(**reason.values)
    except (KeyError, IndexError, ValueError):  # a translation with broken placeholders
        return str(reason)
