"""One value stored per person (a locale, a choice of DMs): a row keyed by their user id,
written whole and read for several people at once."""

from __future__ import annotations

import time
from collections.abc import Sequence

from storage.db import Database


class PerPersonRepo:
    """The value in ``column`` of ``table`` (keyed by ``user_id``, with ``updated_at``)."""

    def __init__(self, db: Database, table: str, column: str) -> None:
        self._db = db
        self._table = table
        self._column = column

    async def _put(self, user_id: int, value: str) -> None:
        table, column = self._table, self._column
        async with self._db.transaction() as conn:
            await conn.execute(
                f"INSERT INTO {table} (user_id, {column}, updated_at) VALUES (?, ?, ?) "
                f"ON CONFLICT (user_id) DO UPDATE SET {column} = excluded.{column}, "
                "updated_at = excluded.updated_at",
                (user_id, value, time.time()),
            )

    async def _of(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The stored value of each of ``user_ids`` that has one."""
        rows = await self._db.rows_in(
            f"SELECT user_id, {self._column} FROM {self._table} WHERE user_id IN ({{marks}})",
            user_ids,
        )
        return {int(r[0]): str(r[1]) for r in rows}
