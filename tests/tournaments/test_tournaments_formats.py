"""The new formats' pure logic: arena scoring and pairing, round times, teams, double RR."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from competition.arena import accepts_pairings, arena_points, leaderboard, pair_waiting
from competition.model import Entrant, Pairing, PairingResult
from competition.roundrobin import double_schedule
from competition.schedule import RoundTimes, no_show_results

T0 = datetime(2026, 5, 1, 18, 0)


def test_arena_streak_doubles_after_two_wins_until_a_non_win() -> None:
    results = [
        PairingResult.duel("ann", "bob", 1.0),  # 2
        PairingResult.duel("cat", "ann", 0.0),  # 2, streak lit
        PairingResult.duel("ann", "dan", 1.0),  # 4
        PairingResult.duel("ann", "bob", 0.5),  # 2 (double draw), streak out
        PairingResult.duel("ann", "cat", 1.0),  # 2
    ]
    line = arena_points("ann", results)
    assert (line.points, line.games, line.on_fire) == (12, 5, False)
    assert arena_points("ann", results[:3]).on_fire


def test_a_forfeit_win_scores_but_lights_no_streak() -> None:
    results = [
        PairingResult.duel("ann", "bob", 1.0, forfeit=True),
        PairingResult.duel("ann", "cat", 1.0),
    ]
    results.append(PairingResult.duel("ann", "dan", 1.0))
    assert arena_points("ann", results).points == 6


def test_arena_pairs_neighbours_by_score_but_not_the_last_opponent() -> None:
    field = [Entrant(name, 1500.0 - i, i) for i, name in enumerate(["a", "b", "c", "d", "e"], 1)]
    history = [PairingResult.duel("a", "b", 1.0), PairingResult.duel("c", "d", 1.0)]
    pairs, waiting = pair_waiting(field, history)
    # a and c lead on 2; a's last opponent was b, so a meets c and b meets d.
    assert pairs == [("a", "c"), ("b", "d")]
    assert waiting == ["e"]
    board = leaderboard(field, history)
    assert [line.player for line in board][:2] == ["a", "c"]
    assert accepts_pairings(T0, T0 + timedelta(seconds=1)) and not accepts_pairings(T0, T0)


def test_round_times_open_remind_and_forfeit_no_shows() -> None:
    times = RoundTimes(T0, timedelta(minutes=30), timedelta(minutes=5), timedelta(minutes=3))
    assert times.set_time(3) == T0 + timedelta(hours=1)
    late = T0 + timedelta(minutes=41)
    assert times.opens(2, previous_done=late) == late  # a slow round pushes the next back
    assert times.opens(2, previous_done=T0) == T0 + timedelta(minutes=30)
    assert times.should_remind(2, T0 + timedelta(minutes=26))
    assert not times.should_remind(2, T0 + timedelta(minutes=20))
    pairings = [Pairing(("a", "b")), Pairing(("c", "d")), Pairing(("e", "f")), Pairing(("g",))]
    arrived = {"a", "b", "c"}
    assert no_show_results(pairings, T0, T0 + timedelta(minutes=2), arrived, times) == []
    forfeits = no_show_results(pairings, T0, T0 + timedelta(minutes=3), arrived, times)
    assert forfeits == [
        PairingResult(("c", "d"), (1.0, 0.0), forfeit=True),
        PairingResult(("e", "f"), (0.0, 0.0), forfeit=True),
    ]
    with pytest.raises(ValueError, match="reminder"):
        RoundTimes(T0, timedelta(minutes=10), remind_before=timedelta(minutes=11))


def test_double_round_robin_meets_everyone_once_each_way() -> None:
    rounds = double_schedule(["a", "b", "c", "d", "e"])
    assert len(rounds) == 10
    games = [p.seats for rnd in rounds for p in rnd if not p.is_bye]
    assert len(games) == len(set(games)) == 20
    assert {frozenset(g) for g in games} == {
        frozenset((x, y)) for x in "abcde" for y in "abcde" if x < y
    }


def test_a_forfeit_win_on_a_streak_keeps_it_alight() -> None:
    results = [PairingResult.duel("ann", "bob", 1.0), PairingResult.duel("ann", "cat", 1.0)]
    results += [
        PairingResult.duel("ann", "dan", 1.0, forfeit=True),
        PairingResult.duel("ann", "eve", 1.0),
    ]
    assert arena_points("ann", results).points == 2 + 2 + 4 + 4
