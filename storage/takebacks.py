"""Takebacks: an agreed return of an active match to an earlier ply.

The step log is append-only (triggers refuse updates and deletions), and the match's
``ply`` is the number of its stored steps, which the game in its snapshot has played. A
takeback both players agreed to is the one deletion allowed besides a deletion request
(:mod:`storage.forget`): in one transaction the steps after the ply taken back to are
deleted, with the trigger lifted and put back, and the match row gets that ply, the
game's snapshot there and its turn (a turn passed by a step taken back is forgotten,
never to be told). The row changes only if it still has the ply the
takeback was agreed at, so a step that slipped in meanwhile makes it fail whole; if
anything fails, the rollback restores steps, trigger and row together.
"""

from __future__ import annotations

import time

from storage.db import Database
from storage.errors import StepConflict
from storage.sql import Conn
from storage.turn_events import taken_back

_DELETE = "DELETE FROM steps WHERE match_id = ? AND ply > ?"


class TakebackRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def take_back(
        self,
        match_id: int,
        from_ply: int,
        to_ply: int,
        snapshot: str,
        *,
        to_move_seat: int | None,
        turn_deadline: float | None,
    ) -> None:
        """Return an active match at ``from_ply`` to ``to_ply`` (fewer steps), with the
        game's ``snapshot`` there. Raises :class:`StepConflict`, changing nothing, when
        the match is not active at ``from_ply``."""
        if not 0 <= to_ply < from_ply:
            raise StepConflict(match_id, to_ply, f"a takeback goes back from ply {from_ply}")
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE matches SET ply = ?, snapshot = ?, to_move_seat = ?, turn_deadline = ?, "
                "updated_at = ? WHERE id = ? AND ply = ? AND status = 'active'",
                (to_ply, snapshot, to_move_seat, turn_deadline, time.time(), match_id, from_ply),
            )
            if changed != 1:
                raise StepConflict(match_id, from_ply, "the match moved on or is over")
            deleted = await _delete_steps(conn, match_id, to_ply)
            if deleted != from_ply - to_ply:
                raise StepConflict(match_id, from_ply, f"{deleted} steps were stored after it")
            await taken_back(conn, match_id, to_ply)


async def _delete_steps(conn: Conn, match_id: int, to_ply: int) -> int:
    if conn.dialect == "postgresql":
        await conn.execute("ALTER TABLE steps DISABLE TRIGGER steps_no_delete")
        deleted = await conn.execute(_DELETE, (match_id, to_ply))
        await conn.execute("ALTER TABLE steps ENABLE TRIGGER steps_no_delete")
        return deleted
    rows = list(
        await conn.fetchall(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'steps_no_delete'"
        )
    )
    await conn.execute("DROP TRIGGER steps_no_delete")
    deleted = await conn.execute(_DELETE, (match_id, to_ply))
    await conn.execute(str(rows[0][0]))
    return deleted
