"""What happened: the typed events a step produces, in the order they happened.

The renderer draws paths and markers from them, the bot explains them in words and
the achievement cards are detected from them. Planes are named by their ``plane`` id,
which stays the same for the whole game.
"""

from __future__ import annotations

from typing import NamedTuple


class CloudPlaced(NamedTuple):
    seat: int
    cell: int


class Placed(NamedTuple):
    seat: int
    plane: int
    cell: int
    facing: int
    height: int


class Moved(NamedTuple):
    """A plane flew forward along ``path`` (every cell entered, in order)."""

    seat: int
    plane: int
    start: int
    path: tuple[int, ...]


class Turned(NamedTuple):
    seat: int
    plane: int
    cell: int
    facing: int  # the new facing


class HeightChanged(NamedTuple):
    """``cause`` is climb, dive, turbulence or immelmann."""

    seat: int
    plane: int
    cell: int
    height: int  # the new height
    cause: str


class DiveEnded(NamedTuple):
    seat: int
    plane: int
    cell: int


class ShotDown(NamedTuple):
    """``shooters`` are the hostile planes that had the victim in their line of fire."""

    seat: int
    plane: int
    cell: int
    by: int  # the active seat, who fired
    shooters: tuple[int, ...]
    automatic: bool


class BecameAce(NamedTuple):
    seat: int
    plane: int
    cell: int


class Crashed(NamedTuple):
    seat: int
    plane: int
    cell: int


class Eliminated(NamedTuple):
    """``cause`` is shot, crash, resign or timeout; ``last_cell`` is -1 for a reserve plane."""

    seat: int
    by: int | None
    cause: str
    last_cell: int


class TrophyTaken(NamedTuple):
    seat: int
    from_seat: int
    trophies: int  # the taker's new total


class TurnPassed(NamedTuple):
    """The player-turn ``turn`` of ``seat`` begins."""

    seat: int
    turn: int
    actions: int  # actions this player-turn requires at most (ALL_ACTIONS: all)


class CardClaimed(NamedTuple):
    seat: int
    card: str


class DrawAgreed(NamedTuple):
    pass


class GameOver(NamedTuple):
    winners: tuple[int, ...]  # empty for a draw
    reason: str


Event = (
    CloudPlaced
    | Placed
    | Moved
    | Turned
    | HeightChanged
    | DiveEnded
    | ShotDown
    | BecameAce
    | Crashed
    | Eliminated
    | TrophyTaken
    | TurnPassed
    | CardClaimed
    | DrawAgreed
    | GameOver
)
