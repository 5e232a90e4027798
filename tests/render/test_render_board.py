"""The board picture: colours where they belong, the same bytes every time, and names
big enough to read at Discord's preview width."""

from __future__ import annotations

import io
import math

from PIL import Image, ImageDraw
from render_support import near, pixel

from render import static
from render.board import board_png, render_board
from render.geometry import PLANE_SIZE, WRECK_SIZE, Layout
from render.palette import ALERT, DARK, LIGHT, SHAPES, seat_colours, theme
from render.panel import _face, status
from render.samples import careful_game
from render.sprites import shape_points
from rules import board, position, serialize
from rules.modes import MODES
from rules.notation import play_tokens
from rules.words.common import turn_line

DUEL = "duel/2026 t9 - | c3 c4 f6 g6 | >d4NE3 e5E0 +0 | k7SW3 h8W2 +1"


def wing_point(layout: Layout, cell: int, facing: int) -> tuple[float, float]:
    """A point on a plane's wing, clear of its insignia, its fuselage and the height
    badge in the lower right of the cell."""
    x, y = layout.plane_at(cell)
    half = round(layout.r * PLANE_SIZE) * 0.46
    badge = layout.badge_at(cell)
    tips = []
    for side in (90, -90):
        a = math.radians(facing * 60 + side)
        tips.append((x + math.cos(a) * half * 0.7, y - math.sin(a) * half * 0.7))
    return max(tips, key=lambda p: math.dist(p, badge))


def test_cell_centres_show_sky_clouds_and_planes() -> None:
    game = position.parse(DUEL)
    img = render_board(game, size=800)
    layout = Layout.for_size(800, 2)
    p1, p2 = seat_colours(game.mode)
    for name in ("c3", "c4", "f6", "g6"):
        assert near(pixel(img, *layout.centre(board.cell(name))), DARK.cloud, 20), name
    assert pixel(img, *layout.centre(board.cell("f9"))) == DARK.sky
    assert near(pixel(img, *wing_point(layout, board.cell("d4"), board.NE)), p1)
    assert near(pixel(img, *wing_point(layout, board.cell("e5"), board.E)), p1)
    assert near(pixel(img, *wing_point(layout, board.cell("k7"), board.SW)), p2)
    assert near(pixel(img, *wing_point(layout, board.cell("h8"), board.W)), p2)


def test_light_theme_uses_its_own_sky() -> None:
    img = render_board(position.parse(DUEL), size=600, theme="light")
    layout = Layout.for_size(600, 2)
    assert pixel(img, *layout.centre(board.cell("f9"))) == LIGHT.sky
    assert theme("light") is LIGHT


def test_same_state_same_bytes() -> None:
    game = position.parse(DUEL)
    first = board_png(game, size=700, lines=True)
    assert board_png(game, size=700, lines=True) == first
    assert board_png(position.parse(DUEL), size=700, lines=True) == first


def test_a_shot_leaves_a_burst_and_a_move_leaves_its_path() -> None:
    game = position.parse(
        "duel/2026 t9 - | - | >d4E1 f6SE1 a3NE0 +2 | d6E1 k7W1 h8W2 +2", fire="manual"
    )
    play_tokens(game, ["*d6", "a3F"])  # shoot, then fly a3 two cells north-east
    layout = Layout.for_size(800, 2)
    img = render_board(game, size=800)
    x, y = layout.plane_at(board.cell("d6"))
    assert near(pixel(img, x + layout.r * WRECK_SIZE * 0.15, y), ALERT, 30)
    a = layout.plane_at(board.cell("a3"))
    b = layout.plane_at(board.cell("b4"))
    assert near(pixel(img, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2), seat_colours(game.mode)[0])


def test_highlighted_cells_and_plane_are_outlined() -> None:
    game = position.parse(DUEL)
    layout = Layout.for_size(800, 2)
    plain = render_board(game, size=800)
    lit = render_board(
        game, size=800, highlight_cells=[board.cell("f9")], highlight_plane=game.planes()[0].id
    )
    for cell in (board.cell("f9"), game.planes()[0].cell):
        # Walk in from the middle of the bottom-right side until the outline is met.
        points = []
        for k in range(80, 95):
            (ax, ay), (bx, by) = layout.hex_points(cell, k / 100)[4:6]
            points.append(((ax + bx) / 2, (ay + by) / 2))
        assert any(pixel(lit, *p) == DARK.highlight for p in points)
        assert not any(pixel(plain, *p) == DARK.highlight for p in points)


