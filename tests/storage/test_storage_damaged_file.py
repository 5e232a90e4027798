"""A real database file damaged at many offsets: ``crosshairs db check`` explains
(never a traceback), the bot's start-up refuses it naming the file, and ``crosshairs db
salvage`` keeps every match it can read intact and names the ones it lost.

File damage is SQLite's: a PostgreSQL server checks its own pages."""

from __future__ import annotations

import asyncio
import random
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from storage_testkit import fill, raw

from bot.cli.main import main
from storage import health
from storage.db import Database
from storage.matches import MatchRepo, Unfinished

PAGE = 4096
Damage = Callable[[bytearray], bytearray]


def _garbage_page(where: float) -> Damage:
    def damage(data: bytearray) -> bytearray:
        pages = len(data) // PAGE
        page = min(pages - 1, max(1, int(pages * where)))
        data[page * PAGE : (page + 1) * PAGE] = random.Random(page).randbytes(PAGE)
        return data

    return damage


def _garbage_header(data: bytearray) -> bytearray:
    data[:100] = random.Random(0).randbytes(100)
    return data


def _truncate(keep: Callable[[int], int]) -> Damage:
    return lambda data: data[: keep(len(data))]


DAMAGE: dict[str, Damage] = {
    "garbage page 2": _garbage_page(0.0),
    "garbage page at 25%": _garbage_page(0.25),
    "garbage page at 50%": _garbage_page(0.5),
    "garbage page at 75%": _garbage_page(0.75),
    "garbage last page": _garbage_page(1.0),
    "garbage header": _garbage_header,
    "short by 1 KB": _truncate(lambda n: n - 1024),
    "truncated to half": _truncate(lambda n: n // 2),
    "truncated to a quarter": _truncate(lambda n: n // 4),
    "truncated to one page": _truncate(lambda n: PAGE),
    "truncated to 100 bytes": _truncate(lambda n: 100),
    "zero bytes": _truncate(lambda n: 0),
}
# SQLite cannot even read the schema of these: nothing can be salvaged.
NOTHING_READABLE = {
    "garbage header",
    "truncated to half",
    "truncated to a quarter",
    "truncated to one page",
    "truncated to 100 bytes",
    "zero bytes",
}


@pytest.fixture(scope="module")
def sound(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sound") / "bot.db"
    asyncio.run(fill(f"sqlite:///{path}", 60))
    return path


def _snapshots(path: Path) -> dict[int, str]:
    return {int(str(r[0])): str(r[1]) for r in raw(path, "SELECT id, snapshot FROM matches")}


async def _unfinished(path: Path) -> Unfinished:
    async with await Database.open(path, migrate=False) as db:
        return await MatchRepo(db).list_unfinished()


def _lost_ids(report: str) -> set[int]:
    lost = {int(m) for m in re.findall(r"lost: matches? (\d+)", report)}
    for lo, hi in re.findall(r"lost: matches: ids (\d+)–(\d+)", report):
        lost.update(range(int(lo), int(hi) + 1))
    return lost


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_file_is_explained_refused_and_salvaged(
    sound: Path, tmp_path: Path, damage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bot.db"
    path.write_bytes(bytes(DAMAGE[damage](bytearray(sound.read_bytes()))))
    before = path.read_bytes()

    assert main(["db", "--db", str(path), "check"]) == 1
    out = capsys.readouterr().out
    assert "result: problems found" in out
    assert "crosshairs db backup" in out and "crosshairs db salvage" in out

    with pytest.raises(health.DatabaseRefused) as refused:
        asyncio.run(health.open_checked(path))
    assert str(path) in str(refused.value) and "\n" not in str(refused.value)
    assert path.read_bytes() == before  # refused untouched

    if damage not in NOTHING_READABLE:
        # What the game manager resumes from never raises: damaged matches are set aside.
        found = asyncio.run(_unfinished(path))
        assert len(found.matches) + len(found.set_aside) > 0
        assert all(m.snapshot == _snapshots(sound)[m.id] for m in found.matches)

    rescued = tmp_path / "rescued.db"
    code = main(["db", "salvage", str(path), str(rescued)])
    captured = capsys.readouterr()
    if damage in NOTHING_READABLE:
        assert code == 2 and "nothing can be read" in captured.err
        assert not rescued.exists()
        return
    assert code in (0, 1), captured.err
    assert main(["db", "--db", str(rescued), "check"]) == 0
    original, kept = _snapshots(sound), _snapshots(rescued)
    lost = _lost_ids(captured.out)
    for match_id, snapshot in original.items():
        if match_id in kept:
            assert kept[match_id] == snapshot, match_id
        else:
            assert match_id in lost, f"match {match_id} vanished without a word"
    assert (code == 0) == ("lost:" not in captured.out)


def test_start_up_can_salvage_when_asked(sound: Path, tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    path.write_bytes(bytes(_garbage_page(0.5)(bytearray(sound.read_bytes()))))

    async def start() -> int:
        db = await health.open_checked(path, salvage_damaged=True)
        async with db:
            assert await db.integrity_check() == []
            return len((await MatchRepo(db).list_unfinished()).matches)

    assert asyncio.run(start()) > 0
    kept_aside = [p.name for p in tmp_path.iterdir() if ".damaged-" in p.name]
    assert kept_aside and kept_aside[0].startswith("bot.db.damaged-")


def test_an_empty_or_schemaless_file_is_refused_and_a_missing_one_created(
    tmp_path: Path,
) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    with pytest.raises(health.DatabaseRefused, match=re.escape(f"{empty} exists but is empty")):
        asyncio.run(health.open_checked(empty))
    assert empty.stat().st_size == 0
    other = tmp_path / "other.db"
    raw(other, "CREATE TABLE notes (text TEXT)")
    with pytest.raises(health.DatabaseRefused, match="holds no Crosshairs schema"):
        asyncio.run(health.open_checked(other))
    fresh = tmp_path / "fresh.db"

    async def first_start() -> int:
        async with await health.open_checked(fresh) as db:
            return await db.schema_version()

    assert asyncio.run(first_start()) >= 1
    shutil.copy(fresh, tmp_path / "again.db")
    assert asyncio.run(first_start()) >= 1  # a sound file opens again
