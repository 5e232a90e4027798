"""Vacations: spans of time in which a person's turn clocks cannot run out, and the
turn deadlines pushed past them (:mod:`bot.services.vacations` decides both)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from storage.db import Database
from storage.live_index import DUE_FROM_DEADLINE
from storage.sql import Conn


@dataclass(frozen=True)
class Vacation:
    user_id: int
    starts: float
    ends: float


@dataclass(frozen=True)
class Allowance:
    """What a person's vacations were when one more was asked for: the end of one
    running then (None if none), and the seconds of those started in the window."""

    running_until: float | None
    used: float


Allows = Callable[[Allowance], bool]
_LOCKS = 0x7661_6361  # PostgreSQL advisory locks of vacations: (this, the person's id)


class VacationRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def add(self, user_id: int, starts: float, ends: float) -> None:
        async with self._db.transaction() as conn:
            await _insert(conn, user_id, starts, ends)

    async def add_if(
        self, user_id: int, starts: float, ends: float, since: float, allows: Allows
    ) -> tuple[Allowance, bool]:
        """Add the vacation if ``allows`` the person's vacations as they stand, read in
        the same transaction (SQLite's one writer; on PostgreSQL a lock per person), so
        two requests at once cannot both count on the same days. Returns what was read
        and whether the vacation was added."""
        async with self._db.transaction() as conn:
            if conn.dialect == "postgresql":
                lock = (_LOCKS, user_id % 2**31)
                await conn.fetchall("SELECT pg_advisory_xact_lock(?, ?)", lock)
            running = await conn.fetchall(
                "SELECT MAX(ends) FROM vacations WHERE user_id = ? AND starts <= ? AND ends > ?",
                (user_id, starts, starts),
            )
            taken = await conn.fetchall(
                "SELECT starts, ends FROM vacations WHERE user_id = ? AND starts >= ?",
                (user_id, since),
            )
            until = running[0][0] if running else None
            used = sum(min(float(r[1]), starts) - float(r[0]) for r in taken)
            found = Allowance(None if until is None else float(until), used)
            if not allows(found):
                return found, False
            await _insert(conn, user_id, starts, ends)
            return found, True

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
        rows = await self._db.rows_in(
            "SELECT user_id, MAX(ends) FROM vacations WHERE user_id IN ({marks}) "
            "AND starts <= ? AND ends > ? GROUP BY user_id",
            user_ids,
            now,
            now,
        )
        return {int(r[0]): float(r[1]) for r in rows}

    async def people_since(self, since: float) -> list[int]:
        """Who is on vacation, or came back from one, since ``since``."""
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT DISTINCT user_id FROM vacations WHERE ends > ? ORDER BY user_id", (since,)
            )
        return [int(r[0]) for r in rows]

    async def pull_deadline(self, match_id: int, deadline: float) -> None:
        """Move an active match's turn deadline earlier (never later): a vacation ended
        early gives back the time it added."""
        async with self._db.transaction() as conn:
            await conn.execute(
                f"UPDATE matches SET turn_deadline = ?, {DUE_FROM_DEADLINE} WHERE id = ? "
                "AND status = 'active' AND turn_deadline IS NOT NULL AND turn_deadline > ?",
                (deadline, deadline, match_id, deadline),
            )

    async def push_deadline(self, match_id: int, deadline: float) -> None:
        """Move an active match's turn deadline later (never earlier)."""
        async with self._db.transaction() as conn:
            await conn.execute(
                f"UPDATE matches SET turn_deadline = ?, {DUE_FROM_DEADLINE} WHERE id = ? "
                "AND status = 'active' AND turn_deadline IS NOT NULL AND turn_deadline < ?",
                (deadline, deadline, match_id, deadline),
            )


async def _insert(conn: Conn, user_id: int, starts: float, ends: float) -> None:
    await conn.execute(
        "INSERT INTO vacations (user_id, starts, ends) VALUES (?, ?, ?)", (user_id, starts, ends)
    )
