"""Each person's choice of DMs about their games: ``off`` (the default), ``turn`` (every
turn that passes to them, and a clock running low) or ``clock`` (only a clock running
low). Stored per person, whichever server they play in."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Final

from storage.db import Database

LEVELS: Final = ("off", "turn", "clock")


class NotifyRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def set(self, user_id: int, level: str) -> None:
        if level not in LEVELS:
            raise ValueError(f"a notification level is one of {', '.join(LEVELS)}")
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO notify_settings (user_id, level, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET level = excluded.level, "
                "updated_at = excluded.updated_at",
                (user_id, level, time.time()),
            )

    async def levels(self, user_ids: Sequence[int]) -> dict[int, str]:
        """Each person's level; ``off`` for whoever never chose."""
        found = dict.fromkeys(user_ids, "off")
        if not user_ids:
            return found
        marks = ", ".join("?" for _ in user_ids)
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                f"SELECT user_id, level FROM notify_settings WHERE user_id IN ({marks})",
                tuple(user_ids),
            )
        found.update({int(r[0]): str(r[1]) for r in rows})
        return found
