"""A person's puzzle rating: Glicko-2 (as Lichess rates puzzles), from the ``glicko2``
package, each puzzle tried being one game against the puzzle's own fixed rating."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import glicko2

START: Final = 1500.0
START_DEVIATION: Final = 350.0
START_VOLATILITY: Final = 0.06
PUZZLE_DEVIATION: Final = 80.0  # a shipped puzzle's rating is known about this well


@dataclass(frozen=True)
class Glicko:
    rating: float = START
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY


def rate(player: Glicko, puzzle_rating: float, solved: bool) -> Glicko:
    """The player's rating after one try at a puzzle rated ``puzzle_rating``."""
    p = glicko2.Player(rating=player.rating, rd=player.deviation, vol=player.volatility)
    p.update_player([puzzle_rating], [PUZZLE_DEVIATION], [1 if solved else 0])
    return Glicko(float(p.rating), float(p.rd), float(p.vol))
