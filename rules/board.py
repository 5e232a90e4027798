"""The Crosshairs board: a hexagon of 91 hexes, six cells a side.

Cells are pointy-topped and stand in eleven rows, ``a`` (bottom) to ``k`` (top).
Like an Abalone board, numbers run along the diagonals: row index ``i`` (``a`` = 0)
holds the numbers ``max(1, i - 4)`` to ``min(11, i + 6)``, so row ``a`` is
``a1``..``a6``, the middle row ``f`` is ``f1``..``f11`` and row ``k`` is ``k6``..``k11``.

Internally a cell is an ``int`` from 0 to 90 (row by row from ``a1``), and a facing
is an ``int`` from 0 to 5 counting counter-clockwise from east::

    >>> name(0), name(90), cell("F6")
    ('a1', 'k11', 45)
    >>> name(step(cell("f6"), NE))
    'g7'

A left turn adds one to the facing, a right turn takes one away (mod 6).
"""

from __future__ import annotations

from typing import Final

ROWS: Final = "abcdefghijk"

E, NE, NW, W, SW, SE = range(6)
DIRECTIONS: Final = ("E", "NE", "NW", "W", "SW", "SE")
DIRECTION_BY_NAME: Final = {d: i for i, d in enumerate(DIRECTIONS)}

# (row, number) offsets of the six neighbours, indexed by facing.
_OFFSETS: Final = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))


def _numbers(row: int) -> range:
    return range(max(1, row - 4), min(11, row + 6) + 1)


COORDS: Final[tuple[tuple[int, int], ...]] = tuple((r, n) for r in range(11) for n in _numbers(r))
CELL_COUNT: Final = len(COORDS)
CELLS: Final = range(CELL_COUNT)
NAMES: Final[tuple[str, ...]] = tuple(f"{ROWS[r]}{n}" for r, n in COORDS)
_INDEX: Final = {rc: i for i, rc in enumerate(COORDS)}
_BY_NAME: Final = {s: i for i, s in enumerate(NAMES)}

NO_CELL: Final = -1

# NEIGHBOUR[cell * 6 + facing] is the next cell that way, or NO_CELL off the board.
NEIGHBOUR: Final[tuple[int, ...]] = tuple(
    _INDEX.get((r + dr, n + dn), NO_CELL) for r, n in COORDS for dr, dn in _OFFSETS
)


def _ray(c: int, facing: int) -> tuple[int, ...]:
    out = []
    c = NEIGHBOUR[c * 6 + facing]
    while c != NO_CELL:
        out.append(c)
        c = NEIGHBOUR[c * 6 + facing]
    return tuple(out)


# RAY[cell * 6 + facing]: every cell straight ahead, nearest first, to the board edge.
RAY: Final[tuple[tuple[int, ...], ...]] = tuple(_ray(c, f) for c in CELLS for f in range(6))


def name(c: int) -> str:
    """The canonical name of a cell, e.g. ``'d4'``."""
    return NAMES[c]


def cell(text: str) -> int:
    """The cell named ``text`` (case-insensitive); ``ValueError`` if there is none."""
    # ASCII only: lower() folds the Kelvin sign "K" to "k", yet no cell is named with it.
    c = _BY_NAME.get(text.strip().lower()) if text.isascii() else None
    if c is None:
        raise ValueError(f"{text!r} is not a cell of the board (a1..k11)")
    return c


def is_cell_name(text: str) -> bool:
    return text.isascii() and text.lower() in _BY_NAME


def direction(text: str) -> int:
    """The facing named ``text`` (``E``, ``NE``, ``NW``, ``W``, ``SW``, ``SE``)."""
    d = DIRECTION_BY_NAME.get(text.upper())
    if d is None:
        raise ValueError(f"{text!r} is not a direction (E, NE, NW, W, SW, SE)")
    return d


def step(c: int, facing: int) -> int:
    """The neighbour of ``c`` in direction ``facing``, or ``NO_CELL``."""
    return NEIGHBOUR[c * 6 + facing]


def turn(facing: int, by: int) -> int:
    """``facing`` turned ``by`` sixths counter-clockwise (+1 left, -1 right)."""
    return (facing + by) % 6


def coords(c: int) -> tuple[int, int]:
    """(row index, diagonal number) of a cell, as in its name."""
    return COORDS[c]


def from_coords(row: int, number: int) -> int:
    """The cell at (row index, number), or ``NO_CELL``."""
    return _INDEX.get((row, number), NO_CELL)


# Cube coordinates make rotations and distances simple: x + y + z = 0, centre f6 = 0.
def _cube(c: int) -> tuple[int, int, int]:
    r, n = COORDS[c]
    x = n - 6
    z = -(r - 5)
    return x, -x - z, z


def _from_cube(x: int, y: int, z: int) -> int:
    return from_coords(5 - z, x + 6)


def rotate(c: int, sixths: int) -> int:
    """``c`` rotated about the centre cell f6 by ``sixths`` × 60° counter-clockwise."""
    x, y, z = _cube(c)
    for _ in range(sixths % 6):
        x, y, z = -y, -z, -x
    return _from_cube(x, y, z)


def distance(a: int, b: int) -> int:
    ax, ay, az = _cube(a)
    bx, by, bz = _cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


# The six home sides, clockwise from the bottom. A corner cell belongs to two sides.
SIDES: Final = ("S", "SW", "NW", "N", "NE", "SE")
HOME: Final[dict[str, tuple[int, ...]]] = {
    "S": tuple(from_coords(0, n) for n in range(1, 7)),
    "SW": tuple(from_coords(r, 1) for r in range(6)),
    "NW": tuple(from_coords(r, r - 4) for r in range(5, 11)),
    "N": tuple(from_coords(10, n) for n in range(6, 12)),
    "NE": tuple(from_coords(r, 11) for r in range(5, 11)),
    "SE": tuple(from_coords(r, r + 6) for r in range(6)),
}
