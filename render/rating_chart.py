"""A player's rating history as a picture: one line per kind of game (duel, free-for-all,
Circle of Death, team), the display rating before their first rated game and after each
one, game by game. Drawn for a phone like the scoreboard (640 px wide, text at least
15 px); each line keeps a marker shape of its own as well as its colour, so the lines
are told apart without colour too.

Its words are in the language being spoken (:mod:`i18n`): the worker that draws it is
told which (:mod:`bot.services.jobs`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw

from i18n import _
from render import sprites
from render.palette import INK, SHAPES, theme
from render.png import sheet_png
from render.typeface import PHONE_PAD, PHONE_WIDTH, SMALLEST_TEXT, font

WIDTH: Final = PHONE_WIDTH
HEIGHT: Final = 360
PAD: Final = PHONE_PAD
SMALL: Final = SMALLEST_TEXT
LEFT: Final = 64  # room for the rating labels
TOP: Final = 56
BOTTOM: Final = 76  # room for the game numbers and the key


def rating_chart(
    title: str, lines: Sequence[tuple[str, Sequence[int]]], theme_name: str = "dark"
) -> Image.Image:
    """``lines``: (the kind of game's name, its ratings in order), at least one point each."""
    th = theme(theme_name)
    img = Image.new("RGB", (WIDTH, HEIGHT), th.page)
    d = ImageDraw.Draw(img)
    small, bold = font(SMALL), font(18, True)
    d.text((PAD, PAD + 9), title, fill=th.text, font=bold, anchor="lm")
    values = [v for _, points in lines for v in points]
    low, high = min(values), max(values)
    step = 50 if high - low <= 250 else 100
    low, high = (low // step) * step, -(-high // step) * step
    high = max(high, low + step)
    games = max(len(points) for _, points in lines) - 1
    x0, x1, y0, y1 = LEFT, WIDTH - PAD, TOP, HEIGHT - BOTTOM

    def at(game: int, rating: int) -> tuple[float, float]:
        x = x0 + (x1 - x0) * (game / games if games else 0.5)
        return x, y1 - (y1 - y0) * (rating - low) / (high - low)

    d.rectangle((x0, y0, x1, y1), fill=th.sky)
    for rating in range(low, high + 1, step):
        y = at(0, rating)[1]
        d.line((x0, y, x1, y), fill=th.grid, width=1)
        d.text((x0 - 6, y), str(rating), fill=th.muted, font=small, anchor="rm")
    ticks = sorted({0, games, *range(0, games + 1, max(1, games // 5))})
    for game in ticks:
        x = x0 + (x1 - x0) * (game / games if games else 0.5)
        d.text((x, y1 + 12), str(game), fill=th.muted, font=small, anchor="mm")
    d.text((x1, y1 + 30), _("rated games"), fill=th.muted, font=small, anchor="rm")
    key_x = float(x0)
    for k, (name, points) in enumerate(lines):
        colour, shape = th.seats[k % len(th.seats)], SHAPES[k % len(SHAPES)]
        dots = [at(g, r) for g, r in enumerate(points)]
        if len(dots) > 1:
            d.line(dots, fill=INK, width=5, joint="curve")
            d.line(dots, fill=colour, width=3, joint="curve")
        for x, y in dots:
            d.polygon(sprites.shape_points(shape, x, y, 6), fill=INK)
            d.polygon(sprites.shape_points(shape, x, y, 4.5), fill=colour)
        y = y1 + 52
        d.polygon(sprites.shape_points(shape, key_x + 6, y, 6), fill=INK)
        d.polygon(sprites.shape_points(shape, key_x + 6, y, 4.5), fill=colour)
        d.text((key_x + 16, y), name, fill=th.text, font=small, anchor="lm")
        key_x += 16 + d.textlength(name, font=small) + 18
    return img


def rating_chart_png(
    title: str, lines: Sequence[tuple[str, Sequence[int]]], theme_name: str = "dark"
) -> bytes:
    return sheet_png(rating_chart(title, lines, theme_name))
