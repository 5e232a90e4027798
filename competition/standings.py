"""Standings: score first, then the organiser's tie-breaks in the organiser's order.

The tie-breaks, for a player P (a table counts as one game: "the opponent's score" there
means the mean score of the others at the table):

* Buchholz: the sum of P's opponents' final scores, which rewards a harder draw;
* median Buchholz: Buchholz without the highest and the lowest opponent score; with fewer
  than three games nothing is cut, since cutting would leave one score or none;
* Sonneborn-Berger: each opponent's final score times the points P took from them, so
  beating strong players counts most;
* head-to-head: the points P scored in results shared with the other players still tied
  with P (at a table, a point for finishing above each of them, half for level);
* rating: the higher rating first.

Unplayed rounds follow FIDE's virtual-opponent rule in its simplest form: a bye or a
forfeit (won or lost) counts, in P's own Buchholz and Sonneborn-Berger, as a game against
an opponent whose score equals P's own final score, scored as P's points that round. The
forfeit still counts fully in the scores and in head-to-head: the result stands, there
was just no game. Rounds a dropped player missed are not rounds for them at all.

Players level on score and on every chosen tie-break share a place; seed orders them on
the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from competition.model import Entrant, PairingResult, scores

PRECISION = 9  # placement points in thirds must still tie when they are equal


class TieBreak(StrEnum):
    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median-buchholz"
    SONNEBORN_BERGER = "sonneborn-berger"
    HEAD_TO_HEAD = "head-to-head"
    RATING = "rating"


DEFAULT_ORDER: tuple[TieBreak, ...] = (
    TieBreak.HEAD_TO_HEAD,
    TieBreak.BUCHHOLZ,
    TieBreak.SONNEBORN_BERGER,
    TieBreak.RATING,
)


@dataclass(frozen=True)
class Standing:
    """One line of the table; head-to-head is shown among the players level on score."""

    place: int
    player: str
    score: float
    tiebreaks: dict[TieBreak, float]


def opponent_scores(player: str, results: Sequence[PairingResult]) -> list[tuple[float, float]]:
    """(opponent score, points P took) for each of P's rounds, virtual opponents included."""
    final = scores(results)
    own = final.get(player, 0.0)
    games: list[tuple[float, float]] = []
    for result in results:
        if player not in result.seats:
            continue
        taken = result.points_of(player)
        if result.played:
            others = result.opponents_of(player)
            mean = sum(final.get(o, 0.0) for o in others) / len(others)
            games.append((mean, taken))
        else:
            games.append((own, taken))
    return games


def buchholz(player: str, results: Sequence[PairingResult]) -> float:
    return sum(score for score, _ in opponent_scores(player, results))


def median_buchholz(player: str, results: Sequence[PairingResult]) -> float:
    ranked = sorted(score for score, _ in opponent_scores(player, results))
    return sum(ranked[1:-1] if len(ranked) >= 3 else ranked)


def sonneborn_berger(player: str, results: Sequence[PairingResult]) -> float:
    return sum(score * taken for score, taken in opponent_scores(player, results))


def head_to_head(player: str, tied: Sequence[str], results: Sequence[PairingResult]) -> float:
    """P's points against the other ``tied`` players, over every result they shared."""
    rivals = set(tied) - {player}
    total = 0.0
    for result in results:
        if player not in result.seats:
            continue
        mine = result.points_of(player)
        for other in rivals.intersection(result.seats):
            theirs = result.points_of(other)
            total += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return total


def standings(
    entrants: Sequence[Entrant],
    results: Sequence[PairingResult],
    order: Sequence[TieBreak] = DEFAULT_ORDER,
) -> list[Standing]:
    """The standings table for ``entrants`` (dropped players included, if they are to show)."""
    points = scores(results)
    by_id = {e.id: e for e in entrants}

    def value(tb: TieBreak, pid: str, tied: Sequence[str]) -> float:
        match tb:
            case TieBreak.BUCHHOLZ:
                v = buchholz(pid, results)
            case TieBreak.MEDIAN_BUCHHOLZ:
                v = median_buchholz(pid, results)
            case TieBreak.SONNEBORN_BERGER:
                v = sonneborn_berger(pid, results)
            case TieBreak.HEAD_TO_HEAD:
                v = head_to_head(pid, tied, results)
            case TieBreak.RATING:
                v = by_id[pid].rating
        return round(v, PRECISION)

    def split(group: list[str], breaks: Sequence[TieBreak]) -> list[list[str]]:
        """Order a group level on score, tie-break by tie-break, into still-level blocks."""
        if len(group) < 2 or not breaks:
            return [sorted(group, key=lambda pid: by_id[pid].seed)]
        keys = {pid: value(breaks[0], pid, group) for pid in group}
        blocks: list[list[str]] = []
        for key in sorted(set(keys.values()), reverse=True):
            blocks += split([p for p in group if keys[p] == key], breaks[1:])
        return blocks

    score_groups: dict[float, list[str]] = {}
    for e in entrants:
        score_groups.setdefault(round(points.get(e.id, 0.0), PRECISION), []).append(e.id)
    table: list[Standing] = []
    for score in sorted(score_groups, reverse=True):
        group = score_groups[score]
        for block in split(group, order):
            place = len(table) + 1
            for pid in block:
                shown = {tb: value(tb, pid, group) for tb in order}
                table.append(Standing(place, pid, score, shown))
    return table
