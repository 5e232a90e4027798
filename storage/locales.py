"""Each person's Discord locale (``de``, ``en-GB``, ``es-419``…) as their latest
interaction told it: Discord tells a bot a person's language only with an interaction of
theirs, and a DM about their game is sent when someone else acts
(:mod:`bot.services.locales` decides when to write)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Final

from storage.db import Database

LONGEST: Final = 16  # Discord's locales are at most 5 characters (``zh-TW``); room to spare


class LocaleRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def set(self, user_id: int, locale: str) -> None:
        if not 0 < len(locale) <= LONGEST:
            raise ValueError(f"a locale has 1 to {LONGEST} characters")
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO user_locales (user_id, locale, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, "
                "updated_at = excluded.updated_at",
                (user_id, locale, time.time()),
            )

    async def get(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The stored locale of each of ``user_ids`` the bot has heard from."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                f"SELECT user_id, locale FROM user_locales WHERE user_id IN ({marks})",
                tuple(user_ids),
            )
        return {int(r[0]): str(r[1]) for r in rows}
