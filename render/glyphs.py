"""Small pictures for text: each seat's insignia in its colour and each manoeuvre as a
pictogram, uploaded as the application's emojis (bot/ui/glyphs.py) so that menus, buttons
and turns told in words show them. Each is a PNG of :data:`SIZE` px square, far below
Discord's limits for an emoji (128 px, 256 KiB), named as an emoji may be (2 to 32
letters, digits and underscores)."""

from __future__ import annotations

import io
from functools import cache
from typing import Final

from PIL import Image, ImageDraw

from render.palette import INK, RGB, SHAPES, seat_colour_word, seat_colours
from render.sprites import shape_points
from rules.modes import MODES, Mode
from rules.steps import CLIMB, CRASH, IMMELMANN, LEVEL, LEVEL1, POWER, SWOOP

SIZE: Final = 96
SUPER: Final = 4  # drawn at four times the size, then shrunk: smooth edges
WHITE: Final = (255, 255, 255)
# the manoeuvre each pictogram shows, by its notation letter (F1 is level flight too)
MANOEUVRE_NAMES: Final = {
    CLIMB: "xh_climb",
    LEVEL: "xh_level",
    LEVEL1: "xh_level",
    SWOOP: "xh_swoop",
    POWER: "xh_power_dive",
    IMMELMANN: "xh_immelmann",
    CRASH: "xh_crash",
}


def insignia_name(mode: Mode, seat: int) -> str:
    """The emoji name of ``seat``'s insignia in ``mode``: its colour (the classic
    palette's, which every server's thread board shows by default) and shape."""
    colour = seat_colour_word(mode, seat).replace(" ", "_")
    return f"xh_{colour}_{SHAPES[seat]}"


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.resize((SIZE, SIZE), Image.Resampling.LANCZOS).save(out, "PNG", optimize=True)
    return out.getvalue()


def _insignia(colour: RGB, shape: str) -> bytes:
    big = SIZE * SUPER
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = big / 2
    d.polygon(shape_points(shape, c, c, big * 0.36), fill=INK)
    d.polygon(shape_points(shape, c, c, big * 0.29), fill=colour)
    return _png(img)


def _arrow(d: ImageDraw.ImageDraw, points: list[tuple[float, float]], width: int) -> None:
    """A path ending in an arrowhead (the last two points give its direction)."""
    d.line(points, fill=WHITE, width=width, joint="curve")
    (x0, y0), (x1, y1) = points[-2], points[-1]
    dx, dy = x1 - x0, y1 - y0
    norm = max((dx * dx + dy * dy) ** 0.5, 1.0)
    ux, uy = dx / norm, dy / norm
    head = width * 1.8
    tip = (x1 + ux * head, y1 + uy * head)
    left = (x1 - uy * head, y1 + ux * head)
    right = (x1 + uy * head, y1 - ux * head)
    d.polygon([tip, left, right], fill=WHITE)


def _manoeuvre(kind: str) -> bytes:
    big = SIZE * SUPER
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((8, 8, big - 8, big - 8), radius=big // 5, fill=INK)
    w = big // 14
    u = big / 10  # a tenth of the picture
    if kind == CLIMB:
        _arrow(d, [(5 * u, 8 * u), (5 * u, 3.6 * u)], w)
    elif kind in (LEVEL, LEVEL1):
        _arrow(d, [(2 * u, 5 * u), (6.6 * u, 5 * u)], w)
    elif kind == SWOOP:
        _arrow(d, [(2 * u, 3 * u), (4 * u, 4 * u), (5.5 * u, 5.5 * u), (6.4 * u, 6.4 * u)], w)
    elif kind == POWER:
        _arrow(d, [(3.6 * u, 2 * u), (3.6 * u, 6.4 * u)], w)
        _arrow(d, [(6.4 * u, 2 * u), (6.4 * u, 6.4 * u)], w)
    elif kind == IMMELMANN:
        d.arc((2.5 * u, 2 * u, 7.5 * u, 6 * u), 180, 360, fill=WHITE, width=w)
        d.line([(7.5 * u, 4 * u), (7.5 * u, 5.5 * u)], fill=WHITE, width=w)
        _arrow(d, [(2.5 * u, 4 * u), (2.5 * u, 6.6 * u)], w)
    else:  # a crash: a cross
        d.line([(3 * u, 3 * u), (7 * u, 7 * u)], fill=(255, 90, 90), width=w)
        d.line([(7 * u, 3 * u), (3 * u, 7 * u)], fill=(255, 90, 90), width=w)
    return _png(img)


def names() -> list[str]:
    """Every glyph's emoji name, without drawing any."""
    found = [insignia_name(m, s) for m in MODES.values() for s in range(m.seats)]
    return list(dict.fromkeys([*found, *MANOEUVRE_NAMES.values()]))


@cache
def glyphs() -> dict[str, bytes]:
    """Every glyph by its emoji name: the insignia of every seat of every mode (a seat's
    colour depends on the mode), then the manoeuvres."""
    found: dict[str, bytes] = {}
    for mode in MODES.values():
        for seat in range(mode.seats):
            name = insignia_name(mode, seat)
            if name not in found:
                found[name] = _insignia(seat_colours(mode)[seat], SHAPES[seat])
    for kind, name in MANOEUVRE_NAMES.items():
        found.setdefault(name, _manoeuvre(kind))
    return found
