"""Game modes and the settings of one game (rules spec §2 and §7).

Every mode seats its players clockwise around the board, starting at the bottom. The
*opening schedule* says how many actions each of the first player-turns has; after it
every plane must act ("all"). Free-for-all and Circle of Death use the rule "the n-th
player-turn of the game has n actions", which reaches "all" by itself. Rulesets, fire
modes and variants are objects of their own in :mod:`rules.variants`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Final

from i18n import N_
from rules.cards import CARDS
from rules.errors import RulesError
from rules.variants import Rules, check_variants, combined_rules, find_fire_mode, find_ruleset

ALL_ACTIONS: Final = 1_000  # "every plane must act": more than any seat can have

CLASSIC_RINGS: Final = 20


@dataclass(frozen=True)
class Family:
    """What modes of one kind share: how a game is won, and whether seats form teams.
    ``key`` also names the family's rating pool (``duel``, ``ffa``, ``cod``, ``team``)."""

    key: str
    teams: bool  # seats play in teams (shown A, B …); the mode fixes the planes per seat
    trophies: bool  # every kill earns a trophy, and the most trophies win
    circle: bool  # shots need the victim's right neighbour; the first such elimination wins


DUEL: Final = Family("duel", teams=False, trophies=False, circle=False)
FREE_FOR_ALL: Final = Family("ffa", teams=False, trophies=True, circle=False)
CIRCLE_OF_DEATH: Final = Family("cod", teams=False, trophies=False, circle=True)
TEAMS: Final = Family("team", teams=True, trophies=False, circle=False)
FAMILIES: Final[dict[str, Family]] = {
    f.key: f for f in (DUEL, FREE_FOR_ALL, CIRCLE_OF_DEATH, TEAMS)
}


@dataclass(frozen=True)
class Mode:
    """A way to seat players: home sides, teams, planes and the opening schedule."""

    key: str
    family: Family
    title: str
    sides: tuple[str, ...]  # home side per seat, in turn order
    teams: tuple[int, ...]  # team per seat; hostile means a different team
    planes: tuple[int, ...]  # planes per seat
    schedule: tuple[int, ...] | None  # actions of the opening player-turns; None: n-th has n

    @property
    def seats(self) -> int:
        return len(self.sides)

    def seat_label(self, seat: int) -> str:
        """How players see a seat: P1, P2 … in duels and free-for-alls, A, B … in teams."""
        return chr(ord("A") + seat) if self.family.teams else f"P{seat + 1}"

    def ramp(self, player_turn: int) -> int:
        """Actions in the given player-turn of the game (1-based), or ALL_ACTIONS."""
        if self.schedule is None:
            return player_turn
        if player_turn <= len(self.schedule):
            return self.schedule[player_turn - 1]
        return ALL_ACTIONS

    @property
    def allows_plane_count(self) -> bool:
        """Whether the planes per seat may be changed (uniform modes only)."""
        return not self.family.teams


def _multi(key: str, family: Family, title: str, sides: tuple[str, ...], planes: int) -> Mode:
    n = len(sides)
    return Mode(key, family, title, sides, tuple(range(n)), (planes,) * n, None)


_FFA_SIDES: Final = {
    3: ("S", "NW", "NE"),
    4: ("S", "NW", "N", "SE"),
    5: ("S", "SW", "NW", "N", "SE"),
    6: ("S", "SW", "NW", "N", "NE", "SE"),
}

# Titles are English, marked for translation (i18n) and translated where shown.
_FFA_TITLES: Final = {
    3: N_("Free-for-all, 3 players"),
    4: N_("Free-for-all, 4 players"),
    5: N_("Free-for-all, 5 players"),
    6: N_("Free-for-all, 6 players"),
}
_COD_TITLES: Final = {
    3: N_("Circle of Death, 3 players"),
    4: N_("Circle of Death, 4 players"),
    5: N_("Circle of Death, 5 players"),
    6: N_("Circle of Death, 6 players"),
}

