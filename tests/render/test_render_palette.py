"""Seat colours stay apart for colour-blind players, and planes stand out from the sky.

Distances are in Oklab under normal vision and simulated deuteranopia and protanopia,
and in CIEDE2000 under those and tritanopia (see colour_vision.py). 0.1 in Oklab is five
just-noticeable differences: two seats' planes side by side read as different colours
at a glance, before the insignia is looked at. The colour-blind palette keeps every
pair 20 ΔE00 apart, and 25 from its sky, under every vision.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from colour_vision import EVERY_VISION, VISIONS, ciede2000, delta_e, distance, smallest, table

from render.palette import PALETTES, THEMES, palette_spec, seat_colour_word, seat_colours
from rules.modes import MODES

MIN_BETWEEN_SEATS = 0.1
MIN_AGAINST_SKY = 0.1
COLOUR_BLIND_SEATS = 20.0  # ΔE00, under every vision
COLOUR_BLIND_SKY = 25.0


def test_the_simulation_is_sane() -> None:
    red, green = (213, 94, 0), (0, 158, 115)
    assert distance(red, red, "deuteranopia") == pytest.approx(0)
    # Deuteranopes confuse reds and greens far more than other people do.
    assert distance(red, green, "deuteranopia") < distance(red, green, "normal") / 2
    assert distance((0, 0, 0), (255, 255, 255), "normal") == pytest.approx(1, abs=1e-3)
    # Tritanopes confuse blues and greens, and keep reds and greens apart.
    blue, teal = (0, 114, 178), (0, 158, 115)
    assert delta_e(blue, teal, "tritanopia") < delta_e(blue, teal, "normal") / 2
    assert delta_e(red, green, "tritanopia") > delta_e(red, green, "deuteranopia") * 2


def test_ciede2000_matches_sharmas_published_pairs() -> None:
    """Three pairs of Sharma, Wu & Dalal's test data (2005), to four decimals."""
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, 2.5, 0), (50, 0, -2.5)) == pytest.approx(4.3065, abs=1e-4)
    assert ciede2000((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514)) == pytest.approx(
        0.9082, abs=1e-4
    )


@pytest.mark.parametrize("palette", sorted(PALETTES))
@pytest.mark.parametrize("vision", sorted(VISIONS))
@pytest.mark.parametrize("mode", sorted(MODES))
def test_every_pair_of_seats_differs(mode: str, vision: str, palette: str) -> None:
    colours = seat_colours(MODES[mode], PALETTES[palette])
    for a, b in itertools.combinations(colours, 2):
        assert distance(a, b, vision) >= MIN_BETWEEN_SEATS, (a, b)


@pytest.mark.parametrize("vision", sorted(VISIONS))
def test_teams_differ_across_the_board(vision: str) -> None:
    """In 3 vs 3, the closest colours of opposite teams are still far apart."""
    mode = MODES["3v3"]
    for th in PALETTES.values():
        colours = seat_colours(mode, th)
        for a, b in itertools.combinations(range(mode.seats), 2):
            if mode.teams[a] != mode.teams[b]:
                assert distance(colours[a], colours[b], vision) >= MIN_BETWEEN_SEATS


@pytest.mark.parametrize("vision", sorted(VISIONS))
@pytest.mark.parametrize("theme", sorted(THEMES))
def test_planes_stand_out_from_the_sky(theme: str, vision: str) -> None:
    th = THEMES[theme]
    for colour in th.seats:
        assert distance(colour, th.sky, vision) >= MIN_AGAINST_SKY, (colour, theme)


@pytest.mark.parametrize("vision", sorted(EVERY_VISION))
def test_the_colour_blind_palette_keeps_every_seat_apart_under_every_vision(vision: str) -> None:
    """Protanopia, deuteranopia and tritanopia (and normal vision): every pair of the six
    seat colours, and each against the sky, stays far apart in CIEDE2000."""
    th = PALETTES["colourblind"]
    pairs, sky = smallest(th.seats, th.sky, vision)
    assert pairs >= COLOUR_BLIND_SEATS
    assert sky >= COLOUR_BLIND_SKY
    # the other palettes do not promise as much under tritanopia: the check can fail
    assert smallest(PALETTES["classic"].seats, PALETTES["classic"].sky, "tritanopia")[0] < 20


def test_the_docs_table_is_the_simulations_result() -> None:
    doc = Path(__file__).parents[2] / "docs" / "render.md"
    assert table() in doc.read_text(encoding="utf-8")


def test_every_palette_names_its_colours_and_can_be_read_as_plain_data() -> None:
    for name, th in PALETTES.items():
        assert len(set(th.seats)) == len(th.seats) == len(th.words) == 6
        spec = palette_spec(name)
        assert spec["seats"] == ["#{:02x}{:02x}{:02x}".format(*c) for c in th.seats]
    words = {seat_colour_word(MODES["3v3"], s, PALETTES["colourblind"]) for s in range(6)}
    assert words == {"orange", "rust", "yellow", "blue", "mint", "lavender"}
