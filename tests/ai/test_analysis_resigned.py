"""The analysis of a recorded duel the loser resigned (``data/resigned-duel.json``:
two medium computers, 18 player-turns on random clouds; Amy, P1, resigned two planes
down at turn 19 and Ben won): it speaks from one point of view, Amy's, on every row and
in the graph, on the graph's scale; it never charges the winner's turns with losing the
game, never prints the evaluation's ±1000, and the winner's accuracy is the better."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from support.drawing import texts_drawn

from render.analysis import analysis_pictures, scale
from rules import serialize
from rules.ai.analysis import (
    DECIDED,
    PLANE,
    TurnReview,
    accuracies,
    evaluation_series,
    point_of_view,
    report,
    review,
)
from rules.ai.evaluate import WIN
from rules.game import Game

pytestmark = pytest.mark.slow  # seconds each: see tests/support/order.py

RECORDED = Path(__file__).parent / "data" / "resigned-duel.json"
NAMES = ["Amy", "Ben"]
ROW = re.compile(r"^\s*(\d+)  (Amy|Ben)\s+(\S+(?: wins)?)  ")


@pytest.fixture(scope="module")
def game() -> Game:
    return serialize.loads(RECORDED.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def reviews(game: Game) -> list[TurnReview]:
    return list(review(game))


def test_the_recorded_game_was_resigned_by_the_loser(game: Game) -> None:
    assert game.history[-1].token == "resign:1"  # Amy, P1
    assert game.result is not None and game.result.winners == (1,)


def test_one_point_of_view_on_every_row(game: Game, reviews: list[TurnReview]) -> None:
    told = report(reviews, NAMES, game.mode.teams)
    head, *lines = told.splitlines()
    assert head == (
        "Evaluation after each turn and the replies, in planes ahead for Amy: + is good for "
        "Amy, - for Ben."
    )
    rows = [m for line in lines if (m := ROW.match(line))]
    assert len(rows) == len(reviews) == 18
    for m, r in zip(rows, reviews, strict=True):
        assert int(m[1]) == r.number
        # Ben's rows are Amy's point of view too: his own value, negated
        amys = r.value if r.seat == 0 else -r.value
        assert float(m[3]) == pytest.approx(amys / PLANE, abs=0.051), m[0]


def test_the_winners_turns_are_never_lost_games_and_no_1000_is_printed(
    game: Game, reviews: list[TurnReview]
) -> None:
    told = report(reviews, NAMES, game.mode.teams)
    bens = [line for line in told.splitlines() if ROW.match(line) and " Ben " in line]
    assert len(bens) == 9
    assert not [line for line in bens if "lost the game" in line]
    numbers = [float(x) for x in re.findall(r"[-+]\d+\.\d", told)]
    assert numbers and max(abs(x) for x in numbers) < DECIDED / PLANE
    assert "1000" not in told


def test_the_graph_speaks_from_the_same_point_of_view_on_the_tables_scale(
    monkeypatch: pytest.MonkeyPatch, game: Game, reviews: list[TurnReview]
) -> None:
    drawn = texts_drawn(monkeypatch)
    analysis_pictures(game, reviews, names=NAMES)
    view = point_of_view(NAMES, game.mode.teams)
    assert "evaluation after each turn and the replies" in drawn and view in drawn
    values = evaluation_series(reviews, game.mode.teams)
    reach = scale(values)
    assert all(abs(v) / PLANE <= reach for v in values)  # nothing the table shows is cut
    assert f"{-int(reach):+d}" in drawn and f"{int(reach):+d}" in drawn


def test_the_winner_is_the_more_accurate(game: Game, reviews: list[TurnReview]) -> None:
    amy, ben = (accuracies(reviews, game.mode.teams)[s] for s in (0, 1))
    assert ben > amy
    told = report(reviews, NAMES, game.mode.teams)
    assert "Amy: 9 turns, " in told and f"accuracy {amy:.0f}%" in told


def test_a_decided_game_reads_as_a_win_not_a_number(game: Game, reviews: list[TurnReview]) -> None:
    """Had Ben's last turn been judged to win outright (his value the evaluation's win),
    and Amy's turn before to lose outright, the rows would say so in words."""
    last, before = reviews[-1], reviews[-2]
    decided = [
        *reviews[:-2],
        replace(before, value=-WIN, best_value=0.0, mark="blunder"),
        replace(last, value=WIN + 5),
    ]
    told = report(decided, NAMES, game.mode.teams)
    amys_row, bens_row = told.splitlines()[-5:-3]
    assert "Ben wins" in amys_row and "it lost the game" in amys_row
    assert "Ben wins" in bens_row and "lost" not in bens_row
    assert "1000" not in told and "1005" not in told
