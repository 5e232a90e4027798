"""What stays put for a whole match, drawn once and reused: the static layer (sky, grid,
home sides, clouds, cell names, the key) and the 256-colour palette every board of the match is
encoded with.

Clouds are fixed once the setup phase ends, so they belong here: a board is then a copy
of this layer and a few dozen pastes. Cell names are printed last, on top of the clouds,
and a cloud is clipped to its own hex so it never covers a neighbour's name.

Reducing a board to 256 colours with an adaptive quantizer costs more than drawing it;
mapping it onto a palette made in advance costs about a millisecond. The palette is half
the static layer's own colours and half those of everything drawn over it (seat colours
with their anti-aliased edges, badges, bursts, text), so that both keep clean edges.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Final

from PIL import Image, ImageChops, ImageDraw

from i18n import current
from render import sprites
from render.geometry import NAME_FONT, PLANE_SIZE, Layout
from render.key import draw_key
from render.palette import ALERT, CRASH_GREY, GOLD, INK, RGB, SHAPES, Theme, mix, seat_colours
from render.palette import theme as get_theme
from render.typeface import font, stamp
from rules import board
from rules.modes import MODES

SUPER: Final = 3  # the grid is drawn this much larger and shrunk, for smooth edges
LAYER_COLOURS: Final = 128  # of the palette's 256; the rest go to what is drawn over it

# Outer edges of each home side, as facings of the cells on it.
SIDE_FACINGS: Final = {
    "S": (board.SW, board.SE),
    "SW": (board.W, board.SW),
    "NW": (board.NW, board.W),
    "N": (board.NE, board.NW),
    "NE": (board.E, board.NE),
    "SE": (board.SE, board.E),
}


def key_rows(mode_key: str) -> int:
    """Rows of the key under the board: bursts for every mode, then teams."""
    return 2 if MODES[mode_key].family.teams else 1


def layout_for(width: int, mode_key: str) -> Layout:
    return Layout.for_size(width, MODES[mode_key].seats, key_rows(mode_key))


def layer(width: int, mode_key: str, theme_name: str, clouds: frozenset[int]) -> Image.Image:
    """The static layer of one match (and of each setup step, while clouds are placed),
    its key in the language being spoken."""
    return _layer(width, mode_key, theme_name, clouds, current())


def forget_layers() -> None:
    """Drop every static layer drawn so far (the benchmarks time a first board)."""
    _layer.cache_clear()


@lru_cache(maxsize=32)
def _layer(
    width: int, mode_key: str, theme_name: str, clouds: frozenset[int], language: str
) -> Image.Image:
    th = get_theme(theme_name)
    layout = layout_for(width, mode_key)
    img = _grid(width, mode_key, th.name).copy()
    d = ImageDraw.Draw(img)
    puff = _clipped_cloud(th, layout.r)
    for c in sorted(clouds):
        sprites.paste_centred(img, puff, *layout.centre(c))
    label_font = font(round(layout.r * NAME_FONT))
    for c in board.CELLS:
        colour = th.cloud_label if c in clouds else th.label
        stamp(d, layout.name_at(c), board.name(c), colour, label_font, "mm")
    draw_key(img, layout, MODES[mode_key], th)
    return img


# A palette is 768 bytes, and making one again means quantizing the whole layer: keep one
# for every match a worker is likely to be drawing (the layer itself is 5 MB and is not).
@lru_cache(maxsize=1024)
def palette(width: int, mode_key: str, theme_name: str, clouds: frozenset[int]) -> Image.Image:
    """The 256-colour palette (a "P" image) boards of this static layer are encoded with."""
    base = layer(width, mode_key, theme_name, clouds)
    method, none = Image.Quantize.FASTOCTREE, Image.Dither.NONE
    a = base.quantize(LAYER_COLOURS, method=method, dither=none).getpalette() or []
    colours = [*a[: 3 * LAYER_COLOURS], *_over_colours(width, mode_key, theme_name)]
    out = Image.new("P", (1, 1))
    out.putpalette(colours + [0] * (768 - len(colours)))
    return out


@lru_cache(maxsize=8)
def _over_colours(width: int, mode_key: str, theme_name: str) -> tuple[int, ...]:
    """The palette's second half, shared by every match of a mode."""
    over = _swatches(width, mode_key, get_theme(theme_name))
    method, none = Image.Quantize.FASTOCTREE, Image.Dither.NONE
    b = over.quantize(256 - LAYER_COLOURS, method=method, dither=none).getpalette() or []
    return tuple(b[: 3 * (256 - LAYER_COLOURS)])


