"""A tournament's end, announced exactly once across races and restarts.

The write that finishes an event (:meth:`storage.tournaments.TournamentRepo.set_status`)
adds its ``finished`` row in the same transaction, so an event ends once, however many
advances saw it end. The row is marked done once the final standings and the winner are
posted; a process that died in between finds it :meth:`pending` at its next start.
"""

from __future__ import annotations

from storage.db import Database
from storage.outbox import OutboxRepo, record
from storage.sql import Conn

FINISHED = "finished"


async def ended(conn: Conn, tournament_id: int, at: float) -> None:
    """Inside the transaction that finishes ``tournament_id``: record its end, to be
    announced."""
    await record(conn, "tournament_events", "tournament_id", tournament_id, FINISHED, at)


class TournamentEventRepo(OutboxRepo):
    """A tournament's end (``done``, ``is_done``), and the ends a restart must announce."""

    def __init__(self, db: Database) -> None:
        super().__init__(db, "tournament_events", "tournament_id")

    async def pending(self, guild_id: int) -> list[int]:
        """The events of ``guild_id`` that finished without their end announced."""
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT e.tournament_id FROM tournament_events e "
                "JOIN tournaments t ON t.id = e.tournament_id "
                "WHERE e.done_at IS NULL AND e.kind = ? AND t.guild_id = ? "
                "ORDER BY e.tournament_id",
                (FINISHED, guild_id),
            )
        return [int(r[0]) for r in rows]
