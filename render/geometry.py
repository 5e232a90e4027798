"""Where everything goes: the image is a title strip, the board, then the seat panel.

The panel sits under the board rather than beside it so that the board gets the whole
width of the image: Discord scales an image to the width of the chat (550 px on a
desktop, less on a phone), and cell names are what players read to type a move.

Cells are pointy-topped hexes of circumradius ``r``. A cell at (row, number) has its
centre ``(2·number − row)`` half-hex-widths across and ``1.5·r`` per row up, so the
middle row ``f`` spans the full width and rows ``a`` and ``k`` form the flat bottom and
top edges::

    >>> layout = Layout.for_size(1024, seats=2)
    >>> layout.centre(board.cell("f1"))[0] < layout.centre(board.cell("f11"))[0]
    True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from rules import board

SQRT3: Final = math.sqrt(3)

# Sizes in hex radii, so the whole picture scales with the image width. The picture is
# designed for 400 px of display width (Discord on a phone), where r is about 20 px.
SIDE_MARGIN: Final = 0.4
TITLE_HEIGHT: Final = 1.2
BOARD_MARGIN: Final = 0.5
KEY_ROW: Final = 0.85  # one row of the key under the board
CARD_HEIGHT: Final = 3.0  # a name, the planes, two rows of words
CARD_GAP: Final = 0.3

# Inside a cell, offsets from its centre in hex radii (y downwards). The name has the
# top of the hex to itself; everything a plane brings stays below it, and the height
# badge stays clear of the names of the cells underneath.
NAME_DY: Final = -0.53
NAME_FONT: Final = 0.52
PLANE_DY: Final = 0.32
PLANE_SIZE: Final = 1.0
BADGE_AT: Final = (0.53, 0.32)
BADGE_SIZE: Final = 0.78
STAR_AT: Final = (-0.56, -0.02)
STAR_SIZE: Final = 0.42
PILL_AT: Final = (-0.36, 0.47)
PILL_FONT: Final = 0.42
WRECK_SIZE: Final = 0.9
# A highlighted cell's short label (the cockpit menu repeats it): a pill where a plane
# would sit in an empty cell; beside a plane, on the left between the name above and the
# dive mark below, clear of the badge on the right.
LABEL_AT: Final = (0.0, 0.22)
LABEL_BESIDE: Final = (-0.47, 0.1)  # the centre of a one-letter pill
LABEL_FONT: Final = 0.6

Point = tuple[float, float]
Box = tuple[int, int, int, int]


def panel_columns(seats: int) -> int:
    return 2 if seats in (2, 4) else 3


MIN_WIDTH: Final = 200  # the narrowest board the layout is made for


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of one image ``width`` wide for a mode with ``seats`` seats."""

    width: int
    seats: int
    r: float  # hex circumradius in pixels
    board_top: float  # y of the top of the board area (below the title strip)
    board_bottom: float
    height: int

    key_rows: int = 1

    @classmethod
    def for_size(cls, width: int, seats: int, key_rows: int = 1) -> Layout:
        """``key_rows``: rows of the key under the board (team modes name their teams)."""
        if width < MIN_WIDTH:
            raise ValueError(f"boards are drawn at least {MIN_WIDTH} px wide")
        r = width / (11 * SQRT3 + 2 * SIDE_MARGIN)
        board_top = TITLE_HEIGHT * r
        board_bottom = board_top + (BOARD_MARGIN * 2 + 17) * r
        rows = -(-seats // panel_columns(seats))
        panel = key_rows * KEY_ROW * r + rows * CARD_HEIGHT * r + (rows + 1) * CARD_GAP * r
        height = math.ceil(board_bottom + panel)
        return cls(width, seats, r, board_top, board_bottom, height, key_rows)

    @property
    def hex_width(self) -> float:
        return SQRT3 * self.r

    def centre(self, cell: int) -> Point:
        """The pixel centre of ``cell``."""
        row, number = board.coords(cell)
        x = self.width / 2 + (2 * number - row - 7) * self.hex_width / 2
        y = self.board_top + (BOARD_MARGIN + 1 + (10 - row) * 1.5) * self.r
        return x, y

    def _at(self, cell: int, dx: float, dy: float) -> Point:
        x, y = self.centre(cell)
        return x + dx * self.r, y + dy * self.r

    def name_at(self, cell: int) -> Point:
        """Where a cell's name is printed (anchor "mm")."""
        return self._at(cell, 0, NAME_DY)

    def plane_at(self, cell: int) -> Point:
        return self._at(cell, 0, PLANE_DY)

    def badge_at(self, cell: int) -> Point:
        return self._at(cell, *BADGE_AT)

    def star_at(self, cell: int) -> Point:
        return self._at(cell, *STAR_AT)

    def pill_at(self, cell: int) -> Point:
        """Where the ``▼n`` of a dive that left ``cell`` goes."""
        return self._at(cell, *PILL_AT)

    def label_at(self, cell: int, beside_plane: bool = False) -> Point:
        """Where a highlighted cell's short label goes (anchor "mm")."""
        return self._at(cell, *(LABEL_BESIDE if beside_plane else LABEL_AT))

    def key_top(self, row: int) -> float:
        return self.board_bottom + row * KEY_ROW * self.r

    def hex_points(self, cell: int, scale: float = 1.0) -> list[Point]:
        """The six corners of ``cell``'s hex, shrunk by ``scale`` about its centre."""
        x, y = self.centre(cell)
        rr = self.r * scale
        return [
            (x + rr * math.cos(math.radians(a)), y - rr * math.sin(math.radians(a)))
            for a in range(30, 390, 60)
        ]

    def edge(self, cell: int, facing: int, scale: float = 1.0) -> tuple[Point, Point]:
        """The two corners of the side of ``cell`` that faces ``facing``."""
        x, y = self.centre(cell)
        rr = self.r * scale
        a, b = facing * 60 - 30, facing * 60 + 30
        return (
            (x + rr * math.cos(math.radians(a)), y - rr * math.sin(math.radians(a))),
            (x + rr * math.cos(math.radians(b)), y - rr * math.sin(math.radians(b))),
        )

    def card_box(self, seat: int) -> Box:
        """The panel card of ``seat``: seats fill the panel row by row in turn order."""
        cols = panel_columns(self.seats)
        gap = CARD_GAP * self.r
        w = (self.width - gap * (cols + 1)) / cols
        h = CARD_HEIGHT * self.r
        row, col = divmod(seat, cols)
        x0 = gap + col * (w + gap)
        y0 = self.key_top(self.key_rows) + gap + row * (h + gap)
        return round(x0), round(y0), round(x0 + w), round(y0 + h)
