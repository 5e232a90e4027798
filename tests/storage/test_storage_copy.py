"""``crosshairs db copy`` moves a whole SQLite database into PostgreSQL, row for row."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pg_server import PgServer
from storage_testkit import duel, fill, raw

from bot.cli.main import main
from storage.copy import NOT_COPIED, TABLES
from storage.db import Database
from storage.matches import MatchRepo


def test_copy_moves_every_row_into_postgresql(
    tmp_path: Path, pg_server: PgServer, capsys: pytest.CaptureFixture[str]
) -> None:
    source = f"sqlite:///{tmp_path / 'bot.db'}"
    dest = pg_server.new_database()
    asyncio.run(fill(source))
    assert main(["db", "copy", source, dest]) == 0
    assert "matches: 4 rows" in capsys.readouterr().out
    for table, key in TABLES:
        rows = raw(source, f"SELECT * FROM {table} ORDER BY {key}")
        assert rows, f"the test database has no {table} rows"
        assert raw(dest, f"SELECT * FROM {table} ORDER BY {key}") == rows, table

    async def play_on() -> int:
        async with await Database.open(dest) as db:
            return await MatchRepo(db).create(duel())

    assert asyncio.run(play_on()) == 5  # ids continue after the copied ones
    assert main(["db", "--db", dest, "check"]) == 0
    assert main(["db", "copy", source, dest]) == 2
    assert "already holds data" in capsys.readouterr().err


def test_copy_refuses_a_missing_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.db"
    assert main(["db", "copy", str(missing), str(tmp_path / "out.db")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not missing.exists()


def test_copy_and_salvage_know_every_table_of_the_schema(tmp_path: Path) -> None:
    """A table added by a migration must be copied and salvaged too, or `db copy` and
    `db salvage` would silently leave it behind."""
    target = f"sqlite:///{tmp_path / 'bot.db'}"

    async def create() -> None:
        async with await Database.open(target):
            pass

    asyncio.run(create())
    names = {
        r[0]
        for r in raw(target, "SELECT name FROM sqlite_master WHERE type = 'table'")
        if not str(r[0]).startswith("sqlite_")
    }
    assert names - {"schema_version", *NOT_COPIED} == {table for table, _ in TABLES}
