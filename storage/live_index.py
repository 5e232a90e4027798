"""Which active matches need this process, asked of storage rather than of memory.

A bot holds in memory only the matches being touched (``bot.services.live_set``); the
rest are rows. What it must find among all of them is asked here, in SQL, for its own
shards only: the turn clocks due before a time (``clock_due``, indexed: the reminder,
then the deadline), the boards behind their game and the computer's turns a restart
carries on, a place's or a person's live matches. Each answer is match ids, ordered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from storage.db import Database
from storage.errors import MatchNotFound

# A deadline written anew (the parameter, given twice) is first due at its reminder.
DUE_FROM_DEADLINE = "clock_due = ? - COALESCE(remind_seconds, 0)"


class Owner(Protocol):
    """The shards a process runs: a guild's matches are shard
    ``(guild_id >> 22) % count``'s, a direct message's shard 0's, as on Discord."""

    @property
    def count(self) -> int: ...

    @property
    def ids(self) -> tuple[int, ...]: ...


def owned(shards: Owner, table: str = "m") -> tuple[str, tuple[int, ...]]:
    """The SQL condition (and its parameters) that a match row is one of ``shards``'."""
    if shards.count == 1:
        return "TRUE", ()
    marks = ", ".join("?" for _ in shards.ids)
    return (
        f"((COALESCE({table}.guild_id, 0) >> 22) % ?) IN ({marks})",
        (shards.count, *shards.ids),
    )


class LiveIndexRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def _ids(self, sql: str, params: Sequence[Any]) -> list[int]:
        async with self._db.read() as conn:
            rows = await conn.fetchall(sql, params)
        return [int(r[0]) for r in rows]

    async def due(self, before: float, shards: Owner) -> list[int]:
        """The active matches of ``shards`` whose turn clock is due by ``before`` (read
        through the ``clock_due`` index), soonest first."""
        mine, params = owned(shards)
        return await self._ids(
            "SELECT m.id FROM matches m WHERE m.clock_due IS NOT NULL AND m.clock_due <= ? "
            f"AND m.status = 'active' AND {mine} ORDER BY m.clock_due, m.id",
            (before, *params),
        )

    async def set_due(self, match_id: int, due: float | None) -> None:
        """When the match's clock is next due (None: nothing to do until a step)."""
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE matches SET clock_due = ? WHERE id = ?", (due, match_id)
            )
            if changed != 1:
                raise MatchNotFound(match_id)

    async def active(
        self,
        shards: Owner,
        *,
        guild_id: int | None = None,
        place: int | None = None,
        user_id: int | None = None,
        limit: int | None = None,
    ) -> list[int]:
        """The active matches of ``shards``: of a guild, played in a channel or thread
        (``place``), or with a person seated; the oldest first."""
        mine, params = owned(shards)
        where: list[str] = [f"m.status = 'active' AND {mine}"]
        values: list[Any] = [*params]
        if guild_id is not None:
            where.append("m.guild_id = ?")
            values.append(guild_id)
        if place is not None:
            where.append("(m.channel_id = ? OR m.thread_id = ?)")
            values += [place, place]
        if user_id is not None:
            where.append("m.id IN (SELECT s.match_id FROM seats s WHERE s.user_id = ?)")
            values.append(user_id)
        sql = f"SELECT m.id FROM matches m WHERE {' AND '.join(where)} ORDER BY m.id"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return await self._ids(sql, values)

    async def in_thread(self, thread_id: int) -> int | None:
        """The match played in a thread: the active one, else the latest."""
        found = await self._ids(
            "SELECT id FROM matches WHERE thread_id = ? "
            "ORDER BY status = 'active' DESC, id DESC LIMIT 1",
            (thread_id,),
        )
        return found[0] if found else None

    async def count(self, shards: Owner) -> int:
        mine, params = owned(shards)
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                f"SELECT COUNT(*) FROM matches m WHERE m.status = 'active' AND {mine}", params
            )
        return int(rows[0][0])

    async def computers_to_move(self, shards: Owner) -> list[int]:
        """The active matches of ``shards`` where the computer is to move."""
        mine, params = owned(shards)
        return await self._ids(
            "SELECT m.id FROM seats s JOIN matches m ON m.id = s.match_id "
            "AND m.to_move_seat = s.seat WHERE s.user_id IS NULL "
            f"AND m.status = 'active' AND {mine} ORDER BY m.id",
            params,
        )

    async def boards_behind(self, shards: Owner, before: float) -> list[int]:
        """The active matches of ``shards`` last changed before ``before`` whose board
        shows another ply than their game's (or was never marked)."""
        mine, params = owned(shards)
        return await self._ids(
            "SELECT m.id FROM matches m LEFT JOIN board_marks b ON b.match_id = m.id "
            f"WHERE m.status = 'active' AND m.updated_at < ? AND {mine} "
            "AND (b.ply IS NULL OR b.ply <> m.ply) ORDER BY m.id",
            (before, *params),
        )

    async def clocked_for(self, user_ids: Sequence[int], shards: Owner) -> list[int]:
        """The active matches of ``shards`` with a running clock whose player to move is
        one of ``user_ids``."""
        if not user_ids:
            return []
        mine, params = owned(shards)
        marks = ", ".join("?" for _ in user_ids)
        return await self._ids(
            "SELECT m.id FROM matches m JOIN seats s ON s.match_id = m.id "
            f"AND s.seat = m.to_move_seat WHERE s.user_id IN ({marks}) "
            f"AND m.turn_deadline IS NOT NULL AND m.status = 'active' AND {mine} ORDER BY m.id",
            (*user_ids, *params),
        )
