"""Matches: their settings and seats, the append-only step log and the latest snapshot.

The game manager calls :meth:`MatchRepo.append_step` after every step; the step row and
the match row it changes (snapshot, whose turn, deadline, status) commit together, and
the ply must follow the stored one, so a double press (or a second bot process) can
never apply a step twice. Reading many matches never fails because of one: a row that
cannot be read is reported in :class:`Unfinished.set_aside` and the others load.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import replace
from typing import Any, Literal, NamedTuple

from storage.db import Database
from storage.errors import (
    Constraint,
    CorruptMatch,
    InvalidSnapshot,
    MatchNotFound,
    MatchOver,
    StepConflict,
    StorageError,
    Unreadable,
)
from storage.events import ended
from storage.match_records import (
    COLUMNS,
    SEAT_COLUMNS,
    Match,
    MatchStatus,
    NewMatch,
    Seat,
    SeatSpec,
    SetAside,
    StepRecord,
    Unfinished,
    is_int,
    match_from_row,
    seat_from_row,
)
from storage.rows import insert_with_children
from storage.snapshots import snapshot_problem
from storage.sql import Conn, fetchone
from storage.turn_events import passed

__all__ = [
    "Match",
    "MatchRepo",
    "MatchStatus",
    "NewMatch",
    "Seat",
    "SeatSpec",
    "SetAside",
    "StepRecord",
    "Unfinished",
]

_ACTIVE = "status = 'active'"
# the seats offering a draw as one number (bit n: seat n), which changes with every offer
_OFFERS = (
    "COALESCE((SELECT SUM(CAST(1 AS BIGINT) << CAST(d.seat AS INTEGER)) FROM draw_offers d "
    "WHERE d.match_id = m.id), 0)"
)


class Version(NamedTuple):
    """What tells a process that another acted on a match it holds: its ply, whether it
    is being played, and the draw offers standing (bit n: seat n)."""

    ply: int
    active: bool
    offers: int


def offers_mask(seats: Collection[int]) -> int:
    """The draw offers of ``seats`` as :attr:`Version.offers` counts them."""
    return sum(1 << s for s in set(seats))


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
            match_id = await insert_with_children(
                conn,
                f"INSERT INTO matches ({COLUMNS.removeprefix('id, ')}) VALUES "
                "(?, ?, ?, NULL, ?, ?, ?, ?, ?, 'active', NULL, 0, ?, ?, ?, ?, ?, NULL) "
                "RETURNING id",
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
                "INSERT INTO seats (match_id, seat, user_id, team, handicap) "
                "VALUES (?, ?, ?, ?, ?)",
                lambda mid: [(mid, s.seat, s.user_id, s.team, s.handicap) for s in new.seats],
                people=[(s.user_id, s.display_name) for s in new.seats],
            )
            if new.remind_seconds is not None or new.clock_due is not None:
                # only a clocked match has these: one without is the same row at every
                # schema version (the upgrade tests store one at each)
                await conn.execute(
                    "UPDATE matches SET remind_seconds = ?, clock_due = ? WHERE id = ?",
                    (new.remind_seconds, new.clock_due, match_id),
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
        passes_turn: bool = False,
        clock_due: float | None = None,
    ) -> None:
        """Store step number ``ply`` (1 for the first) and the game after it; a step that
        ``passes_turn`` to another player records that turn, to be told once
        (:mod:`storage.turn_events`). ``clock_due`` is when its turn clock is next due
        (:mod:`storage.live_index`).

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
            changed = await conn.execute(
                "UPDATE matches SET ply = ?, snapshot = ?, to_move_seat = ?, turn_deadline = ?, "
                "clock_due = ?, status = ?, result_json = ?, updated_at = ?, finished_at = ? "
                f"WHERE id = ? AND ply = ? AND {_ACTIVE}",
                (
                    ply,
                    snapshot,
                    to_move_seat,
                    turn_deadline,
                    clock_due if status is MatchStatus.ACTIVE else None,
                    status.value,
                    result_json,
                    now,
                    finished_at,
                    match_id,
                    ply - 1,
                ),
            )
            if changed != 1:
                raise await _why_not_next(conn, match_id, ply)
            try:
                await conn.execute(
                    "INSERT INTO steps (match_id, ply, token, actor_id, at) VALUES (?, ?, ?, ?, ?)",
                    (match_id, ply, token, actor_id, now),
                )
            except Constraint as exc:
                raise StepConflict(match_id, ply, f"the step log refused it ({exc})") from exc
            if status is not MatchStatus.ACTIVE or passes_turn:
                await lapse_draw_offers(conn, match_id)
            if status is not MatchStatus.ACTIVE:
                await ended(conn, match_id, status, now)
            elif passes_turn:
                await passed(conn, match_id, ply, actor_id, now)

    async def finish(self, match_id: int, status: MatchStatus, result_json: str | None) -> None:
        """End an active match without a step (an abandoned game, an agreed draw …)."""
        if status is MatchStatus.ACTIVE:
            raise ValueError("finish needs a status other than active")
        now = time.time()
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE matches SET status = ?, result_json = ?, updated_at = ?, finished_at = ?, "
                f"clock_due = NULL WHERE id = ? AND {_ACTIVE}",
                (status.value, result_json, now, now, match_id),
            )
            if changed != 1:
                found = await _status(conn, match_id)
                if found is None:
                    raise MatchNotFound(match_id)
                raise MatchOver(match_id, found)
            await lapse_draw_offers(conn, match_id)
            await ended(conn, match_id, status, now)

    async def offer_draw(self, match_id: int, ply: int, seats: Collection[int]) -> None:
        """``seats`` offer a draw in the match as it stands at ``ply``; raises
        :class:`StepConflict` (nothing written) when it is no longer there or over."""
        async with self._db.transaction() as conn:
            if await _not_at(conn, match_id, ply):
                raise StepConflict(match_id, ply, "the match has moved on")
            for seat in sorted(set(seats)):
                await conn.execute(
                    "INSERT INTO draw_offers (match_id, seat) VALUES (?, ?) "
                    "ON CONFLICT (match_id, seat) DO NOTHING",
                    (match_id, seat),
                )

    async def withdraw_draw_offers(self, match_id: int, ply: int) -> None:
        """Every draw offer of the match is gone (declined); :class:`StepConflict` as
        :meth:`offer_draw`."""
        async with self._db.transaction() as conn:
            if await _not_at(conn, match_id, ply):
                raise StepConflict(match_id, ply, "the match has moved on")
            await lapse_draw_offers(conn, match_id)

    async def set_thread(self, match_id: int, thread_id: int | None) -> None:
        await self._set(match_id, "thread_id", thread_id)

    async def set_deadline(
        self, match_id: int, deadline: float | None, due: float | None = None
    ) -> None:
        """The turn's deadline, and when its clock is next due (``due``)."""
        await self._set(match_id, "turn_deadline = ?, clock_due", deadline, due)

    async def _set(
        self,
        match_id: int,
        columns: Literal["thread_id", "turn_deadline = ?, clock_due"],
        *values: float | None,
    ) -> None:
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                f"UPDATE matches SET {columns} = ?, updated_at = ? WHERE id = ?",
                (*values, time.time(), match_id),
            )
            if changed != 1:
                raise MatchNotFound(match_id)

    async def get(self, match_id: int) -> Match:
        """The match; :class:`MatchNotFound` or :class:`CorruptMatch` if it cannot be
        given."""
        try:
            async with self._db.read() as conn:
                rows = list(
                    await conn.fetchall(
                        f"SELECT {COLUMNS}, clock_due FROM matches WHERE id = ?", (match_id,)
                    )
                )
                seats = await conn.fetchall(
                    f"SELECT {SEAT_COLUMNS} FROM seats s WHERE s.match_id = ? ORDER BY s.seat",
                    (match_id,),
                )
                offers = await conn.fetchall(
                    "SELECT seat FROM draw_offers WHERE match_id = ?", (match_id,)
                )
        except Unreadable as exc:
            raise CorruptMatch(match_id, f"the database cannot read it ({exc})") from exc
        if not rows:
            raise MatchNotFound(match_id)
        *row, due = rows[0]
        found = match_from_row(row, [seat_from_row(match_id, r) for r in seats])
        if due is not None and not isinstance(due, int | float):
            raise CorruptMatch(match_id, f"its clock's due time {due!r} is not a time")
        return replace(found, clock_due=due, draw_offers=frozenset(int(r[0]) for r in offers))

    async def versions(self, match_ids: Collection[int]) -> dict[int, Version]:
        """Each stored match's :class:`Version`: what tells a process that another one
        acted on a match it holds in memory (one query)."""
        rows = await self._db.rows_in(
            f"SELECT m.id, m.ply, m.{_ACTIVE}, {_OFFERS} FROM matches m WHERE m.id IN ({{marks}})",
            list(match_ids),
        )
        return {int(i): Version(int(ply), bool(on), int(offers)) for i, ply, on, offers in rows}

    async def steps(self, match_id: int) -> list[StepRecord]:
        async with self._db.read() as conn:
            rows = await conn.fetchall(
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

    async def scan(self) -> list[SetAside]:
        """Every stored match that cannot be read, finished ones included."""
        return (await self._load("TRUE", ())).set_aside

    async def by_thread(self, thread_id: int) -> Match | None:
        """The match played in a thread: the active one, else the most recent."""
        async with self._db.read() as conn:
            rows = list(
                await conn.fetchall(
                    "SELECT id FROM matches WHERE thread_id = ? "
                    f"ORDER BY {_ACTIVE} DESC, id DESC LIMIT 1",
                    (thread_id,),
                )
            )
        return await self.get(int(rows[0][0])) if rows else None

    async def _load(self, where: str, params: tuple[Any, ...]) -> Unfinished:
        try:
            async with self._db.read() as conn:
                rows = await conn.fetchall(
                    f"SELECT {COLUMNS} FROM matches WHERE {where} ORDER BY id", params
                )
                seat_rows = await conn.fetchall(
                    f"SELECT {SEAT_COLUMNS} FROM seats s WHERE s.match_id IN "
                    f"(SELECT id FROM matches WHERE {where}) ORDER BY s.match_id, s.seat",
                    params,
                )
        except Unreadable:
            # One unreadable row (bad page, bad text encoding) fails the whole query;
            # reading the matches one at a time isolates it.
            return await self._load_one_by_one(where, params)
        seats: dict[object, list[Seat]] = {}
        damaged: dict[object, str] = {}
        for r in seat_rows:
            try:
                seats.setdefault(r[0], []).append(seat_from_row(r[0], r))
            except CorruptMatch as exc:
                damaged[r[0]] = exc.why
        result = Unfinished([], [])
        for row in rows:
            match_id = row[0] if is_int(row[0]) else None
            try:
                if row[0] in damaged:
                    raise CorruptMatch(row[0], damaged[row[0]])
                result.matches.append(match_from_row(row, seats.get(row[0], [])))
            except CorruptMatch as exc:
                result.set_aside.append(SetAside(match_id, exc.why))
        return result

    async def _load_one_by_one(self, where: str, params: tuple[Any, ...]) -> Unfinished:
        try:
            async with self._db.read() as conn:
                ids = await conn.fetchall(
                    f"SELECT id FROM matches WHERE {where} ORDER BY id", params
                )
        except Unreadable as exc:
            return Unfinished([], [SetAside(None, f"the list of matches cannot be read ({exc})")])
        result = Unfinished([], [])
        for (match_id,) in ids:
            try:
                result.matches.append(await self.get(match_id))
            except CorruptMatch as exc:
                result.set_aside.append(SetAside(match_id, exc.why))
            except StorageError as exc:
                # A damaged index can list an id whose row is gone (MatchNotFound).
                result.set_aside.append(SetAside(match_id, str(exc)))
        return result


async def _status(conn: Conn, match_id: int) -> str | None:
    rows = list(await conn.fetchall("SELECT status FROM matches WHERE id = ?", (match_id,)))
    return str(rows[0][0]) if rows else None


async def _why_not_next(conn: Conn, match_id: int, ply: int) -> StorageError:
    rows = list(await conn.fetchall("SELECT ply, status FROM matches WHERE id = ?", (match_id,)))
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


async def lapse_draw_offers(conn: Conn, match_id: int) -> None:
    """Every draw offer of the match is gone, in the transaction of what ended them: a
    turn passed, the match ended or went back, an offer declined."""
    await conn.execute("DELETE FROM draw_offers WHERE match_id = ?", (match_id,))


async def _not_at(conn: Conn, match_id: int, ply: int) -> bool:
    """Whether the match is not (or no longer) being played at ``ply``. On PostgreSQL
    the match's row is held until the transaction ends: a step another process is
    committing meanwhile (which lapses the draw offers) then comes wholly before this
    write, and is seen, or wholly after it, and lapses what it wrote. (SQLite has one
    writer at a time anyway.)"""
    held = " FOR UPDATE" if conn.dialect == "postgresql" else ""
    row = await fetchone(
        conn, f"SELECT ply FROM matches WHERE id = ? AND {_ACTIVE}{held}", (match_id,)
    )
    return row is None or row[0] != ply
