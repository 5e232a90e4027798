"""Learn and puzzles: each person's open exercise, lessons passed, puzzle rating and tries.

A person has at most one open exercise (a lesson, a puzzle or a blunder of their own
game to find again): its steps so far are stored after every press, so the exercise
survives a restart, and a press meant for an older state is refused by comparing the
steps (:meth:`TrainingRepo.advance` changes nothing unless they still match).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from storage.db import Database
from storage.sql import fetchone

KINDS = ("lesson", "puzzle", "blunder")


@dataclass(frozen=True)
class Run:
    user_id: int
    kind: str
    item: str
    tokens: tuple[str, ...]
    tries: int  # wrong tries so far


@dataclass(frozen=True)
class PuzzleRating:
    user_id: int
    rating: float
    deviation: float
    volatility: float
    solved: int
    failed: int
    streak: int
    best_streak: int


def _join(tokens: Sequence[str]) -> str:
    return " ".join(tokens)


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split())


class TrainingRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def run(self, user_id: int) -> Run | None:
        async with self._db.read() as conn:
            row = await fetchone(
                conn,
                "SELECT user_id, kind, item, tokens, tries FROM training_runs WHERE user_id = ?",
                (user_id,),
            )
        if row is None:
            return None
        return Run(int(row[0]), str(row[1]), str(row[2]), _split(str(row[3])), int(row[4]))

    async def start(self, user_id: int, kind: str, item: str) -> Run:
        """Open ``item`` for the person, in place of whatever they had open."""
        if kind not in KINDS:
            raise ValueError(f"unknown exercise kind {kind!r}")
        now = time.time()
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO training_runs (user_id, kind, item, tokens, tries, started_at, "
                "updated_at) VALUES (?, ?, ?, '', 0, ?, ?) ON CONFLICT (user_id) DO UPDATE "
                "SET kind = excluded.kind, item = excluded.item, tokens = '', tries = 0, "
                "started_at = excluded.started_at, updated_at = excluded.updated_at",
                (user_id, kind, item, now, now),
            )
        return Run(user_id, kind, item, (), 0)

    async def advance(self, run: Run, tokens: Sequence[str], wrong_try: bool = False) -> Run | None:
        """Store the exercise's new steps (and one more wrong try); None, changing
        nothing, if the stored exercise is no longer ``run`` (another press won)."""
        tries = run.tries + (1 if wrong_try else 0)
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE training_runs SET tokens = ?, tries = ?, updated_at = ? "
                "WHERE user_id = ? AND kind = ? AND item = ? AND tokens = ? AND tries = ?",
                (
                    _join(tokens),
                    tries,
                    time.time(),
                    run.user_id,
                    run.kind,
                    run.item,
                    _join(run.tokens),
                    run.tries,
                ),
            )
        if not changed:
            return None
        return Run(run.user_id, run.kind, run.item, tuple(tokens), tries)

    async def close(self, user_id: int) -> None:
        async with self._db.transaction() as conn:
            await conn.execute("DELETE FROM training_runs WHERE user_id = ?", (user_id,))

    # ------------------------------------------------------------------ lessons

    async def pass_lesson(self, run: Run) -> None:
        """The lesson is passed: remember it (the first pass counts) and close it."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO lessons_passed (user_id, lesson, tries, passed_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (user_id, lesson) DO NOTHING",
                (run.user_id, run.item, run.tries + 1, time.time()),
            )
            await conn.execute("DELETE FROM training_runs WHERE user_id = ?", (run.user_id,))

    async def lessons_passed(self, user_id: int) -> dict[str, int]:
        """The lessons the person passed, with the tries each took."""
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT lesson, tries FROM lessons_passed WHERE user_id = ?", (user_id,)
            )
        return {str(r[0]): int(r[1]) for r in rows}

    # ------------------------------------------------------------------ puzzles

    async def puzzle_rating(self, user_id: int) -> PuzzleRating | None:
        async with self._db.read() as conn:
            row = await fetchone(
                conn,
                "SELECT user_id, rating, deviation, volatility, solved, failed, streak, "
                "best_streak FROM puzzle_ratings WHERE user_id = ?",
                (user_id,),
            )
        if row is None:
            return None
        return PuzzleRating(
            int(row[0]),
            float(row[1]),
            float(row[2]),
            float(row[3]),
            int(row[4]),
            int(row[5]),
            int(row[6]),
            int(row[7]),
        )

    async def puzzles_tried(self, user_id: int) -> set[str]:
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT puzzle FROM puzzle_attempts WHERE user_id = ?", (user_id,)
            )
        return {str(r[0]) for r in rows}

    async def record_puzzle(self, run: Run, solved: bool, rating: PuzzleRating | None) -> None:
        """A puzzle's first try is over: store the try and, when it is rated, the new
        rating and streak; the exercise closes either way."""
        now = time.time()
        async with self._db.transaction() as conn:
            if rating is not None:
                await conn.execute(
                    "INSERT INTO puzzle_ratings (user_id, rating, deviation, volatility, solved, "
                    "failed, streak, best_streak, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (user_id) DO UPDATE SET rating = excluded.rating, "
                    "deviation = excluded.deviation, volatility = excluded.volatility, "
                    "solved = excluded.solved, failed = excluded.failed, "
                    "streak = excluded.streak, best_streak = excluded.best_streak, "
                    "updated_at = excluded.updated_at",
                    (
                        rating.user_id,
                        rating.rating,
                        rating.deviation,
                        rating.volatility,
                        rating.solved,
                        rating.failed,
                        rating.streak,
                        rating.best_streak,
                        now,
                    ),
                )
                await conn.execute(
                    "INSERT INTO puzzle_attempts (user_id, puzzle, solved, rating_after, at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, puzzle) DO NOTHING",
                    (run.user_id, run.item, int(solved), rating.rating, now),
                )
            await conn.execute("DELETE FROM training_runs WHERE user_id = ?", (run.user_id,))

    # ------------------------------------------------------------------ daily puzzle

    async def daily_channels(self) -> list[tuple[int, int, str]]:
        """(guild, channel, day last posted or "") of every guild with the daily puzzle on."""
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT c.guild_id, c.value, COALESCE(p.value, '') FROM guild_settings c "
                "LEFT JOIN guild_settings p ON p.guild_id = c.guild_id AND p.key = ? "
                "WHERE c.key = ? ORDER BY c.guild_id",
                (DAILY_POSTED, DAILY_CHANNEL),
            )
        return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]


DAILY_CHANNEL = "daily_puzzle_channel"
DAILY_POSTED = "daily_puzzle_posted"
