"""What follows a match's end, exactly once across races, restarts and processes.

The write that ends a match (its last step, or an abort) adds the match's ``finished``
or ``aborted`` row in the same transaction: a match ends once, so its end is recorded
once, whichever press or process got there. Everything shown after the end is a step
of its own, keyed by match and name (``ratings``, ``scoreboard`` …) and marked done
once shown; the end itself is marked done when all its steps are. At start-up each
process carries on the ends it owns that are not done (:meth:`MatchEvents.pending`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from storage.db import Database
from storage.match_records import MatchStatus
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
    await conn.execute(
        "INSERT INTO match_events (match_id, kind, created_at) VALUES (?, ?, ?) "
        "ON CONFLICT (match_id, kind) DO NOTHING",
        (match_id, kind, at),
    )


class MatchEvents:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def done(self, match_id: int, kind: str) -> None:
        """``kind`` of ``match_id`` has been shown (an end, or one of its steps)."""
        now = time.time()
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO match_events (match_id, kind, created_at, done_at) "
                "VALUES (?, ?, ?, ?) "
                "ON CONFLICT (match_id, kind) DO UPDATE SET done_at = excluded.done_at",
                (match_id, kind, now, now),
            )

    async def is_done(self, match_id: int, kind: str) -> bool:
        async with self._db.read() as conn:
            rows = list(
                await conn.fetchall(
                    "SELECT 1 FROM match_events "
                    "WHERE match_id = ? AND kind = ? AND done_at IS NOT NULL",
                    (match_id, kind),
                )
            )
        return bool(rows)

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
