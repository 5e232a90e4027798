"""Vacations: spans of time in which a person's turn clocks cannot run out, and the
turn deadlines pushed past them (:mod:`bot.services.vacations` decides both)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.db import Database


@dataclass(frozen=True)
class Vacation:
    user_id: int
    starts: float
    ends: float


class VacationRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(self, user_id: int, starts: float, ends: float) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO vacations (user_id, starts, ends) VALUES (?, ?, ?)",
                (user_id, starts, ends),
            )

    async def end_now(self, user_id: int, now: float) -> int:
        """End the person's vacations still running at ``now``; returns how many."""
        async with self._db.transaction() as conn:
            return await conn.execute(
                "UPDATE vacations SET ends = ? WHERE user_id = ? AND starts <= ? AND ends > ?",
                (now, user_id, now, now),
            )

    async def since(self, user_id: int, since: float) -> list[Vacation]:
        """The person's vacations that started at ``since`` or later, oldest first."""
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT user_id, starts, ends FROM vacations WHERE user_id = ? AND starts >= ? "
                "ORDER BY starts",
                (user_id, since),
            )
        return [Vacation(int(r[0]), float(r[1]), float(r[2])) for r in rows]

    async def running(self, user_ids: Sequence[int], now: float) -> dict[int, float]:
        """Of ``user_ids``, those on vacation at ``now``, with when it ends."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                f"SELECT user_id, MAX(ends) FROM vacations WHERE user_id IN ({marks}) "
                "AND starts <= ? AND ends > ? GROUP BY user_id",
                (*user_ids, now, now),
            )
        return {int(r[0]): float(r[1]) for r in rows}

    async def push_deadline(self, match_id: int, deadline: float) -> None:
        """Move an active match's turn deadline later (never earlier)."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE matches SET turn_deadline = ? WHERE id = ? AND status = 'active' "
                "AND turn_deadline IS NOT NULL AND turn_deadline < ?",
                (deadline, match_id, deadline),
            )
