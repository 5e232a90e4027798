"""Series: several games between the same players, with achievement cards kept between
games and handicaps that may change as the series goes on.

Competitors are *sides*: a player, or a team in team play. Winners and kept cards are
recorded by side; the series service (over the rules engine) decides who won and which
cards are kept, and this module stores it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from storage.db import Database
from storage.errors import Constraint, NotFound, StorageError
from storage.rows import insert_with_children
from storage.sql import Conn


class SeriesStatus(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


@dataclass(frozen=True)
class SeriesPlayerSpec:
    """A player of a new series; ``position`` orders them, ``user_id`` None is a
    computer player."""

    position: int
    side: int
    user_id: int | None = None
    display_name: str | None = None
    handicap: int = 0


@dataclass(frozen=True)
class NewSeries:
    mode: str
    channel_id: int
    games_planned: int
    players: Sequence[SeriesPlayerSpec]
    pool: Sequence[str]  # achievement cards the series can award
    guild_id: int | None = None
    thread_id: int | None = None
    settings_json: str = "{}"
    alternate_first: bool = True


@dataclass(frozen=True)
class SeriesPlayer:
    position: int
    user_id: int | None
    side: int
    handicap: int


@dataclass(frozen=True)
class SeriesGame:
    game_no: int
    match_id: int | None
    winners: tuple[int, ...] | None  # sides; None: not finished, empty: drawn


@dataclass(frozen=True)
class KeptCard:
    card: str
    side: int
    points: int
    game_no: int


@dataclass(frozen=True)
class SideScore:
    side: int
    wins: int
    points: int


@dataclass(frozen=True)
class Series:
    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    mode: str
    settings_json: str
    games_planned: int
    alternate_first: bool
    pool: tuple[str, ...]  # as the series began
    status: SeriesStatus
    created_at: float
    updated_at: float
    players: tuple[SeriesPlayer, ...]
    games: tuple[SeriesGame, ...]
    kept: tuple[KeptCard, ...]

    @property
    def current_pool(self) -> tuple[str, ...]:
        """The cards still to be won."""
        kept = {k.card for k in self.kept}
        return tuple(c for c in self.pool if c not in kept)

    @property
    def games_played(self) -> int:
        return sum(g.winners is not None for g in self.games)

    def scores(self) -> list[SideScore]:
        """Games won and card points per side, in side order."""
        sides = sorted({p.side for p in self.players})
        return [
            SideScore(
                side,
                sum(g.winners is not None and side in g.winners for g in self.games),
                sum(k.points for k in self.kept if k.side == side),
            )
            for side in sides
        ]


class SeriesNotFound(NotFound):
    def __init__(self, series_id: int) -> None:
        super().__init__(f"no series {series_id}")
        self.series_id = series_id


_COLUMNS = (
    "id, guild_id, channel_id, thread_id, mode, settings_json, games_planned, "
    "alternate_first, pool, status, created_at, updated_at"
)


class SeriesRepo:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(self, new: NewSeries) -> int:
        if not new.players:
            raise StorageError("a series needs players")
        now = time.time()
        async with self._db.transaction() as conn:
            series_id = await insert_with_children(
                conn,
                f"INSERT INTO series ({_COLUMNS.removeprefix('id, ')}) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?) RETURNING id",
                (
                    new.guild_id,
                    new.channel_id,
                    new.thread_id,
                    new.mode,
                    new.settings_json,
                    new.games_planned,
                    int(new.alternate_first),
                    ",".join(new.pool),
                    now,
                    now,
                ),
                "INSERT INTO series_players (series_id, position, user_id, side, handicap) "
                "VALUES (?, ?, ?, ?, ?)",
                lambda sid: [(sid, p.position, p.user_id, p.side, p.handicap) for p in new.players],
                people=[(p.user_id, p.display_name) for p in new.players],
            )
        return series_id

    async def get(self, series_id: int) -> Series:
        async with self._db.read() as conn:
            rows = list(
                await conn.fetchall(f"SELECT {_COLUMNS} FROM series WHERE id = ?", (series_id,))
            )
            if not rows:
                raise SeriesNotFound(series_id)
            seated = await conn.fetchall(
                "SELECT position, user_id, side, handicap FROM series_players "
                "WHERE series_id = ? ORDER BY position",
                (series_id,),
            )
            games = await conn.fetchall(
                "SELECT game_no, match_id, winners FROM series_games WHERE series_id = ? "
                "ORDER BY game_no",
                (series_id,),
            )
            kept = await conn.fetchall(
                "SELECT card, side, points, game_no FROM series_kept_cards "
                "WHERE series_id = ? ORDER BY game_no, card",
                (series_id,),
            )
        return _series(rows[0], seated, games, kept)

    async def list_active(self, guild_id: int | None) -> list[Series]:
        # "guild_id IS ?" is SQLite only; PostgreSQL spells it IS NOT DISTINCT FROM.
        same_guild = "guild_id IS NULL" if guild_id is None else "guild_id = ?"
        async with self._db.read() as conn:
            rows = await conn.fetchall(
                f"SELECT id FROM series WHERE {same_guild} AND status = 'active' ORDER BY id",
                () if guild_id is None else (guild_id,),
            )
        return [await self.get(int(r[0])) for r in rows]

    async def active_ids(self) -> list[int]:
        """Every active series, in every guild."""
        async with self._db.read() as conn:
            rows = await conn.fetchall("SELECT id FROM series WHERE status = 'active' ORDER BY id")
        return [int(r[0]) for r in rows]

    async def start_game(self, series_id: int, game_no: int, match_id: int) -> None:
        """Link game ``game_no`` of the series to the match that plays it."""
        async with self._db.transaction() as conn:
            await _require(conn, series_id)
            await conn.execute(
                "INSERT INTO series_games (series_id, game_no, match_id) VALUES (?, ?, ?) "
                "ON CONFLICT (series_id, game_no) DO UPDATE SET match_id = excluded.match_id",
                (series_id, game_no, match_id),
            )
            await _touch(conn, series_id)

    async def record_game(
        self,
        series_id: int,
        game_no: int,
        match_id: int | None,
        winners: Sequence[int],
        kept: Sequence[tuple[str, int, int]] = (),
    ) -> None:
        """Record a finished game: the winning sides (none: drawn) and the cards kept,
        as (card, side, points). A card already kept in this series is refused and
        nothing is written."""
        async with self._db.transaction() as conn:
            await _require(conn, series_id)
            await conn.execute(
                "INSERT INTO series_games (series_id, game_no, match_id, winners) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (series_id, game_no) DO UPDATE SET "
                "match_id = COALESCE(excluded.match_id, series_games.match_id), "
                "winners = excluded.winners",
                (series_id, game_no, match_id, ",".join(str(s) for s in winners)),
            )
            try:
                await conn.executemany(
                    "INSERT INTO series_kept_cards (series_id, card, side, points, game_no) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [(series_id, card, side, pts, game_no) for card, side, pts in kept],
                )
            except Constraint as exc:
                raise StorageError(
                    f"series {series_id}: a card in {[k[0] for k in kept]} is already kept"
                ) from exc
            await _touch(conn, series_id)

    async def set_handicap(self, series_id: int, position: int, handicap: int) -> None:
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE series_players SET handicap = ? WHERE series_id = ? AND position = ?",
                (handicap, series_id, position),
            )
            if changed != 1:
                raise SeriesNotFound(series_id)
            await _touch(conn, series_id)

    async def set_thread(self, series_id: int, thread_id: int) -> None:
        """The series plays on in ``thread_id`` (its thread was deleted)."""
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE series SET thread_id = ?, updated_at = ? WHERE id = ?",
                (thread_id, time.time(), series_id),
            )
            if changed != 1:
                raise SeriesNotFound(series_id)

    async def set_status(self, series_id: int, status: SeriesStatus) -> None:
        async with self._db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE series SET status = ?, updated_at = ? WHERE id = ?",
                (status.value, time.time(), series_id),
            )
            if changed != 1:
                raise SeriesNotFound(series_id)


async def _require(conn: Conn, series_id: int) -> None:
    rows = list(await conn.fetchall("SELECT 1 FROM series WHERE id = ?", (series_id,)))
    if not rows:
        raise SeriesNotFound(series_id)


async def _touch(conn: Conn, series_id: int) -> None:
    await conn.execute("UPDATE series SET updated_at = ? WHERE id = ?", (time.time(), series_id))


def _winners(text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    return tuple(int(s) for s in text.split(",") if s)


def _series(row: Any, seated: Any, games: Any, kept: Any) -> Series:
    (sid, guild, channel, thread, mode, settings, planned, alternate, pool, status, c, u) = row
    return Series(
        id=sid,
        guild_id=guild,
        channel_id=channel,
        thread_id=thread,
        mode=mode,
        settings_json=settings,
        games_planned=planned,
        alternate_first=bool(alternate),
        pool=tuple(card for card in pool.split(",") if card),
        status=SeriesStatus(status),
        created_at=c,
        updated_at=u,
        players=tuple(SeriesPlayer(*p) for p in seated),
        games=tuple(SeriesGame(g[0], g[1], _winners(g[2])) for g in games),
        kept=tuple(KeptCard(*k) for k in kept),
    )
