"""Copy a whole database, table by table, from one backend to another: how a SQLite
bot moves to PostgreSQL (``crosshairs db copy``) and how a PostgreSQL database is
backed up into a SQLite file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from storage import migrations
from storage.config import Target, parse_target
from storage.db import Database
from storage.errors import StorageError
from storage.sql import Conn

# Every table, parents before the rows that refer to them, with the key that orders it.
TABLES: Final = (
    ("guild_settings", "guild_id, key"),
    ("players", "user_id"),
    ("matches", "id"),
    ("seats", "match_id, seat"),
    ("steps", "match_id, ply"),
    ("series", "id"),
    ("series_players", "series_id, position"),
    ("series_games", "series_id, game_no"),
    ("series_kept_cards", "series_id, card"),
    ("tournaments", "id"),
    ("tournament_entries", "tournament_id, user_id"),
    ("tournament_rounds", "tournament_id, round_no"),
    ("tournament_pairings", "id"),
    ("tournament_pairing_players", "pairing_id, position"),
    ("tournament_team_members", "tournament_id, user_id"),
    ("ratings", "user_id, mode_family"),
    ("rating_history", "id"),
    ("board_marks", "match_id"),
    ("match_events", "match_id, kind"),
    ("training_runs", "user_id"),
    ("lessons_passed", "user_id, lesson"),
    ("puzzle_ratings", "user_id"),
    ("puzzle_attempts", "user_id, puzzle"),
    ("notify_settings", "user_id"),
    ("vacations", "user_id, starts"),
    ("unrated_matches", "match_id"),
    ("tournament_events", "tournament_id, kind"),
    ("turn_events", "match_id"),
    ("user_locales", "user_id"),
    ("takebacks", "id"),
    ("board_palettes", "user_id"),
    ("tournament_calendar", "tournament_id"),
    ("draw_offers", "match_id, seat"),
    ("rematch_offers", "id"),
    ("challenges", "id"),
)
# What the running processes hold now (storage/gateway.py): meaningless in another database.
NOT_COPIED: Final = ("identify_slots", "rest_leases", "board_leases")
IDENTITY_TABLES: Final = (
    "matches",
    "series",
    "tournaments",
    "tournament_pairings",
    "rating_history",
    "takebacks",
    "rematch_offers",
    "challenges",
)


@dataclass(frozen=True)
class Copied:
    rows: dict[str, int]  # by table

    def lines(self) -> list[str]:
        return [f"{table}: {count} rows" for table, count in self.rows.items()]


async def columns(conn: Conn, table: str) -> list[str]:
    if conn.dialect == "sqlite":
        return [str(r[1]) for r in await conn.fetchall(f"PRAGMA table_info({table})")]
    rows = await conn.fetchall(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = "
        "current_schema() AND table_name = ? ORDER BY ordinal_position",
        (table,),
    )
    return [str(r[0]) for r in rows]


async def is_empty(db: Database) -> bool:
    async with db.read() as conn:
        for table, _ in TABLES:
            if await conn.fetchall(f"SELECT 1 FROM {table} LIMIT 1"):
                return False
    return True


async def reset_identities(conn: Conn) -> None:
    """After rows were inserted with their ids, PostgreSQL's identity sequences must
    continue after the largest (SQLite takes the next rowid by itself)."""
    if conn.dialect != "postgresql":
        return
    for table in IDENTITY_TABLES:
        await conn.fetchall(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
            f"COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM {table}"
        )


async def copy_database(source: Database, dest: Database) -> Copied:
    """Copy every row of ``source`` into the empty, migrated ``dest``, reading one
    consistent snapshot and writing in one transaction (all or nothing)."""
    version = await source.schema_version()
    if version != migrations.LATEST:
        raise StorageError(
            f"{source.name} has schema version {version}, this bot uses {migrations.LATEST}: "
            "run `crosshairs db migrate` on it first"
        )
    if not await is_empty(dest):
        raise StorageError(f"{dest.name} already holds data; copy into an empty database")
    copied: dict[str, int] = {}
    async with source.read() as src, dest.transaction() as dst:
        for table, key in TABLES:
            names = await columns(src, table)
            rows = await src.fetchall(f"SELECT {', '.join(names)} FROM {table} ORDER BY {key}")
            marks = ", ".join("?" * len(names))
            await dst.executemany(
                f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})", rows
            )
            copied[table] = len(rows)
        await reset_identities(dst)
    return Copied(copied)


async def copy_urls(source: str | Target, dest: str | Target) -> Copied:
    src_target = source if isinstance(source, Target) else parse_target(source)
    if src_target.path is not None and not src_target.path.exists():
        raise StorageError(f"{src_target} does not exist")
    async with (
        await Database.open(src_target, migrate=False) as src,
        await Database.open(dest) as dst,
    ):
        return await copy_database(src, dst)


async def copy_to_file(source: Database, path: str | os.PathLike[str]) -> Copied:
    """Copy ``source`` into a new SQLite file (a backup of a PostgreSQL database)."""
    file = Path(path)
    if file.exists():
        raise StorageError(f"{file} already exists; choose a new file for the backup")
    if not file.parent.is_dir():
        raise StorageError(f"cannot back up to {file}: {file.parent} is not a directory")
    async with await Database.open(file) as dst:
        return await copy_database(source, dst)
