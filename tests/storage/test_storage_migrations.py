from __future__ import annotations

from pathlib import Path

import pytest
from storage_testkit import duel, raw

from storage import migrations
from storage.config import parse_target
from storage.db import Database
from storage.errors import SchemaTooNew, StorageError
from storage.matches import MatchRepo
from storage.players import remember
from storage.ratings import RatingChange, RatingRepo
from storage.tournament_events import FINISHED, TournamentEventRepo
from storage.tournaments import NewTournament, TournamentRepo, TournamentStatus


def _tables(target: str) -> set[str]:
    if parse_target(target).dialect == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type='table'"
    else:
        sql = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    return {str(r[0]) for r in raw(target, sql)}


async def test_an_empty_database_gets_the_latest_schema(target: str) -> None:
    async with await Database.open(target) as db:
        assert await db.schema_version() == migrations.LATEST
    assert {"matches", "steps", "seats", "players", "guild_settings"} <= _tables(target)
    assert {"series", "tournaments", "ratings", "rating_history"} <= _tables(target)
    versions = [r[0] for r in raw(target, "SELECT version FROM schema_version ORDER BY version")]
    assert versions == list(range(1, migrations.LATEST + 1))


@pytest.mark.parametrize("target", ["sqlite"], indirect=True)
async def test_the_sqlite_connection_is_durable_and_checks_references(target: str) -> None:
    async with await Database.open(target) as db, db.transaction() as conn:
        assert await conn.fetchall("PRAGMA journal_mode") == [("wal",)]
        assert await conn.fetchall("PRAGMA foreign_keys") == [(1,)]
        assert await conn.fetchall("PRAGMA synchronous") == [(2,)]  # FULL
        [(timeout,)] = await conn.fetchall("PRAGMA busy_timeout")
        assert timeout >= 1000


async def test_discord_ids_and_times_keep_their_precision(target: str) -> None:
    """PostgreSQL's INTEGER and REAL are 32 bits: the schema must use 64-bit types."""
    snowflake = 1_234_567_890_123_456_789
    async with await Database.open(target) as db:
        repo = MatchRepo(db)
        match_id = await repo.create(duel(channel_id=snowflake, guild_id=snowflake))
        m = await repo.get(match_id)
    assert (m.channel_id, m.guild_id, m.turn_deadline) == (snowflake, snowflake, 1_900_000_000.0)


@pytest.mark.parametrize("start", range(migrations.LATEST))
async def test_every_earlier_version_upgrades_in_place(target: str, start: int) -> None:
    async with await Database.open(target, migrate=False) as db:
        assert await db.migrate(target=start) == (0, start)
        match_id = None
        if start >= 1:  # the matches table exists from version 1 on
            match_id = await MatchRepo(db).create(duel())
    async with await Database.open(target) as db:
        assert await db.schema_version() == migrations.LATEST
        if match_id is not None:
            assert (await MatchRepo(db).get(match_id)).channel_id == 500
        async with db.transaction() as conn:
            await remember(conn, 11, "Ann")
        await RatingRepo(db).apply("duel", match_id, [RatingChange(11, 27.0, 7.0)])
        assert await db.integrity_check() == []


async def test_migrating_twice_changes_nothing(target: str) -> None:
    async with await Database.open(target) as db:
        assert await db.migrate() == (migrations.LATEST, migrations.LATEST)


async def test_a_database_from_a_newer_bot_is_refused_untouched(target: str) -> None:
    async with await Database.open(target):
        pass
    newer = migrations.LATEST + 1
    raw(target, "INSERT INTO schema_version (version, applied_at) VALUES (?, 0)", (newer,))
    with pytest.raises(SchemaTooNew) as caught:
        await Database.open(target)
    assert f"schema version {newer}" in str(caught.value)
    assert "upgrade the bot" in str(caught.value)
    assert raw(target, "SELECT MAX(version) FROM schema_version") == [(newer,)]


async def test_a_failed_migration_leaves_the_old_version(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await Database.open(target, migrate=False) as db:
        await db.migrate(target=1)
    broken = migrations.Migration("CREATE TABLE series (id INTEGER);\nNOT SQL;\n")
    monkeypatch.setattr(migrations, "MIGRATIONS", (migrations.MIGRATIONS[0], broken))
    async with await Database.open(target, migrate=False) as db:
        with pytest.raises(StorageError, match="syntax error"):
            await db.migrate(target=2)
        assert await db.schema_version() == 1
    assert "series" not in _tables(target)


def test_statements_keep_trigger_bodies_whole() -> None:
    script = "CREATE TABLE t (a);\nCREATE TRIGGER x BEFORE DELETE ON t\nBEGIN\n  SELECT 1;\nEND;\n"
    assert len(migrations.statements(script)) == 2
    with pytest.raises(ValueError, match="incomplete"):
        migrations.statements("CREATE TABLE t (a)")


async def test_a_file_that_is_not_a_database_gives_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 300)
    with pytest.raises(StorageError, match="cannot open the database"):
        await Database.open(path)


async def test_an_unreachable_server_gives_a_clear_error() -> None:
    with pytest.raises(StorageError, match="cannot connect to PostgreSQL"):
        await Database.open("postgresql://nobody@127.0.0.1:1/none")
    with pytest.raises(StorageError, match="unknown database URL scheme"):
        await Database.open("mysql://x/y")


async def test_events_finished_before_their_end_was_recorded_are_not_announced_again(
    target: str,
) -> None:
    """Upgrading to the tournament_events table counts every finished event announced
    (it was, by the bot that finished it); a running one is not touched."""
    version = next(
        n for n, m in enumerate(migrations.MIGRATIONS, 1) if "tournament_events" in m.tables
    )
    async with await Database.open(target, migrate=False) as db:
        await db.migrate(target=version - 1)
        tournaments = TournamentRepo(db)
        done = await tournaments.create(NewTournament(1, 700, "Old", "swiss", "duel"))
        running = await tournaments.create(NewTournament(1, 700, "On", "swiss", "duel"))
        async with db.transaction() as conn:  # as the bot before this migration did
            await conn.execute("UPDATE tournaments SET status = 'finished' WHERE id = ?", (done,))
            await conn.execute("UPDATE tournaments SET status = 'running' WHERE id = ?", (running,))
    async with await Database.open(target) as db:
        events = TournamentEventRepo(db)
        assert await events.is_done(done, FINISHED)
        assert not await events.is_done(running, FINISHED)
        assert await events.pending(1) == []
        await TournamentRepo(db).set_status(running, TournamentStatus.FINISHED)
        assert await events.pending(1) == [running]  # to be announced by the bot
