"""Which ply each match's board message shows. A crash between storing a move and
editing the board leaves the board behind the game; at start-up the bot compares this
mark with the match's ply and redraws the boards that fell behind, the final ones of
games that ended in the crash included (:mod:`storage.events` says which ends are
still to be shown)."""

from __future__ import annotations

from storage.db import Database


class BoardMarks:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def mark(self, match_id: int, ply: int) -> None:
        """The board message of ``match_id`` now shows the game after ``ply`` steps."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "INSERT INTO board_marks (match_id, ply) VALUES (?, ?) "
                "ON CONFLICT (match_id) DO UPDATE SET ply = excluded.ply",
                (match_id, ply),
            )

    async def shown(self, match_id: int) -> int | None:
        """The ply the board shows; None if no board was ever marked."""
        async with self._db.read() as conn:
            rows = list(
                await conn.fetchall("SELECT ply FROM board_marks WHERE match_id = ?", (match_id,))
            )
        return int(rows[0][0]) if rows else None
