"""The expert's search looks round the whole table, not only at the next seat."""

from __future__ import annotations

import pytest

from rules.ai import STRENGTHS, ComputerPlayer
from rules.ai.deep import play_round
from rules.ai.evaluate import Evaluator
from rules.ai.search import Deadline, plan_turn
from rules.game import Game
from rules.modes import Settings
from rules.players import new_game

NO_CLOCK = 1e9


def replying_seats(game: Game, limit: int = 0) -> list[int]:
    """The seats whose turns the round plays after seat to move's best turn (only the
    next ``limit`` of them, when given)."""
    seat = game.active
    ev = Evaluator(game)
    plan = plan_turn(game, seat, ev, 2, Deadline(NO_CLOCK))[0].plan
    result = play_round(game, seat, plan, ev, 2, Deadline(NO_CLOCK), limit)
    assert result is not None
    _, replies = result
    work = game.copy(with_history=False)
    for s in plan:
        work.push(s)
    seats: list[int] = []
    for s in replies:
        if not seats or seats[-1] != work.active:
            seats.append(work.active)
        work.push(s)
    if not limit:
        assert work.active == seat  # the round ends with the expert to move again
    return seats


@pytest.mark.parametrize(
    ("mode", "seats"), [("duel", [1]), ("ffa3", [1, 2]), ("cod4", [1, 2, 3]), ("2v2", [1, 2, 3])]
)
def test_the_round_plays_every_other_seat_in_order(mode: str, seats: list[int]) -> None:
    game = new_game(Settings(mode=mode), 5)
    assert replying_seats(game) == seats


def test_hard_hears_only_the_next_seat_and_the_expert_the_whole_table() -> None:
    hard, expert = STRENGTHS["hard"].depth, STRENGTHS["expert"].depth
    assert hard is not None and expert is not None
    assert (hard.seats, expert.seats) == (1, 0)
    game = new_game(Settings(mode="ffa4"), 5)
    assert replying_seats(game, hard.seats) == [1]
    assert replying_seats(game, expert.seats) == [1, 2, 3]


def test_the_round_leaves_the_game_as_it_was() -> None:
    game = new_game(Settings(mode="ffa3"), 2)
    before = game.state_key()
    replying_seats(game)
    assert game.state_key() == before


def test_expert_is_registered_above_hard() -> None:
    names = list(STRENGTHS)
    assert names.index("expert") == names.index("hard") + 1
    expert = STRENGTHS["expert"]
    assert expert.depth is not None
    assert expert.budget == 1.5


@pytest.mark.parametrize("mode", ["ffa4", "cod4"])
def test_expert_plays_multi_seat_games_legally(mode: str) -> None:
    game = new_game(Settings(mode=mode, turn_limit=12), 9)
    players = [ComputerPlayer("expert", time_budget=0.1, seed=s) for s in range(game.seats)]
    while not game.is_over:
        step = players[game.active].choose(game)
        assert game.is_legal(step)
        game.play(step)
