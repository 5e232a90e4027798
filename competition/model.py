"""The records every tournament format shares: who entered, who sat at which table, and
what each seat scored.

A *table* is the general case: a duel is a table of two, a bye is a table of one, and a
free-for-all or team game is a table of three to six. Seat order is playing order, so
``seats[0]`` moves first (the Crosshairs equivalent of chess's white)::

    >>> r = PairingResult.duel("ann", "bob", first_points=0.5)
    >>> r.points_of("bob"), r.opponents_of("ann")
    (0.5, ('bob',))
    >>> PairingResult.bye("cat").is_bye
    True

Points are what the result is worth in the standings: 1 for a win, 0.5 for a draw and 0
for a loss in a duel; tables score by placement (see :func:`placement_points`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Entrant:
    """A registered player: ``seed`` 1 is the strongest, and breaks every remaining tie."""

    id: str
    rating: float
    seed: int


@dataclass(frozen=True)
class Pairing:
    """Who sits at one table of a round, in playing order; a single seat is a bye."""

    seats: tuple[str, ...]

    @property
    def is_bye(self) -> bool:
        return len(self.seats) == 1


@dataclass(frozen=True)
class PairingResult:
    """What one table of a round scored.

    ``forfeit`` marks a result decided without a game (a no-show or an expired clock): it
    counts in the score but, by the standings convention, not as a game played.
    """

    seats: tuple[str, ...]
    points: tuple[float, ...]
    forfeit: bool = False

    def __post_init__(self) -> None:
        if len(self.seats) != len(self.points):
            raise ValueError("a result needs exactly one score per seat")
        if len(set(self.seats)) != len(self.seats):
            raise ValueError("a player can take only one seat at a table")

    @classmethod
    def duel(
        cls, first: str, second: str, first_points: float, *, forfeit: bool = False
    ) -> PairingResult:
        """A two-player result; the second player scores what the first did not."""
        return cls((first, second), (first_points, 1.0 - first_points), forfeit)

    @classmethod
    def bye(cls, player: str, points: float = 1.0) -> PairingResult:
        return cls((player,), (points,))

    @property
    def is_bye(self) -> bool:
        return len(self.seats) == 1

    @property
    def played(self) -> bool:
        """Whether a game took place, which is what tie-breaks and rematch checks count."""
        return not self.is_bye and not self.forfeit

    def points_of(self, player: str) -> float:
        return self.points[self.seats.index(player)]

    def opponents_of(self, player: str) -> tuple[str, ...]:
        return tuple(s for s in self.seats if s != player)


@dataclass(frozen=True)
class Round:
    """A round's results in table order; a tournament's history is a sequence of these."""

    number: int
    results: tuple[PairingResult, ...]


def scores(results: Iterable[PairingResult]) -> dict[str, float]:
    """Each player's total points, byes and forfeits included."""
    total: dict[str, float] = {}
    for result in results:
        for seat, points in zip(result.seats, result.points, strict=True):
            total[seat] = total.get(seat, 0.0) + points
    return total


def placement_points(places: Sequence[int]) -> tuple[float, ...]:
    """Points for a free-for-all table from each seat's finishing place (1 = winner).

    The winner scores 1 and last place 0, with the places between spread evenly, so a table
    is worth the same to its winner as a won duel. Tied places share the points of the
    places they cover::

        >>> placement_points([1, 2, 3])
        (1.0, 0.5, 0.0)
        >>> placement_points([2, 1, 2])   # two players tied for second of three
        (0.25, 1.0, 0.25)
    """
    size = len(places)
    if size < 2:
        raise ValueError("placement points need a table of at least two")
    ladder = [(size - 1 - i) / (size - 1) for i in range(size)]
    shared: list[float] = []
    for place in places:
        tied = places.count(place)
        covered = ladder[place - 1 : place - 1 + tied]
        shared.append(sum(covered) / tied)
    return tuple(shared)
