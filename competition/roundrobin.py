"""Round robin: FIDE Berger tables, and divisions of at most ten players.

A Berger table fixes every round in advance. With an even ``n`` the last player stays put
and the others rotate past it; each round starts its rotation ``n/2`` places further on::

    >>> berger_rounds(4)
    [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]

Pairs read (first player, second player). An odd count adds a dummy ``n + 1``: meeting it
is the bye, so :func:`schedule` turns those pairs into one-seat :class:`Pairing`\\ s.

Round robin is for duels only: tables of three or more cannot all meet each other once
each round, so multi-player modes use Swiss instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from competition.model import Entrant, Pairing

MAX_DIVISION = 10


def berger_rounds(n: int) -> list[list[tuple[int, int]]]:
    """The Berger table for pairing numbers ``1..n`` (``n`` even), as (first, second) pairs.

    Board 1 pairs the fixed player ``n`` with the head of the rotation, and it alternates who
    moves first there; the other boards pair the rotation from both ends inward.
    """
    if n < 2 or n % 2:
        raise ValueError("a Berger table needs an even number of at least two")
    rotating = n - 1
    rounds: list[list[tuple[int, int]]] = []
    for r in range(rotating):
        start = r * (n // 2) % rotating
        seq = [(start + i) % rotating + 1 for i in range(rotating)]
        first_board = (seq[0], n) if r % 2 == 0 else (n, seq[0])
        boards = [first_board]
        boards += [(seq[i], seq[rotating - i]) for i in range(1, n // 2)]
        rounds.append(boards)
    return rounds


def schedule(players: Sequence[str]) -> list[list[Pairing]]:
    """Every round of a single round robin; ``players[0]`` gets pairing number 1.

    With an odd count each player sits out once, on the round they would meet the dummy.
    """
    padded = len(players) + len(players) % 2
    rounds: list[list[Pairing]] = []
    for boards in berger_rounds(padded):
        pairings: list[Pairing] = []
        for a, b in boards:
            seats = tuple(players[i - 1] for i in (a, b) if i <= len(players))
            pairings.append(Pairing(seats))
        # Byes go last so that board numbers count real games.
        rounds.append(sorted(pairings, key=lambda p: p.is_bye))
    return rounds


def divisions(entrants: Sequence[Entrant], size: int = MAX_DIVISION) -> list[list[Entrant]]:
    """Split entrants into the fewest divisions of at most ``size``, snake-seeded by rating.

    Snake order (1, 2, 3 | 3, 2, 1 | …) keeps the divisions about equally strong, and their
    sizes differ by at most one. Each division is listed strongest first, ready to hand to
    :func:`schedule`.
    """
    if not entrants:
        return []
    count = -(-len(entrants) // size)
    ranked = sorted(entrants, key=lambda e: (-e.rating, e.seed))
    groups: list[list[Entrant]] = [[] for _ in range(count)]
    for i, entrant in enumerate(ranked):
        row, col = divmod(i, count)
        groups[col if row % 2 == 0 else count - 1 - col].append(entrant)
    return groups


def double_schedule(players: Sequence[str]) -> list[list[Pairing]]:
    """A double round robin: the single schedule, then again with every pair's seats swapped.

    Everyone meets everyone twice, once moving first and once second; the second cycle keeps
    the first's board order, so a player's sequence of firsts and seconds simply flips.
    """
    single = schedule(players)
    return single + [[Pairing(p.seats[::-1]) for p in rnd] for rnd in single]
