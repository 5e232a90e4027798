"""Replaying stored games gives the ratings that game-by-game updates gave."""

from __future__ import annotations

import pytest

from competition.ratings import GameRecord, Rating, rate_game, recompute

HISTORY: list[GameRecord[int]] = [
    GameRecord("duel", ((1,), (2,)), (0, 1)),
    GameRecord("ffa", ((1,), (2,), (3,), (4,)), (0, 0, 1, 2)),
    GameRecord("team", ((1, 2), (3, 4)), (1, 0)),
    GameRecord("duel", ((2,), (3,)), (0, 0)),
    GameRecord("cod", ((4,), (1,), (3,)), (0, 1, 1)),
    GameRecord("duel", ((1,), (3,)), (1, 0)),
]


def test_recompute_equals_updating_after_every_game() -> None:
    live: dict[tuple[int, str], Rating] = {}
    for game in HISTORY:
        current = {p: live[p, game.family] for p in (1, 2, 3, 4) if (p, game.family) in live}
        for player, rating in rate_game(game.family, game.teams, game.ranks, current).items():
            live[player, game.family] = rating
    assert recompute(HISTORY) == live
    assert live[1, "duel"].games == 2 and live[4, "cod"].games == 1


def test_unrated_games_are_kept_but_change_nothing() -> None:
    unrated = GameRecord("duel", ((1,), (2,)), (1, 0), rated=False)
    with_unrated = [*HISTORY[:2], unrated, *HISTORY[2:], unrated]
    assert recompute(with_unrated) == recompute(HISTORY)
    assert recompute([unrated]) == {}


def test_families_are_rated_apart() -> None:
    ratings = recompute(HISTORY[:1])
    assert set(ratings) == {(1, "duel"), (2, "duel")}


@pytest.mark.parametrize(
    ("family", "teams", "ranks"),
    [
        ("chess", [[1], [2]], [0, 1]),
        ("duel", [[1]], [0]),
        ("duel", [[1], [2]], [0]),
        ("duel", [[1], [2], [3]], [0, 1, 2]),
        ("ffa", [[1], [1], [2]], [0, 1, 2]),
        ("ffa", [[1, 2], [3]], [0, 1]),
        ("team", [[1], [2], [3]], [0, 1, 1]),
        ("team", [[1, 2], []], [0, 1]),
    ],
)
def test_impossible_games_are_refused(
    family: str, teams: list[list[int]], ranks: list[int]
) -> None:
    with pytest.raises(ValueError):
        rate_game(family, teams, ranks, {})
