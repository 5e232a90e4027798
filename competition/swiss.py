"""Swiss pairing for duels: one round at a time, as a minimum-cost perfect matching.

Every possible pair of the round's players (and, in an odd field, every player with a
virtual "bye" seat) gets a cost made of six levels, compared lexicographically: a level
counts only between pairings equal on every level above it. This is the one statement of
the order; ``docs/tournaments.md`` repeats it for organisers.

1. rematches: each earlier meeting of the pair (forfeits count, so a no-show is not
   handed the same opponent again), and a second bye;
2. the bye rule: the bye goes to the lowest player (in pairing order: score, then
   rating, then seed) who has not had one, i.e. the bye's level is how many players rank
   below its taker;
3. colour breaks: moving first (or second) three games running, or firsts and seconds
   differing by more than two ("colour" is chess's word for who moves first);
4. score gaps: the square of each pair's gap in half points, so a one-point gap costs as
   much as four half-point gaps and the round stays inside score groups;
5. colour preferences: whoever has moved second more often moves first (2 a player),
   otherwise colours alternate (1);
6. inside a score group, the top half meets the bottom half (1 v 5, 2 v 6, … in a group
   of eight), as the Dutch system does: each pair costs how far it is from that.

The levels become one integer per pair, each level weighted above the most all lower
levels can add up to over a round, so the least total cost is the lexicographic optimum.

Speed: small fields are matched whole and exactly. Bigger ones are first paired group by
group in blocks (``swiss_blocks.py``); that proposal is kept only when it reaches a lower
bound on each of levels 1-4 (no rematch, the bye on the lowest player without one, no
colour break, the least squared gaps any pairing of these scores can have), which proves
it optimal on those levels; levels 5 and 6 are then optimal inside each block. Otherwise
the whole field is matched exactly, which is slow for hundreds of players but always right.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from competition.model import Entrant, Pairing, PairingResult, scores
from competition.swiss_blocks import min_cost_perfect_matching, pair_by_blocks

FIRST, SECOND = "F", "S"
EXACT_UP_TO: Final = 16  # fields this small are always matched whole

Levels = tuple[int, int, int, int, int, int]


def pairing_order(players: Iterable[Entrant], results: Iterable[PairingResult]) -> list[Entrant]:
    """Players by score, then rating, then seed: the order boards and byes follow."""
    points = scores(results)
    return sorted(players, key=lambda e: (-points.get(e.id, 0.0), -e.rating, e.seed))


def colour_history(results: Iterable[PairingResult]) -> dict[str, str]:
    """Each player's seats in played duels, oldest first: ``"FSF"`` moved first twice."""
    history: dict[str, str] = {}
    for result in results:
        if len(result.seats) == 2 and result.played:
            first, second = result.seats
            history[first] = history.get(first, "") + FIRST
            history[second] = history.get(second, "") + SECOND
    return history


def meetings(results: Iterable[PairingResult]) -> Counter[frozenset[str]]:
    """How often each pair of players has shared a table, forfeits included.

    A forfeit counts as a meeting so that a no-show is not handed the same opponent again.
    """
    met: Counter[frozenset[str]] = Counter()
    for result in results:
        for a, b in combinations(result.seats, 2):
            met[frozenset((a, b))] += 1
    return met


def colour_cost(history: str, seat: str) -> tuple[int, int]:
    """(colour breaks, colour preference) that taking ``seat`` next costs this player."""
    after = history + seat
    balance = after.count(FIRST) - after.count(SECOND)
    hard = int(abs(balance) > 2) + int(len(after) >= 3 and len(set(after[-3:])) == 1)
    before = history.count(FIRST) - history.count(SECOND)
    # Someone owed a colour minds more than someone who only wants to alternate.
    owed = 2 * int((before > 0) == (seat == FIRST))
    soft = owed if before != 0 else int(history[-1:] == seat)
    return hard, soft


def seat_costs(colours: dict[str, str], first: str, second: str) -> tuple[int, int]:
    """(colour breaks, colour preference) of ``first`` moving first against ``second``."""
    hf, sf = colour_cost(colours.get(first, ""), FIRST)
    hs, ss = colour_cost(colours.get(second, ""), SECOND)
    return hf + hs, sf + ss


