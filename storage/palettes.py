"""Which palette boards are drawn in (render/palette.py names them): each person's own,
for what only they see (their cockpit previews, the analyses they ask for), and each
server's default, set by its admins, for the boards of its match threads. A person's is
kept whichever server they play in (``board_palettes``, migration 15); a server's is a
per-server setting (``guild_settings``)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Final

from storage.db import Database
from storage.guilds import GuildSettingsRepo

SERVER_KEY: Final = "palette"
LONGEST: Final = 32


class PaletteRepo:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._guilds = GuildSettingsRepo(db)

    async def set(self, user_id: int, palette: str) -> None:
        if not 0 < len(palette) <= LONGEST:
            raise ValueError(f"a palette's name has 1 to {LONGEST} characters")
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO board_palettes (user_id, palette, updated_at) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET palette = excluded.palette, "
                "updated_at = excluded.updated_at",
                (user_id, palette, time.time()),
            )

    async def chosen(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The palette of each of ``user_ids`` who chose one."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                f"SELECT user_id, palette FROM board_palettes WHERE user_id IN ({marks})",
                tuple(user_ids),
            )
        return {int(r[0]): str(r[1]) for r in rows}

    async def set_server(self, guild_id: int, palette: str) -> None:
        if not 0 < len(palette) <= LONGEST:
            raise ValueError(f"a palette's name has 1 to {LONGEST} characters")
        await self._guilds.set(guild_id, SERVER_KEY, palette)

    async def server(self, guild_id: int) -> str | None:
        """The server's default for its thread boards, if its admins chose one."""
        return await self._guilds.get(guild_id, SERVER_KEY)
