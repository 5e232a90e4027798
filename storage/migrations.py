"""The schema, as numbered migrations applied in order at start-up.

Migration *n* (1-based) turns a version *n - 1* file into a version *n* file. A file
records the migrations applied to it in ``schema_version``; a file without that table is
version 0 (new and empty). Published migrations are never edited: a schema change is a
new migration appended to :data:`MIGRATIONS`, so every older file can be upgraded in
place. All pending migrations run in one transaction, so an upgrade interrupted by a
crash leaves the database at its old version. Both backends apply the same numbered
migrations, SQLite's text translated for PostgreSQL.
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass
from typing import Final

from storage.errors import SchemaTooNew
from storage.later_tables import (
    V13_GATEWAY,
    V14_TAKEBACKS,
    V15_PALETTES,
    V16_TOURNAMENT_CALENDAR,
    V17_CLOCK_DUE,
    V18_DRAW_OFFERS,
    V19_BOARD_LEASES,
    V20_REMATCH_OFFERS,
    V21_CHALLENGES,
)
from storage.sql import Conn, Dialect, fetchone

_V1_CORE: Final = """
CREATE TABLE guild_settings (
    guild_id   INTEGER NOT NULL,
    key        TEXT    NOT NULL,
    value      TEXT    NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, key)
) WITHOUT ROWID;

CREATE TABLE players (
    user_id      INTEGER PRIMARY KEY,
    display_name TEXT NOT NULL,
    created_at   REAL NOT NULL,
    updated_at   REAL NOT NULL
);

CREATE TABLE matches (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    thread_id        INTEGER,
    board_message_id INTEGER,
    mode             TEXT    NOT NULL,
    ruleset          TEXT    NOT NULL,
    variants         TEXT    NOT NULL DEFAULT '',
    fire_mode        TEXT    NOT NULL,
    clock_json       TEXT    NOT NULL DEFAULT '{}',
    status           TEXT    NOT NULL DEFAULT 'active'
                     CHECK (status IN ('active', 'finished', 'abandoned')),
    result_json      TEXT,
    ply              INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
    to_move_seat     INTEGER,
    turn_deadline    REAL,
    snapshot         TEXT    NOT NULL,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    finished_at      REAL
);
CREATE INDEX matches_unfinished ON matches (id) WHERE status = 'active';
CREATE INDEX matches_guild_status ON matches (guild_id, status);
CREATE INDEX matches_thread ON matches (thread_id) WHERE thread_id IS NOT NULL;

