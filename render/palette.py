"""Colours, themes and seat insignia.

Seat colours come from the Okabe–Ito set, chosen to stay apart under the common kinds
of colour blindness; its dark blue is left out because it vanishes on the sky. Colour
is never the only cue: every seat also has an insignia shape, painted on its planes and
repeated beside the player's name in the panel.

In team modes the first team takes the warm colours and the second the cool ones, so
sides read at a glance before anyone checks which seat is which.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rules.modes import Mode

RGB = tuple[int, int, int]

ORANGE: Final = (230, 159, 0)
SKY_BLUE: Final = (86, 180, 233)
BLUISH_GREEN: Final = (0, 158, 115)
YELLOW: Final = (240, 228, 66)
VERMILLION: Final = (213, 94, 0)
REDDISH_PURPLE: Final = (204, 121, 167)

FREE_FOR_ALL_COLOURS: Final = (ORANGE, SKY_BLUE, YELLOW, BLUISH_GREEN, VERMILLION, REDDISH_PURPLE)
WARM: Final = (ORANGE, VERMILLION, YELLOW)
COOL: Final = (SKY_BLUE, BLUISH_GREEN, REDDISH_PURPLE)

# Insignia, one per seat in turn order; drawn upright whatever the plane's facing.
SHAPES: Final = ("circle", "square", "triangle", "diamond", "cross", "star")

GOLD: Final = (255, 200, 40)
ALERT: Final = (255, 64, 64)
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

LIGHT: Final = Theme(
    name="light",
    page=(246, 247, 250),
    sky=(170, 203, 236),
    sky_edge=(156, 190, 226),
    grid=(86, 118, 156),
    label=(24, 44, 72),
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
    if mode.family != "team":
        return FREE_FOR_ALL_COLOURS[: mode.seats]
    used = {0: 0, 1: 0}
    out = []
    for team in mode.teams:
        out.append((WARM, COOL)[team][used[team]])
        used[team] += 1
    return tuple(out)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` of the way towards ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def ink_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (255, 255, 255)
