"""The standings and bracket pictures: sizes follow the data, winners are drawn in gold,
their words in the language the worker is told."""

from __future__ import annotations

import io

from PIL import Image

from bot.services.jobs import draw_bracket, draw_standings
from competition.elimination import Bracket
from render.palette import GOLD
from render.tournament import (
    HEAD,
    PAD,
    ROW,
    BracketBox,
    StandingRow,
    bracket_png,
    standings_png,
)


def image(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(png)).convert("RGB")


def gold_pixels(img: Image.Image) -> int:
    colours = img.getcolors(maxcolors=img.width * img.height) or []
    return sum(count for count, colour in colours if colour == GOLD)


def boxes(bracket: Bracket) -> list[BracketBox]:
    return [
        BracketBox(m.id, m.side, m.round, m.first, m.second, m.winner) for m in bracket.matches()
    ]


def test_the_standings_grow_a_row_per_player_and_a_column_per_tiebreak() -> None:
    rows = [StandingRow(i + 1, f"pilot {i}", 3 - i / 2, (1.0, 2.5)) for i in range(6)]
    short = image(standings_png(rows[:2], "Cup", columns=("Buchholz", "S-B")))
    tall = image(standings_png(rows, "Cup", columns=("Buchholz", "S-B")))
    wide = image(standings_png(rows, "Cup", columns=("Buchholz", "S-B", "Rating", "H2H")))
    assert tall.height - short.height == 4 * ROW
    assert tall.height == HEAD + 6 * ROW + PAD
    assert wide.width > tall.width and wide.height == tall.height


def test_a_bracket_shows_its_winners_in_gold_and_has_a_band_per_side() -> None:
    players = [f"p{i}" for i in range(8)]
    fresh = Bracket.double(players)
    before = image(bracket_png(boxes(fresh), "Cup"))
    for m in fresh.ready():
        fresh.report(m.id, m.first or "")
    after = image(bracket_png(boxes(fresh), "Cup"))
    assert gold_pixels(before) == 0 < gold_pixels(after)
    single = image(bracket_png(boxes(Bracket.single(players)), "Cup"))
    assert single.height < before.height  # no losers' bracket, no grand final


def test_the_pictures_are_drawn_in_the_language_the_worker_is_told() -> None:
    rows = [StandingRow(1, "anna", 2.0, (1.0,)), StandingRow(2, "bernd", 1.0, (0.5,))]
    english = image(draw_standings(rows, "Cup", ("Buchholz",), "en"))
    german = image(draw_standings(rows, "Cup", ("Buchholz",), "de"))
    heading = (0, HEAD - 30, english.width, HEAD - 2)  # the "Score" column's heading
    table = (0, HEAD, english.width, english.height)
    assert english.crop(heading).tobytes() != german.crop(heading).tobytes()
    assert english.crop(table).tobytes() == german.crop(table).tobytes()
    bracket = boxes(Bracket.double([f"p{i}" for i in range(4)]))
    assert draw_bracket(bracket, "Cup", "en") != draw_bracket(bracket, "Cup", "fr")
    # the same words draw the same picture: the difference above is the band titles
    assert draw_bracket(bracket, "Cup", "es") == draw_bracket(bracket, "Cup", "es")
