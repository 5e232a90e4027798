"""openskill's problem with tied places in a free-for-all, and the workaround.

Given equal ranks, openskill 6.2's Plackett-Luce update can rate a player placed below a
tie as high as, or higher than, the tied players (openskill.py issue #155). These tests pin
the upstream behaviour, so an openskill release that fixes it fails here and the
workaround can be reconsidered, and they pin what rate_game does instead.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from competition.ratings import Rating, rate_game


def _openskill_equal_ranks(ranks: list[float]) -> list[tuple[float, float]]:
    model = PlackettLuce()
    out = model.rate([[model.rating()] for _ in ranks], ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in out]


def _ordinal(mu_sigma: tuple[float, float]) -> float:
    return mu_sigma[0] - 3 * mu_sigma[1]


def test_openskill_rates_third_place_above_two_joint_winners() -> None:
    winner_a, winner_b, third, fourth = _openskill_equal_ranks([0, 0, 1, 2])
    assert winner_a == winner_b
    assert third[0] == winner_a[0]  # the same mu as the players who beat it
    assert _ordinal(third) > _ordinal(winner_a)  # and, with a smaller sigma, a better rating
    assert _ordinal(fourth) < _ordinal(third)


def test_openskill_issue_155_reproduces_in_five_players() -> None:
    winner, _, third, _, _ = _openskill_equal_ranks([0, 0, 1, 2, 3])
    assert third[0] > winner[0]


def test_rate_game_keeps_joint_winners_above_third_place() -> None:
    sides = [["a"], ["b"], ["c"], ["d"]]
    after = rate_game("ffa", sides, [0, 0, 1, 2], {})
    a, b, c, d = (after[p[0]] for p in sides)
    assert a == b
    assert a.mu > c.mu > d.mu
    assert a.display > c.display > d.display


def test_tied_players_with_equal_ratings_end_equal_wherever_the_tie_is() -> None:
    after = rate_game("cod", [["w"], ["x"], ["y"], ["z"], ["v"]], [0, 1, 1, 1, 1], {})
    assert len({after[p] for p in "xyzv"}) == 1
    assert after["w"].mu > after["x"].mu


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=2, max_size=6))
def test_equal_priors_a_better_place_never_rates_lower(ranks: list[int]) -> None:
    sides = [[str(i)] for i in range(len(ranks))]
    after = rate_game("ffa", sides, ranks, {})
    for i, j in ((i, j) for i in range(len(ranks)) for j in range(len(ranks))):
        if ranks[i] < ranks[j]:
            assert after[str(i)].mu > after[str(j)].mu
            assert after[str(i)].display >= after[str(j)].display
        elif ranks[i] == ranks[j]:
            assert after[str(i)].mu == after[str(j)].mu


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=3, max_size=6), st.randoms())
def test_the_order_sides_are_listed_in_does_not_matter(
    ranks: list[int], shuffler: random.Random
) -> None:
    priors = {str(i): Rating(20.0 + 2 * i, 3.0 + i, i) for i in range(len(ranks))}
    sides = [[str(i)] for i in range(len(ranks))]
    listed = list(zip(sides, ranks, strict=True))
    shuffler.shuffle(listed)
    first = rate_game("ffa", sides, ranks, priors)
    second = rate_game("ffa", [s for s, _ in listed], [r for _, r in listed], priors)
    assert first == second