def test_lines_of_fire_and_caught_planes_on_request() -> None:
    game = position.parse(DUEL)
    layout = Layout.for_size(800, 2)
    plain = render_board(game, size=800)
    lines = render_board(game, size=800, lines=True)
    # e5 faces east over open sky: its line of fire crosses e7.
    x, y = layout.centre(board.cell("e7"))
    row = [pixel(lines, x + dx, y) for dx in range(-20, 21)]
    assert any(near(c, seat_colours(game.mode)[0]) for c in row)
    assert all(pixel(plain, x + dx, y) == DARK.sky for dx in range(-20, 21))


def test_every_mode_seat_has_its_own_colour_and_shape() -> None:
    for mode in MODES.values():
        colours = seat_colours(mode)
        assert len(set(colours)) == mode.seats
    assert len(set(SHAPES)) == 6
    masks = []
    for shape in SHAPES:
        mask = Image.new("1", (40, 40))
        ImageDraw.Draw(mask).polygon(shape_points(shape, 20, 20, 12), fill=1)
        masks.append(mask.tobytes())
    assert len(set(masks)) == 6


def test_board_png_is_small_and_a_real_png() -> None:
    game = position.parse(DUEL)
    data = board_png(game, lines=True)
    assert len(data) < 150_000
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    assert img.size == (1024, Layout.for_size(1024, 2).height)


def test_board_png_takes_the_game_as_json_for_a_worker_process() -> None:
    game = position.parse(DUEL)
    assert board_png(serialize.dumps(game), size=500) == board_png(game, size=500)


def test_the_png_holds_exactly_the_board_on_the_match_palette() -> None:
    """The banded writer's file decodes to the board mapped onto the match's palette,
    whether its bands were compressed now or reused from an earlier board."""
    game = careful_game("ffa6", 2, 40)
    palette = static.palette(1024, "ffa6", "dark", frozenset(game.clouds))
    expected = render_board(game).quantize(palette=palette, dither=Image.Dither.NONE)
    for _ in range(2):
        decoded = Image.open(io.BytesIO(board_png(game)))
        assert decoded.mode == "P"
        assert decoded.convert("RGB").tobytes() == expected.convert("RGB").tobytes()
    game.play(game.legal_steps()[0])
    moved = Image.open(io.BytesIO(board_png(game)))
    assert moved.convert("RGB").tobytes() != expected.convert("RGB").tobytes()


def test_the_title_and_card_say_what_is_left_as_the_turn_line_does() -> None:
    # Both planes fly, one is still to come on: the cockpit asks for a placement, so
    # the picture may not say the turn is done.
    game = position.parse("duel/2026 t9 - | - | >e6E5 a6NW0 +1 | k7SW0 k10E0 +0")
    assert status(game, None) == "P1 to move · 2 still to fly and 1 to place"
    play_tokens(game, ["a6C", "e6C"])
    said = turn_line(game, ["a", "b"])
    assert said == "Turn 9: a (P1) to fly, every plane flies: 1 to place."
    assert status(game, None) == "P1 to move · 1 to place"
    assert _face(game, 0, (0, 0, 0), None, won=False).line == "1 to place"
    play_tokens(game, ["+a1NE"])  # the last placement ends P1's turn
    assert game.active == 1 and status(game, None) == "P2 to move · 2 still to fly"


def test_labels_are_drawn_at_every_width() -> None:
    # The pill's corners are sized from its rounded box: at some widths a radius of a
    # fixed share of the hex made Pillow refuse to draw it (the cockpit's 768 px did).
    game = position.parse("duel/2026 t9 - | - | >e6E4 a6NW0 +1 | k7SW0 k10E0 +0")
    labels = {board.cell("e6"): "A", board.cell("e7"): "AB", board.cell("f7"): "M"}
    for size in range(200, 1100, 41):
        plain = render_board(game, size=size)
        marked = render_board(game, size=size, highlight_labels=labels)
        assert plain.tobytes() != marked.tobytes(), size
