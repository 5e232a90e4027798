"""The board as a picture: ``render_board(game)`` for a Pillow image, ``board_png`` for
the bytes the bot uploads after every move.

Layers, bottom to top: the static board (cached per size, mode and theme), clouds,
highlighted cells, what happened this turn (paths, landings, wrecks), lines of fire,
planes with their shadows, badges and ace stars, then the title strip and seat cards.
A plane's shadow falls further away the higher it flies, so height reads at a glance
before the badge is read.
"""

from __future__ import annotations

import io
import math
from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from render import sprites
from render.geometry import Layout, Point
from render.palette import ALERT, INK, RGB, SHAPES, Theme, mix, seat_colours
from render.palette import theme as get_theme
from render.panel import draw_cards, draw_title
from render.recent import Recent, recent
from render.typeface import font
from rules import board
from rules.game import Game
from rules.modes import MODES

SUPER: Final = 3  # the static board is drawn this much larger and shrunk, for smooth edges
CRASH_GREY: Final = (150, 154, 160)
NAME_FONT: Final = 0.42  # cell names, in hex radii: 11 px at Discord's 550 px preview

# Outer edges of each home side, as facings of the cells on it.
SIDE_FACINGS: Final = {
    "S": (board.SW, board.SE),
    "SW": (board.W, board.SW),
    "NW": (board.NW, board.W),
    "N": (board.NE, board.NW),
    "NE": (board.E, board.NE),
    "SE": (board.SE, board.E),
}


def name_y(layout: Layout, cell: int) -> float:
    """Where a cell's name is printed: high in the hex, clear of the plane below it."""
    return layout.centre(cell)[1] - layout.r * 0.58


def plane_centre(layout: Layout, cell: int) -> Point:
    x, y = layout.centre(cell)
    return x, y + layout.r * 0.2


@lru_cache(maxsize=24)
def background(width: int, mode_key: str, theme_name: str) -> Image.Image:
    """Everything that never changes during a game: sky, grid, home sides, cell names."""
    th = get_theme(theme_name)
    mode = MODES[mode_key]
    layout = Layout.for_size(width, mode.seats)
    big = Layout.for_size(width * SUPER, mode.seats)
    img = Image.new("RGB", (big.width, round(layout.height * SUPER)), th.page)
    d = ImageDraw.Draw(img)
    colours = seat_colours(mode)
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
        for c in board.HOME[side]:
            for f in SIDE_FACINGS[side]:
                for px, py in big.edge(c, f, 1.0 + 0.17 * 0.6):
                    d.ellipse(
                        (px - stripe / 2, py - stripe / 2, px + stripe / 2, py + stripe / 2),
                        fill=colours[seat],
                    )
    small = img.resize((width, layout.height), Image.Resampling.LANCZOS)
    d = ImageDraw.Draw(small)
    label_font = font(round(layout.r * NAME_FONT))
    for c in board.CELLS:
        x, _ = layout.centre(c)
        d.text((x, name_y(layout, c)), board.name(c), fill=th.label, font=label_font, anchor="mm")
    return small


def render_board(
    game: Game,
    *,
    size: int = 1024,
    names: Sequence[str] | None = None,
    lines: bool = False,
    highlight_cells: Collection[int] = (),
    highlight_plane: int | None = None,
    theme: str = "dark",
) -> Image.Image:
    """Draw ``game`` as an RGB image ``size`` px wide (its height follows from the mode).

    ``names`` are the players' display names by seat; ``lines`` adds the lines of fire
    of the side to move and a reticle on every caught plane; ``highlight_cells`` and
    ``highlight_plane`` (a plane id) pick out what an interface is asking about.
    """
    th = get_theme(theme)
    layout = Layout.for_size(size, game.seats)
    img = background(size, game.mode.key, th.name).copy()
    d = ImageDraw.Draw(img)
    colours = seat_colours(game.mode)
    _clouds(img, d, layout, game, th)
    _highlights(img, d, layout, th, highlight_cells)
    seen = recent(game)
    _recent(img, d, layout, seen, colours)
    if lines:
        _lines_of_fire(d, layout, game, colours)
    _planes(img, layout, game, colours)
    _dive_marks(d, layout, seen, colours)
    if lines:
        for victim in game.caught():
            p = game.plane(victim)
            if p is not None:
                _reticle(d, layout, p.cell)
    if highlight_plane is not None:
        p = game.plane(highlight_plane)
        if p is not None:
            w = max(2, round(layout.r * 0.1))
            d.polygon(layout.hex_points(p.cell, 0.93), outline=th.highlight, width=w)
    draw_title(img, layout, game, th, names)
    draw_cards(img, layout, game, th, names)
    return img


def board_png(game: Game, **options: object) -> bytes:
    """:func:`render_board` as PNG bytes, ready to upload. The picture is reduced to 256
    colours without dithering first: it is mostly flat fills, so the edges stay crisp,
    and the file is a third of the size and quicker to encode."""
    img = render_board(game, **options)  # type: ignore[arg-type]
    flat = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    flat.save(out, "PNG", compress_level=6)
    return out.getvalue()


def _clouds(
    img: Image.Image, d: ImageDraw.ImageDraw, layout: Layout, game: Game, th: Theme
) -> None:
    cells = sorted(game.clouds)
    puff = sprites.cloud(th.cloud, mix(th.cloud, th.sky, 0.45), layout.r)
    for c in cells:
        x, y = layout.centre(c)
        sprites.paste_centred(img, puff, x, y)
    label_font = font(round(layout.r * NAME_FONT))
    for c in cells:
        x, _ = layout.centre(c)
        d.text(
            (x, name_y(layout, c)), board.name(c), fill=th.cloud_label, font=label_font, anchor="mm"
        )


