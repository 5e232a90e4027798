"""What the training tables keep per person, on SQLite: the open exercise refuses a
press meant for an older state, a lesson's first pass is kept, forgetting a person
removes their lessons, puzzle rating and tries but nobody else's, and the puzzle served
is near the person's rating."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.env import stores_on
from bot.services.training import Training
from bot.services.workers import Workers
from rules.training import shipped
from rules.training.puzzles import Puzzle
from storage.db import Database
from storage.forget import forget_user
from storage.training import PuzzleRating, TrainingRepo


async def test_an_exercise_moves_on_only_from_the_state_it_was_pressed_in(tmp_path: Path) -> None:
    async with await Database.open(tmp_path / "bot.db") as db:
        repo = TrainingRepo(db)
        run = await repo.start(7, "lesson", "ramp")
        moved = await repo.advance(run, ["+a1NE"])
        assert moved is not None and moved.tokens == ("+a1NE",)
        assert await repo.advance(run, ["+a2NE"]) is None  # the older state: refused
        assert await repo.run(7) == moved
        wrong = await repo.advance(moved, [], wrong_try=True)
        assert wrong is not None and (wrong.tokens, wrong.tries) == ((), 1)
        await repo.pass_lesson(wrong)
        again = await repo.start(7, "lesson", "ramp")
        await repo.pass_lesson(again)
        assert await repo.lessons_passed(7) == {"ramp": 2}  # the first pass counts
        assert await repo.run(7) is None


async def test_forgetting_a_person_removes_their_training_only(tmp_path: Path) -> None:
    async with await Database.open(tmp_path / "bot.db") as db:
        repo = TrainingRepo(db)
        for user in (7, 8):
            await repo.pass_lesson(await repo.start(user, "lesson", "enter"))
            tried = await repo.start(user, "puzzle", "1-0001")
            rating = PuzzleRating(user, 1600.0, 200.0, 0.06, 1, 0, 1, 1)
            await repo.record_puzzle(tried, True, rating)
            await repo.start(user, "lesson", "climb")
        forgotten = await forget_user(db, 7)
        assert forgotten.rows["lessons_passed"] == 1 and forgotten.rows["puzzle_attempts"] == 1
        assert await repo.run(7) is None and await repo.lessons_passed(7) == {}
        assert await repo.puzzle_rating(7) is None and await repo.puzzles_tried(7) == set()
        assert await repo.lessons_passed(8) == {"enter": 1}
        assert await repo.puzzles_tried(8) == {"1-0001"}
        assert await repo.run(8) is not None


async def test_a_puzzle_at_your_level_is_one_near_your_rating_not_tried_yet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "duel/2026 t1 - | - | >d2E2 b3E2 +0 | d6W2 k9SW0 +3"
    found = [Puzzle(f"p-{r}", text, "b3C<", 0, r) for r in (1000, 1480, 1550, 2200)]
    monkeypatch.setattr(shipped, "_SET", found)
    async with await Database.open(tmp_path / "bot.db") as db:
        training = Training(stores_on(db), Workers(0))
        first = await training.open_puzzle(7)
        assert first.puzzle is not None and first.puzzle.id in {"p-1480", "p-1550"}
        await training.repo.record_puzzle(
            first.run, True, PuzzleRating(7, 2150.0, 100.0, 0.06, 1, 0, 1, 1)
        )
        strong = await training.open_puzzle(7)
        assert strong.puzzle is not None and strong.puzzle.id == "p-2200"
