"""Single and double elimination for every field size from 2 to 33."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from competition.elimination import WINNERS, Bracket, State, seed_order


def entrants(n: int) -> list[str]:
    return [f"s{i}" for i in range(1, n + 1)]


def play_out(bracket: Bracket, rng: random.Random) -> tuple[Counter[str], int]:
    """Play random results until the end; return each player's defeats and the games."""
    losses: Counter[str] = Counter()
    games = 0
    while ready := bracket.ready():
        match = ready[0]
        assert match.first is not None and match.second is not None
        winner, loser = rng.sample([match.first, match.second], 2)
        bracket.report(match.id, winner)
        losses[loser] += 1
        games += 1
    return losses, games


def assert_byes_only_where_the_padding_is(bracket: Bracket, n: int) -> None:
    byes = [m for m in bracket.matches() if m.state is State.BYE]
    assert sum(m.side == WINNERS for m in byes) == 2 ** (n - 1).bit_length() - n
    assert all(m.round == 1 or m.side != WINNERS for m in byes)


@pytest.mark.parametrize("n", range(2, 34))
@pytest.mark.parametrize("third_place", [False, True])
def test_single_elimination(n: int, third_place: bool) -> None:
    bracket = Bracket.single(entrants(n), third_place=third_place)
    assert_byes_only_where_the_padding_is(bracket, n)
    losses, games = play_out(bracket, random.Random(n))
    assert bracket.finished
    champion = bracket.champion()
    assert champion is not None and losses[champion] == 0
    held_third = third_place and n >= 4
    assert games == n - 1 + held_third
    knocked_out = {p for p in entrants(n) if p != champion}
    # Out after one defeat; only the third-place match gives a second game after losing.
    assert all(1 <= losses[p] <= 1 + held_third for p in knocked_out)
    places = {p: place for place, p in bracket.ranking()}
    assert places[champion] == 1 and sorted(places.values())[1] == 2
    if held_third:
        assert sorted(places.values())[2:4] == [3, 4]


@pytest.mark.parametrize("n", range(2, 34))
@pytest.mark.parametrize("reset", [False, True])
def test_double_elimination(n: int, reset: bool) -> None:
    bracket = Bracket.double(entrants(n), reset=reset)
    assert_byes_only_where_the_padding_is(bracket, n)
    for seed in range(3):
        bracket = Bracket.double(entrants(n), reset=reset)
        losses, games = play_out(bracket, random.Random(100 * n + seed))
        champion = bracket.champion()
        assert bracket.finished and champion is not None
        assert losses[champion] <= 1
        ranking = bracket.ranking()
        assert [place for place, _ in ranking][:2] == [1, 2]
        assert ranking[0] == (1, champion)
        runner_up = ranking[1][1]
        assert all(losses[p] == 2 for p in entrants(n) if p not in (champion, runner_up))
        if reset:
            # Out after two defeats, everyone; the champion may have lost the first final.
            assert losses[runner_up] == 2
            assert games == 2 * n - 2 + losses[champion]
        else:
            # Without a reset one final decides: the winners' champion can fall after one.
            assert losses[runner_up] == 2 - losses[champion]
            assert games == 2 * n - 2


def test_standard_seeding_meets_top_seeds_last() -> None:
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(16)[:4] == [1, 16, 8, 9]
    bracket = Bracket.single(entrants(5))
    # Five entrants in a bracket of eight: seeds 1-3 get byes and 4 meets 5 for the right
    # to face seed 1, while 2 and 3, both through on byes, can already play each other.
    ready = [(m.id, m.first, m.second) for m in bracket.ready()]
    assert ready == [("W1-2", "s4", "s5"), ("W2-2", "s2", "s3")]


def test_single_elimination_ranking_by_hand() -> None:
    bracket = Bracket.single(entrants(4), third_place=True)
    bracket.report("W1-1", "s1")  # s1 beats s4
    bracket.report("W1-2", "s3")  # s3 upsets s2
    bracket.report("W2-1", "s3")
    bracket.report("3RD", "s4")
    assert bracket.ranking() == [(1, "s3"), (2, "s1"), (3, "s4"), (4, "s2")]


def test_double_elimination_reset_and_ranking_by_hand() -> None:
    bracket = Bracket.double(entrants(4))
    bracket.report("W1-1", "s1")  # s4 drops
    bracket.report("W1-2", "s2")  # s3 drops
    bracket.report("L1-1", "s3")  # s4 out (last)
    bracket.report("W2-1", "s1")  # s2 drops
    bracket.report("L2-1", "s2")  # s3 out (third)
    bracket.report("GF1", "s2")  # s1's first defeat: the final resets
    assert bracket.champion() is None
    assert [m.id for m in bracket.ready()] == ["GF2"]
    bracket.report("GF2", "s2")
    assert bracket.ranking() == [(1, "s2"), (2, "s1"), (3, "s3"), (4, "s4")]


def test_reset_is_void_when_the_winners_champion_takes_the_final() -> None:
    bracket = Bracket.double(entrants(2))
    bracket.report("W1-1", "s1")
    bracket.report("GF1", "s1")
    assert bracket.finished and bracket.champion() == "s1"
    assert [m.state for m in bracket.matches() if m.side == "GF" and m.round == 2] == [State.VOID]


def test_correction_is_refused_once_a_later_match_has_a_result() -> None:
    bracket = Bracket.single(entrants(4))
    bracket.report("W1-1", "s1")
    bracket.report("W1-1", "s4")  # corrected: nothing downstream yet
    bracket.report("W1-2", "s2")
    bracket.report("W2-1", "s4")
    with pytest.raises(ValueError, match="feeds a match"):
        bracket.report("W1-1", "s1")
