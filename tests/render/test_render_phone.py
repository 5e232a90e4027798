"""The board read on a phone: Discord shows it about 400 px wide.

Minimum sizes at 400 px of display width (docs/render.md): the digits of a cell name
stand at least 7 px tall, the digit of a plane's height and the letter of a cockpit's
label at least 8 px. Nothing drawn for a plane (the plane, its height badge, its ace
star, a wreck, a dive mark) nor a cell's label reaches any cell's name, nothing drawn
after the badges reaches a badge, and clouds never reach the name of a cell that is not
a cloud.
"""

from __future__ import annotations

import itertools
import math

import pytest
from PIL import Image
from render_support import near, pixel

from render import sprites, static
from render.board import label_box, pill_box, render_board
from render.geometry import (
    BADGE_SIZE,
    NAME_FONT,
    PLANE_SIZE,
    STAR_SIZE,
    WRECK_SIZE,
    Layout,
)
from render.palette import ALERT, CRASH_GREY, DARK, LIGHT, SHAPES, Theme
from render.typeface import font
from rules import board, position

PHONE = 400
MIN_NAME_PX = 7
MIN_HEIGHT_PX = 8
MIN_LABEL_PX = 8

Box = tuple[float, float, float, float]
# Planes at height 1 on open sky, far from clouds: f8 stays empty.
GAME = (
    "ffa6/2026 t9 - | - | >a1E1 a2E1 +2 | b1E1 c1E1 +2 | "
    "h3E1 i4E1 +2 | k8E1 k9E1 +2 | i11W1 h11W1 +2 | c8W1 d9W1 +2"
)


def shown_at_phone_width(img: Image.Image) -> Image.Image:
    """What a phone shows: the picture scaled to 400 px wide, as Discord does."""
    height = round(img.height * PHONE / img.width)
    return img.convert("L").resize((PHONE, height), Image.Resampling.LANCZOS)


def ink_height(img: Image.Image, box: Box, background: float, contrast: float) -> int:
    """Rows of ``box`` holding at least one pixel ``contrast`` away from ``background``."""
    crop = img.crop(tuple(round(v) for v in box))  # type: ignore[arg-type]
    rows = [
        y
        for y in range(crop.height)
        if any(abs(crop.getpixel((x, y)) - background) > contrast for x in range(crop.width))  # type: ignore[operator]
    ]
    return max(rows) - min(rows) + 1 if rows else 0


def luminance(colour: tuple[int, int, int]) -> float:
    return 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]


@pytest.mark.parametrize("size", [1024, 768, 400])
@pytest.mark.parametrize("th", [DARK, LIGHT], ids=["dark", "light"])
def test_names_and_heights_are_big_enough_on_a_phone(size: int, th: Theme) -> None:
    game = position.parse(GAME)
    shown = shown_at_phone_width(render_board(game, size=size, theme=th.name))
    layout = static.layout_for(PHONE, "ffa6")
    r = layout.r
    sky = luminance(th.sky)
    half_contrast = abs(luminance(th.label) - sky) / 2
    for name in ("f8", "f10", "e4"):
        x, y = layout.name_at(board.cell(name))
        box = (x - r * 0.5, y - r * 0.3, x + r * 0.5, y + r * 0.3)
        assert ink_height(shown, box, sky, half_contrast) >= MIN_NAME_PX, name
    for name in ("a1", "h3", "c8"):
        x, y = layout.badge_at(board.cell(name))
        # A narrow column through the digit, inside the badge's white disc.
        box = (x - r * 0.1, y - r * 0.28, x + r * 0.1, y + r * 0.28)
        assert ink_height(shown, box, 255, 128) >= MIN_HEIGHT_PX, name


@pytest.mark.parametrize("size", [1024, 768, 400])
@pytest.mark.parametrize("th", [DARK, LIGHT], ids=["dark", "light"])
def test_a_cells_label_is_big_enough_on_a_phone(size: int, th: Theme) -> None:
    game = position.parse(GAME)
    # f8 is empty, a1 holds a plane: the label goes beside it, clear of its badge
    cells = {board.cell("f8"): "I", board.cell("a1"): "I"}
    drawn = render_board(game, size=size, theme=th.name, highlight_labels=cells)
    assert drawn.tobytes() != render_board(game, size=size, theme=th.name).tobytes()
    shown = shown_at_phone_width(drawn)
    layout = static.layout_for(PHONE, "ffa6")
    r = layout.r
    for cell in cells:
        x0, y0, x1, y1 = label_box(layout, cell, "I", game.plane_at(cell) is not None)
        x, y = (x0 + x1) / 2, (y0 + y1) / 2
        # A narrow column through the letter, inside the pill's outline.
        box = (x - r * 0.08, y - r * 0.23, x + r * 0.08, y + r * 0.23)
        paper = luminance(th.highlight)
        assert ink_height(shown, box, paper, 100) >= MIN_LABEL_PX, board.name(cell)


