"""The shipped puzzles: enough of them, across duel and at least two multi-player modes,
each read back whole; a random sample re-verified on every run with the generator's own
deeper search (the whole set: ``python scripts/puzzles.py --verify FILE``)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.services import puzzle_choice
from rules import position
from rules.ai.evaluate import Evaluator
from rules.ai.strengths import TUNED_WEIGHTS
from rules.errors import RulesError
from rules.notation import play_tokens
from rules.training import puzzles, shipped

SAMPLE = 2


def test_the_set_is_large_varied_and_readable() -> None:
    found = shipped.puzzle_set()
    modes = Counter(p.position.split("/", 1)[0] for p in found)
    assert len(found) >= 500, len(found)
    assert modes["duel"] >= 50 and sum(1 for m in modes if m != "duel") >= 2, modes
    assert len({p.id for p in found}) == len(found)
    themes = Counter(t for p in found for t in p.themes)
    assert {"double crosshairs", "escape", "dive attack", "forced crash"} <= set(themes), themes
    assert [p.rating for p in found] == sorted(p.rating for p in found)
    assert len({p.rating for p in found}) >= 10  # a spread of difficulties


def test_a_random_sample_is_still_verified() -> None:
    chosen = random.SystemRandom().sample(shipped.puzzle_set(), SAMPLE)
    for puzzle in chosen:
        game = position.parse(puzzle.position)
        plan = tuple(step for step, _ in play_tokens(game.copy(), puzzle.answer.split()))
        verdict = puzzles.verify(game, plan)
        assert verdict.kept, (puzzle.id, verdict)
        assert verdict.best == puzzle.best, puzzle.id
        assert puzzles.judge(game, plan).outcome == puzzle.best, puzzle.id


def test_a_turn_that_misses_the_point_does_not_solve_it() -> None:
    puzzle = next(p for p in shipped.puzzle_set() if "double crosshairs" in p.themes)
    game = position.parse(puzzle.position)
    plans = puzzles.candidates(game, puzzles.VERIFY, Evaluator(game, TUNED_WEIGHTS))
    outcomes = [puzzles.judge(game, plan).outcome for plan in plans]
    assert max(outcomes) == puzzle.best and min(outcomes) < puzzle.best


def test_an_unknown_puzzle_is_refused_by_name() -> None:
    with pytest.raises(RulesError, match="no puzzle 'nope'"):
        shipped.puzzle("nope")


def test_a_newcomers_first_puzzles_are_duels_at_the_level_of_their_lessons() -> None:
    """No lesson passed or the first five: a duel needing the fewest lessons not passed
    (the shipped duels all have clouds, so at least that one), not one first puzzle for
    everybody; once every two-player lesson is passed, any duel fits."""
    found = shipped.puzzle_set()
    first_five = ("enter", "ramp", "climb", "level", "turn")
    two_players = [x.id for x in shipped.course() if x.part == "Two players"]
    for passed in ((), first_five, two_players):
        firsts = {puzzle_choice.pick(found, user, 1500.0, set(), passed) for user in range(40)}
        assert all(p.position.startswith("duel/") for p in firsts)
        fewest = min(len(puzzle_choice.needs(p) - set(passed)) for p in found)
        assert all(len(puzzle_choice.needs(p) - set(passed)) == fewest for p in firsts)
        assert len(firsts) > 1
    after_five = {puzzle_choice.pick(found, 1, 1500.0, set(), first_five)}
    assert all(puzzle_choice.needs(p) - set(first_five) == {"clouds"} for p in after_five)
    tried = {p.id for p in found[:5]}
    assert any(
        not puzzle_choice.pick(found, user, 1500.0, tried, ()).position.startswith("duel/")
        for user in range(40)
    )  # past the first five, any mode near the rating


def test_a_puzzle_needs_the_lessons_of_its_answer_and_themes() -> None:
    kill = puzzles.Puzzle(
        "x",
        "duel/2026 t1 - | d4 | >d2E2 b3E2 +0 | d6W2 k9SW0 +3",
        "b3C<",
        0,
        1500,
        ("double crosshairs",),
    )
    assert puzzle_choice.needs(kill) == {"climb", "turn", "clouds", "shoot"}
