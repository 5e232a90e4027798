"""Whether a server was already welcomed: the bot greets a server once, when it joins
(bot/ui/welcome.py), and never again, even after a restart or a second invitation."""

from __future__ import annotations

from storage.db import Database
from storage.guilds import GuildSettingsRepo

WELCOMED = "welcomed"


class Welcomes:
    def __init__(self, db: Database) -> None:
        self._settings = GuildSettingsRepo(db)

    async def done(self, guild_id: int) -> bool:
        return await self._settings.get(guild_id, WELCOMED) is not None

    async def mark(self, guild_id: int) -> None:
        await self._settings.set(guild_id, WELCOMED, "1")
