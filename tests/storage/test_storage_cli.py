"""``crosshairs db`` through the real command-line entry point."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from storage_testkit import duel, game_json, raw

from bot.cli.main import main
from storage import migrations
from storage.config import database_path
from storage.db import Database
from storage.matches import MatchRepo


def _store_match(path: Path) -> int:
    async def run() -> int:
        async with await Database.open(path) as db:
            repo = MatchRepo(db)
            match_id = await repo.create(duel())
            await repo.append_step(
                match_id, 1, "+a3NE", 11, game_json(1, 1), to_move_seat=1, turn_deadline=None
            )
            return match_id

    return asyncio.run(run())


def test_migrate_creates_then_reports_up_to_date(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.db"
    assert main(["db", "--db", str(path), "migrate"]) == 0
    assert f"0 -> {migrations.LATEST}" in capsys.readouterr().out
    assert main(["db", "--db", str(path), "migrate"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_migrate_refuses_a_newer_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.db"
    main(["db", "--db", str(path), "migrate"])
    raw(path, "INSERT INTO schema_version VALUES (?, 0)", (migrations.LATEST + 1,))
    assert main(["db", "--db", str(path), "migrate"]) == 2
    assert "upgrade the bot" in capsys.readouterr().err


def test_check_passes_a_sound_file_and_fails_a_damaged_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.db"
    match_id = _store_match(path)
    assert main(["db", "--db", str(path), "check"]) == 0
    out = capsys.readouterr().out
    assert "integrity: ok" in out and "result: ok" in out
    raw(path, "UPDATE matches SET snapshot = '{oops' WHERE id = ?", (match_id,))
    assert main(["db", "--db", str(path), "check"]) == 1
    out = capsys.readouterr().out
    assert f"unreadable: match {match_id}" in out and "problems found" in out


def test_check_reports_a_file_needing_migration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.db"

    async def make_v1() -> None:
        async with await Database.open(path, migrate=False) as db:
            await db.migrate(target=1)

    asyncio.run(make_v1())
    assert main(["db", "--db", str(path), "check"]) == 1
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
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.db"
    match_id = _store_match(path)
    copy = tmp_path / "copy.db"
    assert main(["db", "--db", str(path), "backup", str(copy)]) == 0
    assert "backed up" in capsys.readouterr().out
    assert raw(copy, "PRAGMA integrity_check") == [("ok",)]
    assert raw(copy, "SELECT ply FROM matches WHERE id = ?", (match_id,)) == [(1,)]
    assert main(["db", "--db", str(path), "backup", str(copy)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["db", "--db", str(path), "backup", str(tmp_path / "no" / "such.db")]) == 2
    assert "cannot back up" in capsys.readouterr().err


def test_export_match_prints_the_game_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.db"
    match_id = _store_match(path)
    assert main(["db", "--db", str(path), "export-match", str(match_id)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "crosshairs/game" and len(doc["steps"]) == 1
    assert main(["db", "--db", str(path), "export-match", "999"]) == 2
    assert "no match 999" in capsys.readouterr().err


def test_the_database_path_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "env.db"
    monkeypatch.setenv("DATABASE_PATH", str(path))
    assert main(["db", "migrate"]) == 0
    assert path.exists()
    monkeypatch.setenv("DATABASE_PATH", "")
    monkeypatch.chdir(tmp_path)
    assert database_path() == tmp_path / "crosshairs.db"
    assert database_path({"DATABASE_PATH": "/data/x.db"}) == Path("/data/x.db")
