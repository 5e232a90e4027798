"""Swiss rounds for multi-player modes: tables of three to six grouped by score.

An exact matching does not extend to tables, so this is greedy with local repair: deal
the field into tables in standings order (top scores together), then keep swapping two
players between tables while a swap lowers the round's cost, with seeded random kicks out
of local optima while repeats remain. The cost puts repeat opponents far above score
spread, so a swap that removes a repeat always wins. It is a heuristic: in a tight field
it can leave a repeat that a cleverer arrangement would avoid.

Each table is scored by placement (:func:`~competition.model.placement_points`),
worth 1 to the winner like a won duel; team modes score a win as 1 for every member of
the winning team, a draw 0.5 and a loss 0, exactly as a duel does.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Final

from competition.model import Entrant, Pairing, PairingResult, scores
from competition.swiss import meetings, pairing_order

W_REPEAT: Final = 1_000_000.0
MAX_PASSES: Final = 50
KICKS: Final = 200


def table_sizes(players: int, size: int, min_size: int | None = None) -> tuple[list[int], int]:
    """Table sizes for a round, largest first, and how many players get a bye.

    Free-for-all modes that also play with fewer seats pass ``min_size`` (say 3 for a
    four-player mode), and the field is spread over tables as even as possible. Fixed
    formats such as 2 v 2 leave it out: whoever does not fill a whole table gets a bye.
    """
    smallest = size if min_size is None else min_size
    if not 2 <= smallest <= size:
        raise ValueError("table sizes need 2 <= min_size <= size")
    count = -(-players // size)
    if count and players // count >= smallest:
        base, bigger = divmod(players, count)
        return [base + 1] * bigger + [base] * (count - bigger), 0
    full = players // size
    return [size] * full, players - full * size


def pair_tables(
    players: Sequence[Entrant],
    history: Sequence[PairingResult],
    size: int,
    min_size: int | None = None,
) -> list[Pairing]:
    """The next Swiss round of tables, top scores first, then any byes (one seat each).

    Byes go to the lowest-placed players who have not had one. Seats follow playing order:
    whoever has sat late most often (in proportion to table size) moves first.
    """
    sizes, bye_count = table_sizes(len(players), size, min_size)
    if not sizes:
        raise ValueError("too few players for a single table")
    order = [e.id for e in pairing_order(players, history)]
    had_bye = {r.seats[0] for r in history if r.is_bye}
    bottom_up = order[::-1]
    byes = ([p for p in bottom_up if p not in had_bye] + [p for p in bottom_up if p in had_bye])[
        :bye_count
    ]
    seated = [pid for pid in order if pid not in byes]

    points = scores(history)
    met = meetings(history)

    # The swaps ask for the same pairs over and over: work each pair out once.
    pair_cost: dict[tuple[str, str], float] = {}
    for a, b in combinations(seated, 2):
        gap = 2 * (points.get(a, 0.0) - points.get(b, 0.0))
        pair_cost[a, b] = pair_cost[b, a] = W_REPEAT * met[frozenset((a, b))] + gap * gap

    tables: list[list[str]] = []
    start = 0
    for count in sizes:
        tables.append(seated[start : start + count])
        start += count
    _improve(tables, pair_cost)

    lateness = _seat_lateness(history)
    rank = {pid: i for i, pid in enumerate(order)}
    pairings = [
        Pairing(tuple(sorted(t, key=lambda pid: (-lateness.get(pid, 0.0), rank[pid]))))
        for t in tables
    ]
    return pairings + [Pairing((pid,)) for pid in byes]


def _improve(tables: list[list[str]], pair_cost: dict[tuple[str, str], float]) -> None:
    """Descend by swaps to a local optimum; while a repeat remains, kick and descend again.

    A kick is one random swap between two tables (from a fixed seed, so a round is always
    paired the same way); the best arrangement seen is kept.
    """

    def cost(table: list[str]) -> float:
        return sum(pair_cost[a, b] for a, b in combinations(table, 2))

    rng = random.Random(0)
    _descend(tables, pair_cost)
    best = [t[:] for t in tables]
    best_cost = sum(map(cost, tables))
    for _ in range(KICKS):
        if best_cost < W_REPEAT or len(tables) < 2:
            break
        ta, tb = rng.sample(range(len(tables)), 2)
        i, j = rng.randrange(len(tables[ta])), rng.randrange(len(tables[tb]))
        tables[ta][i], tables[tb][j] = tables[tb][j], tables[ta][i]
        _descend(tables, pair_cost)
        total = sum(map(cost, tables))
        if total < best_cost:
            best, best_cost = [t[:] for t in tables], total
    tables[:] = best


def _descend(tables: list[list[str]], pair_cost: dict[tuple[str, str], float]) -> None:
    """Swap players between tables while any swap lowers the total cost."""

    def cost(a: str, b: str) -> float:
        return 0.0 if a == b else pair_cost[a, b]

    players = [p for t in tables for p in t]
    for _ in range(MAX_PASSES):
        # each player's cost with each table (itself left out), worked out afresh each
        # pass: a swap's change is then four lookups, not two sums over the tables
        with_table = [{p: sum(cost(p, x) for x in t) for p in players} for t in tables]
        improved = False
        for ta, tb in combinations(range(len(tables)), 2):
            a_table, b_table = tables[ta], tables[tb]
            at_a, at_b = with_table[ta], with_table[tb]
            for i, j in ((i, j) for i in range(len(a_table)) for j in range(len(b_table))):
                a, b = a_table[i], b_table[j]
                # A swap changes only the pairs of a and b with the rest of their tables.
                ab = pair_cost[a, b]
                change = (at_a[b] - ab - at_a[a]) + (at_b[a] - ab - at_b[b])
                if change < -1e-9:
                    a_table[i], b_table[j] = b, a
                    for p in players:
                        at_a[p] += cost(p, b) - cost(p, a)
                        at_b[p] += cost(p, a) - cost(p, b)
                    improved = True
        if not improved:
            return


def _seat_lateness(history: Sequence[PairingResult]) -> dict[str, float]:
    """How late each player has sat: +0.5 for last seat, -0.5 for first, per table."""
    late: dict[str, float] = {}
    for result in history:
        last = len(result.seats) - 1
        if last >= 1 and result.played:
            for position, pid in enumerate(result.seats):
                late[pid] = late.get(pid, 0.0) + position / last - 0.5
    return late
