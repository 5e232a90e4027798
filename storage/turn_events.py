"""The turn passed in each match, told exactly once across races, restarts and processes.

A match has one row, its last turn passed: the step that passes the turn writes it (the
ply from which another player is to move, and who passed it) in the same transaction as
the step itself, so a turn passes once and is recorded once, at no extra write per
action. The row is done once the turn has been told (the DM to the player now to move).
A later turn passed replaces the row, so an older turn never told is dropped unseen: by
then someone else is to move, and a DM about it would be false. At start-up each
process tells the turns of the matches it owns that are still being played and not yet
told (:meth:`TurnEventRepo.pending`); a match that ended since is not told either.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from storage.db import Database
from storage.sql import Conn


@dataclass(frozen=True)
class PendingTurn:
    match_id: int
    guild_id: int | None
    ply: int  # the turn is another's from this ply on
    actor_id: int | None  # who passed it (None: the computer, a clock)


async def passed(conn: Conn, match_id: int, ply: int, actor_id: int | None, at: float) -> None:
    """Inside the transaction of step ``ply`` of ``match_id``, which passed the turn:
    record it, to be told (replacing the match's previous turn, told or not)."""
    await conn.execute(
        "INSERT INTO turn_events (match_id, ply, actor_id, created_at, done_at) "
        "VALUES (?, ?, ?, ?, NULL) ON CONFLICT (match_id) DO UPDATE SET "
        "ply = excluded.ply, actor_id = excluded.actor_id, "
        "created_at = excluded.created_at, done_at = NULL",
        (match_id, ply, actor_id, at),
    )


async def taken_back(conn: Conn, match_id: int, to_ply: int) -> None:
    """Inside the transaction of a takeback to ``to_ply``: a turn passed by a step taken
    back never happened, so it is never told."""
    await conn.execute("DELETE FROM turn_events WHERE match_id = ? AND ply > ?", (match_id, to_ply))


class TurnEventRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def done(self, match_id: int, ply: int) -> bool:
        """The turn passed at ``ply`` has been told (or is stale). Returns whether this
        call marked it: False if it was marked before, or a later turn replaced it."""
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE turn_events SET done_at = ? "
                "WHERE match_id = ? AND ply = ? AND done_at IS NULL",
                (time.time(), match_id, ply),
            )
        return changed == 1

    async def pending(self) -> list[PendingTurn]:
        """Every turn passed and not yet told in a match still being played, with the
        match's guild (only its owner may tell it)."""
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT t.match_id, m.guild_id, t.ply, t.actor_id FROM turn_events t "
                "JOIN matches m ON m.id = t.match_id "
                "WHERE t.done_at IS NULL AND m.status = 'active' ORDER BY t.match_id",
            )
        return [
            PendingTurn(
                int(r[0]),
                None if r[1] is None else int(r[1]),
                int(r[2]),
                None if r[3] is None else int(r[3]),
            )
            for r in rows
        ]
