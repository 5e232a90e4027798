"""Ratings: each player's current rating per mode family, and the history of every
change, so ratings can be recomputed from the matches when the formula changes.

The rating service computes new values (mu and sigma, as in TrueSkill-like systems);
this module stores them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from storage.db import Database
from storage.sql import fetchone


@dataclass(frozen=True)
class StoredRating:
    user_id: int
    mode_family: str  # duel, ffa, cod or team
    mu: float
    sigma: float
    games: int
    updated_at: float


@dataclass(frozen=True)
class RatingChange:
    user_id: int
    mu: float
    sigma: float


@dataclass(frozen=True)
class RatingHistory:
    id: int
    user_id: int
    mode_family: str
    match_id: int | None
    mu_before: float | None  # None: the player's first rated game in this family
    sigma_before: float | None
    mu_after: float
    sigma_after: float
    at: float


_COLUMNS = "user_id, mode_family, mu, sigma, games, updated_at"


class RatingRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, user_id: int, mode_family: str) -> StoredRating | None:
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                f"SELECT {_COLUMNS} FROM ratings WHERE user_id = ? AND mode_family = ?",
                (user_id, mode_family),
            )
        return next((StoredRating(*r) for r in rows), None)

    async def leaderboard(self, mode_family: str, limit: int = 10) -> list[StoredRating]:
        """The highest ``mu`` first; the rating service may rank differently."""
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                f"SELECT {_COLUMNS} FROM ratings WHERE mode_family = ? "
                "ORDER BY mu DESC, user_id LIMIT ?",
                (mode_family, limit),
            )
        return [StoredRating(*r) for r in rows]

    async def apply(
        self, mode_family: str, match_id: int | None, changes: Sequence[RatingChange]
    ) -> None:
        """Store the new ratings after one game, all players at once, with history."""
        now = time.time()
        async with self._db.transaction() as conn:
            for change in changes:
                before = await fetchone(
                    conn,
                    "SELECT mu, sigma FROM ratings WHERE user_id = ? AND mode_family = ?",
                    (change.user_id, mode_family),
                )
                mu_before, sigma_before = before if before is not None else (None, None)
                await conn.execute(
                    "INSERT INTO rating_history (user_id, mode_family, match_id, mu_before, "
                    "sigma_before, mu_after, sigma_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        change.user_id,
                        mode_family,
                        match_id,
                        mu_before,
                        sigma_before,
                        change.mu,
                        change.sigma,
                        now,
                    ),
                )
                await conn.execute(
                    f"INSERT INTO ratings ({_COLUMNS}) VALUES (?, ?, ?, ?, 1, ?) "
                    "ON CONFLICT (user_id, mode_family) DO UPDATE SET mu = excluded.mu, "
                    "sigma = excluded.sigma, games = ratings.games + 1, "
                    "updated_at = excluded.updated_at",
                    (change.user_id, mode_family, change.mu, change.sigma, now),
                )

    async def history(self, user_id: int, mode_family: str) -> list[RatingHistory]:
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT id, user_id, mode_family, match_id, mu_before, sigma_before, mu_after, "
                "sigma_after, at FROM rating_history WHERE user_id = ? AND mode_family = ? "
                "ORDER BY id",
                (user_id, mode_family),
            )
        return [RatingHistory(*r) for r in rows]

    async def reset(self, mode_family: str) -> None:
        """Forget every rating and history row of a family, before recomputing it."""
        async with self._db.transaction() as conn:
            await conn.execute("DELETE FROM rating_history WHERE mode_family = ?", (mode_family,))
            await conn.execute("DELETE FROM ratings WHERE mode_family = ?", (mode_family,))
