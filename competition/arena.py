"""Arena: a fixed time window in which finished players are paired again at once.

Scoring follows Lichess's arena: a win is 2 points, a draw 1, a loss 0. Two wins in a
row light a streak: while it lasts every result is worth double (a win 4, a draw 2), and
anything but a win puts it out (the draw that ends a streak still scores 2). A forfeit
win scores like a win but leaves the streak as it was (it neither starts, feeds nor ends
one), and a forfeit loss breaks one; a game still in play when time runs out finishes
and counts.

Pairing: whoever is waiting is sorted by arena score, then rating, then seed, and paired
neighbour with neighbour, skipping a player's last opponent while someone else is
waiting to take their place; an odd one out (the lowest) waits for the next game to end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from competition.model import Entrant, PairingResult

WIN, DRAW = 2, 1
STREAK = 2  # wins in a row that light the streak


@dataclass(frozen=True)
class ArenaLine:
    player: str
    points: int
    games: int
    on_fire: bool  # on a streak: the next result counts double


def arena_points(player: str, results: Sequence[PairingResult]) -> ArenaLine:
    """One player's arena score from their results in the order they finished."""
    points = games = wins_running = 0
    for result in results:
        if player not in result.seats or result.is_bye:
            continue
        games += 1
        mine = result.points_of(player)
        best = max(result.points)
        won = mine == best and result.points.count(best) == 1
        drew = not won and mine == best
        fire = wins_running >= STREAK
        base = WIN if won else DRAW if drew else 0
        points += base * (2 if fire else 1)
        if not (won and result.forfeit):  # a forfeit win leaves the streak as it was
            wins_running = wins_running + 1 if won else 0
    return ArenaLine(player, points, games, wins_running >= STREAK)


def leaderboard(entrants: Sequence[Entrant], results: Sequence[PairingResult]) -> list[ArenaLine]:
    """Everyone by arena points, then fewer games (a better rate), then seed."""
    seed = {e.id: e.seed for e in entrants}
    lines = [arena_points(e.id, results) for e in entrants]
    return sorted(lines, key=lambda line: (-line.points, line.games, seed[line.player]))


def pair_waiting(
    waiting: Sequence[Entrant], results: Sequence[PairingResult]
) -> tuple[list[tuple[str, str]], list[str]]:
    """Pairs for the players now waiting, higher-placed first, and who is left waiting."""
    points = {e.id: arena_points(e.id, results).points for e in waiting}
    queue = [e.id for e in sorted(waiting, key=lambda e: (-points[e.id], -e.rating, e.seed))]
    last: dict[str, str] = {}
    for result in results:
        if len(result.seats) == 2:
            a, b = result.seats
            last[a], last[b] = b, a
    pairs: list[tuple[str, str]] = []
    while len(queue) >= 2:
        head = queue.pop(0)
        pick = next((p for p in queue if last.get(head) != p), queue[0])
        queue.remove(pick)
        pairs.append((head, pick))
    return pairs, queue


def accepts_pairings(now: datetime, ends: datetime) -> bool:
    """New games start only before the end; games already in play finish and count."""
    return now < ends
