"""Marking the core's English for translation, without Qt: Qt's ``lupdate`` reads the marks.

A text the app may show is written once, where the core defines it, inside
``QT_TRANSLATE_NOOP(context, text)``. The function gives *text* back unchanged;
``pyside6-lupdate`` (run by ``scripts/update-translations`` over the core's modules as well as the
GUI's) finds every call by its name and collects the text into the catalogues under *context*,
and the app shows it with ``QCoreApplication.translate(context, text)``.
"""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:
    """*text*, marked for translation in *context* (the name is the one ``lupdate`` looks for)."""
    return text


class Words(str):
    """An English text made of a marked *template* (``QT_TRANSLATE_NOOP``) and its *values*: a
    plain ``str`` for whoever prints it (the CLI, a JSON document, a test's comparison), and
    what the app translates it from (:attr:`template` in :attr:`context`, then the values)."""

    context: str
    template: str
    values: dict[str, str]

    def __new__(cls, context: str, template: str, /, **values: str) -> Words:
        made = super().__new__(cls, template.format(**values))
        made.context = context
        made.template = template
        made.values = values
        return made
