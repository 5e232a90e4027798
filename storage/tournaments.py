"""Tournaments: entries (with check-in, seed and dropping out), rounds, and the pairings
of each round with their series or match and the points each player scored.

Pairing players and computing standings belong to the tournament service; this module
stores its decisions and gives back what standings are computed from.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import Any

from storage import players, tournament_events
from storage.db import Database
from storage.errors import Constraint, NotFound, StorageError
from storage.rows import insert_with_children
from storage.sql import Conn


class TournamentStatus(StrEnum):
    OPEN = "open"  # taking entries
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class NewTournament:
    guild_id: int
    channel_id: int
    name: str
    format: str  # swiss, round-robin … as the tournament service names them
    mode: str
    settings_json: str = "{}"
    games_per_pairing: int = 1


@dataclass(frozen=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    name: str
    format: str
    mode: str
    settings_json: str
    games_per_pairing: int
    status: TournamentStatus
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class Entry:
    user_id: int
    seed: int | None
    checked_in: bool
    dropped: bool
    joined_at: float


@dataclass(frozen=True)
class StoredRound:
    round_no: int
    finished: bool
    started_at: float
    finished_at: float | None


@dataclass(frozen=True)
class PairingPlayer:
    position: int
    user_id: int
    points: float | None  # None until the result is in


@dataclass(frozen=True)
class StoredPairing:
    id: int
    round_no: int
    table_no: int
    series_id: int | None
    match_id: int | None
    result_json: str | None
    players: tuple[PairingPlayer, ...]

    @property
    def decided(self) -> bool:
        return all(p.points is not None for p in self.players)


@dataclass(frozen=True)
class TeamMember:
    captain_id: int
    user_id: int
    position: int  # 0: the captain
    accepted: bool


class TournamentNotFound(NotFound):
    def __init__(self, what: str) -> None:
        super().__init__(f"no {what}")


_COLUMNS = (
    "id, guild_id, channel_id, name, format, mode, settings_json, games_per_pairing, "
    "status, created_at, updated_at"
)


class TournamentRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(self, new: NewTournament) -> int:
        now = time.time()
        async with self._db.transaction() as conn:
            return await conn.insert(
                f"INSERT INTO tournaments ({_COLUMNS.removeprefix('id, ')}) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, 'open', ?, ?) RETURNING id",
                (
                    new.guild_id,
                    new.channel_id,
                    new.name,
                    new.format,
                    new.mode,
                    new.settings_json,
                    new.games_per_pairing,
                    now,
                    now,
                ),
            )

    async def get(self, tournament_id: int) -> Tournament:
        async with self._db.read() as conn:
            rows = list(
                await conn.fetchall(
                    f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,)
                )
            )
        if not rows:
            raise TournamentNotFound(f"tournament {tournament_id}")
        return _tournament(rows[0])

    async def in_guild(
        self, guild_id: int, statuses: Sequence[TournamentStatus] = tuple(TournamentStatus)
    ) -> list[Tournament]:
        marks = ",".join("?" * len(statuses))
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                f"SELECT {_COLUMNS} FROM tournaments WHERE guild_id = ? AND status IN ({marks}) "
                "ORDER BY id",
                (guild_id, *(s.value for s in statuses)),
            )
        return [_tournament(r) for r in rows]

    async def set_status(self, tournament_id: int, status: TournamentStatus) -> None:
        """Change the status; finishing an event also records its end, to be announced
        once (:mod:`storage.tournament_events`)."""
        now = time.time()
        async with self._db.transaction() as conn:
            await _change_one(
                conn,
                "UPDATE tournaments SET status = ?, updated_at = ? WHERE id = ?",
                (status.value, now, tournament_id),
                f"tournament {tournament_id}",
            )
            if status is TournamentStatus.FINISHED:
                await tournament_events.ended(conn, tournament_id, now)

    async def move_status(
        self, tournament_id: int, before: TournamentStatus, after: TournamentStatus
    ) -> bool:
        """Change the status from ``before`` to ``after``, atomically: False (and nothing
        changed) if it was not ``before``."""
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE tournaments SET status = ?, updated_at = ? WHERE id = ? AND status = ?",
                (after.value, time.time(), tournament_id, before.value),
            )
        return changed == 1

    async def set_settings(self, tournament_id: int, settings_json: str) -> None:
        """Replace the event's settings (pausing, closing check-in change them)."""
        async with self._db.transaction() as conn:
            await _change_one(
                conn,
                "UPDATE tournaments SET settings_json = ?, updated_at = ? WHERE id = ?",
                (settings_json, time.time(), tournament_id),
                f"tournament {tournament_id}",
            )

    async def enter(
        self,
        tournament_id: int,
        user_id: int,
        display_name: str | None = None,
        seed: int | None = None,
    ) -> None:
        """Add an entry; :class:`StorageError` if the player has already entered."""
        async with self._db.transaction() as conn:
            await players.remember(conn, user_id, display_name)
            try:
                await conn.execute(
                    "INSERT INTO tournament_entries (tournament_id, user_id, seed, joined_at) "
                    "VALUES (?, ?, ?, ?)",
                    (tournament_id, user_id, seed, time.time()),
                )
            except Constraint as exc:
                raise StorageError(
                    f"player {user_id} cannot enter tournament {tournament_id}: {exc}"
                ) from exc

    async def check_in(self, tournament_id: int, user_id: int, checked_in: bool = True) -> None:
        await self._set_entry(tournament_id, user_id, "checked_in", int(checked_in))

    async def drop(self, tournament_id: int, user_id: int, dropped: bool = True) -> None:
        await self._set_entry(tournament_id, user_id, "dropped", int(dropped))

    async def set_seed(self, tournament_id: int, user_id: int, seed: int | None) -> None:
        await self._set_entry(tournament_id, user_id, "seed", seed)

    async def _set_entry(self, tournament_id: int, user_id: int, column: str, value: Any) -> None:
        async with self._db.transaction() as conn:
            await _change_one(
                conn,
                f"UPDATE tournament_entries SET {column} = ? "
                "WHERE tournament_id = ? AND user_id = ?",
                (value, tournament_id, user_id),
                f"entry of player {user_id} in {tournament_id}",
            )

    async def entries(self, tournament_id: int) -> list[Entry]:
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT user_id, seed, checked_in, dropped, joined_at FROM tournament_entries "
                "WHERE tournament_id = ? ORDER BY seed IS NULL, seed, joined_at",
                (tournament_id,),
            )
        return [Entry(r[0], r[1], bool(r[2]), bool(r[3]), r[4]) for r in rows]

    async def start_round(
        self,
        tournament_id: int,
        round_no: int,
        tables: Sequence[Sequence[int]],
        at: float | None = None,
    ) -> list[int]:
        """Store a round and its pairings, one table per list of user ids (one id: a
        bye); return the pairing ids in table order. ``at`` is when it opened by the
        caller's clock (round times and no-show deadlines count from it)."""
        now = time.time() if at is None else at
        ids: list[int] = []
        async with self._db.transaction() as conn:
            try:
                await conn.execute(
                    "INSERT INTO tournament_rounds (tournament_id, round_no, started_at) "
                    "VALUES (?, ?, ?)",
                    (tournament_id, round_no, now),
                )
                for table_no, table in enumerate(tables, start=1):
                    pairing_id = await insert_with_children(
                        conn,
                        "INSERT INTO tournament_pairings (tournament_id, round_no, table_no) "
                        "VALUES (?, ?, ?) RETURNING id",
                        (tournament_id, round_no, table_no),
                        "INSERT INTO tournament_pairing_players (pairing_id, position, user_id) "
                        "VALUES (?, ?, ?)",
                        partial(_seated, table),
                    )
                    ids.append(pairing_id)
            except Constraint as exc:
                raise StorageError(
                    f"tournament {tournament_id} round {round_no} cannot be stored: {exc}"
                ) from exc
            await _touch(conn, tournament_id)
        return ids

    async def delete_round(self, tournament_id: int, round_no: int) -> None:
        """Take a round back with its pairings, so that it can be paired again."""
        async with self._db.transaction() as conn:
            await conn.execute(
                "DELETE FROM tournament_pairing_players WHERE pairing_id IN (SELECT id FROM "
                "tournament_pairings WHERE tournament_id = ? AND round_no = ?)",
                (tournament_id, round_no),
            )
            await conn.execute(
                "DELETE FROM tournament_pairings WHERE tournament_id = ? AND round_no = ?",
                (tournament_id, round_no),
            )
            await _change_one(
                conn,
                "DELETE FROM tournament_rounds WHERE tournament_id = ? AND round_no = ?",
                (tournament_id, round_no),
                f"round {round_no} of tournament {tournament_id}",
            )
            await _touch(conn, tournament_id)

    async def finish_round(
        self, tournament_id: int, round_no: int, at: float | None = None
    ) -> None:
        async with self._db.transaction() as conn:
            await _change_one(
                conn,
                "UPDATE tournament_rounds SET status = 'finished', finished_at = ? "
                "WHERE tournament_id = ? AND round_no = ?",
                (time.time() if at is None else at, tournament_id, round_no),
                f"round {round_no} of tournament {tournament_id}",
            )
            await _touch(conn, tournament_id)

    async def rounds(self, tournament_id: int) -> list[StoredRound]:
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT round_no, status, started_at, finished_at FROM tournament_rounds "
                "WHERE tournament_id = ? ORDER BY round_no",
                (tournament_id,),
            )
        return [StoredRound(r[0], r[1] == "finished", r[2], r[3]) for r in rows]

    async def link_pairing(
        self, pairing_id: int, *, series_id: int | None = None, match_id: int | None = None
    ) -> None:
        """Attach the series or match a pairing is played as."""
        async with self._db.transaction() as conn:
            await _change_one(
                conn,
                "UPDATE tournament_pairings SET series_id = COALESCE(?, series_id), "
                "match_id = COALESCE(?, match_id) WHERE id = ?",
                (series_id, match_id, pairing_id),
                f"pairing {pairing_id}",
            )

    async def record_result(
        self, pairing_id: int, points: Mapping[int, float], result_json: str | None = None
    ) -> None:
        """Store the points each player of the pairing scored, by user id."""
        async with self._db.transaction() as conn:
            await _change_one(
                conn,
                "UPDATE tournament_pairings SET result_json = ? WHERE id = ?",
                (result_json, pairing_id),
                f"pairing {pairing_id}",
            )
            for user_id, scored in points.items():
                await _change_one(
                    conn,
                    "UPDATE tournament_pairing_players SET points = ? "
                    "WHERE pairing_id = ? AND user_id = ?",
                    (scored, pairing_id, user_id),
                    f"player {user_id} in pairing {pairing_id}",
                )

    async def pairings(
        self, tournament_id: int, round_no: int | None = None
    ) -> list[StoredPairing]:
        """Pairings of one round, or of every round: what standings are computed from."""
        # PostgreSQL cannot type a parameter only compared with NULL: build the filter.
        if round_no is None:
            return await self._pairings("", (tournament_id,))
        return await self._pairings(" AND p.round_no = ?", (tournament_id, round_no))

    async def pairing(self, tournament_id: int, pairing_id: int) -> StoredPairing:
        """One pairing of the tournament (each table's start reads its own: reading every
        pairing for each made a big field's start quadratic). :class:`NotFound` if the
        tournament has no such pairing."""
        found = await self._pairings(" AND p.id = ?", (tournament_id, pairing_id))
        if not found:
            raise NotFound(f"pairing {pairing_id} of tournament {tournament_id}")
        return found[0]

    async def _pairings(self, also: str, params: tuple[int, ...]) -> list[StoredPairing]:
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT id, round_no, table_no, series_id, match_id, result_json "
                f"FROM tournament_pairings p WHERE tournament_id = ?{also} "
                "ORDER BY round_no, table_no",
                params,
            )
            seated = await conn.fetchall(
                "SELECT pp.pairing_id, pp.position, pp.user_id, pp.points "
                "FROM tournament_pairing_players pp JOIN tournament_pairings p "
                f"ON p.id = pp.pairing_id WHERE p.tournament_id = ?{also} "
                "ORDER BY pp.pairing_id, pp.position",
                params,
            )
        by_pairing: dict[int, list[PairingPlayer]] = {}
        for pairing_id, position, user_id, scored in seated:
            by_pairing.setdefault(pairing_id, []).append(PairingPlayer(position, user_id, scored))
        return [
            StoredPairing(r[0], r[1], r[2], r[3], r[4], r[5], tuple(by_pairing.get(r[0], [])))
            for r in rows
        ]

    # ---------------------------------------------------------------- teams

    async def form_team(
        self, tournament_id: int, captain: int, members: Sequence[tuple[int, str | None]]
    ) -> None:
        """Propose a team: the captain (first of ``members``, accepted) and the invited
        players. :class:`StorageError` if one of them is already in a team here."""
        async with self._db.transaction() as conn:
            for position, (user_id, name) in enumerate(members):
                await players.remember(conn, user_id, name)
                try:
                    await conn.execute(
                        "INSERT INTO tournament_team_members (tournament_id, user_id, "
                        "captain_id, position, accepted) VALUES (?, ?, ?, ?, ?)",
                        (tournament_id, user_id, captain, position, int(user_id == captain)),
                    )
                except Constraint as exc:
                    raise StorageError(f"player {user_id} is already in a team") from exc

    async def accept_team(self, tournament_id: int, captain: int, user_id: int) -> bool:
        """Accept an invitation; False when it was already accepted (or withdrawn), so
        that of two presses at once only one goes on."""
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE tournament_team_members SET accepted = 1 WHERE tournament_id = ? "
                "AND captain_id = ? AND user_id = ? AND accepted = 0",
                (tournament_id, captain, user_id),
            )
        return changed == 1

    async def disband_team(self, tournament_id: int, captain: int) -> int:
        """Withdraw a team that has not entered; returns how many rows went."""
        async with self._db.transaction() as conn:
            return await conn.execute(
                "DELETE FROM tournament_team_members WHERE tournament_id = ? AND captain_id = ?",
                (tournament_id, captain),
            )

    async def team_members(self, tournament_id: int) -> list[TeamMember]:
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                "SELECT captain_id, user_id, position, accepted FROM tournament_team_members "
                "WHERE tournament_id = ? ORDER BY captain_id, position",
                (tournament_id,),
            )
        return [TeamMember(r[0], r[1], r[2], bool(r[3])) for r in rows]


async def _touch(conn: Conn, tournament_id: int) -> None:
    await conn.execute(
        "UPDATE tournaments SET updated_at = ? WHERE id = ?", (time.time(), tournament_id)
    )


def _seated(users: Sequence[int], pairing_id: int) -> list[tuple[int, int, int]]:
    return [(pairing_id, position, user) for position, user in enumerate(users)]


def _tournament(row: Any) -> Tournament:
    tid, guild, channel, name, fmt, mode, settings, games, status, created, updated = row
    return Tournament(
        tid,
        guild,
        channel,
        name,
        fmt,
        mode,
        settings,
        games,
        TournamentStatus(status),
        created,
        updated,
    )


async def _change_one(conn: Conn, sql: str, params: Sequence[Any], missing: str) -> None:
    """Runs ``sql``, which changes exactly one row of what is stored; none changed means
    ``missing`` is not stored."""
    if await conn.execute(sql, params) != 1:
        raise TournamentNotFound(missing)
