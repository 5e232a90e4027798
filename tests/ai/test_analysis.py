"""Post-game analysis of recorded games whose verdict is known by construction.

Both positions are at the ninth player-turn of a duel, when every plane must act, with
no clouds so every line of fire can be checked by hand:

* ``CAUGHT``: P1's f5 is in two lines of fire (f1 along row f, k10 down the diagonal).
  Climbing keeps it on row f, where c6 covers f6 as well — still in two lines of fire —
  while a dive that swoops to f6, turns and swoops on gets out.
* ``KILL``: f2 already aims east along row f at the enemy on f6; i7 climbing to h6 and
  turning left completes the crossfire. Climbing straight on misses the kill and leaves
  P1, down to two planes, in reach of the reply.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from bot.cli.main import main
from render.analysis import BOARD, GRAPH_HEIGHT
from rules import position, serialize
from rules.ai.analysis import (
    DECIDED,
    PLANE,
    THRESHOLDS,
    AnalysisDepth,
    TurnReview,
    chance,
    mark_for,
    review,
    turn_count,
)
from rules.game import Game
from rules.steps import Step

CAUGHT = "duel/2026 t9 - | - | >f5E3 a6NE0 b7NE0 +0 | f1E2 k10SW3 c6NW3 i10SW3 +0"
KILL = "duel/2026 t9 - | - | >f2E2 i7SW2 +0 | f6W0 k7W4 k9E3 +0"


def recorded(start: str, tokens: list[str]) -> Game:
    """The game as a JSON record would bring it back: started from ``start``, with
    ``tokens`` played."""
    game = position.parse(start)
    for t in tokens:
        game.play(Step.parse(t))
    return serialize.loads(serialize.dumps(game))


def only_turn(game: Game) -> TurnReview:
    reviews = list(review(game))
    assert len(reviews) == 1
    return reviews[0]


def test_climbing_into_a_second_line_of_fire_is_a_blunder() -> None:
    r = only_turn(recorded(CAUGHT, ["b7C", "a6C<", "f5C"]))
    assert r.mark == "blunder"
    assert r.drop >= 15.0 and r.best_value - r.value >= PLANE  # a plane given away
    assert r.better is not None and "f5S" in r.better  # the dive out of the crossfire


def test_the_dive_out_of_the_crossfire_is_not_marked() -> None:
    r = only_turn(recorded(CAUGHT, ["b7C<", "a6C<", "f5S<", "f6S", "-"]))
    assert r.mark is None
    assert r.better is None


def test_the_kill_is_not_marked_and_missing_it_is_a_blunder() -> None:
    kill = only_turn(recorded(KILL, ["i7C<", "f2C"]))
    assert kill.mark is None
    assert kill.played == "i7C<*f6 f2C"
    missed = only_turn(recorded(KILL, ["i7C", "f2C"]))
    assert missed.mark == "blunder"
    assert missed.better is not None and "*f6" in missed.better


def test_marks_follow_the_documented_thresholds() -> None:
    assert [name for name, _ in THRESHOLDS] == ["blunder", "mistake", "inaccuracy"]
    assert mark_for(4.9) is None
    assert mark_for(5.0) == "inaccuracy"
    assert mark_for(10.0) == "mistake"
    assert mark_for(15.0) == "blunder"
    # from an even position, a whole plane given away is a blunder, a third an inaccuracy
    assert mark_for(chance(0.0) - chance(-PLANE)) == "blunder"
    assert mark_for(chance(0.0) - chance(-PLANE / 3)) == "inaccuracy"
    # a won game kept won costs nothing however many planes a faster win would take
    assert mark_for(chance(DECIDED) - chance(8 * PLANE)) is None


def test_review_yields_every_turn_in_order_without_changing_the_game() -> None:
    game = recorded(KILL, ["i7C<", "f2C", "k7C", "k9C<"])
    before = game.state_key()
    seen = [(r.number, r.seat) for r in review(game, AnalysisDepth(width=2, candidates=2))]
    assert seen == [(9, 0), (10, 1)]
    assert turn_count(game) == 2
    assert game.state_key() == before


def test_cli_reports_the_blunder_and_draws_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(serialize.dumps(recorded(CAUGHT, ["b7C", "a6C<", "f5C"])), encoding="utf-8")
    png = tmp_path / "analysis.png"
    assert main(["analyse", str(path), "--png", str(png), "--names", "Ann,Bob"]) == 0
    captured = capsys.readouterr()
    assert "Ann     -3.0  b7C a6C< f5C  BLUNDER: " in captured.out
    assert "better: b7C< a6C< f5S<S" in captured.out
    assert "Ann: 1 turn, 1 blunder," in captured.out
    assert "analysed 1/1 turns" in captured.err
    data = png.read_bytes()
    assert data.startswith(b"\x89PNG")
    with Image.open(png) as img:
        # A blunder adds its two boards, one above the other, below the graph.
        assert img.height > 2 * BOARD + round(img.width * GRAPH_HEIGHT)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not JSON"),
        (None, "no finished player-turn"),
    ],
)
def test_cli_refuses_what_it_cannot_analyse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, message: str
) -> None:
    path = tmp_path / "game.json"
    text = content if content is not None else serialize.dumps(position.parse(KILL))
    path.write_text(text, encoding="utf-8")
    assert main(["analyse", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("crosshairs analyse: ")
    assert message in err
