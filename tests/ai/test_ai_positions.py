"""Hand-built positions with one clearly right idea, which medium and hard must find.

Each position is at the ninth player-turn of a duel, when every plane must act, with
no clouds so that every line of fire is plain to check by hand.
"""

from __future__ import annotations

import pytest

from rules import board, position
from rules.ai import ComputerPlayer
from rules.game import Game

LEVELS = ["medium", "hard", "expert"]


def _stopped() -> float:
    return 0.0


def play_turn(game: Game, level: str) -> list[str]:
    """Let the computer play the seat to move's whole turn; returns its tokens. Its
    search runs to its end on a clock that never moves: on a busy machine a wall-clock
    budget cut it short, and hard once flew into the crossfire it must dive out of."""
    player = ComputerPlayer(level, clock=_stopped)
    seat = game.active
    tokens = []
    while not game.is_over and game.active == seat:
        step = player.choose(game)
        tokens.append(step.token)
        game.play(step)
    return tokens


@pytest.mark.parametrize("level", LEVELS)
def test_takes_a_kill_available_in_one_manoeuvre(level: str) -> None:
    # f2 already aims east along row f at the enemy on f6; i7 climbing to h6 and
    # turning left to face SE (h6 -> g6 -> f6) completes the crossfire.
    game = position.parse("duel/2026 t9 - | - | >f2E2 i7SW2 +0 | f6W0 k7W4 k9E3 +0")
    tokens = play_turn(game, level)
    assert game.planes_left(1) == 2, tokens
    assert game.plane_at(board.cell("f6")) is None


@pytest.mark.parametrize("level", LEVELS)
def test_dives_out_of_a_crossfire(level: str) -> None:
    # f5 is caught by f1 (row f) and k10 (down the diagonal). Climbing or flying level
    # keeps it on row f, where c6 covers f6 and i10 covers f7, and a power dive stays
    # put: only a dive that swoops to f6, turns and swoops on to g7 gets out. The two
    # planes at the bottom corner are too far away to shoot anyone first.
    game = position.parse("duel/2026 t9 - | - | >f5E3 a6NE0 b7NE0 +0 | f1E2 k10SW3 c6NW3 i10SW3 +0")
    tokens = play_turn(game, level)
    assert game.planes_left(0) == 3, tokens
    assert any(t.startswith("f5S") for t in tokens), tokens


@pytest.mark.parametrize("level", LEVELS)
def test_avoids_flying_into_a_crash(level: str) -> None:
    # f9 at height 1 facing east: a level flight reaches f11 facing off the board with
    # no height to power-dive, a certain crash next turn. Climbing keeps it alive.
    game = position.parse("duel/2026 t9 - | - | >f9E1 b2NE3 b4NE3 +0 | k7W4 k9E3 j6E4 +0")
    tokens = play_turn(game, level)
    for p in game.planes(0):
        assert p.height >= 2 or board.step(p.cell, p.facing) != board.NO_CELL, tokens


@pytest.mark.parametrize("level", LEVELS)
def test_shoots_in_manual_fire(level: str) -> None:
    game = position.parse("duel/2026 t9 - | - | >f2E2 i7SW2 +0 | f6W0 k7W4 k9E3 +0", fire="manual")
    tokens = play_turn(game, level)
    assert "*f6" in tokens
    assert game.planes_left(1) == 2
