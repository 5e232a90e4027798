"""Forgetting a person on request: every row that names them is anonymised in one
transaction, so the other players' games, series and tournaments stay whole.

The person's Discord id is replaced everywhere by a fresh negative id (Discord ids are
positive, so it can never be a real person's) under the name :data:`FORGOTTEN`; their
display name is removed from match snapshots and series plans; their own ratings and
rating history are deleted, and so are their lessons, puzzle rating and puzzle tries,
their notification setting, vacations and Discord language. The other players' ratings,
results and cards stay as they were. In a tournament still taking entries their entry
(and any team they are in) is withdrawn; in one under way their entry is marked dropped,
so they are never paired again. A person seated in a match still being played is refused
unless the caller has ended their part in it (``left``: :mod:`bot.services.departure`
does that for the command line).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from storage.db import Database
from storage.errors import StorageError
from storage.sql import Conn

FORGOTTEN = "Forgotten pilot"

# (table, column) pairs holding a person's Discord id, rewritten to the pseudonym
_ID_COLUMNS = (
    ("seats", "user_id"),
    ("series_players", "user_id"),
    ("tournament_entries", "user_id"),
    ("tournament_pairing_players", "user_id"),
    ("tournament_team_members", "user_id"),
    ("tournament_team_members", "captain_id"),
    ("turn_events", "actor_id"),
)


@dataclass(frozen=True)
class Forgotten:
    user_id: int
    pseudonym: int
    rows: dict[str, int]  # rows changed (or deleted) per table

    def lines(self) -> list[str]:
        changed = [f"{table}: {n}" for table, n in self.rows.items() if n]
        return [
            f"user {self.user_id} is now {self.pseudonym} ({FORGOTTEN})",
            "rows changed: " + (", ".join(changed) if changed else "none (nothing was stored)"),
        ]


async def forget_user(db: Database, user_id: int, left: frozenset[int] = frozenset()) -> Forgotten:
    """Anonymise ``user_id``; ``left`` lists active matches in which they are already
    out (resigned for them), which may then keep their seat under the pseudonym."""
    if user_id <= 0:
        raise StorageError("a Discord user id is a positive number")
    async with db.transaction() as conn:
        playing = [
            m
            for m in await _ids(
                conn,
                "SELECT m.id FROM matches m JOIN seats s ON s.match_id = m.id "
                "WHERE s.user_id = ? AND m.status = 'active'",
                (user_id,),
            )
            if m not in left
        ]
        if playing:
            listed = ", ".join(f"#{m}" for m in playing)
            raise StorageError(
                f"user {user_id} is playing in match {listed}: finish or abort it first"
            )
        rows: dict[str, int] = {}
        lowest = await _ids(conn, "SELECT MIN(user_id) FROM players", ())
        pseudonym = min(-1, (lowest[0] if lowest and lowest[0] is not None else 0) - 1)
        now = time.time()
        await conn.execute(
            "INSERT INTO players (user_id, display_name, created_at, updated_at) "
            "VALUES (?, ?, ?, ?)",
            (pseudonym, FORGOTTEN, now, now),
        )
        rows.update(await _withdraw_entries(conn, user_id))
        for table, column in _ID_COLUMNS:
            rows[table] = await conn.execute(
                f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (pseudonym, user_id)
            )
        rows["steps"] = await _rewrite_step_actors(conn, user_id, pseudonym)
        for table in (
            "rating_history",
            "ratings",
            "training_runs",
            "lessons_passed",
            "puzzle_ratings",
            "puzzle_attempts",
            "notify_settings",
            "vacations",
            "user_locales",
            "board_palettes",
        ):
            rows[table] = await conn.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
        rows["takebacks"] = await conn.execute(  # asked or answered: settled history
            "DELETE FROM takebacks WHERE asker_id = ? OR asked LIKE ?", (user_id, f"%,{user_id},%")
        )
        rows["rematch_offers"] = await conn.execute(  # their name, who asked and was asked
            "DELETE FROM rematch_offers WHERE host_id = ? OR asked LIKE ?",
            (user_id, f"%,{user_id},%"),
        )
        rows["challenges"] = await conn.execute(  # their name, who challenged whom
            "DELETE FROM challenges WHERE host_id = ? OR invited_id = ?", (user_id, user_id)
        )
        rows["matches"] = await _rewrite_matches(conn, user_id, pseudonym)
        rows["series"] = await _rewrite_plans(conn, "series", user_id, pseudonym)
        rows["tournaments"] = await _rewrite_plans(conn, "tournaments", user_id, pseudonym)
        rows["players"] = await conn.execute("DELETE FROM players WHERE user_id = ?", (user_id,))
    return Forgotten(user_id, pseudonym, rows)


async def _withdraw_entries(conn: Conn, user_id: int) -> dict[str, int]:
    """Take them out of tournaments: an open one loses their entry and teams (nobody
    can fly a forgotten pilot), a running one marks them dropped, so they are never
    paired again; finished events keep their results under the pseudonym."""
    status = "SELECT id FROM tournaments WHERE status = ?"
    withdrawn = await conn.execute(
        f"DELETE FROM tournament_entries WHERE user_id = ? AND tournament_id IN ({status})",
        (user_id, "open"),
    )
    teams = await conn.execute(
        "DELETE FROM tournament_team_members WHERE (user_id = ? OR captain_id = ?) "
        f"AND tournament_id IN ({status})",
        (user_id, user_id, "open"),
    )
    dropped = await conn.execute(
        "UPDATE tournament_entries SET dropped = ? WHERE user_id = ? "
        f"AND tournament_id IN ({status})",
        (1, user_id, "running"),
    )
    return {"entries withdrawn": withdrawn, "teams left": teams, "entries dropped": dropped}


async def _rewrite_step_actors(conn: Conn, user_id: int, pseudonym: int) -> int:
    """The step log is append-only (a trigger refuses updates); a deletion request is
    the one change allowed, so the trigger is lifted and put back inside this
    transaction: if anything fails, both come back with the rollback."""
    update = "UPDATE steps SET actor_id = ? WHERE actor_id = ?"
    if conn.dialect == "postgresql":
        await conn.execute("ALTER TABLE steps DISABLE TRIGGER steps_no_update")
        changed = await conn.execute(update, (pseudonym, user_id))
        await conn.execute("ALTER TABLE steps ENABLE TRIGGER steps_no_update")
        return changed
    (trigger,) = await _ids(
        conn,
        "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'steps_no_update'",
        (),
    )
    await conn.execute("DROP TRIGGER steps_no_update")
    changed = await conn.execute(update, (pseudonym, user_id))
    await conn.execute(trigger)
    return changed


async def _ids(conn: Conn, sql: str, params: tuple[Any, ...]) -> list[Any]:
    return [r[0] for r in await conn.fetchall(sql, params)]


async def _rewrite_matches(conn: Conn, user_id: int, pseudonym: int) -> int:
    """The snapshot's seat list (ids and names) and an abort's ``aborted_by``."""
    changed = 0
    found = await conn.fetchall(
        "SELECT DISTINCT m.id, m.snapshot, m.result_json FROM matches m "
        "JOIN seats s ON s.match_id = m.id WHERE s.user_id = ?",
        (pseudonym,),  # the seats were rewritten first
    )
    for match_id, snapshot, result_json in found:
        data = json.loads(snapshot)
        for player in data.get("players", []):
            if player.get("user_id") == user_id:
                player["user_id"], player["name"] = pseudonym, FORGOTTEN
        result = json.loads(result_json) if result_json else None
        if isinstance(result, dict) and result.get("aborted_by") == user_id:
            result["aborted_by"] = pseudonym
        await conn.execute(
            "UPDATE matches SET snapshot = ?, result_json = ? WHERE id = ?",
            (
                json.dumps(data, separators=(",", ":")),
                None if result is None else json.dumps(result),
                match_id,
            ),
        )
        changed += 1
    return changed


async def _rewrite_plans(conn: Conn, table: str, user_id: int, pseudonym: int) -> int:
    """A series' or tournament's plan: its organiser, and a series' names by position."""
    changed = 0
    positions: dict[int, list[int]] = {}
    if table == "series":
        for series_id, position in await conn.fetchall(
            "SELECT series_id, position FROM series_players WHERE user_id = ?", (pseudonym,)
        ):
            positions.setdefault(int(series_id), []).append(int(position))
    for row_id, settings_json in await conn.fetchall(f"SELECT id, settings_json FROM {table}", ()):
        plan = json.loads(settings_json or "{}")
        touched = False
        if plan.get("organiser") == user_id:
            plan["organiser"] = pseudonym
            touched = True
        names = plan.get("names")
        for position in positions.get(int(row_id), []):
            if isinstance(names, list) and position < len(names):
                names[position] = FORGOTTEN
                touched = True
        if touched:
            await conn.execute(
                f"UPDATE {table} SET settings_json = ? WHERE id = ?", (json.dumps(plan), row_id)
            )
            changed += 1
    return changed
