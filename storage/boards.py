"""Which message is each match's board, and which ply it shows. A crash between storing
a move and bringing the board up to date leaves the board behind the game; at start-up
the bot compares this mark with the match's ply and redraws the boards that fell behind,
the final ones of games that ended in the crash included (:mod:`storage.events` says
which ends are still to be shown).

A new board message and the ply it shows are noted in one write (:meth:`BoardMarkRepo.placed`):
a crash between the two would leave a board noted as the match's but marked behind, and
the restart would post it again."""

from __future__ import annotations

import time

from storage.db import Database
from storage.errors import MatchNotFound

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
