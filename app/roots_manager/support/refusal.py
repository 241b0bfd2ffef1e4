"""Refusals: errors whose message is a template and its values, so front ends can translate it.

``str()`` of a refusal is the English message the CLI prints; the desktop app translates the
template and fills in the same values. Each module that refuses lists its templates
(:data:`roots_manager.core.roots.uri.ERROR_TEMPLATES`, :data:`roots_manager.core.store.state.ERROR_TEMPLATES`)
so that the translation tools and the tests can see every one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Refusal(ValueError):
    """An input or an operation refused, with a message for the user.

    The message is ``template.format(**values)``.
    """

    def __init__(self, template: str, /, **values: Any) -> None:
        super().__init__(template.format(**values))
        self.template = template
        self.values = values

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from its parts: the message alone is not a template (it may hold braces)
        return (_rebuild, (type(self), self.template, self.values))

    def translated(self, translate: Callable[[str], str]) -> str:
        """The message with its template put through *translate* (as is if that goes wrong)."""
        try:
            return translate(self.template).format(**self.values)
        except Exception:  # a translation with broken or foreign placeholders
            return str(self)


def _rebuild(cls: type[Refusal], template: str, values: dict[str, Any]) -> Refusal:
    return cls(template, **values)


class ModelError(Refusal):
    """An operation the state cannot take, with a message for the user.

    Its template is one of :data:`roots_manager.core.store.state.ERROR_TEMPLATES`, or of
    :data:`roots_manager.core.roots.uri.ERROR_TEMPLATES` for a path or URI that cannot name a root.
    """
