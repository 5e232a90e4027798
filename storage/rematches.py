"""Rematch offers (:mod:`bot.services.rematch`): a stored request with its own id, one
per finished match (a unique index), answered by those asked and
settled once. Every change is a conditional write on the offer still open (and, for a
yes, on the person still waiting), so of two answers racing, in one process or two,
only one changes it: the other finds it changed and is told what became of it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from storage.db import Database
from storage.sql import Conn, fetchone, ids_of, listed_ids

_COLUMNS = (
    "id, match_id, host_id, host_name, rated, asked, waiting, status, closed_by, rematch_id, "
    "channel_id, message_id"
)


@dataclass(frozen=True)
class StoredOffer:
    id: int
    match_id: int
    host_id: int
    host_name: str
    rated: bool
    asked: frozenset[int]
    waiting: frozenset[int]
    status: str  # open, accepted, declined, withdrawn, lapsed (its match not made)
    closed_by: str  # the name of who declined
    rematch_id: int | None  # the new match, once made
    message: tuple[int, int] | None = None  # its channel and message, once posted there


class RematchRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def open(
        self, match_id: int, host_id: int, host_name: str, rated: bool, asked: Iterable[int]
    ) -> StoredOffer | None:
        """A new offer (accepted at once when it asks nobody); None if the match has one
        already (asked for meanwhile, perhaps by another process)."""
        people = frozenset(asked)
        status = "open" if people else "accepted"
        async with self._db.transaction() as conn:
            rows = list(
                await conn.fetchall(
                    "INSERT INTO rematch_offers "
                    "(match_id, host_id, host_name, rated, asked, waiting, status) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (match_id) WHERE status <> 'lapsed' DO NOTHING RETURNING id",
                    (
                        match_id,
                        host_id,
                        host_name,
                        int(rated),
                        listed_ids(people),
                        listed_ids(people),
                        status,
                    ),
                )
            )
        if not rows:
            return None
        return StoredOffer(
            int(rows[0][0]), match_id, host_id, host_name, rated, people, people, status, "", None
        )

    async def get(self, offer_id: int) -> StoredOffer | None:
        async with self._db.read() as conn:
            return await _one(conn, offer_id)

    async def of_match(self, match_id: int) -> StoredOffer | None:
        """The match's offer, unless it lapsed."""
        async with self._db.read() as conn:
            row = await fetchone(
                conn,
                f"SELECT {_COLUMNS} FROM rematch_offers WHERE match_id = ? AND status <> 'lapsed'",
                (match_id,),
            )
        return None if row is None else _offer(row)

    async def accept(self, offer_id: int, user_id: int) -> StoredOffer | None:
        """``user_id``'s yes, if the offer is open and waits for it; the last yes
        accepts the offer in the same transaction. None if it changed nothing."""
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE rematch_offers SET waiting = REPLACE(waiting, ?, ',') "
                "WHERE id = ? AND status = 'open' AND waiting LIKE ?",
                (f",{user_id},", offer_id, f"%,{user_id},%"),
            )
            if changed != 1:
                return None
            await conn.execute(
                "UPDATE rematch_offers SET status = 'accepted' WHERE id = ? AND waiting = ','",
                (offer_id,),
            )
            return await _one(conn, offer_id)

    async def close(self, offer_id: int, status: str, by: str) -> bool:
        """Decline or withdraw an open offer; False if it was no longer open."""
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE rematch_offers SET status = ?, closed_by = ? "
                "WHERE id = ? AND status = 'open'",
                (status, by, offer_id),
            )
        return changed == 1

    async def placed(self, offer_id: int, channel_id: int, message_id: int) -> None:
        """Where the offer's message is, for whichever process settles it."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE rematch_offers SET channel_id = ?, message_id = ? WHERE id = ?",
                (channel_id, message_id, offer_id),
            )

    async def made(self, offer_id: int, rematch_id: int) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE rematch_offers SET rematch_id = ? WHERE id = ?", (rematch_id, offer_id)
            )

    async def lapse(self, offer_id: int) -> None:
        """An accepted offer whose match could not be made: Rematch may be asked again."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE rematch_offers SET status = 'lapsed' WHERE id = ? AND rematch_id IS NULL",
                (offer_id,),
            )


async def _one(conn: Conn, offer_id: int) -> StoredOffer | None:
    row = await fetchone(conn, f"SELECT {_COLUMNS} FROM rematch_offers WHERE id = ?", (offer_id,))
    return None if row is None else _offer(row)


def _offer(row: Sequence[Any]) -> StoredOffer:
    return StoredOffer(
        id=int(row[0]),
        match_id=int(row[1]),
        host_id=int(row[2]),
        host_name=str(row[3]),
        rated=bool(row[4]),
        asked=ids_of(str(row[5])),
        waiting=ids_of(str(row[6])),
        status=str(row[7]),
        closed_by=str(row[8]),
        rematch_id=None if row[9] is None else int(row[9]),
        message=None if row[11] is None else (int(row[10]), int(row[11])),
    )
