"""Challenges to a duel (:mod:`bot.services.challenges`): stored with their own id, so
that every process of a sharded bot answers the same challenge and an open one outlives
a restart. Every answer is a write conditional on the challenge still being open, so of
two answers racing, in one process or two, only one changes it: the other finds it
changed and is told what became of it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from storage.db import Database
from storage.sql import Conn, fetchone

_COLUMNS = (
    "id, guild_id, channel_id, asked_in, host_id, host_name, invited_id, invited_name, "
    "ruleset, planes, fire_mode, variants, clouds, clock, rated, status, match_id, "
    "posted_in, message_id, created"
)


@dataclass(frozen=True)
class NewChallenge:
    guild_id: int | None
    channel_id: int  # where its match is played
    asked_in: int  # where it was asked (that channel, or a thread of it)
    host_id: int
    host_name: str
    invited_id: int
    invited_name: str
    ruleset: str
    planes: int | None
    fire_mode: str
    variants: str  # "a,b"
    clouds: str
    clock: str  # ClockSettings as JSON
    rated: bool
    created: float


@dataclass(frozen=True)
class StoredChallenge(NewChallenge):
    id: int = 0
    status: str = "open"  # open, accepted, declined, withdrawn
    match_id: int | None = None  # once accepted and made
    message: tuple[int, int] | None = None  # its channel and message, once posted there


class ChallengeRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def open(self, new: NewChallenge) -> int:
        async with self._db.transaction() as conn:
            return await conn.insert(
                "INSERT INTO challenges (guild_id, channel_id, asked_in, host_id, host_name, "
                "invited_id, invited_name, ruleset, planes, fire_mode, variants, clouds, clock, "
                "rated, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "RETURNING id",
                (
                    new.guild_id,
                    new.channel_id,
                    new.asked_in,
                    new.host_id,
                    new.host_name,
                    new.invited_id,
                    new.invited_name,
                    new.ruleset,
                    new.planes,
                    new.fire_mode,
                    new.variants,
                    new.clouds,
                    new.clock,
                    int(new.rated),
                    new.created,
                ),
            )

    async def get(self, challenge_id: int) -> StoredChallenge | None:
        async with self._db.read() as conn:
            return await _one(conn, challenge_id)

    async def waiting(self, guild_id: int | None, since: float) -> list[StoredChallenge]:
        """The open challenges of a server asked since ``since``, oldest first."""
        server = "guild_id IS NULL" if guild_id is None else "guild_id = ?"
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                f"SELECT {_COLUMNS} FROM challenges WHERE {server} AND status = 'open' "
                "AND created >= ? ORDER BY id",
                (since,) if guild_id is None else (guild_id, since),
            )
        return [_challenge(row) for row in rows]

    async def close(self, challenge_id: int, status: str) -> bool:
        """Accept, decline or withdraw an open challenge; False if it was no longer open."""
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE challenges SET status = ? WHERE id = ? AND status = 'open'",
                (status, challenge_id),
            )
        return changed == 1

    async def made(self, challenge_id: int, match_id: int) -> None:
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE challenges SET match_id = ? WHERE id = ?", (match_id, challenge_id)
            )

    async def reopen(self, challenge_id: int) -> None:
        """An accepted challenge whose match could not be made: it may be accepted again."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE challenges SET status = 'open' "
                "WHERE id = ? AND status = 'accepted' AND match_id IS NULL",
                (challenge_id,),
            )

    async def placed(self, challenge_id: int, channel_id: int, message_id: int) -> None:
        """Where the challenge's message is, for whichever process settles it."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "UPDATE challenges SET posted_in = ?, message_id = ? WHERE id = ?",
                (channel_id, message_id, challenge_id),
            )


async def _one(conn: Conn, challenge_id: int) -> StoredChallenge | None:
    row = await fetchone(conn, f"SELECT {_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,))
    return None if row is None else _challenge(row)


def _challenge(row: Sequence[Any]) -> StoredChallenge:
    return StoredChallenge(
        id=int(row[0]),
        guild_id=None if row[1] is None else int(row[1]),
        channel_id=int(row[2]),
        asked_in=int(row[3]),
        host_id=int(row[4]),
        host_name=str(row[5]),
        invited_id=int(row[6]),
        invited_name=str(row[7]),
        ruleset=str(row[8]),
        planes=None if row[9] is None else int(row[9]),
        fire_mode=str(row[10]),
        variants=str(row[11]),
        clouds=str(row[12]),
        clock=str(row[13]),
        rated=bool(row[14]),
        status=str(row[15]),
        match_id=None if row[16] is None else int(row[16]),
        message=None if row[18] is None else (int(row[17]), int(row[18])),
        created=float(row[19]),
    )
