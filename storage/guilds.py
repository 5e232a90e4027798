"""Per-guild settings, as text values under names the bot chooses."""

from __future__ import annotations

import time

from storage.db import Database


class GuildSettingsRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, guild_id: int, key: str) -> str | None:
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?",
                (guild_id, key),
            )
        return next((str(r[0]) for r in rows), None)

    async def set(self, guild_id: int, key: str, value: str) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, key, value, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value, "
                "updated_at = excluded.updated_at",
                (guild_id, key, value, time.time()),
            )

    async def delete(self, guild_id: int, key: str) -> bool:
        """Forget a setting; False if it was not set."""
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
            )
            return changed > 0
