"""Team events: a team of N players enters as one entrant, and is paired and ranked as one.

A team's rating is its members' mean, and teams are seeded by it like players (the
strongest first, equal ratings by who registered first). Pairing two teams gives one
table of the team mode (2 v 2, 3 v 3) whose seats alternate between the teams, A1 B1 A2
B2 …, so each team's members move in turn and the team paired first (it moves first in
a duel) moves first at the table too. The table's result is recorded for the two team
entrants like a duel (win 1, draw ½, loss 0), so the Swiss, round robin, elimination and
standings code serves teams unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from competition.model import Entrant, Pairing, PairingResult


@dataclass(frozen=True)
class Team:
    id: str
    members: tuple[str, ...]  # the captain first

    @property
    def captain(self) -> str:
        return self.members[0]


def check_teams(teams: Sequence[Team], size: int) -> None:
    """Refuse a field where a team has the wrong size or a player is in two teams."""
    seen: set[str] = set()
    for team in teams:
        if len(team.members) != size:
            raise ValueError(
                f"team {team.id} has {len(team.members)} players, the mode needs {size}"
            )
        clash = seen.intersection(team.members)
        if clash:
            raise ValueError(f"{sorted(clash)[0]} is already in another team")
        seen.update(team.members)


def team_entrants(teams: Sequence[Team], ratings: Mapping[str, float]) -> list[Entrant]:
    """Teams as entrants, seeded by mean rating (registration order breaks ties)."""
    means = [sum(ratings[m] for m in t.members) / len(t.members) for t in teams]
    order = sorted(range(len(teams)), key=lambda i: (-means[i], i))
    return [Entrant(teams[i].id, means[i], seed) for seed, i in enumerate(order, start=1)]


def team_table(pairing: Pairing, teams: Mapping[str, Team]) -> tuple[str, ...]:
    """The players' seats at the table for a pairing of two teams (a bye has one team)."""
    sides = [teams[t].members for t in pairing.seats]
    return tuple(player for seat in zip(*sides, strict=True) for player in seat)


def team_result(
    pairing: Pairing, first_team_points: float, *, forfeit: bool = False
) -> PairingResult:
    """The result between the two teams of a pairing, recorded like a duel."""
    first, second = pairing.seats
    return PairingResult.duel(first, second, first_team_points, forfeit=forfeit)
