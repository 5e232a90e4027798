"""The pieces of Crosshairs and the small records a game keeps about them.

A :class:`Plane` stands on one hex cell of the board, noses towards one of the six
directions (``board.DIRECTIONS``: E, NE, NW, W, SW, SE) and flies at a height from 0 to 6.
Height never decides who can shoot whom; it decides what a plane can do next: a climb
gains one, a swoop loses one, a power dive two, an ace's Immelmann three, and a plane
that can do nothing else crashes. Planes never share a cell::

    >>> from rules import board
    >>> p = Plane(id=0, seat=0, cell=board.cell("e6"), facing=0, height=3)
    >>> board.name(p.cell), board.DIRECTIONS[p.facing], p.height
    ('e6', 'E', 3)

Off the board each seat keeps a :class:`SeatState`: planes still in reserve (placed on
its home side, one per action), handicap tokens, the classic ruleset's altitude rings,
free-for-all trophies, and whether the seat is out. A finished game has a
:class:`Result`; every step played leaves a :class:`Played` entry in the record.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from rules.events import Event
from rules.modes import CLASSIC_RINGS

CLOUD_COUNT: Final = 16

SETUP: Final = "setup"  # clouds are being placed
PLAY: Final = "play"
OVER: Final = "over"


class Plane(NamedTuple):
    id: int
    seat: int
    cell: int
    facing: int
    height: int
    ace: bool = False


class SeatState(NamedTuple):
    """A seat's pieces off the board. ``rings`` only matters in the classic ruleset."""

    reserve: int
    handicap: int = 0
    rings: int = CLASSIC_RINGS
    trophies: int = 0
    out: bool = False


class Result(NamedTuple):
    winners: tuple[int, ...]  # empty: drawn
    reason: str

    @property
    def drawn(self) -> bool:
        return not self.winners


class Played(NamedTuple):
    """One entry of the game record: the token played, by whom, in which player-turn."""

    token: str
    seat: int
    turn: int
    events: tuple[Event, ...]