MODES: Final[dict[str, Mode]] = {
    m.key: m
    for m in (
        Mode("duel", DUEL, N_("Duel"), ("S", "N"), (0, 1), (5, 5), (1, 2, 3, 4)),
        *(
            _multi(f"ffa{n}", FREE_FOR_ALL, _FFA_TITLES[n], s, 5 if n < 5 else 4)
            for n, s in _FFA_SIDES.items()
        ),
        *(_multi(f"cod{n}", CIRCLE_OF_DEATH, _COD_TITLES[n], s, 4) for n, s in _FFA_SIDES.items()),
        Mode(
            "1v2", TEAMS, N_("1 vs 2"), ("S", "NW", "N"), (0, 1, 1), (5, 3, 3), (1, 1, 1, 3, 2, 2)
        ),
        Mode(
            "1v3",
            TEAMS,
            N_("1 vs 3"),
            ("S", "NW", "N", "NE"),
            (0, 1, 1, 1),
            (5, 2, 2, 2),
            (2, 1, 1, 1, 4),
        ),
        Mode(
            "2v2",
            TEAMS,
            N_("2 vs 2"),
            ("S", "SW", "N", "NE"),
            (0, 0, 1, 1),
            (5,) * 4,
            (1, 1, 2, 2, 3, 3, 4, 4),
        ),
        Mode(
            "3v3",
            TEAMS,
            N_("3 vs 3"),
            ("SE", "S", "SW", "NW", "N", "NE"),
            (0, 0, 0, 1, 1, 1),
            (4,) * 6,
            (1, 1, 1, 2, 2, 2, 3, 3, 3),
        ),
    )
}


def mode(key: str) -> Mode:
    found = MODES.get(key.lower())
    if found is None:
        raise RulesError(f"unknown mode {key!r}; modes are: {', '.join(MODES)}")
    return found


@dataclass(frozen=True)
class Settings:
    """Everything chosen before a game starts. Defaults give a 2026 duel.

    ``planes`` overrides the mode's planes per seat (duel 3 to 6; free-for-all and
    Circle of Death too, as a house rule). ``handicaps`` gives height tokens per seat.
    ``cards`` is the pool of unclaimed achievement cards this game can award.
    """

    mode: str = "duel"
    ruleset: str = "2026"
    planes: int | None = None
    fire: str = "auto"
    variants: frozenset[str] = field(default_factory=frozenset)
    handicaps: tuple[int, ...] = ()
    cloud_groups: bool = True
    turn_limit: int | None = None
    cards: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        m = mode(self.mode)
        object.__setattr__(self, "mode", m.key)
        object.__setattr__(self, "variants", frozenset(self.variants))
        find_ruleset(self.ruleset)
        find_fire_mode(self.fire)
        check_variants(self.variants)
        if self.planes is not None:
            if not m.allows_plane_count:
                raise RulesError(f"{m.title} has fixed planes per seat")
            if not 3 <= self.planes <= 6:
                raise RulesError("planes per seat must be 3 to 6")
        handicaps = tuple(self.handicaps) + (0,) * (m.seats - len(self.handicaps))
        if len(handicaps) != m.seats or any(not 0 <= h <= 6 for h in handicaps):
            raise RulesError(f"handicaps: one value 0..6 per seat ({m.seats} seats)")
        object.__setattr__(self, "handicaps", handicaps)
        if self.turn_limit is not None and self.turn_limit < 1:
            raise RulesError("the turn limit must be at least 1")
        bad = [c for c in self.cards if c not in CARDS]
        if bad:
            raise RulesError(f"unknown achievement card {bad[0]!r}")
        object.__setattr__(self, "cards", tuple(self.cards))

    @property
    def spec(self) -> Mode:
        return MODES[self.mode]

    @cached_property
    def rules(self) -> Rules:
        """What the ruleset, fire mode and variants add up to (:mod:`rules.variants`)."""
        return combined_rules(self.ruleset, self.fire, self.variants)

    def plane_counts(self) -> tuple[int, ...]:
        m = self.spec
        return (self.planes,) * m.seats if self.planes is not None else m.planes
