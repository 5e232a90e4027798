"""Swiss pairing for duels: one round at a time, as an exact minimum-cost matching.

Every possible pair of the round's players gets a cost, and the round is the perfect
matching of least total cost, so nothing is decided greedily and nothing can fail late:
a pairing always exists, and it is the best one under these priorities, each weighted far
above everything after it:

1. no rematch, and no second bye (a previous meeting costs more than anything else);
2. no colour break: nobody moves first (or second) three games running, and nobody's
   firsts and seconds differ by more than two ("colour" is chess's word for who moves
   first);
3. score groups: players meet others on their score, and pairing across groups costs the
   square of the gap, so a one-point gap costs as much as four half-point gaps;
4. colour preferences: whoever has moved second more often moves first, and otherwise
   colours alternate;
5. within a score group, the top half meets the bottom half (1 v 5, 2 v 6, … in a group
   of eight), as the Dutch system does.

An odd field adds a virtual "bye" player that everyone can meet: it costs a rematch for
anyone who has had a bye, and otherwise prefers the lowest player of the lowest score
group. Dropped players are simply left out of ``players``; their results stay in the
history, so their opponents keep those games.

``networkx.max_weight_matching`` solves the matching (blossom algorithm) with integer
weights, so it is exact; 64 players take about a third of a second.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Final

import networkx as nx

from competition.model import Entrant, Pairing, Result, scores

W_REMATCH: Final = 10**14
W_HARD_COLOUR: Final = 10**11
W_SCORE: Final = 10**6
W_COLOUR: Final = 10**3
W_BYE_RANK: Final = 4 * W_COLOUR
W_RANK: Final = 1

FIRST, SECOND = "F", "S"


def pairing_order(players: Iterable[Entrant], results: Iterable[Result]) -> list[Entrant]:
    """Players by score, then rating, then seed: the order boards and byes follow."""
    points = scores(results)
    return sorted(players, key=lambda e: (-points.get(e.id, 0.0), -e.rating, e.seed))


def colour_history(results: Iterable[Result]) -> dict[str, str]:
    """Each player's seats in played duels, oldest first: ``"FSF"`` moved first twice."""
    history: dict[str, str] = {}
    for result in results:
        if len(result.seats) == 2 and result.played:
            first, second = result.seats
            history[first] = history.get(first, "") + FIRST
            history[second] = history.get(second, "") + SECOND
    return history


def meetings(results: Iterable[Result]) -> Counter[frozenset[str]]:
    """How often each pair of players has shared a table, forfeits included.

    A forfeit counts as a meeting so that a no-show is not handed the same opponent again.
    """
    met: Counter[frozenset[str]] = Counter()
    for result in results:
        for a, b in combinations(result.seats, 2):
            met[frozenset((a, b))] += 1
    return met


def colour_cost(history: str, seat: str) -> int:
    """What taking ``seat`` (FIRST or SECOND) next costs a player with this history."""
    after = history + seat
    balance = after.count(FIRST) - after.count(SECOND)
    hard = int(abs(balance) > 2) + int(len(after) >= 3 and len(set(after[-3:])) == 1)
    before = history.count(FIRST) - history.count(SECOND)
    # Someone owed a colour minds more than someone who only wants to alternate.
    owed = 2 * int((before > 0) == (seat == FIRST))
    soft = owed if before != 0 else int(history[-1:] == seat)
    return hard * W_HARD_COLOUR + soft * W_COLOUR


def pair_duels(players: Sequence[Entrant], history: Sequence[Result]) -> list[Pairing]:
    """The next Swiss round for ``players``, given every earlier result in round order.

    Boards come top score first, each as (first player, second player); a bye, if the
    field is odd, comes last as a one-seat pairing. The caller scores the bye (usually
    ``Result.bye(player, 1.0)``).
    """
    if len(players) < 2:
        raise ValueError("a Swiss round needs at least two players")
    order = pairing_order(players, history)
    rank = {e.id: i for i, e in enumerate(order)}
    points = scores(history)
    halves = {e.id: round(2 * points.get(e.id, 0.0)) for e in order}
    colours = colour_history(history)
    met = meetings(history)
    had_bye = {r.seats[0] for r in history if r.is_bye}

    # Place within the score group, for the top-half-meets-bottom-half preference.
    groups: dict[int, list[str]] = {}
    for e in order:
        groups.setdefault(halves[e.id], []).append(e.id)
    place = {pid: (i, len(g)) for g in groups.values() for i, pid in enumerate(g)}

    def pair_cost(a: str, b: str) -> int:
        cost = W_REMATCH * met[frozenset((a, b))]
        cost += W_SCORE * (halves[a] - halves[b]) ** 2
        cost += min(_orientation_costs(colours, a, b))
        if halves[a] == halves[b]:
            (ia, size), (ib, _) = place[a], place[b]
            cost += W_RANK * abs(abs(ia - ib) - size // 2)
        return cost

    lowest = min(halves.values())

    def bye_cost(a: str) -> int:
        from_bottom = len(order) - 1 - rank[a]
        cost = W_REMATCH * int(a in had_bye) + W_BYE_RANK * from_bottom
        return cost + W_SCORE * (halves[a] - lowest + 1) ** 2

    ids = [e.id for e in order]
    costs: dict[tuple[int, int], int] = {}
    for i, j in combinations(range(len(ids)), 2):
        costs[i, j] = pair_cost(ids[i], ids[j])
    bye_node = len(ids) if len(ids) % 2 else None
    if bye_node is not None:
        for i, pid in enumerate(ids):
            costs[i, bye_node] = bye_cost(pid)

    matched = _min_cost_perfect_matching(costs)
    pairs = sorted((min(m), max(m)) for m in matched if bye_node not in m)
    boards = [_orient(colours, ids[i], ids[j], board) for board, (i, j) in enumerate(pairs)]
    if bye_node is not None:
        (alone,) = {i for m in matched if bye_node in m for i in m} - {bye_node}
        boards.append(Pairing((ids[alone],)))
    return boards


def _orientation_costs(colours: dict[str, str], a: str, b: str) -> tuple[int, int]:
    """Colour cost of (a first, b second) and of (b first, a second)."""
    ha, hb = colours.get(a, ""), colours.get(b, "")
    return (
        colour_cost(ha, FIRST) + colour_cost(hb, SECOND),
        colour_cost(hb, FIRST) + colour_cost(ha, SECOND),
    )


def _orient(colours: dict[str, str], higher: str, lower: str, board: int) -> Pairing:
    """Seat a pair, ``higher`` being the better-placed player, on 0-based ``board``."""
    a_first, b_first = _orientation_costs(colours, higher, lower)
    if a_first != b_first:
        return Pairing((higher, lower) if a_first < b_first else (lower, higher))
    last = colours.get(higher, "")[-1:]
    if last:
        # Equal costs: the better-placed player alternates from their last game.
        return Pairing((higher, lower) if last == SECOND else (lower, higher))
    # Nobody has a history (usually round one): alternate down the boards.
    return Pairing((higher, lower) if board % 2 == 0 else (lower, higher))


def _min_cost_perfect_matching(costs: dict[tuple[int, int], int]) -> set[tuple[int, int]]:
    """An exact minimum-cost perfect matching of a complete graph with an even node count.

    Maximising ``ceiling - cost`` with maximum cardinality is the same as minimising cost,
    because every perfect matching has the same number of edges.
    """
    ceiling = max(costs.values()) + 1
    graph: nx.Graph[int] = nx.Graph()
    for (i, j), cost in costs.items():
        graph.add_edge(i, j, weight=ceiling - cost)
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return matching
