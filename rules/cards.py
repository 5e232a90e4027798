"""The achievement cards: the catalogue of the project's eight (rules spec §8).

The 2026 edition names eight achievement cards without printing them. Each has a key
(as written in settings and game files), a name, the points it is worth in a series, and
its rule. :mod:`rules.achievements` decides when a card is claimed during a game and who
keeps it over a series.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from i18n import N_


@dataclass(frozen=True)
class Card:
    key: str
    name: str
    points: int
    rule: str


CARDS: Final[dict[str, Card]] = {
    c.key: c
    for c in (
        Card("first-blood", N_("First Blood"), 1, N_("Make the first kill of the game.")),
        Card("double-kill", N_("Double Kill"), 2, N_("Shoot down two or more planes in one turn.")),
        Card(
            "out-of-the-blue",
            N_("Out of the Blue"),
            2,
            N_("Make a kill with a plane that began the turn inside a cloud."),
        ),
        Card(
            "power-diver",
            N_("Power Diver"),
            2,
            N_("Make a kill with a plane that has lost 4 or more height diving in that turn."),
        ),
        Card(
            "top-cover",
            N_("Top Cover"),
            1,
            N_("End a turn with three or more planes at height 5 or 6."),
        ),
        Card(
            "ace-of-aces",
            N_("Ace of Aces"),
            3,
            N_("One plane takes part in three kills in one game."),
        ),
        Card("untouchable", N_("Untouchable"), 3, N_("Win a game without losing a plane.")),
        Card("last-ditch", N_("Last Ditch"), 2, N_("Win a game with exactly two planes left.")),
    )
}
ALL_CARDS: Final = tuple(CARDS)
