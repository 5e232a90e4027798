"""The fonts the renderer draws with, shipped inside the package.

Pillow falls back to a tiny bitmap font when a TrueType file is missing, and system
fonts differ between machines; shipping DejaVu Sans makes every board identical
wherever it is drawn (the golden-image tests rely on that).
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from PIL import ImageDraw, ImageFont

from render.palette import DARK

FONT_DIR: Final = Path(__file__).parent / "fonts"

# Sheets drawn for a phone (the scoreboard, the rating chart): Discord shows them about
# 400 px wide, so the smallest text (15 px) is still 9 px there.
PHONE_WIDTH: Final = 640
PHONE_PAD: Final = 16
SMALLEST_TEXT: Final = 15


def fitted(text: str, face: ImageFont.FreeTypeFont, room: float) -> str:
    """``text``, cut with an ellipsis if it is wider than ``room`` pixels."""
    if face.getlength(text) <= room:
        return text
    while text and face.getlength(text + "…") > room:
        text = text[:-1]
    return text + "…"


def titled(
    draw: ImageDraw.ImageDraw,
    at: tuple[int, int],
    room: float,
    title: str,
    subtitle: str,
    sizes: tuple[int, int],
) -> None:
    """A table picture's title, bold, cut to ``room`` pixels, at ``at``; its subtitle,
    if any, 36 px below, in muted ink (``sizes``: the two fonts' pixels)."""
    x, y = at
    face = font(sizes[0], bold=True)
    draw.text((x, y), fitted(title, face, room), font=face, fill=DARK.text)
    if subtitle:
        draw.text((x, y + 36), subtitle, font=font(sizes[1]), fill=DARK.muted)


@lru_cache(maxsize=64)
def font(px: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (or Sans Bold) at ``px`` pixels, loaded once per size."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), max(1, px))


def stamp(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fill: tuple[int, int, int],
    face: ImageFont.FreeTypeFont,
    anchor: str,
) -> None:
    """Exactly what ``draw.text(xy, text, fill=fill, font=face, anchor=anchor)`` draws for
    one line of text (the same glyph mask, blended by the same call), with the mask kept:
    the static layer prints the same hundred cell names for every match, and rasterising
    them was most of the cost of building it."""
    x, y = xy
    ink = draw._getink(fill)[0]
    start = (math.modf(x)[0], math.modf(y)[0])
    mask, (dx, dy) = _mask(text, face, anchor, draw.fontmode, ink, start)
    draw.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, ink)


@lru_cache(maxsize=4096)
def _mask(
    text: str,
    face: ImageFont.FreeTypeFont,
    anchor: str,
    mode: str,
    ink: Any,
    start: tuple[float, float],
) -> tuple[Any, tuple[int, int]]:
    # the arguments ImageDraw.text passes for a single line without a stroke
    return face.getmask2(text, mode, None, None, None, 0, anchor, ink, start, stroke_filled=True)
