"""Each person's Discord locale (``de``, ``en-GB``, ``es-419``…) as their latest
interaction told it: Discord tells a bot a person's language only with an interaction of
theirs, and a DM about their game is sent when someone else acts
(:mod:`bot.services.locales` decides when to write)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from storage.db import Database
from storage.per_person import PerPersonRepo

LONGEST: Final = 16  # Discord's locales are at most 5 characters (``zh-TW``); room to spare


class LocaleRepo(PerPersonRepo):
    def __init__(self, db: Database) -> None:
        super().__init__(db, "user_locales", "locale")

    async def set(self, user_id: int, locale: str) -> None:
        if not 0 < len(locale) <= LONGEST:
            raise ValueError(f"a locale has 1 to {LONGEST} characters")
        await self._put(user_id, locale)

    async def get(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The stored locale of each of ``user_ids`` the bot has heard from."""
        return await self._of(user_ids)
