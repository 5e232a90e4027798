"""What the bot's processes on one token share of Discord's limits.

Discord counts per bot token, not per process: one IDENTIFY per five seconds per bucket
(``shard_id % max_concurrency``), and about 50 rate-limited REST calls per second in all.
Processes that share a database (PostgreSQL, for shards) share these through it:

* :class:`IdentifySlotRepo` hands out identify times, each bucket's at least ``spacing``
  after the one before, in one statement (atomic on both backends, so two processes
  asking at once get two different times);
* :class:`RestLeaseRepo` keeps a lease per live process, so each can take its share of the
  token's REST budget (``bot/pacing.py``); a process that died stops counting once its
  lease runs out.
"""

from __future__ import annotations

from storage.db import Database
from storage.errors import StorageError
from storage.sql import fetchone


class IdentifySlotRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def reserve(self, bucket: int, spacing: float, now: float) -> float:
        """The time (``now``'s clock) at which ``bucket`` may identify: ``now``, or
        ``spacing`` after the time handed out before, whichever is later."""
        async with self._db.transaction() as conn:
            row = await fetchone(
                conn,
                "INSERT INTO identify_slots (bucket, at) VALUES (?, ?) "
                "ON CONFLICT (bucket) DO UPDATE SET at = CASE "
                "WHEN identify_slots.at + ? > ? THEN identify_slots.at + ? ELSE ? END "
                "RETURNING at",
                (bucket, now, spacing, now, spacing, now),
            )
        if row is None:
            raise StorageError("the database did not hand out an identify time")
        return float(row[0])


class RestLeaseRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def renew(self, process: str, now: float, ttl: float) -> int:
        """Hold ``process``'s lease until ``now + ttl``; return how many processes hold
        one now (this one included)."""
        async with self._db.transaction() as conn:
            await conn.execute("DELETE FROM rest_leases WHERE expires <= ?", (now,))
            await conn.execute(
                "INSERT INTO rest_leases (process, expires) VALUES (?, ?) "
                "ON CONFLICT (process) DO UPDATE SET expires = excluded.expires",
                (process, now + ttl),
            )
            row = await fetchone(conn, "SELECT COUNT(*) FROM rest_leases")
        return max(1, int(row[0])) if row is not None else 1

    async def release(self, process: str) -> None:
        async with self._db.transaction() as conn:
            await conn.execute("DELETE FROM rest_leases WHERE process = ?", (process,))
