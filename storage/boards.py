"""Which message is each match's board, and which ply it shows. A crash between storing
a move and bringing the board up to date leaves the board behind the game; at start-up
the bot compares this mark with the match's ply and redraws the boards that fell behind,
the final ones of games that ended in the crash included (:mod:`storage.events` says
which ends are still to be shown).

A new board message and the ply it shows are noted in one write (:meth:`BoardMarkRepo.placed`):
a crash between the two would leave a board noted as the match's but marked behind, and
the restart would post it again.

With several processes on one database, the one bringing a match's board up to date
holds a lease on it (:meth:`BoardMarkRepo.lease`): a process that acted on the match
meanwhile waits for it, so the board posted by one is the board the other replaces."""

from __future__ import annotations

import time

from storage.db import Database
from storage.errors import MatchNotFound
from storage.sql import fetchone

_MARK = (
    "INSERT INTO board_marks (match_id, ply) VALUES (?, ?) "
    "ON CONFLICT (match_id) DO UPDATE SET ply = excluded.ply"
)


class BoardMarkRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def mark(self, match_id: int, ply: int) -> None:
        """The board message of ``match_id`` now shows the game after ``ply`` steps."""
        async with self._db.transaction() as conn:
            await conn.execute(_MARK, (match_id, ply))

    async def placed(self, match_id: int, message_id: int, ply: int) -> None:
        """``message_id`` is now the board of ``match_id``, showing the game after ``ply``
        steps."""
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE matches SET board_message_id = ?, updated_at = ? WHERE id = ?",
                (message_id, time.time(), match_id),
            )
            if changed != 1:
                raise MatchNotFound(match_id)
            await conn.execute(_MARK, (match_id, ply))

    async def shown(self, match_id: int) -> int | None:
        """The ply the board shows; None if no board was ever marked."""
        async with self._db.read() as conn:
            rows = list(
                await conn.fetchall("SELECT ply FROM board_marks WHERE match_id = ?", (match_id,))
            )
        return int(rows[0][0]) if rows else None

    async def lease(self, match_id: int, holder: str, now: float, seconds: float) -> bool:
        """Hold the lease on ``match_id``'s board until ``now + seconds``, if nobody
        else holds it now: in one statement, so of two processes asking at once only
        one gets it."""
        async with self._db.transaction() as conn:
            row = await fetchone(
                conn,
                "INSERT INTO board_leases (match_id, holder, expires) VALUES (?, ?, ?) "
                "ON CONFLICT (match_id) DO UPDATE SET holder = excluded.holder, "
                "expires = excluded.expires "
                "WHERE board_leases.expires <= ? OR board_leases.holder = excluded.holder "
                "RETURNING holder",
                (match_id, holder, now + seconds, now),
            )
        return row is not None

    async def release(self, match_id: int, holder: str) -> None:
        """Give back ``holder``'s lease on the board (one that ran out is another's)."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "DELETE FROM board_leases WHERE match_id = ? AND holder = ?", (match_id, holder)
            )