def _highlights(
    img: Image.Image, d: ImageDraw.ImageDraw, layout: Layout, th: Theme, cells: Collection[int]
) -> None:
    if not cells:
        return
    fill = sprites.glow(layout.r * 0.96, th.highlight, 70)
    w = max(2, round(layout.r * 0.08))
    for c in sorted(cells):
        x, y = layout.centre(c)
        sprites.paste_centred(img, fill, x, y)
        d.polygon(layout.hex_points(c, 0.9), outline=th.highlight, width=w)


def _recent(
    img: Image.Image, d: ImageDraw.ImageDraw, layout: Layout, seen: Recent, colours: Sequence[RGB]
) -> None:
    r = layout.r
    wreck = round(r * 0.95)
    for _, c in seen.shot:
        sprites.paste_centred(img, sprites.burst(ALERT, wreck), *layout.centre(c))
    for _, c in seen.crashed + seen.withdrawn:
        sprites.paste_centred(img, sprites.burst(CRASH_GREY, wreck), *layout.centre(c))
    for seat, c in seen.placed:
        d.polygon(layout.hex_points(c, 0.86), outline=colours[seat], width=max(2, round(r * 0.07)))
    for seat, cells in seen.paths.values():
        pts = [plane_centre(layout, c) for c in cells]
        d.line(pts, fill=INK, width=round(r * 0.2), joint="curve")
        d.line(pts, fill=colours[seat], width=round(r * 0.11), joint="curve")
        for x, y in pts[:-1]:
            dot = r * 0.13
            d.ellipse(
                (x - dot, y - dot, x + dot, y + dot),
                fill=colours[seat],
                outline=INK,
                width=max(1, round(r * 0.04)),
            )


def _dive_marks(
    d: ImageDraw.ImageDraw, layout: Layout, seen: Recent, colours: Sequence[RGB]
) -> None:
    """A pill with the height lost, on the path of a swoop or beside a plane that dived
    in place; drawn over the planes so a wing never hides it."""
    r = layout.r
    pill_font = font(round(r * 0.3), True)
    for seat, c, to, drop in seen.dives:
        if to >= 0:
            (ax, ay), (bx, by) = plane_centre(layout, c), plane_centre(layout, to)
            x, y = (ax + bx) / 2, (ay + by) / 2
        else:
            x, y = layout.centre(c)
            x -= r * 0.5
        text = f"▼{drop}"
        half = d.textlength(text, font=pill_font) / 2 + r * 0.1
        d.rounded_rectangle(
            (x - half, y - r * 0.2, x + half, y + r * 0.2),
            r * 0.2,
            fill=colours[seat],
            outline=INK,
            width=max(1, round(r * 0.04)),
        )
        d.text((x, y), text, fill=INK, font=pill_font, anchor="mm")


def _dashed(
    d: ImageDraw.ImageDraw, a: Point, b: Point, colour: RGB, width: int, dash: float
) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = 0.0
    while t < length:
        e = min(length, t + dash)
        d.line(
            (a[0] + ux * t, a[1] + uy * t, a[0] + ux * e, a[1] + uy * e), fill=colour, width=width
        )
        t += dash * 1.8


def _lines_of_fire(
    d: ImageDraw.ImageDraw, layout: Layout, game: Game, colours: Sequence[RGB]
) -> None:
    if game.phase != "play":
        return
    r = layout.r
    team = game.mode.teams[game.active]
    for p in game.planes():
        if game.mode.teams[p.seat] != team:
            continue
        cells = game.line_of_fire(p)
        if not cells:
            continue
        a = layout.centre(p.cell)
        b = layout.centre(cells[-1])
        if game.plane_at(cells[-1]) is not None:  # stop at the target's nose, not on it
            dist = math.dist(a, b)
            b = (b[0] - (b[0] - a[0]) * r * 0.55 / dist, b[1] - (b[1] - a[1]) * r * 0.55 / dist)
        _dashed(d, a, b, INK, round(r * 0.13), r * 0.3)
        _dashed(d, a, b, colours[p.seat], round(r * 0.07), r * 0.3)


def _reticle(d: ImageDraw.ImageDraw, layout: Layout, cell: int) -> None:
    r = layout.r
    x, y = plane_centre(layout, cell)
    rr = r * 0.62
    w = max(2, round(r * 0.08))
    d.ellipse((x - rr, y - rr, x + rr, y + rr), outline=ALERT, width=w)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        d.line(
            (x + dx * rr * 0.55, y + dy * rr * 0.55, x + dx * rr * 1.25, y + dy * rr * 1.25),
            fill=ALERT,
            width=w,
        )


def _planes(img: Image.Image, layout: Layout, game: Game, colours: Sequence[RGB]) -> None:
    r = layout.r
    size = round(r * 1.3)
    badge = round(r * 0.5)
    star = round(r * 0.46)
    planes = game.planes()
    for p in planes:
        x, y = plane_centre(layout, p.cell)
        off = r * (0.04 + 0.05 * p.height)
        sprites.paste_centred(img, sprites.shadow(p.facing, size, 110), x + off, y + off)
    for p in planes:
        x, y = plane_centre(layout, p.cell)
        sprite = sprites.plane(colours[p.seat], SHAPES[p.seat], p.facing, size)
        sprites.paste_centred(img, sprite, x, y)
        cx, cy = layout.centre(p.cell)
        sprites.paste_centred(
            img, sprites.height_badge(p.height, badge), cx + r * 0.56, cy + r * 0.4
        )
        if p.ace:
            sprites.paste_centred(img, sprites.ace_star(star), cx - r * 0.56, cy + r * 0.4)