@lru_cache(maxsize=8)
def _grid(width: int, mode_key: str, theme_name: str) -> Image.Image:
    """Sky, grid and home sides: the part shared by every match of a mode."""
    th = get_theme(theme_name)
    mode = MODES[mode_key]
    layout = layout_for(width, mode_key)
    big = Layout.for_size(width * SUPER, mode.seats, key_rows(mode_key))
    img = Image.new("RGB", (big.width, round(layout.height * SUPER)), th.page)
    d = ImageDraw.Draw(img)
    colours = seat_colours(mode, th)
    tint: dict[int, RGB] = {}
    for seat, side in enumerate(mode.sides):
        for c in board.HOME[side]:
            tint[c] = mix(th.sky, colours[seat], th.tint)
    rim = {c for c in board.CELLS if any(board.step(c, f) < 0 for f in range(6))}
    for c in board.CELLS:
        fill = tint.get(c, th.sky_edge if c in rim else th.sky)
        d.polygon(big.hex_points(c), fill=fill, outline=th.grid, width=round(big.r * 0.035))
    stripe = round(big.r * 0.17)
    for seat, side in enumerate(mode.sides):
        for c in board.HOME[side]:
            for f in SIDE_FACINGS[side]:
                a, b = big.edge(c, f, 1.0 + 0.17 * 0.6)
                d.line((a, b), fill=colours[seat], width=stripe)
                # Round the stripe's ends where it meets the next side's.
                for px, py in (a, b):
                    d.ellipse(
                        (px - stripe / 2, py - stripe / 2, px + stripe / 2, py + stripe / 2),
                        fill=colours[seat],
                    )
    return img.resize((width, layout.height), Image.Resampling.LANCZOS)


def _clipped_cloud(th: Theme, r: float) -> Image.Image:
    puff = sprites.cloud(th.cloud, mix(th.cloud, th.sky, 0.45), r).copy()
    c = puff.width / 2
    corners = [
        (c + r * math.cos(math.radians(a)), c - r * math.sin(math.radians(a)))
        for a in range(30, 390, 60)
    ]
    inside = Image.new("L", puff.size, 0)
    ImageDraw.Draw(inside).polygon(corners, fill=255)
    puff.putalpha(ImageChops.multiply(puff.getchannel("A"), inside))
    return puff


def _swatches(width: int, mode_key: str, th: Theme) -> Image.Image:
    """A strip with one of everything the board draws over the static layer, on the
    backgrounds it is drawn on, for the palette to learn their colours from."""
    layout = layout_for(width, mode_key)
    r = layout.r
    cell = round(r * 2)
    colours = seat_colours(MODES[mode_key], th)
    rows = len(colours) + 1
    img = Image.new("RGB", (cell * 10, cell * rows), th.sky)
    d = ImageDraw.Draw(img)
    size = round(r * PLANE_SIZE)
    small = font(round(r * 0.45))
    for i, colour in enumerate(colours):
        y = i * cell + cell / 2
        for facing in range(6):
            x = facing * cell + cell / 2
            sprites.paste_centred(img, sprites.plane(colour, SHAPES[i], facing, size), x, y)
        d.rectangle((6 * cell, i * cell, 10 * cell, (i + 1) * cell), fill=th.card)
        d.text((6 * cell + 4, y), "Pilot 1 up 0 in", fill=colour, font=small, anchor="lm")
        d.text((8 * cell, y), "▼2", fill=INK, font=small, anchor="lm")
        d.rounded_rectangle((9 * cell, y - r * 0.2, 10 * cell, y + r * 0.2), 4, fill=colour)
    y = (rows - 1) * cell + cell / 2
    badge = round(r * 0.78)
    for k in range(6):
        sprites.paste_centred(img, sprites.height_badge(k, badge), k * badge + badge / 2, y)
    x = 6 * badge + cell / 2
    for mark in (
        sprites.burst(ALERT, cell),
        sprites.burst(CRASH_GREY, cell),
        sprites.ace_star(cell),
    ):
        sprites.paste_centred(img, mark, x, y)
        x += cell
    d.text((x, y), "Turn 9 to move", fill=th.text, font=small, anchor="lm")
    d.text((x, y + r * 0.5), "rules left", fill=th.muted, font=small, anchor="lm")
    d.rectangle((x + cell * 2, y - r, x + cell * 3, y + r), fill=th.page)
    d.line((x + cell * 2, y, x + cell * 3, y), fill=GOLD, width=3)
    return img
