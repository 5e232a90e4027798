"""Impossible games are refused before any rating moves."""

from __future__ import annotations

import pytest

from competition.ratings import rate_game


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
