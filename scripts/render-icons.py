#!/usr/bin/env python3
"""Render the application icon's PNG sizes from its SVG, with Qt's SVG renderer.

Run after editing resources/icons/io.github.rootsmanager.RootsManager.svg:
    python scripts/render-icons.py
The PNGs are committed, so installing the app needs no SVG renderer.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

APP_ID = "io.github.rootsmanager.RootsManager"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"


def render(svg: Path, size: int, out: Path) -> None:
    """Render *svg* into a square transparent PNG of *size* pixels."""
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"{svg}: not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    out.parent.mkdir(parents=True, exist_ok=True)
    if not image.save(str(out), "PNG"):
        raise SystemExit(f"could not write {out}")


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    svg = ICONS / f"{APP_ID}.svg"
    for size in SIZES:
        out = ICONS / f"{size}x{size}" / f"{APP_ID}.png"
        render(svg, size, out)
        print(f"wrote {out.relative_to(ICONS.parent.parent)}")
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