@dataclass(frozen=True)
class RoundCosts:
    """The six levels for one round's pairs, from the history before it."""

    order: tuple[str, ...]
    halves: dict[str, int]
    colours: dict[str, str]
    met: Counter[frozenset[str]]
    had_bye: frozenset[str]
    place: dict[str, tuple[int, int]]  # (index in score group, group size)

    @classmethod
    def of(cls, players: Sequence[Entrant], history: Sequence[PairingResult]) -> RoundCosts:
        order = tuple(e.id for e in pairing_order(players, history))
        points = scores(history)
        halves = {pid: round(2 * points.get(pid, 0.0)) for pid in order}
        groups: dict[int, list[str]] = {}
        for pid in order:
            groups.setdefault(halves[pid], []).append(pid)
        place = {pid: (i, len(g)) for g in groups.values() for i, pid in enumerate(g)}
        had_bye = frozenset(r.seats[0] for r in history if r.is_bye)
        return cls(order, halves, colour_history(history), meetings(history), had_bye, place)

    def pair(self, a: str, b: str) -> Levels:
        hard, soft = min(seat_costs(self.colours, a, b), seat_costs(self.colours, b, a))
        rank = 0
        if self.halves[a] == self.halves[b]:
            (ia, size), (ib, _) = self.place[a], self.place[b]
            rank = abs(abs(ia - ib) - size // 2)
        gap = (self.halves[a] - self.halves[b]) ** 2
        return self.met[frozenset((a, b))], 0, hard, gap, soft, rank

    def bye(self, a: str) -> Levels:
        below = len(self.order) - 1 - self.order.index(a)
        return int(a in self.had_bye), below, 0, 0, 0, 0

    def weigh(self) -> Callable[[Levels], int]:
        """One integer per pair whose sums compare like the levels' sums, lexicographically.

        Each level's weight exceeds the most all lower levels can add up to in a round.
        """
        n, pairs = len(self.order), len(self.order) // 2 + 1
        top_gap = (max(self.halves.values()) - min(self.halves.values())) ** 2
        most = (max(self.met.values(), default=0) + 1, n, 4, top_gap, 4, n)
        weights = [1] * 6
        for level in range(4, -1, -1):
            weights[level] = weights[level + 1] * (pairs * most[level + 1] + 1)

        def weight(levels: Levels) -> int:
            return sum(w * v for w, v in zip(weights, levels, strict=True))

        return weight


def pair_duels(players: Sequence[Entrant], history: Sequence[PairingResult]) -> list[Pairing]:
    """The next Swiss round for ``players``, given every earlier result in round order.

    Boards come top score first, each as (first player, second player); a bye, if the
    field is odd, comes last as a one-seat pairing. The caller scores the bye (usually
    ``PairingResult.bye(player, 1.0)``).
    """
    if len(players) < 2:
        raise ValueError("a Swiss round needs at least two players")
    costs = RoundCosts.of(players, history)
    found = None if len(players) <= EXACT_UP_TO else block_pairing(costs)
    pairs, bye = found if found is not None else exact_pairing(costs)
    rank = {pid: i for i, pid in enumerate(costs.order)}
    pairs = sorted(pairs, key=lambda p: min(rank[p[0]], rank[p[1]]))
    boards = [
        _orient(costs.colours, *_higher_first(rank, a, b), i) for i, (a, b) in enumerate(pairs)
    ]
    return boards + ([Pairing((bye,))] if bye is not None else [])


def _higher_first(rank: dict[str, int], a: str, b: str) -> tuple[str, str]:
    return (a, b) if rank[a] < rank[b] else (b, a)


def exact_pairing(costs: RoundCosts) -> tuple[list[tuple[str, str]], str | None]:
    """The whole field as one exact matching (with a bye node when it is odd)."""
    weight = costs.weigh()
    ids = costs.order
    edges = {
        (i, j): weight(costs.pair(ids[i], ids[j])) for i, j in combinations(range(len(ids)), 2)
    }
    bye_node = len(ids) if len(ids) % 2 else None
    if bye_node is not None:
        for i, pid in enumerate(ids):
            edges[i, bye_node] = weight(costs.bye(pid))
    pairs: list[tuple[str, str]] = []
    bye: str | None = None
    for i, j in min_cost_perfect_matching(edges):
        if bye_node in (i, j):
            bye = ids[min(i, j)]
        else:
            pairs.append((ids[i], ids[j]))
    return pairs, bye


def block_pairing(costs: RoundCosts) -> tuple[list[tuple[str, str]], str | None] | None:
    """Score groups paired in blocks, if that provably reaches the optimum on levels 1-4."""
    order = list(costs.order)
    bye: str | None = None
    if len(order) % 2:
        eligible = [pid for pid in order if pid not in costs.had_bye]
        if not eligible:
            return None
        bye = eligible[-1]
        order.remove(bye)
    groups: list[list[str]] = []
    for pid in order:
        if groups and costs.halves[groups[-1][-1]] == costs.halves[pid]:
            groups[-1].append(pid)
        else:
            groups.append([pid])
    weight = costs.weigh()

    def defect(a: str, b: str) -> bool:
        levels = costs.pair(a, b)
        return levels[0] > 0 or levels[2] > 0

    def down_cost(pid: str, place: int, size: int) -> int:
        # Dutch: the lowest of the group floats; keep it on level 6.
        return size - 1 - place

    try:
        pairs = pair_by_blocks(groups, lambda a, b: weight(costs.pair(a, b)), down_cost, defect)
    except ValueError:
        return None
    if sorted(p for pair in pairs for p in pair) != sorted(order):
        return None
    if any(defect(a, b) for a, b in pairs):
        return None
    # Least possible sum of squared gaps: pair the scores, sorted, neighbour with neighbour.
    line = [costs.halves[pid] for pid in order]
    least = sum((line[i] - line[i + 1]) ** 2 for i in range(0, len(line), 2))
    if sum(costs.pair(a, b)[3] for a, b in pairs) != least:
        return None
    return pairs, bye


def _orient(colours: dict[str, str], higher: str, lower: str, board: int) -> Pairing:
    """Seat a pair, ``higher`` being the better-placed player, on 0-based ``board``."""
    a_first, b_first = seat_costs(colours, higher, lower), seat_costs(colours, lower, higher)
    if a_first != b_first:
        return Pairing((higher, lower) if a_first < b_first else (lower, higher))
    last = colours.get(higher, "")[-1:]
    if last:
        # Equal costs: the better-placed player alternates from their last game.
        return Pairing((higher, lower) if last == SECOND else (lower, higher))
    # Nobody has a history (usually round one): alternate down the boards.
    return Pairing((higher, lower) if board % 2 == 0 else (lower, higher))
