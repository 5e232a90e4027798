"""Swiss rounds of multi-player tables."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from competition.model import Entrant, PairingResult, placement_points
from competition.tables import pair_tables, table_sizes


def test_table_sizes() -> None:
    assert table_sizes(12, 4) == ([4, 4, 4], 0)
    assert table_sizes(7, 4, min_size=3) == ([4, 3], 0)
    assert table_sizes(10, 6, min_size=3) == ([5, 5], 0)
    # 2 v 2 cannot play with three: the odd players out get byes.
    assert table_sizes(10, 4) == ([4, 4], 2)


def play(n: int, size: int, rounds: int) -> list[int]:
    """Play ``rounds`` rounds with random placements; return each round's repeat pairs."""
    rng = random.Random(n * size)
    field = [Entrant(f"p{i}", 2000.0 - i, i) for i in range(1, n + 1)]
    history: list[PairingResult] = []
    byes: Counter[str] = Counter()
    repeats: list[int] = []
    for _ in range(rounds):
        met = Counter(frozenset(pair) for r in history for pair in combinations(r.seats, 2))
        pairings = pair_tables(field, history, size)
        assert sorted(s for p in pairings for s in p.seats) == sorted(e.id for e in field)
        repeats.append(
            sum(met[frozenset(pair)] for p in pairings for pair in combinations(p.seats, 2))
        )
        for p in pairings:
            if p.is_bye:
                byes[p.seats[0]] += 1
                history.append(PairingResult.bye(p.seats[0]))
            else:
                assert len(p.seats) == size
                places = list(range(1, size + 1))
                rng.shuffle(places)
                history.append(PairingResult(p.seats, placement_points(places)))
    assert max(byes.values(), default=0) <= 1
    return repeats


@pytest.mark.parametrize(
    ("n", "size", "rounds"),
    [(17, 4, 3), (24, 4, 4), (18, 3, 4), (30, 3, 5), (40, 5, 4), (64, 4, 5)],
)
def test_roomy_fields_play_without_a_repeat_opponent(n: int, size: int, rounds: int) -> None:
    assert play(n, size, rounds) == [0] * rounds


def test_a_tight_field_repeats_no_more_than_it_must() -> None:
    # Twelve players at tables of four: round two's tables each draw four players from
    # round one's three tables, so each holds at least one repeat pair: three in all.
    assert play(12, 4, rounds=2) == [0, 3]
