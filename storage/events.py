"""What follows a match's end, exactly once across races, restarts and processes.

The write that ends a match (its last step, or an abort) adds the match's ``finished``
or ``aborted`` row in the same transaction: a match ends once, so its end is recorded
once, whichever press or process got there. Everything shown after the end is a step
of its own, keyed by match and name (``ratings``, ``scoreboard`` …) and marked done
once shown; the end itself is marked done when all its steps are. At start-up each
process carries on the ends it owns that are not done (:meth:`MatchEventRepo.pending`).
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.db import Database
from storage.match_records import MatchStatus
from storage.outbox import OutboxRepo, record
from storage.sql import Conn

ENDS = ("finished", "aborted")


@dataclass(frozen=True)
class PendingEnd:
    match_id: int
    guild_id: int | None
    kind: str  # one of ENDS


async def ended(conn: Conn, match_id: int, status: MatchStatus, at: float) -> None:
    """Inside the transaction that ends ``match_id``: record its end, to be shown."""
    kind = "aborted" if status is MatchStatus.ABANDONED else "finished"
    await record(conn, "match_events", "match_id", match_id, kind, at)


class MatchEventRepo(OutboxRepo):
    """A match's end and the steps shown after it (``done``, ``is_done``), and the ends
    a restart must carry on."""

    def __init__(self, db: Database) -> None:
        super().__init__(db, "match_events", "match_id")

    async def pending(self) -> list[PendingEnd]:
        """Every match end not yet shown in full, oldest first, with the match's guild
        (only its owner may show it)."""
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT e.match_id, m.guild_id, e.kind FROM match_events e "
                "JOIN matches m ON m.id = e.match_id "
                "WHERE e.done_at IS NULL AND e.kind IN (?, ?) ORDER BY e.match_id",
                ENDS,
            )
        return [PendingEnd(int(r[0]), None if r[1] is None else int(r[1]), str(r[2])) for r in rows]
