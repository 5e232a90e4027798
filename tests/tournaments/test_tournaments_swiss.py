"""Swiss duels over whole events, 5 to 64 players, with seeded random results."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from competition.model import Entrant, Pairing, PairingResult
from competition.swiss import (
    RoundCosts,
    block_pairing,
    colour_history,
    exact_pairing,
    meetings,
    pair_duels,
)


def duel(pairing: Pairing, first_points: float) -> PairingResult:
    first, second = pairing.seats
    return PairingResult.duel(first, second, first_points)


def field(n: int) -> list[Entrant]:
    return [Entrant(f"p{i}", 2400.0 - 10 * i, i) for i in range(1, n + 1)]


def rounds_for(n: int) -> int:
    """As many rounds as a real event plays: ceil(log2 n) + 2, at most n - 1."""
    return min(math.ceil(math.log2(n)) + 2, n - 1)


def rematch_free_exists(ids: list[str], met: Counter[frozenset[str]], had_bye: set[str]) -> bool:
    """Backtracking, independent of the matching code: can this round avoid every rematch
    and every second bye?"""

    def search(left: list[str]) -> bool:
        if not left:
            return True
        head, rest = left[0], left[1:]
        if len(left) % 2 and head not in had_bye and search(rest):
            return True
        for k, other in enumerate(rest):
            if not met[frozenset((head, other))] and search(rest[:k] + rest[k + 1 :]):
                return True
        return False

    return search(ids)


def play_event(n: int, seed: int) -> list[list[Pairing]]:
    rng = random.Random(seed)
    players = field(n)
    history: list[PairingResult] = []
    rounds: list[list[Pairing]] = []
    for _ in range(rounds_for(n)):
        met = meetings(history)
        had_bye = {r.seats[0] for r in history if r.is_bye}
        pairings = pair_duels(players, history)
        rounds.append(pairings)
        seated = [s for p in pairings for s in p.seats]
        assert sorted(seated) == sorted(e.id for e in players)
        assert sum(p.is_bye for p in pairings) == n % 2
        rematches = sum(met[frozenset(p.seats)] for p in pairings if not p.is_bye)
        repeat_byes = sum(p.seats[0] in had_bye for p in pairings if p.is_bye)
        if rematches or repeat_byes:
            assert not rematch_free_exists([e.id for e in players], met, had_bye)
        for p in pairings:
            if p.is_bye:
                history.append(PairingResult.bye(p.seats[0]))
            else:
                history.append(duel(p, rng.choice((1.0, 0.5, 0.0))))
    return rounds


@pytest.mark.parametrize("n", range(5, 65))
def test_swiss_event_has_no_avoidable_rematch_and_fair_colours(n: int) -> None:
    rounds = play_event(n, seed=n)
    if rounds_for(n) < n / 2:
        # Here a rematch-free round always exists (Dirac), so none may happen at all.
        history = [frozenset(p.seats) for r in rounds for p in r if not p.is_bye]
        assert len(history) == len(set(history))
    byes = Counter(p.seats[0] for r in rounds for p in r if p.is_bye)
    assert all(count == 1 for count in byes.values())
    results = [duel(p, 0.5) for r in rounds for p in r if not p.is_bye]
    for seats in colour_history(results).values():
        assert abs(seats.count("F") - seats.count("S")) <= 2
        assert "FFF" not in seats and "SSS" not in seats, seats


def test_round_one_pairs_top_half_against_bottom_half() -> None:
    pairings = pair_duels(field(8), [])
    # 1 v 5, 2 v 6, … with who moves first alternating down the boards.
    assert [p.seats for p in pairings] == [
        ("p1", "p5"),
        ("p6", "p2"),
        ("p3", "p7"),
        ("p8", "p4"),
    ]


def test_bye_goes_to_the_lowest_player_without_one() -> None:
    players = field(5)
    first = pair_duels(players, [])
    assert first[-1] == Pairing(("p5",))
    history = [PairingResult.bye("p5")] + [duel(p, 0.5) for p in first[:-1]]
    second = pair_duels(players, history)
    # Everyone else drew, so p5 now leads; p4 is lowest among those without a bye.
    assert second[-1] == Pairing(("p4",))


def test_dropped_player_is_not_paired_but_their_games_count() -> None:
    players = field(6)
    history = [PairingResult.duel("p1", "p4", 1.0), PairingResult.duel("p5", "p2", 0.0)]
    history.append(PairingResult.duel("p3", "p6", 1.0))
    pairings = pair_duels([e for e in players if e.id != "p6"], history)
    assert all("p6" not in p.seats for p in pairings)
    assert {frozenset(p.seats) for p in pairings}.isdisjoint(
        {frozenset(("p1", "p4")), frozenset(("p5", "p2"))}
    )


def level_totals(costs: RoundCosts, pairs: list[tuple[str, str]], bye: str | None) -> list[int]:
    levels = [costs.pair(a, b) for a, b in pairs] + ([costs.bye(bye)] if bye else [])
    return [sum(column) for column in zip(*levels, strict=True)]


@pytest.mark.parametrize("n", [33, 48])
def test_block_pairing_equals_the_whole_field_matching_on_levels_one_to_four(n: int) -> None:
    rng = random.Random(n)
    players = field(n)
    history: list[PairingResult] = []
    kept = 0
    for _ in range(5):
        costs = RoundCosts.of(players, history)
        blocks = block_pairing(costs)
        exact = exact_pairing(costs)
        if blocks is not None:
            kept += 1
            assert level_totals(costs, *blocks)[:4] == level_totals(costs, *exact)[:4]
        for p in pair_duels(players, history):
            history.append(
                PairingResult.bye(p.seats[0]) if p.is_bye else duel(p, rng.choice((1.0, 0.5, 0.0)))
            )
    assert kept >= 3  # the blocks really were used
