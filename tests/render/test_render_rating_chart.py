"""The rating history picture: one line per kind of game in its own colour and marker,
higher ratings higher up, in any palette; a single rated game still draws."""

from __future__ import annotations

import io

from PIL import Image

from render.palette import PALETTES
from render.rating_chart import HEIGHT, WIDTH, rating_chart, rating_chart_png


def rows_of(img: Image.Image, colour: tuple[int, int, int]) -> list[int]:
    return [
        y for y in range(img.height) for x in range(img.width) if img.getpixel((x, y)) == colour
    ]


def test_each_kind_of_game_is_a_line_of_its_own_colour_rising_with_the_rating() -> None:
    img = rating_chart("alice", [("Duels", [1500, 1560, 1620, 1700]), ("Teams", [1500, 1450])])
    duel, team = PALETTES["classic"].seats[:2]
    duel_rows, team_rows = rows_of(img, duel), rows_of(img, team)
    assert len(duel_rows) > 200 and len(team_rows) > 100
    # the duel line climbs above where the team line falls
    assert min(duel_rows) < min(team_rows) and max(team_rows) > max(duel_rows) - 40


def test_one_game_and_every_palette_draw() -> None:
    for palette, th in PALETTES.items():
        png = rating_chart_png("bob", [("Duels", [1500, 1434])], th.name)
        img = Image.open(io.BytesIO(png)).convert("RGB")
        assert img.size == (WIDTH, HEIGHT)
        assert img.getpixel((1, 1)) == th.page, palette
    single = rating_chart("carol", [("Duels", [1500])])
    assert rows_of(single, PALETTES["classic"].seats[0])
