"""Takebacks: an agreed return of an active match to an earlier ply.

A takeback is asked for first (:meth:`TakebackRepo.ask`): a stored request with its own
id, the ply it was asked at and the ply it goes back to, who must agree and who has. It
is answered by those asked, one at a time (:meth:`TakebackRepo.answer`), and settled
once: done, declined, or stale (a takeback of the match was done since, so the game it
was asked about is gone even if the ply came back). It acts only while the match is
still active at its ply, so a step stored meanwhile (an acknowledged move) makes it
fail whole.

The step log is append-only (triggers refuse updates and deletions), and the match's
``ply`` is the number of its stored steps, which the game in its snapshot has played. A
takeback everyone agreed to is the one deletion allowed besides a deletion request
(:mod:`storage.forget`): in the transaction that records the last yes the steps after
the ply taken back to are deleted, with the trigger lifted and put back, and the match
row gets that ply, the game's snapshot there and its turn (a turn passed by a step
taken back is forgotten, never to be told). If anything fails, the rollback restores
steps, trigger, row and request together.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from storage.db import Database
from storage.errors import StepConflict
from storage.live_index import DUE_FROM_DEADLINE
from storage.matches import lapse_draw_offers
from storage.sql import Conn, Row, fetchone, ids_of, listed_ids
from storage.turn_events import taken_back

_DELETE = "DELETE FROM steps WHERE match_id = ? AND ply > ?"
_COLUMNS = "id, match_id, asker_id, at_ply, to_ply, asked, agreed, status"


@dataclass(frozen=True)
class Takeback:
    id: int
    match_id: int
    asker_id: int
    at_ply: int
    to_ply: int
    asked: frozenset[int]  # the other people in the match, who must agree
    agreed: frozenset[int]
    status: str  # open, done, no (declined), stale


@dataclass(frozen=True)
class Position:
    """The match as the takeback leaves it: the game's snapshot at ``to_ply``, whose
    turn it is and the turn's deadline."""

    snapshot: str
    to_move_seat: int | None
    turn_deadline: float | None


class Answer(Enum):
    DONE = "done"  # this yes was the last: the match went back
    WAITING = "waiting"  # counted; others must still agree
    DECLINED = "declined"
    STALE = "stale"  # the match moved on, ended, or another takeback was done


class TakebackRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def ask(
        self, match_id: int, asker_id: int, at_ply: int, to_ply: int, asked: Iterable[int]
    ) -> Takeback:
        if not 0 <= to_ply < at_ply:
            raise StepConflict(match_id, to_ply, f"a takeback goes back from ply {at_ply}")
        people = frozenset(asked)
        async with self._db.transaction() as conn:
            new = await conn.insert(
                "INSERT INTO takebacks (match_id, asker_id, at_ply, to_ply, asked) "
                "VALUES (?, ?, ?, ?, ?) RETURNING id",
                (match_id, asker_id, at_ply, to_ply, listed_ids(people)),
            )
        return Takeback(new, match_id, asker_id, at_ply, to_ply, people, frozenset(), "open")

    async def get(self, takeback_id: int) -> Takeback | None:
        async with self._db.read() as conn:
            row = await fetchone(
                conn, f"SELECT {_COLUMNS} FROM takebacks WHERE id = ?", (takeback_id,)
            )
        return None if row is None else _takeback(row)

    async def open_at(self, match_id: int, ply: int) -> Takeback | None:
        """The latest takeback of ``match_id`` asked at ``ply`` still open: the one a
        page of the match shows (an older one, or one asked at another ply, is stale)."""
        async with self._db.read() as conn:
            row = await fetchone(
                conn,
                f"SELECT {_COLUMNS} FROM takebacks WHERE match_id = ? AND at_ply = ? "
                "AND status = 'open' ORDER BY id DESC LIMIT 1",
                (match_id, ply),
            )
        return None if row is None else _takeback(row)

    async def answer(
        self, takeback_id: int, user_id: int | None, yes: bool, there: Position
    ) -> Answer:
        """Record ``user_id``'s answer to an open takeback (None: nobody's, for one
        that asks nobody) and, when everyone asked has agreed, take the match back to
        ``there`` — all in one transaction, and only while the match is active at the
        ply the takeback was asked at."""
        async with self._db.transaction() as conn:
            found = await fetchone(
                conn,
                "SELECT t.match_id, t.at_ply, t.to_ply, t.asked, m.ply, m.status "
                "FROM takebacks t JOIN matches m ON m.id = t.match_id "
                "WHERE t.id = ? AND t.status = 'open'",
                (takeback_id,),
            )
            if found is None or (int(found[4]), str(found[5])) != (int(found[1]), "active"):
                return Answer.STALE
            match_id, at_ply, to_ply = int(found[0]), int(found[1]), int(found[2])
            if not yes:
                await _settle(conn, takeback_id, "no")
                return Answer.DECLINED
            if user_id is not None:
                await conn.execute(
                    "UPDATE takebacks SET agreed = agreed || ? WHERE id = ? AND agreed NOT LIKE ?",
                    (f"{user_id},", takeback_id, f"%,{user_id},%"),
                )
            row = await fetchone(conn, "SELECT agreed FROM takebacks WHERE id = ?", (takeback_id,))
            assert row is not None
            if not ids_of(str(found[3])) <= ids_of(str(row[0])):
                return Answer.WAITING
            await _go_back(conn, match_id, at_ply, to_ply, there)
            await lapse_draw_offers(conn, match_id)
            await _settle(conn, takeback_id, "done")
            # the game the others were asked about is gone, even if its ply comes back
            await conn.execute(
                "UPDATE takebacks SET status = 'stale' WHERE match_id = ? AND status = 'open'",
                (match_id,),
            )
            return Answer.DONE


async def _settle(conn: Conn, takeback_id: int, status: str) -> None:
    await conn.execute("UPDATE takebacks SET status = ? WHERE id = ?", (status, takeback_id))


async def _go_back(conn: Conn, match_id: int, from_ply: int, to_ply: int, there: Position) -> None:
    changed = await conn.execute(
        "UPDATE matches SET ply = ?, snapshot = ?, to_move_seat = ?, turn_deadline = ?, "
        f"{DUE_FROM_DEADLINE}, updated_at = ? WHERE id = ? AND ply = ? AND status = 'active'",
        (
            to_ply,
            there.snapshot,
            there.to_move_seat,
            there.turn_deadline,
            there.turn_deadline,
            time.time(),
            match_id,
            from_ply,
        ),
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


def _takeback(row: Row) -> Takeback:
    tid, match_id, asker, at_ply, to_ply = (int(v) for v in row[:5])
    asked, agreed = ids_of(str(row[5])), ids_of(str(row[6]))
    return Takeback(tid, match_id, asker, at_ply, to_ply, asked, agreed, str(row[7]))
