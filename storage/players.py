"""Players: Discord users the bot has seen, with the name to show for each."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from storage.db import Database

if TYPE_CHECKING:
    from storage.sql import Conn

_UPSERT = (
    "INSERT INTO players (user_id, display_name, created_at, updated_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, "
    "updated_at = excluded.updated_at WHERE players.display_name <> excluded.display_name"
)
_ENSURE = (
    "INSERT INTO players (user_id, display_name, created_at, updated_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (user_id) DO NOTHING"
)


@dataclass(frozen=True)
class Player:
    user_id: int
    display_name: str
    created_at: float
    updated_at: float


async def remember(conn: Conn, user_id: int, display_name: str | None) -> None:
    """Inside a write transaction: make sure the player exists, with ``display_name`` if
    given; without a name a new player is shown by id until a name is recorded."""
    now = time.time()
    if display_name is None:
        await conn.execute(_ENSURE, (user_id, str(user_id), now, now))
    else:
        await conn.execute(_UPSERT, (user_id, display_name, now, now))


class PlayerRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, user_id: int) -> Player | None:
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT user_id, display_name, created_at, updated_at FROM players "
                "WHERE user_id = ?",
                (user_id,),
            )
        return next((Player(*r) for r in rows), None)

    async def names(self, user_ids: Iterable[int]) -> dict[int, str]:
        """Display names of the given players that are known."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        async with self._db.read() as conn:
            marks = ",".join("?" * len(wanted))
            rows = await conn.fetchall(
                f"SELECT user_id, display_name FROM players WHERE user_id IN ({marks})", wanted
            )
        return {int(r[0]): str(r[1]) for r in rows}
