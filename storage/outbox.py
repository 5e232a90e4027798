"""What happened to a match or an event, to be shown exactly once: a row keyed by its
owner (a match, a tournament) and a kind, added in the transaction that made it happen
and marked done once shown. :mod:`storage.events` (a match's end and its steps) and
:mod:`storage.tournament_events` (a tournament's end) each keep one such table."""

from __future__ import annotations

import time

from storage.db import Database
from storage.sql import Conn


async def record(conn: Conn, table: str, owner: str, owner_id: int, kind: str, at: float) -> None:
    """Inside the transaction that made ``kind`` happen to ``owner_id``: record it, to be
    shown (once, however many writers record it)."""
    await conn.execute(
        f"INSERT INTO {table} ({owner}, kind, created_at) VALUES (?, ?, ?) "
        f"ON CONFLICT ({owner}, kind) DO NOTHING",
        (owner_id, kind, at),
    )


class OutboxRepo:
    """The rows of ``table``, whose owner column is ``owner`` (both fixed names, never
    input)."""

    def __init__(self, db: Database, table: str, owner: str) -> None:
        self._db = db
        self._table = table
        self._owner = owner

    async def done(self, owner_id: int, kind: str) -> None:
        """``kind`` of ``owner_id`` has been shown."""
        now = time.time()
        async with self._db.transaction() as conn:
            await conn.execute(
                f"INSERT INTO {self._table} ({self._owner}, kind, created_at, done_at) "
                "VALUES (?, ?, ?, ?) "
                f"ON CONFLICT ({self._owner}, kind) DO UPDATE SET done_at = excluded.done_at",
                (owner_id, kind, now, now),
            )

    async def is_done(self, owner_id: int, kind: str) -> bool:
        async with self._db.read() as conn:
            rows = list(
                await conn.fetchall(
                    f"SELECT 1 FROM {self._table} "
                    f"WHERE {self._owner} = ? AND kind = ? AND done_at IS NOT NULL",
                    (owner_id, kind),
                )
            )
        return bool(rows)
