"""The issue's must-shows: a 1 vs 1, a 4-player free-for-all with a tie and a 2 vs 2,
each checked against openskill called directly with the same model and inputs."""

from __future__ import annotations

import itertools

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from competition.ratings import Rating, ranks_from_result, rate_game

# Unequal priors, so a mix-up of players, sides or mu/sigma cannot pass by symmetry.
PRIORS = {
    "ann": Rating(27.0, 5.0, 12),
    "bob": Rating(24.0, 7.0, 3),
    "cat": Rating(25.0, 8.0, 1),
    "dan": Rating(21.0, 4.0, 30),
}


def _direct(names: list[list[str]], ranks: list[float]) -> dict[str, tuple[float, float]]:
    model = PlackettLuce()
    teams = [[model.rating(mu=PRIORS[n].mu, sigma=PRIORS[n].sigma) for n in t] for t in names]
    out: list[list[PlackettLuceRating]] = model.rate(teams, ranks=ranks)
    pairs = zip(itertools.chain(*names), itertools.chain(*out), strict=True)
    return {n: (r.mu, r.sigma) for n, r in pairs}


def _ours(result: dict[str, Rating]) -> dict[str, tuple[float, float]]:
    return {n: (r.mu, r.sigma) for n, r in result.items()}


def test_one_vs_one_is_exactly_openskill() -> None:
    ranks = ranks_from_result("duel", 2, winners={1})
    assert ranks == [1, 0]
    result = rate_game("duel", [["ann"], ["bob"]], ranks, PRIORS)
    assert _ours(result) == _direct([["ann"], ["bob"]], [1, 0])
    assert result["bob"].mu > PRIORS["bob"].mu
    assert result["ann"].mu < PRIORS["ann"].mu
    assert (result["ann"].games, result["bob"].games) == (13, 4)


def test_two_vs_two_is_exactly_openskill() -> None:
    sides = [["ann", "dan"], ["bob", "cat"]]
    ranks = ranks_from_result("team", 2, winners={0})
    result = rate_game("team", sides, ranks, PRIORS)
    assert _ours(result) == _direct(sides, [0, 1])
    assert all(result[n].mu > PRIORS[n].mu for n in ("ann", "dan"))
    assert all(result[n].mu < PRIORS[n].mu for n in ("bob", "cat"))


def test_four_player_free_for_all_with_a_tie_is_the_mean_of_both_orders() -> None:
    # dan went out first, cat next; ann and bob agreed a draw.
    ranks = ranks_from_result("ffa", 4, winners=(), eliminated=[3, 2])
    assert ranks == [0, 0, 1, 2]
    sides = [["ann"], ["bob"], ["cat"], ["dan"]]
    result = _ours(rate_game("ffa", sides, ranks, PRIORS))
    ann_first = _direct(sides, [0, 1, 2, 3])
    bob_first = _direct(sides, [1, 0, 2, 3])
    for name, (mu, sigma) in result.items():
        assert mu == pytest.approx((ann_first[name][0] + bob_first[name][0]) / 2, abs=1e-12)
        assert sigma == pytest.approx((ann_first[name][1] + bob_first[name][1]) / 2, abs=1e-12)


@pytest.mark.parametrize(
    ("family", "sides"),
    [("duel", [["ann"], ["bob"]]), ("team", [["ann", "dan"], ["bob", "cat"]])],
)
def test_a_two_sided_draw_agrees_with_openskills_own_draw(
    family: str, sides: list[list[str]]
) -> None:
    result = _ours(rate_game(family, sides, [0, 0], PRIORS))
    for name, (mu, sigma) in _direct(sides, [0, 0]).items():
        assert result[name] == pytest.approx((mu, sigma), abs=1e-9)
