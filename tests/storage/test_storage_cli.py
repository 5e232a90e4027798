"""``crosshairs db`` through the real command-line entry point, on both backends."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from storage_testkit import duel, game_json, raw

from bot.cli.main import main
from storage import migrations
from storage.config import database_path, database_url
from storage.db import Database
from storage.matches import MatchRepo


def _store_match(target: str) -> int:
    async def run() -> int:
        async with await Database.open(target) as db:
            repo = MatchRepo(db)
            match_id = await repo.create(duel())
            await repo.append_step(
                match_id, 1, "+a3NE", 11, game_json(1, 1), to_move_seat=1, turn_deadline=None
            )
            return match_id

    return asyncio.run(run())


def test_migrate_creates_then_reports_up_to_date(
    target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["db", "--db", target, "migrate"]) == 0
    assert f"0 -> {migrations.LATEST}" in capsys.readouterr().out
    assert main(["db", "--db", target, "migrate"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_migrate_refuses_a_newer_database(target: str, capsys: pytest.CaptureFixture[str]) -> None:
    main(["db", "--db", target, "migrate"])
    raw(target, "INSERT INTO schema_version VALUES (?, 0)", (migrations.LATEST + 1,))
    assert main(["db", "--db", target, "migrate"]) == 2
    assert "upgrade the bot" in capsys.readouterr().err


def test_salvage_refuses_a_newer_database_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, rescued = tmp_path / "newer.db", tmp_path / "rescued.db"
    _store_match(str(source))
    raw(str(source), "INSERT INTO schema_version VALUES (?, 0)", (migrations.LATEST + 1,))
    raw(str(source), "CREATE TABLE from_the_future (id INTEGER PRIMARY KEY)", ())
    assert main(["db", "salvage", str(source), str(rescued)]) == 2
    err = capsys.readouterr().err
    assert f"schema version {migrations.LATEST + 1}" in err and "upgrade the bot" in err
    assert not rescued.exists()


def test_check_passes_a_sound_database_and_fails_a_damaged_one(
    target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    match_id = _store_match(target)
    assert main(["db", "--db", target, "check"]) == 0
    out = capsys.readouterr().out
    assert "integrity: ok" in out and "result: ok" in out
    raw(target, "UPDATE matches SET snapshot = '{oops' WHERE id = ?", (match_id,))
    assert main(["db", "--db", target, "check"]) == 1
    out = capsys.readouterr().out
    assert f"unreadable: match {match_id}" in out and "problems found" in out
    assert "crosshairs db salvage" in out and "crosshairs db backup" in out


def test_check_reports_a_database_needing_migration(
    target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    async def make_v1() -> None:
        async with await Database.open(target, migrate=False) as db:
            await db.migrate(target=1)

    asyncio.run(make_v1())
    assert main(["db", "--db", target, "check"]) == 1
    assert "run `crosshairs db migrate`" in capsys.readouterr().out


def test_check_and_export_refuse_a_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "missing.db"
    assert main(["db", "--db", str(path), "check"]) == 2
    assert main(["db", "--db", str(path), "export-match", "1"]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not path.exists()


def test_backup_copies_a_working_database(
    target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match_id = _store_match(target)
    copy = tmp_path / "copy.db"
    assert main(["db", "--db", target, "backup", str(copy)]) == 0
    assert "backed up" in capsys.readouterr().out
    assert raw(copy, "PRAGMA integrity_check") == [("ok",)]
    assert raw(copy, "SELECT ply FROM matches WHERE id = ?", (match_id,)) == [(1,)]
    assert main(["db", "--db", target, "backup", str(copy)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["db", "--db", target, "backup", str(tmp_path / "no" / "such.db")]) == 2
    assert "cannot back up" in capsys.readouterr().err


def test_export_match_prints_the_game_json(target: str, capsys: pytest.CaptureFixture[str]) -> None:
    match_id = _store_match(target)
    assert main(["db", "--db", target, "export-match", str(match_id)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "crosshairs/game" and len(doc["steps"]) == 1
    assert main(["db", "--db", target, "export-match", "999"]) == 2
    assert "no match 999" in capsys.readouterr().err


def test_the_database_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "env.db"
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("DATABASE_PATH", str(path))
    assert main(["db", "migrate"]) == 0
    assert path.exists()
    other = tmp_path / "url.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{other}")
    assert main(["db", "migrate"]) == 0
    assert other.exists()
    monkeypatch.setenv("DATABASE_PATH", "")
    monkeypatch.chdir(tmp_path)
    assert database_path() == tmp_path / "crosshairs.db"
    assert database_path({"DATABASE_PATH": "/data/x.db"}) == Path("/data/x.db")
    assert database_url({"DATABASE_PATH": "/data/x.db"}) == "sqlite:////data/x.db"
    assert database_url({"DATABASE_URL": "postgresql://h/db"}) == "postgresql://h/db"


def test_a_bad_url_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "--db", "mysql://h/db", "check"]) == 2
    assert "unknown database URL scheme" in capsys.readouterr().err
    assert main(["db", "--db", "postgresql://u:secret@127.0.0.1:1/db", "check"]) == 2
    err = capsys.readouterr().err
    assert "cannot connect to PostgreSQL" in err and "secret" not in err
