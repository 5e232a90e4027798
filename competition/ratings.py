"""Player ratings: openskill's Plackett-Luce model, one rating per player and mode family.

A rating is a belief about skill: ``mu`` is the best guess, ``sigma`` how unsure it is.
Players see ``display``, the best guess in chess-like units (1500 for a newcomer), marked
provisional while sigma is high; it does not grow with games played, so playing more
(or agreeing draws) earns nothing by itself. docs/ratings.md explains every choice made
here; the numbers below are the ones it quotes.

Everything is pure: callers pass the current ratings in and store what comes out.

Ties are never passed to openskill as equal ranks, because its Plackett-Luce update can
then rate a player placed *below* a tie above the tied players (openskill.py issues #155
and #201). A tie is rated as the mean of every order the tied sides could have finished
in; see :func:`rate_game`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from openskill.models import PlackettLuce

from i18n import N_
from rules import modes

P = TypeVar("P", bound=Hashable)  # a player id: whatever the caller uses (Discord ids)

FAMILIES: Final = tuple(modes.FAMILIES)
FAMILY_TITLES: Final = {  # English, marked for translation (i18n)
    "duel": N_("Duels"),
    "ffa": N_("Free-for-all"),
    "cod": N_("Circle of Death"),
    "team": N_("Team games"),
}
MODE_FAMILY: Final[dict[str, str]] = {key: m.family.key for key, m in modes.MODES.items()}

# openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): the values its
# benchmarks are tuned for, and a scale other openskill users will recognise.
MODEL: Final = PlackettLuce()

# The shown rating: 1500 at the newcomer's mu, 25 points per unit of mu; between settled
# players a 100-point gap predicts about 73% wins for the higher (docs/ratings.md).
DISPLAY_BASE: Final = 1500
DISPLAY_SCALE: Final = 25.0
PROVISIONAL_SIGMA: Final = 6.0  # about 14 duels; more games in bigger free-for-alls
HANDICAP_STEP: Final = MODEL.beta  # mu difference worth one handicap token (104 display points)
MAX_HANDICAP: Final = 6  # the rules allow 0..6 height tokens per seat


def family_of(mode: str) -> str:
    """The rating family of a mode key: ``"ffa4"`` → ``"ffa"``, ``"2v2"`` → ``"team"``."""
    family = MODE_FAMILY.get(mode.lower())
    if family is None:
        raise ValueError(f"unknown mode {mode!r}; modes are: {', '.join(MODE_FAMILY)}")
    return family


@dataclass(frozen=True)
class Rating:
    """One player's skill in one mode family, after ``games`` rated games."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def display(self) -> int:
        """The number players see: the skill estimate in chess-like units."""
        return display_of(self.mu)

    @property
    def provisional(self) -> bool:
        """Whether too few games are known for the display to mean much yet."""
        return self.sigma > PROVISIONAL_SIGMA


def display_of(mu: float) -> int:
    """A skill estimate (mu) as players read it: 1500 for a newcomer's mu."""
    return DISPLAY_BASE + round(DISPLAY_SCALE * (mu - MODEL.mu))


def new_rating() -> Rating:
    """The rating of a player with no rated game in a family."""
    return Rating(MODEL.mu, MODEL.sigma)


def ranks_from_result(
    family: str, sides: int, winners: Collection[int], eliminated: Sequence[int] = ()
) -> list[int]:
    """Rank per side (0 best, equal ranks tie) from how a game ended.

    ``winners`` are side indices (empty: drawn); ``eliminated`` lists the sides knocked out,
    first out first. The top place goes to the winners or, in a draw, to every side still
    in the game. Then, in free-for-all, survivors who did not win share the next place and
    the eliminated follow, the later out the better. In every other family all the
    non-winners share second place: duels and team games have no order among losers, and
    in Circle of Death who goes out when depends mostly on who is hunting whom.
    """
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; families are: {', '.join(FAMILIES)}")
    top, out = set(winners), list(eliminated)
    if not top.isdisjoint(out) or len(set(out)) != len(out):
        raise ValueError("a side is both winner and eliminated, or eliminated twice")
    if any(not 0 <= s < sides for s in (*top, *out)):
        raise ValueError(f"side numbers must be 0..{sides - 1}")
    still_in = [s for s in range(sides) if s not in out]
    if not top:
        top = set(still_in)
    if family == "ffa":
        groups = [top, {s for s in still_in if s not in top}, *({s} for s in reversed(out))]
    else:
        groups = [top, set(range(sides)) - top]
    ranks = [0] * sides
    for rank, group in enumerate(g for g in groups if g):
        for side in group:
            ranks[side] = rank
    return ranks


