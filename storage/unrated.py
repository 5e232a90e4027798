"""Matches their players chose to leave unrated: the rating service skips them, and a
takeback is allowed in them. A match is marked once, before its first board is up."""

from __future__ import annotations

from storage.db import Database


class UnratedRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def mark(self, match_id: int) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO unrated_matches (match_id) VALUES (?) ON CONFLICT DO NOTHING",
                (match_id,),
            )

    async def contains(self, match_id: int) -> bool:
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT 1 FROM unrated_matches WHERE match_id = ?", (match_id,)
            )
        return bool(rows)
