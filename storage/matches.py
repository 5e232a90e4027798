"""Matches: their settings and seats, the append-only step log and the latest snapshot.

The game manager calls :meth:`MatchRepo.append_step` after every step; the step row and
the match row it changes (snapshot, whose turn, deadline, status) commit together, and
the ply must follow the stored one, so a double press can never apply a step twice.
Reading many matches never fails because of one: a row that cannot be read is reported
in :class:`Unfinished.set_aside` and the others load.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, NamedTuple

import aiosqlite

from storage import players
from storage.db import Database
from storage.errors import (
    CorruptMatch,
    InvalidSnapshot,
    MatchNotFound,
    MatchOver,
    StepConflict,
    StorageError,
)
from storage.snapshots import snapshot_problem


class MatchStatus(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


@dataclass(frozen=True)
class SeatSpec:
    """A seat of a new match; ``user_id`` None is a computer player."""

    seat: int
    team: int
    user_id: int | None = None
    display_name: str | None = None
    handicap: int = 0


@dataclass(frozen=True)
class NewMatch:
    mode: str
    ruleset: str
    fire_mode: str
    channel_id: int
    seats: Sequence[SeatSpec]
    snapshot: str  # the rules engine's game JSON
    guild_id: int | None = None
    thread_id: int | None = None
    variants: frozenset[str] = field(default_factory=frozenset)
    clock_json: str = "{}"
    to_move_seat: int | None = None
    turn_deadline: float | None = None  # Unix time


@dataclass(frozen=True)
class Seat:
    seat: int
    user_id: int | None
    team: int
    handicap: int


@dataclass(frozen=True)
class Match:
    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    board_message_id: int | None
    mode: str
    ruleset: str
    variants: frozenset[str]
    fire_mode: str
    clock_json: str
    status: MatchStatus
    result_json: str | None
    ply: int  # steps stored so far
    to_move_seat: int | None
    turn_deadline: float | None
    snapshot: str
    created_at: float
    updated_at: float
    finished_at: float | None
    seats: tuple[Seat, ...]

    @property
    def to_move_user_id(self) -> int | None:
        return next((s.user_id for s in self.seats if s.seat == self.to_move_seat), None)


@dataclass(frozen=True)
class StepRecord:
    match_id: int
    ply: int
    token: str
    actor_id: int | None  # None: a computer player or the bot itself (a timeout)
    at: float


@dataclass(frozen=True)
class SetAside:
    """A match that could not be read; ``match_id`` None when even its id is lost."""

    match_id: int | None
    why: str


class Unfinished(NamedTuple):
    matches: list[Match]
    set_aside: list[SetAside]


_COLUMNS = (
    "id, guild_id, channel_id, thread_id, board_message_id, mode, ruleset, variants, "
    "fire_mode, clock_json, status, result_json, ply, to_move_seat, turn_deadline, "
    "snapshot, created_at, updated_at, finished_at"
)
_SEAT_COLUMNS = "s.match_id, s.seat, s.user_id, s.team, s.handicap"
_ACTIVE = "status = 'active'"


class MatchRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(self, new: NewMatch) -> int:
        """Store a new match with its seats and opening snapshot; return its id."""
        _require_snapshot(new.snapshot)
        numbers = [s.seat for s in new.seats]
        if not numbers or len(set(numbers)) != len(numbers):
            raise StorageError(f"a match needs seats with distinct numbers, got {numbers}")
        now = time.time()
        async with self._db.transaction() as conn:
            for spec in new.seats:
                if spec.user_id is not None:
                    await players.remember(conn, spec.user_id, spec.display_name)
            cur = await conn.execute(
                f"INSERT INTO matches ({_COLUMNS}) VALUES "
                "(NULL, ?, ?, ?, NULL, ?, ?, ?, ?, ?, 'active', NULL, 0, ?, ?, ?, ?, ?, NULL)",
                (
                    new.guild_id,
                    new.channel_id,
                    new.thread_id,
                    new.mode,
                    new.ruleset,
                    ",".join(sorted(new.variants)),
                    new.fire_mode,
                    new.clock_json,
                    new.to_move_seat,
                    new.turn_deadline,
                    new.snapshot,
                    now,
                    now,
                ),
            )
            match_id = cur.lastrowid
            if match_id is None:
                raise StorageError("SQLite did not report the new match's id")
            await conn.executemany(
                "INSERT INTO seats (match_id, seat, user_id, team, handicap) "
                "VALUES (?, ?, ?, ?, ?)",
                [(match_id, s.seat, s.user_id, s.team, s.handicap) for s in new.seats],
            )
        return match_id

    async def append_step(
        self,
        match_id: int,
        ply: int,
        token: str,
        actor_id: int | None,
        snapshot: str,
        *,
        to_move_seat: int | None,
        turn_deadline: float | None,
        status: MatchStatus = MatchStatus.ACTIVE,
        result_json: str | None = None,
        at: float | None = None,
    ) -> None:
        """Store step number ``ply`` (1 for the first) and the game after it.

        Raises :class:`StepConflict` unless ``ply`` is exactly one more than the steps
        stored and the match is active; nothing is written then. A status other than
        active ends the match with ``result_json``.
        """
        if ply < 1:
            raise StepConflict(match_id, ply, "plies are numbered from 1")
        _require_snapshot(snapshot)
        now = time.time() if at is None else at
        finished_at = None if status is MatchStatus.ACTIVE else now
        async with self._db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE matches SET ply = ?, snapshot = ?, to_move_seat = ?, turn_deadline = ?, "
                "status = ?, result_json = ?, updated_at = ?, finished_at = ? "
                f"WHERE id = ? AND ply = ? AND {_ACTIVE}",
                (
                    ply,
                    snapshot,
                    to_move_seat,
                    turn_deadline,
                    status.value,
                    result_json,
                    now,
                    finished_at,
                    match_id,
                    ply - 1,
                ),
            )
            if cur.rowcount != 1:
                raise await _why_not_next(conn, match_id, ply)
            try:
                await conn.execute(
                    "INSERT INTO steps (match_id, ply, token, actor_id, at) VALUES (?, ?, ?, ?, ?)",
                    (match_id, ply, token, actor_id, now),
                )
            except sqlite3.IntegrityError as exc:
                raise StepConflict(match_id, ply, f"the step log refused it ({exc})") from exc

    async def finish(self, match_id: int, status: MatchStatus, result_json: str | None) -> None:
        """End an active match without a step (an abandoned game, an agreed draw …)."""
        if status is MatchStatus.ACTIVE:
            raise ValueError("finish needs a status other than active")
        now = time.time()
        async with self._db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE matches SET status = ?, result_json = ?, updated_at = ?, finished_at = ? "
                f"WHERE id = ? AND {_ACTIVE}",
                (status.value, result_json, now, now, match_id),
            )
            if cur.rowcount != 1:
                found = await _status(conn, match_id)
                if found is None:
                    raise MatchNotFound(match_id)
                raise MatchOver(match_id, found)

    async def set_board_message(self, match_id: int, message_id: int | None) -> None:
        await self._set(match_id, "board_message_id", message_id)

    async def set_thread(self, match_id: int, thread_id: int | None) -> None:
        await self._set(match_id, "thread_id", thread_id)

    async def _set(
        self, match_id: int, column: Literal["board_message_id", "thread_id"], value: int | None
    ) -> None:
        async with self._db.transaction() as conn:
            cur = await conn.execute(
                f"UPDATE matches SET {column} = ?, updated_at = ? WHERE id = ?",
                (value, time.time(), match_id),
            )
            if cur.rowcount != 1:
                raise MatchNotFound(match_id)

    async def get(self, match_id: int) -> Match:
        """The match; :class:`MatchNotFound` or :class:`CorruptMatch` if it cannot be
        given."""
        try:
            async with self._db.read() as conn:
                rows = list(
                    await conn.execute_fetchall(
                        f"SELECT {_COLUMNS} FROM matches WHERE id = ?", (match_id,)
                    )
                )
                seats = await conn.execute_fetchall(
                    f"SELECT {_SEAT_COLUMNS} FROM seats s WHERE s.match_id = ? ORDER BY s.seat",
                    (match_id,),
                )
        except sqlite3.DatabaseError as exc:
            raise CorruptMatch(match_id, f"SQLite cannot read it ({exc})") from exc
        if not rows:
            raise MatchNotFound(match_id)
        return _match(rows[0], [_seat(match_id, r) for r in seats])

    async def steps(self, match_id: int) -> list[StepRecord]:
        async with self._db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT match_id, ply, token, actor_id, at FROM steps WHERE match_id = ? "
                "ORDER BY ply",
                (match_id,),
            )
        return [StepRecord(*r) for r in rows]

    async def list_unfinished(self) -> Unfinished:
        """Every active match with what the bot needs to resume it. Never raises because
        of a bad row: those are reported in ``set_aside`` and left untouched, so a match
        that only failed to read this time is not lost."""
        return await self._load(_ACTIVE, ())

    async def list_live(self, guild_id: int) -> Unfinished:
        """The active matches of one guild."""
        return await self._load(f"guild_id = ? AND {_ACTIVE}", (guild_id,))

    async def scan(self) -> list[SetAside]:
        """Every stored match that cannot be read, finished ones included."""
        return (await self._load("1", ())).set_aside

    async def by_thread(self, thread_id: int) -> Match | None:
        """The match played in a thread: the active one, else the most recent."""
        async with self._db.read() as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT id FROM matches WHERE thread_id = ? "
                    f"ORDER BY {_ACTIVE} DESC, id DESC LIMIT 1",
                    (thread_id,),
                )
            )
        return await self.get(int(rows[0][0])) if rows else None

    async def _load(self, where: str, params: tuple[Any, ...]) -> Unfinished:
        try:
            async with self._db.read() as conn:
                rows = await conn.execute_fetchall(
                    f"SELECT {_COLUMNS} FROM matches WHERE {where} ORDER BY id", params
                )
                seat_rows = await conn.execute_fetchall(
                    f"SELECT {_SEAT_COLUMNS} FROM seats s WHERE s.match_id IN "
                    f"(SELECT id FROM matches WHERE {where}) ORDER BY s.match_id, s.seat",
                    params,
                )
        except sqlite3.DatabaseError:
            # One unreadable row (bad page, bad text encoding) fails the whole query;
            # reading the matches one at a time isolates it.
            return await self._load_one_by_one(where, params)
        seats: dict[object, list[Seat]] = {}
        damaged: dict[object, str] = {}
        for r in seat_rows:
            try:
                seats.setdefault(r[0], []).append(_seat(r[0], r))
            except CorruptMatch as exc:
                damaged[r[0]] = exc.why
        result = Unfinished([], [])
        for row in rows:
            match_id = row[0] if _is_int(row[0]) else None
            try:
                if row[0] in damaged:
                    raise CorruptMatch(row[0], damaged[row[0]])
                result.matches.append(_match(row, seats.get(row[0], [])))
            except CorruptMatch as exc:
                result.set_aside.append(SetAside(match_id, exc.why))
        return result

    async def _load_one_by_one(self, where: str, params: tuple[Any, ...]) -> Unfinished:
        try:
            async with self._db.read() as conn:
                ids = await conn.execute_fetchall(
                    f"SELECT id FROM matches WHERE {where} ORDER BY id", params
                )
        except sqlite3.DatabaseError as exc:
            return Unfinished([], [SetAside(None, f"the list of matches cannot be read ({exc})")])
        result = Unfinished([], [])
        for (match_id,) in ids:
            try:
                result.matches.append(await self.get(match_id))
            except CorruptMatch as exc:
                result.set_aside.append(SetAside(match_id, exc.why))
        return result


async def _status(conn: aiosqlite.Connection, match_id: int) -> str | None:
    rows = list(await conn.execute_fetchall("SELECT status FROM matches WHERE id = ?", (match_id,)))
    return str(rows[0][0]) if rows else None


async def _why_not_next(conn: aiosqlite.Connection, match_id: int, ply: int) -> StorageError:
    rows = list(
        await conn.execute_fetchall("SELECT ply, status FROM matches WHERE id = ?", (match_id,))
    )
    if not rows:
        return MatchNotFound(match_id)
    stored, status = int(rows[0][0]), str(rows[0][1])
    if status != MatchStatus.ACTIVE:
        return StepConflict(match_id, ply, f"the match is {status}")
    if ply <= stored:
        return StepConflict(match_id, ply, f"ply {ply} is already stored")
    return StepConflict(match_id, ply, f"the next ply is {stored + 1}")


def _require_snapshot(snapshot: str) -> None:
    problem = snapshot_problem(snapshot)
    if problem is not None:
        raise InvalidSnapshot(problem)


def _seat(match_id: Any, row: Any) -> Seat:
    _, seat, user_id, team, handicap = row
    if not (_is_int(seat) and _is_int(team) and _is_int(handicap)):
        raise CorruptMatch(match_id, f"seat row {tuple(row)!r} is damaged")
    if user_id is not None and not _is_int(user_id):
        raise CorruptMatch(match_id, f"seat row {tuple(row)!r} is damaged")
    return Seat(seat, user_id, team, handicap)


def _match(row: Any, seats: list[Seat]) -> Match:
    """Build a match from a row of :data:`_COLUMNS`, checking every value's type so a
    damaged row is caught here rather than deep inside the bot."""
    (
        match_id,
        guild_id,
        channel_id,
        thread_id,
        board_message_id,
        mode,
        ruleset,
        variants,
        fire_mode,
        clock_json,
        status,
        result_json,
        ply,
        to_move_seat,
        turn_deadline,
        snapshot,
        created_at,
        updated_at,
        finished_at,
    ) = row

    def bad(what: str) -> CorruptMatch:
        return CorruptMatch(match_id if isinstance(match_id, int) else -1, what)

    if not _is_int(match_id):
        raise bad(f"its id {match_id!r} is not a number")
    for name, value in (("channel", channel_id), ("ply", ply)):
        if not _is_int(value):
            raise bad(f"its {name} {value!r} is not a number")
    for name, value in (
        ("guild", guild_id),
        ("thread", thread_id),
        ("board message", board_message_id),
        ("seat to move", to_move_seat),
    ):
        if value is not None and not _is_int(value):
            raise bad(f"its {name} {value!r} is not a number")
    for name, value in (("deadline", turn_deadline), ("finish time", finished_at)):
        if value is not None and not isinstance(value, int | float):
            raise bad(f"its {name} {value!r} is not a time")
    if not all(isinstance(v, int | float) for v in (created_at, updated_at)):
        raise bad("its timestamps are damaged")
    texts = (mode, ruleset, variants, fire_mode, clock_json)
    if not all(isinstance(v, str) for v in texts):
        raise bad("its settings are damaged")
    if result_json is not None and not isinstance(result_json, str):
        raise bad("its result is damaged")
    if status not in set(MatchStatus):
        raise bad(f"its status {status!r} is unknown")
    problem = snapshot_problem(snapshot)
    if problem is not None:
        raise bad(problem)
    if not seats:
        raise bad("its seats are missing or damaged")
    return Match(
        id=match_id,
        guild_id=guild_id,
        channel_id=channel_id,
        thread_id=thread_id,
        board_message_id=board_message_id,
        mode=mode,
        ruleset=ruleset,
        variants=frozenset(v for v in variants.split(",") if v),
        fire_mode=fire_mode,
        clock_json=clock_json,
        status=MatchStatus(status),
        result_json=result_json,
        ply=ply,
        to_move_seat=to_move_seat,
        turn_deadline=turn_deadline,
        snapshot=snapshot,
        created_at=float(created_at),
        updated_at=float(updated_at),
        finished_at=finished_at,
        seats=tuple(seats),
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
