"""The translation catalogues as written: which texts each holds, under which context."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

TRANSLATIONS = Path(__file__).resolve().parent.parent / "resources" / "translations"
LANGUAGES = ("ja", "zh_CN")


def catalogued(context: str, language: str) -> set[str]:
    """The source texts of *context* in the *language* catalogue (``.ts``), as lupdate found
    them in the code."""
    root = ET.parse(TRANSLATIONS / f"roots_manager_{language}.ts").getroot()
    return {
        message.findtext("source") or ""
        for ctx in root.iter("context")
        if ctx.findtext("name") == context
        for message in ctx.iter("message")
    }
