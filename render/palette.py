"""Colours, themes (a player's *palette*) and seat insignia.

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
# Which of a theme's six seat colours each team takes, in its seats' order.
TEAM_SEATS: Final = ((0, 4, 2), (1, 3, 5))
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


CLASSIC_WORDS: Final = (  # how a text names a seat's colour (translated where said)
    N_("orange"),
    N_("sky blue"),
    N_("yellow"),
    N_("bluish green"),
    N_("vermillion"),
    N_("violet"),
)


@dataclass(frozen=True)
class Theme:
    """One look: the neutral colours, and the six seat colours in free-for-all order
    with their words (teams take them by :data:`TEAM_SEATS`)."""

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
    seats: tuple[RGB, ...] = FREE_FOR_ALL_COLOURS
    words: tuple[str, ...] = CLASSIC_WORDS


def _rgb(hexes: str) -> tuple[RGB, ...]:
    """``"1e2128 ffffff"`` as RGB tuples."""
    return tuple((int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)) for h in hexes.split())


def _theme(
    name: str,
    tint: float,
    neutrals: str,
    seats: str = "",
    words: tuple[str, ...] = CLASSIC_WORDS,
) -> Theme:
    """A theme from its eleven neutral colours in hex, in :class:`Theme`'s field order
    (page, sky, sky_edge, grid, label, cloud, cloud_label, text, muted, card, highlight),
    and its six seat colours in hex where they are not the classic ones."""
    page, sky, sky_edge, grid, label, cloud, cloud_label, text, muted, card, highlight = _rgb(
        neutrals
    )
    seat_colours = _rgb(seats) if seats else FREE_FOR_ALL_COLOURS
    return Theme(
        name, page, sky, sky_edge, grid, label, cloud, cloud_label, text, muted, card, highlight,
        tint, seat_colours, words,
    )  # fmt: skip


DARK: Final = _theme(
    "dark", 0.24, "1e2128 2c4668 263d5c 7896ba c4d6ec ecf0f6 283446 ecf0f6 96a2b4 2a2f3a ffffff"
)

# A warm grey sky: the light-blue one it replaces hid the sky-blue planes.
LIGHT: Final = _theme(
    "light", 0.45, "f6f7fa d6d6d0 cacac4 6e7076 141a26 ffffff 283446 161c26 5a6474 e4e8f0 141820"
)

# The "dark" palette: Discord's own near-black around a charcoal sky, the classic
# seat colours (they stand further from this sky than from the classic navy).
NIGHT: Final = _theme(
    "night", 0.22, "141518 202228 1a1c21 565c68 b0b8c4 969ca8 141820 e2e6ec 8c94a0 22242a ffffff"
)

# Black sky, white lines and text, vivid seats: every pair of seat colours is at least
# 19.7 apart (CIEDE2000) under each simulated colour blindness (docs/render.md).
CONTRAST: Final = _theme(
    "contrast",
    0.3,
    "000000 000000 0e0e0e ffffff ffffff bebebe 000000 ffffff d2d2d2 1c1c1c ffffff",
    seats="c3a239 3aa1c5 ffff3a 00f9be c41e00 7347c3",
)

# Six colours chosen by search to stay apart under protanopia, deuteranopia and
# tritanopia alike (Machado 2009; at least 24 apart in CIEDE2000, and 30 from the sky):
# they differ in lightness as much as in hue, which no colour blindness takes away. The
# gold team is warm (orange, rust, yellow), the blue team cool (blue, mint, lavender).
COLOUR_BLIND: Final = _theme(
    "colourblind",
    0.2,
    "12141a 181c24 14171e 5c6270 bcc2ce 969aa2 141820 e8ecf2 969eaa 20242c ffffff",
    seats="d47b2b 005dc7 fbff08 adf2db 923406 c89eff",
    words=(N_("orange"), N_("blue"), N_("yellow"), N_("mint"), N_("rust"), N_("lavender")),
)

THEMES: Final = {t.name: t for t in (DARK, LIGHT, NIGHT, CONTRAST, COLOUR_BLIND)}

# What a player chooses (``/crosshairs palette``), and the theme each draws with: the
# one place the bot, and any other client of the board, reads palettes from.
PALETTES: Final = {
    "classic": DARK,
    "dark": NIGHT,
    "contrast": CONTRAST,
    "colourblind": COLOUR_BLIND,
}
PALETTE_NAMES: Final = {  # how a menu names each palette (translated where shown)
    "classic": N_("classic"),
    "dark": N_("dark"),
    "contrast": N_("high contrast"),
    "colourblind": N_("colour-blind safe"),
}
DEFAULT_PALETTE: Final = "classic"


def theme(name: str) -> Theme:
    found = THEMES.get(name)
    if found is None:
        raise ValueError(f"unknown theme {name!r}; themes are: {', '.join(THEMES)}")
    return found


def palette_theme(palette: str) -> str:
    """The theme a palette draws with; the classic one for a palette unknown (a value
    stored by a newer bot)."""
    return PALETTES.get(palette, PALETTES[DEFAULT_PALETTE]).name


def palette_spec(palette: str) -> dict[str, object]:
    """A palette as plain data (hex colours) for a client that draws the board itself."""
    th = PALETTES[palette]

    def hexed(c: RGB) -> str:
        return "#{:02x}{:02x}{:02x}".format(*c)

    return {
        "name": palette,
        "page": hexed(th.page),
        "sky": hexed(th.sky),
        "sky_edge": hexed(th.sky_edge),
        "grid": hexed(th.grid),
        "label": hexed(th.label),
        "cloud": hexed(th.cloud),
        "text": hexed(th.text),
        "seats": [hexed(c) for c in th.seats],
        "team_seats": [list(t) for t in TEAM_SEATS],
        "shapes": list(SHAPES),
    }


def seat_colours(mode: Mode, th: Theme = DARK) -> tuple[RGB, ...]:
    """The colour of each seat of ``mode`` in theme ``th``, in seat order."""
    if not mode.family.teams:
        return th.seats[: mode.seats]
    used = {0: 0, 1: 0}
    out = []
    for team in mode.teams:
        out.append(th.seats[TEAM_SEATS[team][used[team]]])
        used[team] += 1
    return tuple(out)


def seat_colour_word(mode: Mode, seat: int, th: Theme = DARK) -> str:
    """The seat's colour in words, untranslated (``_()`` it where it is said)."""
    return th.words[th.seats.index(seat_colours(mode, th)[seat])]


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
