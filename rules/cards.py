"""The achievement cards: the catalogue of the project's eight (rules spec §8).

The 2026 edition names eight achievement cards without printing them. Each has a key
(as written in settings and game files), a name, the points it is worth in a series, and
its rule. :mod:`rules.achievements` decides when a card is claimed during a game and who
keeps it over a series.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Card:
    key: str
    name: str
    points: int
    rule: str


CARDS: Final[dict[str, Card]] = {
    c.key: c
    for c in (
        Card("first-blood", "First Blood", 1, "Make the first kill of the game."),
        Card("double-kill", "Double Kill", 2, "Shoot down two or more planes in one turn."),
        Card(
            "out-of-the-blue",
            "Out of the Blue",
            2,
            "Make a kill with a plane that began the turn inside a cloud.",
        ),
        Card(
            "power-diver",
            "Power Diver",
            2,
            "Make a kill with a plane that has lost 4 or more height diving in that turn.",
        ),
        Card("top-cover", "Top Cover", 1, "End a turn with three or more planes at height 5 or 6."),
        Card("ace-of-aces", "Ace of Aces", 3, "One plane takes part in three kills in one game."),
        Card("untouchable", "Untouchable", 3, "Win a game without losing a plane."),
        Card("last-ditch", "Last Ditch", 2, "Win a game with exactly two planes left."),
    )
}
ALL_CARDS: Final = tuple(CARDS)
