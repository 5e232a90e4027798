"""Which palette boards are drawn in (render/palette.py names them): each person's own,
for what only they see (their cockpit previews, the analyses they ask for), and each
server's default, set by its admins, for the boards of its match threads. A person's is
kept whichever server they play in (``board_palettes``, migration 15); a server's is a
per-server setting (``guild_settings``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from storage.db import Database
from storage.guilds import GuildSettingsRepo
from storage.per_person import PerPersonRepo

SERVER_KEY: Final = "palette"
LONGEST: Final = 32


class PaletteRepo(PerPersonRepo):
    def __init__(self, db: Database) -> None:
        super().__init__(db, "board_palettes", "palette")
        self._guilds = GuildSettingsRepo(db)

    async def set(self, user_id: int, palette: str) -> None:
        if not 0 < len(palette) <= LONGEST:
            raise ValueError(f"a palette's name has 1 to {LONGEST} characters")
        await self._put(user_id, palette)

    async def chosen(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The palette of each of ``user_ids`` who chose one."""
        return await self._of(user_ids)

    async def set_server(self, guild_id: int, palette: str) -> None:
        if not 0 < len(palette) <= LONGEST:
            raise ValueError(f"a palette's name has 1 to {LONGEST} characters")
        await self._guilds.set(guild_id, SERVER_KEY, palette)

    async def server(self, guild_id: int) -> str | None:
        """The server's default for its thread boards, if its admins chose one."""
        return await self._guilds.get(guild_id, SERVER_KEY)
