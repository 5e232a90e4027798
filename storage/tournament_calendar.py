"""Each tournament's Discord scheduled event: the event that lists it in the server's
events (docs/tournaments.md, "On Discord's calendar"). A tournament has one or none (the
bot may lack Create Events, or Discord refused); an event belongs to one tournament."""

from __future__ import annotations

from storage.db import Database


class TournamentCalendarRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def remember(self, tournament_id: int, event_id: int) -> None:
        """``event_id`` is the scheduled event of ``tournament_id``."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO tournament_calendar (tournament_id, event_id) VALUES (?, ?) "
                "ON CONFLICT (tournament_id) DO UPDATE SET event_id = excluded.event_id",
                (tournament_id, event_id),
            )

    async def event_of(self, tournament_id: int) -> int | None:
        """The scheduled event of ``tournament_id``, if it has one."""
        return await self._other(
            "SELECT event_id FROM tournament_calendar WHERE tournament_id = ?", tournament_id
        )

    async def tournament_of(self, event_id: int) -> int | None:
        """The tournament whose scheduled event ``event_id`` is, if any."""
        return await self._other(
            "SELECT tournament_id FROM tournament_calendar WHERE event_id = ?", event_id
        )

    async def _other(self, query: str, key: int) -> int | None:
        """The other side of the link whose one side is ``key``, if it is linked."""
        async with self._db.read() as conn:
            rows = list(await conn.fetchall(query, (key,)))
        return int(rows[0][0]) if rows else None
