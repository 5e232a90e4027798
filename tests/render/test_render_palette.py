"""Seat colours stay apart for colour-blind players, and planes stand out from the sky.

Distances are in Oklab under normal vision and simulated deuteranopia and protanopia
(see colour_vision.py). 0.1 is five just-noticeable differences: two seats' planes
side by side read as different colours at a glance, before the insignia is looked at.
"""

from __future__ import annotations

import itertools

import pytest
from colour_vision import VISIONS, distance

from render.palette import THEMES, seat_colours
from rules.modes import MODES

MIN_BETWEEN_SEATS = 0.1
MIN_AGAINST_SKY = 0.1


def test_the_simulation_is_sane() -> None:
    red, green = (213, 94, 0), (0, 158, 115)
    assert distance(red, red, "deuteranopia") == pytest.approx(0)
    # Deuteranopes confuse reds and greens far more than other people do.
    assert distance(red, green, "deuteranopia") < distance(red, green, "normal") / 2
    assert distance((0, 0, 0), (255, 255, 255), "normal") == pytest.approx(1, abs=1e-3)


@pytest.mark.parametrize("vision", sorted(VISIONS))
@pytest.mark.parametrize("mode", sorted(MODES))
def test_every_pair_of_seats_differs(mode: str, vision: str) -> None:
    colours = seat_colours(MODES[mode])
    for a, b in itertools.combinations(colours, 2):
        assert distance(a, b, vision) >= MIN_BETWEEN_SEATS, (a, b)


@pytest.mark.parametrize("vision", sorted(VISIONS))
def test_teams_differ_across_the_board(vision: str) -> None:
    """In 3 vs 3, the closest colours of opposite teams are still far apart."""
    mode = MODES["3v3"]
    colours = seat_colours(mode)
    for a, b in itertools.combinations(range(mode.seats), 2):
        if mode.teams[a] != mode.teams[b]:
            assert distance(colours[a], colours[b], vision) >= MIN_BETWEEN_SEATS


@pytest.mark.parametrize("vision", sorted(VISIONS))
@pytest.mark.parametrize("theme", sorted(THEMES))
def test_planes_stand_out_from_the_sky(theme: str, vision: str) -> None:
    sky = THEMES[theme].sky
    for colour in set(seat_colours(MODES["ffa6"])) | set(seat_colours(MODES["3v3"])):
        assert distance(colour, sky, vision) >= MIN_AGAINST_SKY, (colour, theme)
