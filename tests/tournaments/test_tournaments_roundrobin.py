"""Berger tables and divisions."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from competition.model import Entrant
from competition.roundrobin import berger_rounds, divisions, schedule


def test_six_player_table_is_fides() -> None:
    # FIDE C.05 Annex 1, table for 5 or 6 players.
    assert berger_rounds(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


@pytest.mark.parametrize("n", range(3, 11))
def test_everyone_meets_everyone_once(n: int) -> None:
    players = [f"p{i}" for i in range(1, n + 1)]
    rounds = schedule(players)
    assert len(rounds) == n - 1 + n % 2
    met: Counter[frozenset[str]] = Counter()
    firsts: Counter[str] = Counter()
    for pairings in rounds:
        seated = [s for p in pairings for s in p.seats]
        assert sorted(seated) == sorted(players)  # each plays (or sits out) exactly once
        assert sum(p.is_bye for p in pairings) == n % 2
        for p in pairings:
            if not p.is_bye:
                met[frozenset(p.seats)] += 1
                firsts[p.seats[0]] += 1
    assert met == Counter(frozenset(pair) for pair in combinations(players, 2))
    games = n - 1
    # A Berger table shares out moving first as evenly as an odd game count allows.
    assert all(abs(2 * firsts[p] - games) <= 1 + n % 2 for p in players)


def test_divisions_are_snake_seeded_and_at_most_ten() -> None:
    field = [Entrant(f"p{i}", 2000.0 - i, i) for i in range(1, 24)]
    groups = divisions(field)
    assert [len(g) for g in groups] == [7, 8, 8]  # the last row snakes back
    # Ratings order 1..23 snake across three divisions: 1, 6, 7, 12, … in the first.
    assert [e.seed for e in groups[0]][:4] == [1, 6, 7, 12]
    assert [e.seed for e in groups[2]][:4] == [3, 4, 9, 10]
    assert divisions(field[:10]) == [sorted(field[:10], key=lambda e: e.seed)]