CREATE TABLE seats (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    user_id  INTEGER REFERENCES players (user_id),
    team     INTEGER NOT NULL,
    handicap INTEGER NOT NULL DEFAULT 0 CHECK (handicap >= 0),
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE INDEX seats_user ON seats (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE steps (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    ply      INTEGER NOT NULL CHECK (ply >= 1),
    token    TEXT    NOT NULL,
    actor_id INTEGER,
    at       REAL    NOT NULL,
    PRIMARY KEY (match_id, ply)
) WITHOUT ROWID;
"""

_V1_SQLITE_TRIGGERS: Final = """
CREATE TRIGGER steps_no_update BEFORE UPDATE ON steps
BEGIN
    SELECT RAISE(ABORT, 'the step log is append-only');
END;
CREATE TRIGGER steps_no_delete BEFORE DELETE ON steps
BEGIN
    SELECT RAISE(ABORT, 'the step log is append-only');
END;
"""

_V1_POSTGRES_TRIGGERS: Final = (
    "CREATE FUNCTION steps_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
    "BEGIN RAISE EXCEPTION 'the step log is append-only'; END; $$",
    "CREATE TRIGGER steps_no_update BEFORE UPDATE ON steps "
    "FOR EACH ROW EXECUTE FUNCTION steps_append_only()",
    "CREATE TRIGGER steps_no_delete BEFORE DELETE ON steps "
    "FOR EACH ROW EXECUTE FUNCTION steps_append_only()",
)

_V2_COMPETITION: Final = """
CREATE TABLE series (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER,
    channel_id      INTEGER NOT NULL,
    thread_id       INTEGER,
    mode            TEXT    NOT NULL,
    settings_json   TEXT    NOT NULL DEFAULT '{}',
    games_planned   INTEGER NOT NULL CHECK (games_planned >= 1),
    alternate_first INTEGER NOT NULL DEFAULT 1 CHECK (alternate_first IN (0, 1)),
    pool            TEXT    NOT NULL DEFAULT '',
    status          TEXT    NOT NULL DEFAULT 'active'
                    CHECK (status IN ('active', 'finished', 'abandoned')),
    created_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL
);
CREATE INDEX series_active ON series (guild_id) WHERE status = 'active';

CREATE TABLE series_players (
    series_id INTEGER NOT NULL REFERENCES series (id),
    position  INTEGER NOT NULL CHECK (position >= 0),
    user_id   INTEGER REFERENCES players (user_id),
    side      INTEGER NOT NULL,
    handicap  INTEGER NOT NULL DEFAULT 0 CHECK (handicap >= 0),
    PRIMARY KEY (series_id, position)
) WITHOUT ROWID;

CREATE TABLE series_games (
    series_id INTEGER NOT NULL REFERENCES series (id),
    game_no   INTEGER NOT NULL CHECK (game_no >= 1),
    match_id  INTEGER REFERENCES matches (id),
    winners   TEXT,
    PRIMARY KEY (series_id, game_no)
) WITHOUT ROWID;

CREATE TABLE series_kept_cards (
    series_id INTEGER NOT NULL REFERENCES series (id),
    card      TEXT    NOT NULL,
    side      INTEGER NOT NULL,
    points    INTEGER NOT NULL,
    game_no   INTEGER NOT NULL,
    PRIMARY KEY (series_id, card),
    FOREIGN KEY (series_id, game_no) REFERENCES series_games (series_id, game_no)
) WITHOUT ROWID;

CREATE TABLE tournaments (
    id                INTEGER PRIMARY KEY,
    guild_id          INTEGER NOT NULL,
    channel_id        INTEGER NOT NULL,
    name              TEXT    NOT NULL,
    format            TEXT    NOT NULL,
    mode              TEXT    NOT NULL,
    settings_json     TEXT    NOT NULL DEFAULT '{}',
    games_per_pairing INTEGER NOT NULL DEFAULT 1 CHECK (games_per_pairing >= 1),
    status            TEXT    NOT NULL DEFAULT 'open'
                      CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    created_at        REAL    NOT NULL,
    updated_at        REAL    NOT NULL
);

CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL REFERENCES players (user_id),
    seed          INTEGER,
    checked_in    INTEGER NOT NULL DEFAULT 0 CHECK (checked_in IN (0, 1)),
    dropped       INTEGER NOT NULL DEFAULT 0 CHECK (dropped IN (0, 1)),
    joined_at     REAL    NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;

CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round_no      INTEGER NOT NULL CHECK (round_no >= 1),
    status        TEXT    NOT NULL DEFAULT 'running'
                  CHECK (status IN ('running', 'finished')),
    started_at    REAL    NOT NULL,
    finished_at   REAL,
    PRIMARY KEY (tournament_id, round_no)
) WITHOUT ROWID;

CREATE TABLE tournament_pairings (
    id            INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL,
    round_no      INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    series_id     INTEGER REFERENCES series (id),
    match_id      INTEGER REFERENCES matches (id),
    result_json   TEXT,
    UNIQUE (tournament_id, round_no, table_no),
    FOREIGN KEY (tournament_id, round_no) REFERENCES tournament_rounds (tournament_id, round_no)
);

CREATE TABLE tournament_pairing_players (
    pairing_id INTEGER NOT NULL REFERENCES tournament_pairings (id),
    position   INTEGER NOT NULL CHECK (position >= 0),
    user_id    INTEGER NOT NULL REFERENCES players (user_id),
    points     REAL,
    PRIMARY KEY (pairing_id, position)
) WITHOUT ROWID;
CREATE INDEX tournament_pairing_players_user ON tournament_pairing_players (user_id);

CREATE TABLE ratings (
    user_id     INTEGER NOT NULL REFERENCES players (user_id),
    mode_family TEXT    NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (user_id, mode_family)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (mode_family, mu DESC);

CREATE TABLE rating_history (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES players (user_id),
    mode_family  TEXT    NOT NULL,
    match_id     INTEGER REFERENCES matches (id),
    mu_before    REAL,
    sigma_before REAL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    at           REAL    NOT NULL
);
CREATE INDEX rating_history_player ON rating_history (user_id, mode_family, id);
"""

_V3_BOARD_MARKS: Final = """
CREATE TABLE board_marks (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    ply      INTEGER NOT NULL CHECK (ply >= 0)
);
"""

# Team events: a captain's team, one row per member (the captain's own row is accepted
# from the start). A team enters the tournament, under its captain's id, once every
# member has accepted; a player is in at most one team of an event.
_V4_TEAMS: Final = """
CREATE TABLE tournament_team_members (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL REFERENCES players (user_id),
    captain_id    INTEGER NOT NULL REFERENCES players (user_id),
    position      INTEGER NOT NULL CHECK (position >= 0),
    accepted      INTEGER NOT NULL DEFAULT 0 CHECK (accepted IN (0, 1)),
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;
CREATE INDEX tournament_teams_captain ON tournament_team_members (tournament_id, captain_id);
"""

# What became of a match's end, exactly once: the write that ends a match adds its row
# ('finished' or 'aborted') in the same transaction, and the row is done once everything
# that follows an end (the ratings line, the series scoreboard, the next game, the
# tournament's booking) has been shown. Each of those steps adds its own row, done as
# soon as it is shown, so a restart carries on from where the process died.
_V5_MATCH_EVENTS: Final = """
CREATE TABLE match_events (
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    kind       TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    done_at    REAL,
    PRIMARY KEY (match_id, kind)
) WITHOUT ROWID;
"""

# How often a person wants a DM about their games (bot/services/notifications.py): off,
# every turn, or only when a turn clock runs low. One row per person who chose.
_V7_NOTIFY: Final = """
CREATE TABLE notify_settings (
    user_id    INTEGER NOT NULL PRIMARY KEY,
    level      TEXT    NOT NULL CHECK (level IN ('off', 'turn', 'clock')),
    updated_at REAL    NOT NULL
);
"""

# Vacations (bot/services/vacations.py): while one lasts, the person's turn clocks cannot
# run out. A vacation ended early keeps the time it lasted, which counts to the limit.
_V8_VACATIONS: Final = """
CREATE TABLE vacations (
    user_id INTEGER NOT NULL,
    starts  REAL    NOT NULL,
    ends    REAL    NOT NULL CHECK (ends >= starts),
    PRIMARY KEY (user_id, starts)
) WITHOUT ROWID;
"""

# Matches their players chose to leave unrated (``/crosshairs challenge rated:false``):
# ratings skip them, and takebacks are allowed in them (docs/correspondence.md).
_V9_UNRATED: Final = """
CREATE TABLE unrated_matches (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id)
);
"""

# A tournament's end, announced once (storage/tournament_events.py): the write that
# finishes an event adds its 'finished' row in the same transaction; the row is done
# once the final standings and the winner are posted, so a restart neither repeats nor
# loses them. Events finished before this table existed were announced then.
_V10_TOURNAMENT_EVENTS: Final = """
CREATE TABLE tournament_events (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    kind          TEXT    NOT NULL,
    created_at    REAL    NOT NULL,
    done_at       REAL,
    PRIMARY KEY (tournament_id, kind)
) WITHOUT ROWID;

INSERT INTO tournament_events (tournament_id, kind, created_at, done_at)
SELECT id, 'finished', updated_at, updated_at FROM tournaments WHERE status = 'finished';
"""

# The last turn passed in each match, told once (storage/turn_events.py): the step that
# passes the turn writes the row in its own transaction; the row is done once the player
# now to move was told, and a later turn replaces it. Turns passed before this table
# existed were told then (or their DM is lost, as it was).
_V11_TURN_EVENTS: Final = """
CREATE TABLE turn_events (
    match_id   INTEGER PRIMARY KEY REFERENCES matches (id),
    ply        INTEGER NOT NULL CHECK (ply >= 1),
    actor_id   INTEGER,
    created_at REAL    NOT NULL,
    done_at    REAL
);
"""

# Each person's Discord locale, as their latest interaction told it
# (bot/services/locales.py): a DM about their games is written in it. One row per person
# the bot has heard from since this table exists.
_V12_LOCALES: Final = """
CREATE TABLE user_locales (
    user_id    INTEGER NOT NULL PRIMARY KEY,
    locale     TEXT    NOT NULL,
    updated_at REAL    NOT NULL
);
"""

# Learn and puzzles (/crosshairs learn, /crosshairs puzzle): each person's open exercise
# (the lesson or puzzle and the steps played in it so far, so a press after a restart
# finds it), the lessons passed, the puzzle rating (Glicko-2) with streaks, and every
# puzzle tried. Blunders turned into puzzles name their match and turn.
_V6_TRAINING: Final = """
CREATE TABLE training_runs (
    user_id    INTEGER PRIMARY KEY,
    kind       TEXT    NOT NULL CHECK (kind IN ('lesson', 'puzzle', 'blunder')),
    item       TEXT    NOT NULL,
    tokens     TEXT    NOT NULL DEFAULT '',
    tries      INTEGER NOT NULL DEFAULT 0 CHECK (tries >= 0),
    started_at REAL    NOT NULL,
    updated_at REAL    NOT NULL
);

CREATE TABLE lessons_passed (
    user_id   INTEGER NOT NULL,
    lesson    TEXT    NOT NULL,
    tries     INTEGER NOT NULL CHECK (tries >= 1),
    passed_at REAL    NOT NULL,
    PRIMARY KEY (user_id, lesson)
) WITHOUT ROWID;

CREATE TABLE puzzle_ratings (
    user_id     INTEGER PRIMARY KEY,
    rating      REAL    NOT NULL,
    deviation   REAL    NOT NULL,
    volatility  REAL    NOT NULL,
    solved      INTEGER NOT NULL DEFAULT 0 CHECK (solved >= 0),
    failed      INTEGER NOT NULL DEFAULT 0 CHECK (failed >= 0),
    streak      INTEGER NOT NULL DEFAULT 0 CHECK (streak >= 0),
    best_streak INTEGER NOT NULL DEFAULT 0 CHECK (best_streak >= 0),
    updated_at  REAL    NOT NULL
);

CREATE TABLE puzzle_attempts (
    user_id      INTEGER NOT NULL,
    puzzle       TEXT    NOT NULL,
    solved       INTEGER NOT NULL CHECK (solved IN (0, 1)),
    rating_after REAL    NOT NULL,
    at           REAL    NOT NULL,
    PRIMARY KEY (user_id, puzzle)
) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class Migration:
    """One schema version. ``tables`` is written in SQLite's dialect and translated for
    PostgreSQL by :func:`to_postgres`; what cannot be translated (trigger bodies) is
    written once per dialect (PostgreSQL's as single statements: SQLite's splitter
    cannot see the ends of plpgsql bodies)."""

    tables: str
    sqlite_extra: str = ""
    postgres_extra: tuple[str, ...] = ()

    def statements(self, dialect: Dialect) -> list[str]:
        if dialect == "sqlite":
            return statements(self.tables) + statements(self.sqlite_extra)
        return statements(to_postgres(self.tables)) + list(self.postgres_extra)


MIGRATIONS: Final[tuple[Migration, ...]] = (
    Migration(_V1_CORE, _V1_SQLITE_TRIGGERS, _V1_POSTGRES_TRIGGERS),
    Migration(_V2_COMPETITION),
    Migration(_V3_BOARD_MARKS),
    Migration(_V4_TEAMS),
    Migration(_V5_MATCH_EVENTS),
    Migration(_V6_TRAINING),
    Migration(_V7_NOTIFY),
    Migration(_V8_VACATIONS),
    Migration(_V9_UNRATED),
    Migration(_V10_TOURNAMENT_EVENTS),
    Migration(_V11_TURN_EVENTS),
    Migration(_V12_LOCALES),
    Migration(V13_GATEWAY),
    Migration(V14_TAKEBACKS),
    Migration(V15_PALETTES),
    Migration(V16_TOURNAMENT_CALENDAR),
    Migration(V17_CLOCK_DUE),
    Migration(V18_DRAW_OFFERS),
    Migration(V19_BOARD_LEASES),
    Migration(V20_REMATCH_OFFERS),
    Migration(V21_CHALLENGES),
)
LATEST: Final = len(MIGRATIONS)

# PostgreSQL's INTEGER is 32 bits (Discord ids need 64) and its REAL 32-bit floats
# (times need doubles); SQLite's rowid alias becomes an identity column.
_TO_POSTGRES: Final = (
    (
        re.compile(r"\bid(\s+)INTEGER PRIMARY KEY\b"),
        r"id\1BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    ),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\)\s*WITHOUT ROWID;"), ");"),
)


def to_postgres(script: str) -> str:
    """The same tables in PostgreSQL's dialect."""
    for pattern, replacement in _TO_POSTGRES:
        script = pattern.sub(replacement, script)
    return script


def statements(script: str) -> list[str]:
    """Split a script into statements. ``executescript`` would commit the surrounding
    transaction, so each statement is executed on its own; ``complete_statement`` keeps
    a trigger body's semicolons inside its statement."""
    found: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            found.append(pending.strip())
            pending = ""
    if pending.strip():
        raise ValueError(f"incomplete SQL statement: {pending.strip()[:60]!r}")
    return found


_SCHEMA_TABLE_EXISTS: Final[dict[Dialect, str]] = {
    "sqlite": "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'",
    "postgresql": "SELECT 1 FROM pg_tables WHERE schemaname = current_schema() "
    "AND tablename = 'schema_version'",
}


async def current_version(conn: Conn) -> int:
    if not await conn.fetchall(_SCHEMA_TABLE_EXISTS[conn.dialect]):
        return 0
    row = await fetchone(conn, "SELECT COALESCE(MAX(version), 0) FROM schema_version")
    return int(row[0]) if row is not None else 0


async def apply(conn: Conn, name: str, target: int = LATEST) -> tuple[int, int]:
    """Inside a write transaction that holds the database's migration lock: bring the
    schema up to ``target``; return (version before, version after). Raises
    :class:`SchemaTooNew` for a database from a newer bot, changing nothing."""
    if not 0 <= target <= LATEST:
        raise ValueError(f"no schema version {target}; versions are 0 to {LATEST}")
    found = await current_version(conn)
    if found > LATEST:
        raise SchemaTooNew(name, found, LATEST)
    if found < target:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            "version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
        )
    for version in range(found + 1, target + 1):
        for sql in MIGRATIONS[version - 1].statements(conn.dialect):
            await conn.execute(sql)
        await conn.execute(
            "INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
            (version, time.time()),
        )
    return found, max(found, target)