class Mark:
    """A sprite pasted centred at (x, y), as the board pastes it, or a plain rectangle."""

    def __init__(self, kind: str, box: Box, alpha: Image.Image | None = None) -> None:
        self.kind = kind
        self.box = box
        self.alpha = alpha

    @classmethod
    def sprite(cls, kind: str, sprite: Image.Image, x: float, y: float) -> Mark:
        left, top = round(x - sprite.width / 2), round(y - sprite.height / 2)
        alpha = sprite.getchannel("A")
        return cls(kind, (left, top, left + sprite.width, top + sprite.height), alpha)

    def covers(self, box: Box) -> bool:
        """Whether a visible pixel of the mark falls inside ``box``."""
        x0, y0 = max(self.box[0], box[0]), max(self.box[1], box[1])
        x1, y1 = min(self.box[2], box[2]), min(self.box[3], box[3])
        if x0 >= x1 or y0 >= y1:
            return False
        if self.alpha is None:
            return True
        left, top = self.box[0], self.box[1]
        inside = (
            math.floor(x0 - left),
            math.floor(y0 - top),
            math.ceil(x1 - left),
            math.ceil(y1 - top),
        )
        return (self.alpha.crop(inside).getextrema()[1] or 0) > 24  # type: ignore[operator]


def text_box(layout: Layout, cell: int) -> Box:
    x, y = layout.name_at(cell)
    x0, y0, x1, y1 = font(round(layout.r * NAME_FONT)).getbbox(board.name(cell), anchor="mm")
    return x + x0, y + y0, x + x1, y + y1


@pytest.mark.parametrize("size", [400, 512, 1024])
def test_nothing_covers_a_name_or_a_height(size: int) -> None:
    layout = Layout.for_size(size, 2)
    r = layout.r
    names = [text_box(layout, c) for c in board.CELLS]
    badges: list[Mark] = []
    over_badges: list[Mark] = []
    over_names: list[Mark] = []
    labels: list[Mark] = []  # only in empty cells: no badge of their own
    for c in board.CELLS:
        badge = Mark.sprite(
            "badge", sprites.height_badge(5, round(r * BADGE_SIZE)), *layout.badge_at(c)
        )
        star = Mark.sprite("star", sprites.ace_star(round(r * STAR_SIZE)), *layout.star_at(c))
        pill = Mark("pill", pill_box(layout, c, "▼3"))
        # the widest labels, in an empty cell and beside a plane; two letters beside a
        # plane reach under its badge (drawn over them), one letter stays clear of it
        label = Mark("label", label_box(layout, c, "WW"))
        beside = Mark("label beside a plane", label_box(layout, c, "M", beside_plane=True))
        wide = Mark("two letters beside a plane", label_box(layout, c, "WW", beside_plane=True))
        badges.append(badge)
        over_badges += [star, pill, beside]
        labels.append(label)
        over_names += [badge, star, pill, label, beside, wide]
        for colour in (ALERT, CRASH_GREY):
            wreck = sprites.burst(colour, round(r * WRECK_SIZE))
            over_names.append(Mark.sprite("wreck", wreck, *layout.plane_at(c)))
        for facing in range(6):
            plane = sprites.plane((230, 159, 0), SHAPES[0], facing, round(r * PLANE_SIZE))
            over_names.append(Mark.sprite(f"plane facing {facing}", plane, *layout.plane_at(c)))
    for mark, name in itertools.product(over_names, names):
        assert not mark.covers(name), (mark.kind, mark.box, name)
    for mark, badge in itertools.product(over_badges, badges):
        assert not mark.covers(badge.box), (mark.kind, mark.box, badge.box)
    for (i, label), (j, badge) in itertools.product(enumerate(labels), enumerate(badges)):
        assert i == j or not label.covers(badge.box), (label.box, badge.box)


def test_clouds_leave_other_cells_names_alone() -> None:
    clouds = frozenset(board.cell(n) for n in ("e4", "e5", "f5", "d7", "g8", "h4"))
    for th in (DARK, LIGHT):
        clear = static.layer(1024, "duel", th.name, frozenset())
        cloudy = static.layer(1024, "duel", th.name, clouds)
        layout = static.layout_for(1024, "duel")
        for c in board.CELLS:
            box = text_box(layout, c)
            if c in clouds:
                # The name is printed over its own cloud, in the cloud's ink.
                assert th.cloud_label in set(cloudy.crop(box).get_flattened_data()), board.name(c)
            else:
                assert clear.crop(box).tobytes() == cloudy.crop(box).tobytes(), board.name(c)


def test_the_key_names_the_teams_only_in_team_modes() -> None:
    duel, team = static.layout_for(1024, "duel"), static.layout_for(1024, "3v3")
    assert (duel.key_rows, team.key_rows) == (1, 2)
    img = render_board(position.parse(GAME), size=1024)
    layout = static.layout_for(1024, "ffa6")
    row = img.crop((0, round(layout.key_top(0)), 300, round(layout.key_top(1))))
    colours = {pixel(row, x, y) for x in range(row.width) for y in range(row.height)}
    assert any(near(c, ALERT, 30) for c in colours)
    assert any(near(c, CRASH_GREY) for c in colours)


def test_a_line_of_fire_leaves_the_names_it_crosses_readable() -> None:
    # a3 faces north-east: its line of fire climbs through b4 and c5 to the plane on d6.
    game = position.parse("duel/2026 t9 - | - | >d4E1 f6SE1 a3NE0 +2 | d6E1 k7W1 h8W2 +2")
    layout = static.layout_for(1024, "duel")
    plain = render_board(game)
    lines = render_board(game, lines=True)
    for name in ("b4", "c5"):
        box = text_box(layout, board.cell(name))
        assert plain.crop(box).tobytes() != lines.crop(box).tobytes()  # the line is there

        def letters(img: Image.Image, box: Box = box) -> int:
            crop = img.crop(box)
            return sum(
                near(pixel(crop, x, y), DARK.label, 40)
                for x in range(crop.width)
                for y in range(crop.height)
            )

        assert letters(lines) >= letters(plain) * 0.97, name
