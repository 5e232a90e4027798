"""The board as a picture: ``render_board(game)`` for a Pillow image, ``board_png`` for
the bytes the bot uploads after every move.

Layers, bottom to top: the static layer (sky, grid, home sides, clouds, cell names;
drawn once per match, see :mod:`render.static`), highlighted cells, what happened this
turn (paths, landings, wrecks), lines of fire, planes with their shadows, the labels of
highlighted cells, badges and ace stars, dive marks, then the title strip and the seat
cards. Nothing drawn over the static layer reaches a cell name, and nothing covers a
height badge.
A plane's shadow falls further away the higher it flies, so height reads at a glance
before the badge is read.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Mapping, Sequence
from functools import lru_cache
from typing import TypedDict, Unpack

from PIL import Image, ImageDraw

from render import sprites, static
from render.geometry import (
    BADGE_SIZE,
    LABEL_FONT,
    NAME_FONT,
    PILL_FONT,
    PLANE_SIZE,
    STAR_SIZE,
    WRECK_SIZE,
    Layout,
    Point,
)
from render.palette import ALERT, CRASH_GREY, INK, RGB, SHAPES, Theme, ink_on, seat_colours
from render.palette import theme as get_theme
from render.panel import draw_cards, draw_title
from render.png import palette_png
from render.recent import Recent, recent
from render.typeface import font
from rules import board, serialize
from rules.game import Game


class BoardOptions(TypedDict, total=False):
    """What :func:`board_png` passes on to :func:`render_board`."""

    size: int
    names: Sequence[str] | None
    lines: bool
    highlight_cells: Collection[int]
    highlight_plane: int | None
    highlight_labels: Mapping[int, str]
    theme: str


def render_board(
    game: Game,
    *,
    size: int = 1024,
    names: Sequence[str] | None = None,
    lines: bool = False,
    highlight_cells: Collection[int] = (),
    highlight_plane: int | None = None,
    highlight_labels: Mapping[int, str] = {},
    theme: str = "dark",
) -> Image.Image:
    """Draw ``game`` as an RGB image ``size`` px wide (its height follows from the mode).

    ``names`` are the players' display names by seat; ``lines`` adds the lines of fire
    of the side to move and a reticle on every caught plane; ``highlight_cells`` and
    ``highlight_plane`` (a plane id) pick out what an interface is asking about;
    ``highlight_labels`` (cell -> a short label such as ``A``) marks cells with the
    label a menu repeats.
    """
    th = get_theme(theme)
    layout = static.layout_for(size, game.mode.key)
    base = static.layer(size, game.mode.key, th.name, frozenset(game.clouds))
    img = base.copy()
    d = ImageDraw.Draw(img)
    colours = seat_colours(game.mode, th)
    _highlights(img, d, layout, th, highlight_cells)
    seen = recent(game)
    crossed = _recent(img, d, layout, seen, colours)
    if lines:
        crossed |= _lines_of_fire(d, layout, game, colours)
    # A highlight's glow dims the name under it (on the dark theme, light ink on a
    # lightened cell): print those names again too, on a halo of their own sky.
    _names_again(img, layout, base, crossed | set(highlight_cells), th, game.clouds)
    _planes(img, layout, game, colours)
    if lines:
        for victim in game.caught():
            p = game.plane(victim)
            if p is not None:
                _reticle(d, layout, p.cell)
    if highlight_plane is not None:
        p = game.plane(highlight_plane)
        if p is not None:
            _cup(d, layout, p.cell, 0.93, th.highlight, max(2, round(layout.r * 0.1)))
    _labels(d, layout, game, th, highlight_labels)
    # Badges and dive marks last: nothing may cover a height.
    _badges(img, layout, game)
    _dive_marks(d, layout, seen, colours)
    draw_title(img, layout, game, th, names)
    draw_cards(img, layout, game, th, names)
    return img


def board_png(game: Game | str, **options: Unpack[BoardOptions]) -> bytes:
    """:func:`render_board` as PNG bytes, ready to upload. ``game`` may be a Game or its
    JSON (:func:`rules.serialize.dumps`), so that a worker process can be handed plain
    data. The picture is mapped without dithering onto the match's 256-colour palette
    (:func:`render.static.palette`): it is mostly flat fills, so edges stay crisp, and
    the file is a third of the size and quick to encode."""
    if isinstance(game, str):
        game = serialize.loads(game)
    img = render_board(game, **options)
    match = (
        img.width,
        game.mode.key,
        options.get("theme", "dark"),
        frozenset(game.clouds),
    )
    return encode(img, static.palette(*match), match)


def encode(img: Image.Image, palette: Image.Image, family: Hashable = None) -> bytes:
    """``img`` mapped onto ``palette`` as PNG bytes; ``family`` (the static layer's key)
    lets the boards of one match share their unchanged bands (:mod:`render.png`)."""
    return palette_png(img.quantize(palette=palette, dither=Image.Dither.NONE), family)


def _cup(
    d: ImageDraw.ImageDraw, layout: Layout, cell: int, scale: float, colour: RGB, width: int
) -> None:
    """A cell's outline without its top two sides, which would cross the cell's name."""
    pts = layout.hex_points(cell, scale)
    d.line([pts[2], pts[3], pts[4], pts[5], pts[0]], fill=colour, width=width, joint="curve")


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
        _cup(d, layout, c, 0.9, th.highlight, w)


def _recent(
    img: Image.Image, d: ImageDraw.ImageDraw, layout: Layout, seen: Recent, colours: Sequence[RGB]
) -> set[int]:
    """Draws what happened this turn; returns the cells a flight path crosses."""
    r = layout.r
    wreck = round(r * WRECK_SIZE)
    for _, c in seen.shot:
        sprites.paste_centred(img, sprites.burst(ALERT, wreck), *layout.plane_at(c))
    for _, c in seen.crashed + seen.withdrawn:
        sprites.paste_centred(img, sprites.burst(CRASH_GREY, wreck), *layout.plane_at(c))
    for seat, c in seen.placed:
        _cup(d, layout, c, 0.86, colours[seat], max(2, round(r * 0.07)))
    for seat, cells in seen.paths.values():
        pts = [layout.plane_at(c) for c in cells]
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
    return {c for _, cells in seen.paths.values() for c in cells}


def pill_box(layout: Layout, cell: int, text: str) -> tuple[float, float, float, float]:
    """The rectangle of the dive mark ``text`` for a dive that left ``cell``."""
    r = layout.r
    x, y = layout.pill_at(cell)
    half = font(round(r * PILL_FONT), True).getlength(text) / 2 + r * 0.1
    return x - half, y - r * 0.22, x + half, y + r * 0.22


def _dive_marks(
    d: ImageDraw.ImageDraw, layout: Layout, seen: Recent, colours: Sequence[RGB]
) -> None:
    """A ``▼n`` pill with the height lost, low on the left of the cell the dive left
    from: clear of every name and badge, and drawn over the planes so no wing hides it."""
    r = layout.r
    pill_font = font(round(r * PILL_FONT), True)
    for seat, c, _, drop in seen.dives:
        text = f"▼{drop}"
        d.rounded_rectangle(
            pill_box(layout, c, text),
            r * 0.22,
            fill=colours[seat],
            outline=INK,
            width=max(1, round(r * 0.05)),
        )
        d.text(layout.pill_at(c), text, fill=ink_on(colours[seat]), font=pill_font, anchor="mm")


def label_box(
    layout: Layout, cell: int, text: str, beside_plane: bool = False
) -> tuple[float, float, float, float]:
    """The rectangle of the pill that labels ``cell`` with ``text``: centred on its
    place, or beside a plane starting there and growing towards the plane, away from
    the west neighbour's badge."""
    r = layout.r
    x, y = layout.label_at(cell, beside_plane)
    half = max(font(round(r * LABEL_FONT), True).getlength(text) / 2 + r * 0.1, r * 0.31)
    left = x - r * 0.31 if beside_plane else x - half
    return left, y - r * 0.31, left + 2 * half, y + r * 0.31


def _labels(
    d: ImageDraw.ImageDraw, layout: Layout, game: Game, th: Theme, labels: Mapping[int, str]
) -> None:
    """Each labelled cell's label in a pill of the highlight colour: in the middle of an
    empty cell, beside a plane in the cell of one; never on a name, and under the badge
    that a label of two letters may touch."""
    r = layout.r
    face = font(round(r * LABEL_FONT), True)
    for cell, text in sorted(labels.items()):
        beside = game.plane_at(cell) is not None
        x0, y0, x1, y1 = (round(v) for v in label_box(layout, cell, text, beside))
        # Pillow refuses corners that nearly, but not quite, meet: keep them well apart
        corner = max(1, (min(x1 - x0, y1 - y0) - 3) // 2)
        d.rounded_rectangle(
            (x0, y0, x1, y1),
            corner,
            fill=th.highlight,
            outline=INK,
            width=max(1, round(r * 0.05)),
        )
        at = ((x0 + x1) / 2, (y0 + y1) / 2)
        d.text(at, text, fill=ink_on(th.highlight), font=face, anchor="mm")


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
) -> set[int]:
    """Draws the lines of fire of the side to move; returns the cells they cross."""
    crossed: set[int] = set()
    r = layout.r
    for p, cells in game.lines_of_fire():
        crossed.update((p.cell, *cells))
        a = layout.centre(p.cell)
        b = layout.centre(cells[-1])
        if game.plane_at(cells[-1]) is not None:  # stop at the target's nose, not on it
            dist = math.dist(a, b)
            b = (b[0] - (b[0] - a[0]) * r * 0.55 / dist, b[1] - (b[1] - a[1]) * r * 0.55 / dist)
        _dashed(d, a, b, INK, round(r * 0.13), r * 0.3)
        _dashed(d, a, b, colours[p.seat], round(r * 0.07), r * 0.3)
    return crossed


def _names_again(
    img: Image.Image,
    layout: Layout,
    base: Image.Image,
    cells: set[int],
    th: Theme,
    clouds: Collection[int],
) -> None:
    """Print again, over the lines just drawn, the names of the cells they cross, with a
    halo of the cell's own fill (sky, home tint or cloud) so the name stays readable."""
    px = round(layout.r * NAME_FONT)
    halo = max(1, round(layout.r * 0.06))
    for c in sorted(cells):
        x, y = layout.centre(c)
        back = base.getpixel((round(x), round(y - layout.r * 0.2)))
        ink = th.cloud_label if c in clouds else th.label
        nx, ny = layout.name_at(c)
        # Same sub-pixel position as the name in the static layer, so the two coincide.
        fx, fy = round(nx % 1, 2), round(ny % 1, 2)
        outer, inner = _name_masks(board.name(c), px, halo, fx, fy)
        at = (math.floor(nx) - outer.width // 2, math.floor(ny) - outer.height // 2)
        box = (*at, at[0] + outer.width, at[1] + outer.height)
        img.paste(back, box, outer)  # type: ignore[arg-type]
        img.paste(ink, box, inner)


@lru_cache(maxsize=1024)
def _name_masks(
    text: str, px: int, halo: int, fx: float, fy: float
) -> tuple[Image.Image, Image.Image]:
    """A cell name as two masks, with its halo and without, the anchor at (w // 2 + fx,
    h // 2 + fy)."""
    face = font(px)
    w, h = round(face.getlength(text)) + 4 * halo + 4, px + 4 * halo + 4
    at = (w // 2 + fx, h // 2 + fy)
    outer, inner = Image.new("L", (w, h)), Image.new("L", (w, h))
    ImageDraw.Draw(outer).text(
        at, text, fill=255, font=face, anchor="mm", stroke_width=halo, stroke_fill=255
    )
    ImageDraw.Draw(inner).text(at, text, fill=255, font=face, anchor="mm")
    return outer, inner


def _reticle(d: ImageDraw.ImageDraw, layout: Layout, cell: int) -> None:
    r = layout.r
    x, y = layout.plane_at(cell)
    rr = r * 0.5  # small enough to stay below the cell's name
    w = max(2, round(r * 0.08))
    d.ellipse((x - rr, y - rr, x + rr, y + rr), outline=ALERT, width=w)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        d.line(
            (x + dx * rr * 0.55, y + dy * rr * 0.55, x + dx * rr * 1.1, y + dy * rr * 1.1),
            fill=ALERT,
            width=w,
        )


def _planes(img: Image.Image, layout: Layout, game: Game, colours: Sequence[RGB]) -> None:
    r = layout.r
    size = round(r * PLANE_SIZE)
    planes = game.planes()
    for p in planes:
        x, y = layout.plane_at(p.cell)
        off = r * (0.03 + 0.025 * p.height)
        sprites.paste_centred(img, sprites.shadow(p.facing, size, 100), x + off, y + off)
    for p in planes:
        sprite = sprites.plane(colours[p.seat], SHAPES[p.seat], p.facing, size)
        sprites.paste_centred(img, sprite, *layout.plane_at(p.cell))


def _badges(img: Image.Image, layout: Layout, game: Game) -> None:
    r = layout.r
    badge = round(r * BADGE_SIZE)
    star = round(r * STAR_SIZE)
    for p in game.planes():
        sprites.paste_centred(img, sprites.height_badge(p.height, badge), *layout.badge_at(p.cell))
        if p.ace:
            sprites.paste_centred(img, sprites.ace_star(star), *layout.star_at(p.cell))
