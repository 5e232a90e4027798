"""Families, results as ranks, the display number, provisional ratings, handicaps."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competition.ratings import (
    HANDICAP_STEP,
    MODE_FAMILY,
    PROVISIONAL_SIGMA,
    Rating,
    family_of,
    new_rating,
    ranks_from_result,
    rate_game,
    rated,
    suggest_handicap,
)

mus = st.floats(0.0, 60.0)
sigmas = st.floats(0.5, 9.0)
ratings = st.builds(Rating, mus, sigmas)


def test_every_mode_has_a_family() -> None:
    assert family_of("duel") == "duel"
    assert {family_of(f"ffa{n}") for n in range(3, 7)} == {"ffa"}
    assert {family_of(f"COD{n}") for n in range(3, 7)} == {"cod"}
    assert {family_of(m) for m in ("1v2", "1v3", "2v2", "3v3")} == {"team"}
    assert len(MODE_FAMILY) == 13
    with pytest.raises(ValueError, match="unknown mode"):
        family_of("ffa7")


@pytest.mark.parametrize(
    ("family", "sides", "winners", "eliminated", "ranks"),
    [
        ("duel", 2, {0}, [1], [0, 1]),
        ("duel", 2, (), (), [0, 0]),  # drawn
        ("team", 2, {1}, (), [1, 0]),
        ("ffa", 4, {2}, [0, 3, 1], [3, 1, 0, 2]),  # later out is better
        ("ffa", 4, (), [3, 2], [0, 0, 1, 2]),  # two survivors agreed a draw
        ("ffa", 5, {1}, [4], [1, 0, 1, 1, 2]),  # survivors who did not win share second
        ("cod", 5, {3}, [0, 4, 1, 2], [1, 1, 1, 0, 1]),  # order of going out ignored
        ("cod", 3, (), [2], [0, 0, 1]),
    ],
)
def test_results_become_ranks(
    family: str, sides: int, winners: set[int], eliminated: list[int], ranks: list[int]
) -> None:
    assert ranks_from_result(family, sides, winners, eliminated) == ranks


@pytest.mark.parametrize(
    ("winners", "eliminated"), [({0}, [0]), ((), [1, 1]), ({2}, ()), ((), [-1])]
)
def test_impossible_results_are_refused(winners: set[int], eliminated: list[int]) -> None:
    with pytest.raises(ValueError):
        ranks_from_result("ffa", 2, winners, eliminated)


def test_a_newcomer_shows_1500_and_is_provisional() -> None:
    fresh = new_rating()
    assert (fresh.display, fresh.games, fresh.provisional) == (1500, 0, True)
    assert Rating(25.0, PROVISIONAL_SIGMA).provisional is False
    assert Rating(25.0, PROVISIONAL_SIGMA + 0.01).provisional is True


def test_provisional_lasts_about_fourteen_duels() -> None:
    player = new_rating()
    provisional = []
    for game in range(20):
        ranks = [game % 2, 1 - game % 2]  # win, lose, win… against newcomers
        player = rate_game("duel", [["p"], ["rival"]], ranks, {"p": player})["p"]
        provisional.append(player.provisional)
    assert all(provisional[:10]) and not any(provisional[15:])


@given(ratings, ratings)
def test_display_follows_the_skill_estimate_alone(a: Rating, b: Rating) -> None:
    if a.mu <= b.mu:
        assert a.display <= b.display
    assert Rating(a.mu, b.sigma, 7).display == a.display  # doubt and games played: no effect


def test_display_is_1500_and_25_points_per_mu_point() -> None:
    assert Rating(25.0, 1.0).display == 1500
    assert Rating(25.0, 8.0).display == 1500  # the same skill, however unsure
    assert Rating(29.0, 2.0).display == 1600
    assert Rating(21.0, 2.0).display == 1400


def test_a_draw_between_equals_moves_neither_shown_rating() -> None:
    for prior in (new_rating(), Rating(31.0, 2.5, 40)):
        after = rate_game("duel", [["a"], ["b"]], [0, 0], {"a": prior, "b": prior})
        assert after["a"].display == after["b"].display == prior.display
        assert after["a"].sigma < prior.sigma  # the draw still taught the system something


def test_handicapped_games_are_unrated_unless_the_organiser_says_so() -> None:
    assert rated([0, 0])
    assert not rated([0, 2])
    assert rated([0, 2], rate_handicapped=True)


@given(ratings)
def test_equal_skill_suggests_no_handicap(player: Rating) -> None:
    assert suggest_handicap(player, player) == 0


@given(mus, mus, st.floats(0.0, 30.0), sigmas, sigmas)
def test_handicap_grows_with_the_gap_and_ignores_doubt(
    weaker: float, stronger: float, more: float, s1: float, s2: float
) -> None:
    base = suggest_handicap(Rating(stronger, s1), Rating(weaker, s2))
    assert 0 <= base <= 6
    assert suggest_handicap(Rating(stronger + more, s1), Rating(weaker, s2)) >= base
    assert suggest_handicap(Rating(stronger, s1), Rating(weaker - more, s2)) >= base
    assert suggest_handicap(Rating(stronger, s2), Rating(weaker, s1)) == base


def test_one_token_per_beta_of_mu_gap_up_to_six() -> None:
    weaker = Rating(20.0, 3.0)
    tokens = [suggest_handicap(Rating(20.0 + k * HANDICAP_STEP, 3.0), weaker) for k in range(9)]
    assert tokens == [0, 1, 2, 3, 4, 5, 6, 6, 6]
    assert suggest_handicap(Rating(20.0 + 0.99 * HANDICAP_STEP, 3.0), weaker) == 0
    assert suggest_handicap(weaker, Rating(40.0, 3.0)) == 0  # "stronger" is not: nothing
