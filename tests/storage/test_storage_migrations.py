from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from storage_testkit import duel, raw

from storage import migrations
from storage.db import Database
from storage.errors import SchemaTooNew, StorageError
from storage.matches import MatchRepo
from storage.players import PlayerRepo
from storage.ratings import RatingChange, RatingRepo


def _tables(path: Path) -> set[str]:
    return {str(r[0]) for r in raw(path, "SELECT name FROM sqlite_master WHERE type='table'")}


async def test_an_empty_file_gets_the_latest_schema(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    async with await Database.open(path) as db:
        assert await db.schema_version() == migrations.LATEST
    assert {"matches", "steps", "seats", "players", "guild_settings"} <= _tables(path)
    assert {"series", "tournaments", "ratings", "rating_history"} <= _tables(path)
    versions = [r[0] for r in raw(path, "SELECT version FROM schema_version ORDER BY version")]
    assert versions == list(range(1, migrations.LATEST + 1))


async def test_the_connection_is_durable_and_checks_references(tmp_path: Path) -> None:
    async with await Database.open(tmp_path / "t.db") as db, db.transaction() as conn:
        async with conn.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone()) == ("wal",)
        async with conn.execute("PRAGMA foreign_keys") as cur:
            assert (await cur.fetchone()) == (1,)
        async with conn.execute("PRAGMA synchronous") as cur:
            assert (await cur.fetchone()) == (2,)  # FULL
        async with conn.execute("PRAGMA busy_timeout") as cur:
            row = await cur.fetchone()
            assert row is not None and row[0] >= 1000


@pytest.mark.parametrize("start", range(migrations.LATEST))
async def test_every_earlier_version_upgrades_in_place(tmp_path: Path, start: int) -> None:
    path = tmp_path / f"v{start}.db"
    async with await Database.open(path, migrate=False) as db:
        assert await db.migrate(target=start) == (0, start)
        match_id = None
        if start >= 1:  # the matches table exists from version 1 on
            match_id = await MatchRepo(db).create(duel())
    async with await Database.open(path) as db:
        assert await db.schema_version() == migrations.LATEST
        if match_id is not None:
            assert (await MatchRepo(db).get(match_id)).channel_id == 500
        await PlayerRepo(db).upsert(11, "Ann")
        await RatingRepo(db).apply("duel", match_id, [RatingChange(11, 27.0, 7.0)])
        assert await db.integrity_check() == []


async def test_migrating_twice_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    async with await Database.open(path) as db:
        assert await db.migrate() == (migrations.LATEST, migrations.LATEST)


async def test_a_file_from_a_newer_bot_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    async with await Database.open(path):
        pass
    newer = migrations.LATEST + 1
    raw(path, "INSERT INTO schema_version (version, applied_at) VALUES (?, 0)", (newer,))
    with pytest.raises(SchemaTooNew) as caught:
        await Database.open(path)
    assert f"schema version {newer}" in str(caught.value)
    assert "upgrade the bot" in str(caught.value)
    assert raw(path, "SELECT MAX(version) FROM schema_version") == [(newer,)]


async def test_a_failed_migration_leaves_the_old_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "t.db"
    async with await Database.open(path, migrate=False) as db:
        await db.migrate(target=1)
    broken = (migrations.MIGRATIONS[0], "CREATE TABLE series (id INTEGER);\nNOT SQL;\n")
    monkeypatch.setattr(migrations, "MIGRATIONS", broken)
    async with await Database.open(path, migrate=False) as db:
        with pytest.raises(sqlite3.OperationalError):
            await db.migrate(target=2)
        assert await db.schema_version() == 1
    assert "series" not in _tables(path)


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
