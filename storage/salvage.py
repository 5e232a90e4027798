"""Salvage: copy every readable match, series, tournament and rating of a damaged
database into a fresh one, and say what was lost.

Each table is read whole if it can be; if not, rows are read by id in small ranges and
then one at a time, so a damaged page costs only the rows on it. A match is kept only
with its seats and a snapshot that passes the same checks as at start-up; a reference
to a lost match (a series game, a pairing, a rating change) is kept without it; a player
whose row was lost is kept under their id, as the bot does for a new player.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from storage import migrations
from storage.config import Target, parse_target
from storage.copy import IDENTITY_TABLES, TABLES, columns, is_empty, reset_identities
from storage.db import Database
from storage.errors import CorruptMatch, SchemaTooNew, StorageError
from storage.match_records import COLUMNS, SEAT_COLUMNS, match_from_row, seat_from_row
from storage.sql import Row

_MATCH_NAMES: Final = tuple(c.strip() for c in COLUMNS.split(","))
_SEAT_NAMES: Final = tuple(c.strip().removeprefix("s.") for c in SEAT_COLUMNS.split(","))
PROBE_CHUNK: Final = 50

# Child tables: (column, parent table, parent key column). A child of a lost parent is
# lost with it.
_PARENTS: Final[dict[str, tuple[str, str]]] = {
    "seats": ("match_id", "matches"),
    "steps": ("match_id", "matches"),
    "series_players": ("series_id", "series"),
    "series_games": ("series_id", "series"),
    "series_kept_cards": ("series_id", "series"),
    "tournament_entries": ("tournament_id", "tournaments"),
    "tournament_rounds": ("tournament_id", "tournaments"),
    "tournament_pairings": ("tournament_id", "tournaments"),
    "tournament_pairing_players": ("pairing_id", "tournament_pairings"),
    "tournament_team_members": ("tournament_id", "tournaments"),
    "board_marks": ("match_id", "matches"),
    "match_events": ("match_id", "matches"),
    "unrated_matches": ("match_id", "matches"),
    "tournament_events": ("tournament_id", "tournaments"),
    "turn_events": ("match_id", "matches"),
    "takebacks": ("match_id", "matches"),
    "tournament_calendar": ("tournament_id", "tournaments"),
    "draw_offers": ("match_id", "matches"),
}
# References that may be cleared when their row was lost.
_OPTIONAL: Final[dict[str, tuple[str, ...]]] = {
    "series_games": ("match_id",),
    "tournament_pairings": ("series_id", "match_id"),
    "rating_history": ("match_id",),
}
_OPTIONAL_TARGET: Final = {"match_id": "matches", "series_id": "series"}
_USER_TABLES: Final = (
    "seats",
    "series_players",
    "tournament_entries",
    "tournament_pairing_players",
    "tournament_team_members",
    "ratings",
    "rating_history",
)


@dataclass
class SalvageReport:
    kept: dict[str, int] = field(default_factory=dict)  # rows by table
    lost: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"kept {table}: {count} rows" for table, count in self.kept.items()]
        out.extend(f"lost: {line}" for line in self.lost)
        out.append("nothing was lost" if not self.lost else f"{len(self.lost)} losses")
        return out


class _Tables:
    """What could be read, table by table, as dicts of column name to value."""

    def __init__(self) -> None:
        self.rows: dict[str, list[dict[str, object]]] = {}
        self.names: dict[str, list[str]] = {}


async def _try(db: Database, sql: str, params: tuple[object, ...] = ()) -> list[Row] | None:
    try:
        async with db.read() as conn:
            return await conn.fetchall(sql, params)
    except StorageError:
        return None


async def _read_by_id(
    db: Database, table: str, names: list[str], known: set[int], report: SalvageReport
) -> list[Row]:
    """The rows of a table with an integer id that cannot be read whole: by ranges, then
    one by one. ``known`` are the ids other tables refer to."""
    select = f"SELECT {', '.join(names)} FROM {table}"
    top = await _try(db, f"SELECT MAX(id) FROM {table}")
    hi = int(top[0][0]) if top and top[0][0] is not None else max(known, default=0)
    found: list[Row] = []
    unreadable: list[int] = []
    for start in range(1, hi + 1, PROBE_CHUNK):
        end = min(hi, start + PROBE_CHUNK - 1)
        chunk = await _try(db, f"{select} WHERE id BETWEEN ? AND ? ORDER BY id", (start, end))
        if chunk is not None:
            found.extend(chunk)
            continue
        for one in range(start, end + 1):
            row = await _try(db, f"{select} WHERE id = ?", (one,))
            if row is None:
                unreadable.append(one)
            else:
                found.extend(row)
    if unreadable:
        report.lost.append(
            f"{table}: ids {unreadable[0]}–{unreadable[-1]} are on damaged pages "
            f"({len(unreadable)} ids of that range cannot be read; any row there is lost)"
        )
    return found


async def _referenced(db: Database, table: str) -> set[int]:
    """Ids of ``table`` that its child tables refer to, as far as they can be read."""
    found: set[int] = set()
    for child, (column, parent) in _PARENTS.items():
        if parent == table:
            rows = await _try(db, f"SELECT DISTINCT {column} FROM {child}")
            found.update(int(r[0]) for r in rows or () if isinstance(r[0], int))
    return found


async def _read_children(
    db: Database, table: str, names: list[str], parents: Iterable[object], report: SalvageReport
) -> list[Row]:
    column, parent = _PARENTS[table]
    select = f"SELECT {', '.join(names)} FROM {table} WHERE {column} = ?"
    found: list[Row] = []
    for parent_id in parents:
        rows = await _try(db, select, (parent_id,))
        if rows is None:
            report.lost.append(f"{parent} {parent_id}: its {table} cannot be read")
        else:
            found.extend(rows)
    return found


async def _read_all(db: Database, report: SalvageReport) -> _Tables:
    tables = _Tables()
    for table, key in TABLES:
        try:
            async with db.read() as conn:
                names = await columns(conn, table)
        except StorageError as exc:
            report.lost.append(f"table {table} cannot be read at all ({exc})")
            tables.rows[table] = []
            continue
        tables.names[table] = names
        rows = await _try(db, f"SELECT {', '.join(names)} FROM {table} ORDER BY {key}")
        if rows is None and table in IDENTITY_TABLES:
            known = await _referenced(db, table)
            rows = await _read_by_id(db, table, names, known, report)
        elif rows is None and table in _PARENTS:
            ids = [r["id"] for r in tables.rows.get(_PARENTS[table][1], [])]
            rows = await _read_children(db, table, names, ids, report)
        elif rows is None:
            report.lost.append(f"table {table} cannot be read; its rows are lost")
            rows = []
        tables.rows[table] = [dict(zip(names, r, strict=True)) for r in rows]
    return tables


def _keep_readable_matches(tables: _Tables, report: SalvageReport) -> None:
    """Drop every match that would be set aside at start-up, with its seats and steps."""
    seats: dict[object, list[dict[str, object]]] = {}
    for seat in tables.rows["seats"]:
        seats.setdefault(seat["match_id"], []).append(seat)
    kept = []
    for match in tables.rows["matches"]:
        try:
            seated = [
                seat_from_row(match["id"], tuple(s[c] for c in _SEAT_NAMES))
                for s in seats.get(match["id"], [])
            ]
            match_from_row(tuple(match[c] for c in _MATCH_NAMES), seated)
        except CorruptMatch as exc:
            report.lost.append(f"match {match['id']}: {exc.why}")
            continue
        kept.append(match)
    tables.rows["matches"] = kept


def _drop_orphans(tables: _Tables, report: SalvageReport) -> None:
    alive: dict[str, set[object]] = {}
    for table, _ in TABLES:
        rows = tables.rows[table]
        if table in _PARENTS:
            column, parent = _PARENTS[table]
            orphaned = sorted({r[column] for r in rows} - alive.get(parent, set()), key=str)
            report.lost.extend(
                f"{parent} {lost}: its row is lost (its {table} remained)"
                for lost in orphaned
                if f"{parent} {lost}:" not in " ".join(report.lost)
            )
            rows = [r for r in rows if r[column] in alive.get(parent, set())]
        for column in _OPTIONAL.get(table, ()):
            gone = alive.get(_OPTIONAL_TARGET[column], set())
            for row in rows:
                if row[column] is not None and row[column] not in gone:
                    report.lost.append(
                        f"{table}: the link to {_OPTIONAL_TARGET[column]} {row[column]} (lost)"
                    )
                    row[column] = None
        if table == "series_kept_cards":
            games = {(g["series_id"], g["game_no"]) for g in tables.rows["series_games"]}
            rows = [r for r in rows if (r["series_id"], r["game_no"]) in games]
        if table == "tournament_pairings":  # a pairing belongs to its round
            rounds = {(r["tournament_id"], r["round_no"]) for r in tables.rows["tournament_rounds"]}
            lost = [r for r in rows if (r["tournament_id"], r["round_no"]) not in rounds]
            report.lost.extend(f"tournament pairing {r['id']}: its round is lost" for r in lost)
            rows = [r for r in rows if r not in lost]
        tables.rows[table] = rows
        if "id" in tables.names.get(table, []):
            alive[table] = {r["id"] for r in rows}


def _ensure_players(tables: _Tables, report: SalvageReport) -> None:
    known = {r["user_id"] for r in tables.rows["players"]}
    now = time.time()
    columns = [(table, "user_id") for table in _USER_TABLES]
    columns.append(("tournament_team_members", "captain_id"))  # a person too
    for table, column in columns:
        for row in tables.rows[table]:
            user = row[column]
            if user is not None and user not in known:
                known.add(user)
                report.lost.append(f"player {user}: name lost, kept under the id")
                tables.rows["players"].append(
                    {
                        "user_id": user,
                        "display_name": str(user),
                        "created_at": now,
                        "updated_at": now,
                    }
                )


async def salvage_database(source: Database, dest: Database) -> SalvageReport:
    """Copy what can be read of ``source`` into the empty, migrated ``dest``."""
    if not await is_empty(dest):
        raise StorageError(f"{dest.name} already holds data; salvage into a new database")
    report = SalvageReport()
    tables = await _read_all(source, report)
    _keep_readable_matches(tables, report)
    _drop_orphans(tables, report)
    _ensure_players(tables, report)
    async with dest.transaction() as conn:
        for table, _ in TABLES:
            rows = tables.rows[table]
            names = tables.names.get(table)
            if not names or not rows:
                report.kept[table] = 0
                continue
            marks = ", ".join("?" * len(names))
            await conn.executemany(
                f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})",
                [tuple(r[n] for n in names) for r in rows],
            )
            report.kept[table] = len(rows)
        await reset_identities(conn)
    return report


async def salvage(source: str | Target, dest: str | Target) -> SalvageReport:
    """``crosshairs db salvage``: the destination must be new (a missing file)."""
    src = source if isinstance(source, Target) else parse_target(source)
    dst = dest if isinstance(dest, Target) else parse_target(dest)
    if src.path is not None and not src.path.exists():
        raise StorageError(f"{src} does not exist")
    if dst.path is not None and dst.path.exists():
        raise StorageError(f"{dst} already exists; salvage into a new file")
    try:
        opened = await Database.open(src, migrate=False)
    except StorageError as exc:
        raise StorageError(f"nothing can be read from {src}: {exc}") from exc
    async with opened as db:
        version = await _version(db)
        if not version >= 1:
            raise StorageError(f"nothing can be read from {src}: it has no schema")
        if version > migrations.LATEST:
            # its tables mean what a newer bot says: a copy made by this one would
            # drop what it does not know and call the result whole
            raise SchemaTooNew(str(src), version, migrations.LATEST)
        async with await Database.open(dst) as out:
            return await salvage_database(db, out)


async def _version(db: Database) -> int:
    try:
        return await db.schema_version()
    except StorageError:
        # The version table itself may be on a damaged page: try the tables anyway.
        return 1
