"""The shipped puzzles: enough of them, across duel and at least two multi-player modes,
each read back whole; a random sample re-verified on every run with the generator's own
deeper search (the whole set: ``python scripts/puzzles.py --verify FILE``)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

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
