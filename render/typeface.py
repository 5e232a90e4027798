"""The fonts the renderer draws with, shipped inside the package.

Pillow falls back to a tiny bitmap font when a TrueType file is missing, and system
fonts differ between machines; shipping DejaVu Sans makes every board identical
wherever it is drawn (the golden-image tests rely on that).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Final

from PIL import ImageFont

FONT_DIR: Final = Path(__file__).parent / "fonts"


@lru_cache(maxsize=64)
def font(px: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (or Sans Bold) at ``px`` pixels, loaded once per size."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), max(1, px))
