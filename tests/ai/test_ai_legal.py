"""The computer player always answers with a legal step, in every mode and variant."""

from __future__ import annotations

import random

import pytest

from rules import position
from rules.ai import ComputerPlayer
from rules.ai.evaluate import Evaluator
from rules.ai.search import actions
from rules.game import Game
from rules.modes import Settings
from rules.players import RandomPlayer, new_game, play_out

CASES = [
    Settings(),
    Settings(fire="manual"),
    Settings(ruleset="classic", variants=frozenset({"turbulence"})),
    Settings(variants=frozenset({"aces", "concealed-fire"})),
    Settings(variants=frozenset({"no-level"}), handicaps=(0, 2)),
    Settings(mode="ffa3"),
    Settings(mode="cod4"),
    Settings(mode="1v2"),
    Settings(mode="2v2", fire="manual"),
    Settings(mode="3v3"),
]


def random_position(settings: Settings, seed: int) -> Game:
    """A game some random steps in, possibly in the middle of a turn or a dive."""
    rng = random.Random(seed)
    game = new_game(settings, seed)
    for _ in range(rng.randrange(5, 120)):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_steps()))
    return game


@pytest.mark.parametrize("settings", CASES, ids=lambda s: f"{s.mode}-{s.ruleset}-{s.fire}")
def test_returns_legal_steps_from_random_positions(settings: Settings) -> None:
    for seed in range(3):
        game = random_position(settings, seed)
        for level in ("easy", "medium", "hard", "expert"):
            player = ComputerPlayer(level, time_budget=0.05, seed=seed)
            for _ in range(6):
                if game.is_over:
                    break
                step = player.choose(game)
                assert game.is_legal(step), (level, step)
                game.play(step)


def test_plays_a_whole_game_and_beats_random() -> None:
    game = new_game(Settings(turn_limit=200), 7)
    play_out(game, [ComputerPlayer("medium", time_budget=0.2), RandomPlayer(7)])
    assert game.result is not None
    assert game.result.winners == (0,)


def test_places_clouds_in_a_manual_setup() -> None:
    game = Game(Settings(), clouds=None)
    players = [ComputerPlayer("easy", seed=1), ComputerPlayer("easy", seed=2)]
    while game.phase == "setup":
        game.play(players[game.active].choose(game))
    assert len(game.clouds) == 16


def test_replans_when_the_game_is_not_where_the_plan_expected() -> None:
    game = new_game(Settings(), 3)
    player = ComputerPlayer("medium", time_budget=0.1)
    other = random.Random(3)
    for _ in range(60):
        if game.is_over:
            break
        # Someone else plays every third step of the computer's seats too.
        step = other.choice(game.legal_steps()) if other.random() < 0.3 else player.choose(game)
        assert game.is_legal(step)
        game.play(step)


def test_unknown_strength_is_refused() -> None:
    with pytest.raises(ValueError, match="strengths are"):
        ComputerPlayer("grandmaster")


def test_search_shoots_the_plane_blocking_a_dive_and_swoops_on() -> None:
    # b3 swoops to c4 at height 1 facing c5, which blocks the dive but is caught by c4
    # and a5: in manual fire the dive waits for the shot, then goes on into c5.
    game = position.parse("duel/2026 t9 - | - | >b3NE2 a5NW0 +0 | c5W0 k7W0 k8W0 +0", fire="manual")
    ev = Evaluator(game)
    plans: list[tuple[str, ...]] = []
    actions(game, 0, ev, lambda plan: plans.append(tuple(s.token for s in plan)))
    assert ("b3S>", "*c5", "c4S") in {p[:3] for p in plans}