def _check_shape(family: str, teams: Sequence[Sequence[P]], ranks: Sequence[int]) -> None:
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; families are: {', '.join(FAMILIES)}")
    if len(teams) < 2 or len(teams) != len(ranks):
        raise ValueError("need at least two sides and one rank per side")
    players = [p for team in teams for p in team]
    if len(set(players)) != len(players) or not all(teams):
        raise ValueError("every side needs players, and nobody can play on two sides")
    if family == "team" and len(teams) != 2:
        raise ValueError("team games have exactly two sides")
    if family != "team" and any(len(team) != 1 for team in teams):
        raise ValueError(f"every {family} side is one player")
    if family == "duel" and len(teams) != 2:
        raise ValueError("a duel has two players")


def _strict_orders(ranks: Sequence[int]) -> Iterable[list[int]]:
    """Every strict ranking that breaks the ties of ``ranks`` (one when there is none)."""
    groups = [[s for s, r in enumerate(ranks) if r == rank] for rank in sorted(set(ranks))]
    for shuffled in itertools.product(*(itertools.permutations(g) for g in groups)):
        strict = [0] * len(ranks)
        for place, side in enumerate(s for group in shuffled for s in group):
            strict[side] = place
        yield strict


def rate_game(
    family: str,
    teams: Sequence[Sequence[P]],
    ranks: Sequence[int],
    current: Mapping[P, Rating],
) -> dict[P, Rating]:
    """New ratings of everyone in one rated game.

    ``teams`` lists the players per side, ``ranks`` the place per side (0 best, equal
    numbers tie; :func:`ranks_from_result` makes them). ``current`` holds the players'
    ratings in ``family``; anyone missing is new. Without a tie this is exactly
    openskill's update. With one, openskill is asked once per order the tied sides could
    have finished in, and each player gets the mean mu and sigma: a tie says nothing about
    who was better, so every order is equally likely. For two sides this agrees with
    openskill's own handling of a draw; with more it keeps the tied players above anyone
    placed below them, which openskill's equal ranks do not.
    """
    _check_shape(family, teams, ranks)
    before = [[current.get(p) or new_rating() for p in team] for team in teams]
    model_teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in before]
    outcomes = [
        # openskill annotates ranks as list[float], and lists are invariant
        MODEL.rate(model_teams, ranks=[float(r) for r in strict])
        for strict in _strict_orders(ranks)
    ]

    def mean(values: Iterable[float]) -> float:
        # fsum is exact, so the same updates in another order give the very same mean:
        # tied equals stay equal, and listing the sides differently changes nothing
        return math.fsum(values) / len(outcomes)

    return {
        p: Rating(
            mean(o[t][i].mu for o in outcomes),
            mean(o[t][i].sigma for o in outcomes),
            before[t][i].games + 1,
        )
        for t, team in enumerate(teams)
        for i, p in enumerate(team)
    }


def rated(handicaps: Iterable[int], *, rate_handicapped: bool = False) -> bool:
    """Whether a game counts for ratings, given each seat's handicap tokens.

    A handicap changes what a result says about skill by an unknown amount, so games with
    any token are unrated unless the series organiser chose ``rate_handicapped``. Unrated
    games are still stored, with ``rated`` false, and leave every rating as it was.
    """
    return rate_handicapped or not any(handicaps)


def suggest_handicap(stronger: Rating, weaker: Rating) -> int:
    """Height tokens to give the weaker player: one per beta (25/6) of mu difference, 0..6.

    Beta is the model's spread of a single performance; a mu gap of one beta means the
    stronger player wins about seven duels in ten. Mu, as the display shows it: a
    newcomer's sigma is doubt about their skill, not weakness.
    """
    gap = max(0.0, stronger.mu - weaker.mu)
    return min(MAX_HANDICAP, math.floor(gap / HANDICAP_STEP))
