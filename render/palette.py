"""Colours, themes and seat insignia.

Seat colours start from the Okabe–Ito set and were checked pair by pair under simulated
deuteranopia and protanopia (Machado 2009, distances in Oklab; see docs/render.md and
tests/render/test_render_palette.py). Okabe–Ito's reddish purple sits too close to its
bluish green for a deuteranope, so a violet takes its place, and its dark blue is left
out because it vanishes on the dark sky. Colour is never the only cue: every seat also
has an insignia shape, painted on its planes and repeated beside the player's name.

In team modes the first team is the gold team (yellow, orange, vermillion) and the
second the blue team (sky blue, bluish green, violet): yellow against blue is the
contrast that every common colour blindness keeps. The picture names both teams in its key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from i18n import N_
from rules.modes import Mode

RGB = tuple[int, int, int]

ORANGE: Final = (230, 159, 0)
SKY_BLUE: Final = (86, 180, 233)
BLUISH_GREEN: Final = (0, 158, 115)
YELLOW: Final = (240, 228, 66)
VERMILLION: Final = (213, 94, 0)
VIOLET: Final = (120, 110, 240)

FREE_FOR_ALL_COLOURS: Final = (ORANGE, SKY_BLUE, YELLOW, BLUISH_GREEN, VERMILLION, VIOLET)
TEAM_COLOURS: Final = ((ORANGE, VERMILLION, YELLOW), (SKY_BLUE, BLUISH_GREEN, VIOLET))
TEAM_NAMES: Final = (N_("Gold team"), N_("Blue team"))  # translated where drawn

# Insignia, one per seat in turn order; drawn upright whatever the plane's facing.
SHAPES: Final = ("circle", "square", "triangle", "diamond", "cross", "star")
SHAPE_WORDS: Final = {  # how a text names an insignia (translated where said)
    "circle": N_("circle insignia"),
    "square": N_("square insignia"),
    "triangle": N_("triangle insignia"),
    "diamond": N_("diamond insignia"),
    "cross": N_("cross insignia"),
    "star": N_("star insignia"),
}

GOLD: Final = (255, 200, 40)
ALERT: Final = (255, 64, 64)  # shot down
CRASH_GREY: Final = (150, 154, 160)  # crashed or withdrawn
INK: Final = (16, 20, 28)  # outlines: dark enough to separate any seat colour from the sky


@dataclass(frozen=True)
class Theme:
    """The neutral colours of one look; seat colours are shared by every theme."""

    name: str
    page: RGB  # behind everything, matches Discord's own background closely
    sky: RGB  # hex fill
    sky_edge: RGB  # hexes on the rim, a touch different so the board has a shape
    grid: RGB
    label: RGB  # cell names on open sky
    cloud: RGB
    cloud_label: RGB
    text: RGB
    muted: RGB
    card: RGB  # panel card background
    highlight: RGB
    tint: float  # strength of the home-side tint


DARK: Final = Theme(
    name="dark",
    page=(30, 33, 40),
    sky=(44, 70, 104),
    sky_edge=(38, 61, 92),
    grid=(120, 150, 186),
    label=(196, 214, 236),
    cloud=(236, 240, 246),
    cloud_label=(40, 52, 70),
    text=(236, 240, 246),
    muted=(150, 162, 180),
    card=(42, 47, 58),
    highlight=(255, 255, 255),
    tint=0.24,
)

# A warm grey sky: the light-blue one it replaces hid the sky-blue planes.
LIGHT: Final = Theme(
    name="light",
    page=(246, 247, 250),
    sky=(214, 214, 208),
    sky_edge=(202, 202, 196),
    grid=(110, 112, 118),
    label=(20, 26, 38),
    cloud=(255, 255, 255),
    cloud_label=(40, 52, 70),
    text=(22, 28, 38),
    muted=(90, 100, 116),
    card=(228, 232, 240),
    highlight=(20, 24, 32),
    tint=0.45,
)

THEMES: Final = {t.name: t for t in (DARK, LIGHT)}


def theme(name: str) -> Theme:
    found = THEMES.get(name)
    if found is None:
        raise ValueError(f"unknown theme {name!r}; themes are: {', '.join(THEMES)}")
    return found


def seat_colours(mode: Mode) -> tuple[RGB, ...]:
    """The colour of each seat of ``mode``, in seat order."""
    if not mode.family.teams:
        return FREE_FOR_ALL_COLOURS[: mode.seats]
    used = {0: 0, 1: 0}
    out = []
    for team in mode.teams:
        out.append(TEAM_COLOURS[team][used[team]])
        used[team] += 1
    return tuple(out)


COLOUR_WORDS: Final = {  # how a text names a seat's colour (translated where said)
    ORANGE: N_("orange"),
    SKY_BLUE: N_("sky blue"),
    YELLOW: N_("yellow"),
    BLUISH_GREEN: N_("bluish green"),
    VERMILLION: N_("vermillion"),
    VIOLET: N_("violet"),
}


def seat_colour_word(mode: Mode, seat: int) -> str:
    """The seat's colour in words, untranslated (``_()`` it where it is said)."""
    return COLOUR_WORDS[seat_colours(mode)[seat]]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` of the way towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def as_text(colour: RGB, theme: Theme) -> RGB:
    """``colour`` for text on the theme's page: seat colours are light, so on the light
    theme they are darkened towards its text colour to stay readable."""
    return mix(colour, theme.text, 0.45) if theme is LIGHT else colour


def ink_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (255, 255, 255)
