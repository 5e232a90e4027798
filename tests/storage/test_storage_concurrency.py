"""Many tasks, and several connections, writing at once: no "database is locked"."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from storage_testkit import duel, game_json

import storage.sqlite
from storage.db import Database
from storage.errors import StepConflict
from storage.matches import MatchRepo

PLIES = 15


async def _play(repo: MatchRepo, match_id: int, plies: int = PLIES) -> None:
    for ply in range(1, plies + 1):
        await repo.append_step(
            match_id,
            ply,
            "c3F",
            11,
            game_json(ply, ply % 2),
            to_move_seat=ply % 2,
            turn_deadline=None,
        )


async def _check_complete(repo: MatchRepo, ids: list[int]) -> None:
    for match_id in ids:
        assert [s.ply for s in await repo.steps(match_id)] == list(range(1, PLIES + 1))
        assert (await repo.get(match_id)).ply == PLIES


async def test_many_tasks_write_and_read_through_one_database(target: str) -> None:
    async with await Database.open(target) as db:
        repo = MatchRepo(db)
        ids = list(await asyncio.gather(*(repo.create(duel(channel_id=i)) for i in range(40))))
        writing = asyncio.gather(*(_play(repo, m) for m in ids))

        async def read_meanwhile() -> None:
            while not writing.done():
                found = await repo.list_unfinished()
                assert found.set_aside == []
                assert len(found.matches) == len(ids)

        await asyncio.gather(writing, read_meanwhile(), read_meanwhile())
        await _check_complete(repo, ids)
        assert await db.integrity_check() == []


async def test_several_connections_share_one_database(target: str) -> None:
    dbs = [await Database.open(target) for _ in range(4)]
    try:
        repos = [MatchRepo(db) for db in dbs]
        ids = [[await repo.create(duel()) for _ in range(5)] for repo in repos]
        await asyncio.gather(
            *(_play(repo, m) for repo, mine in zip(repos, ids, strict=True) for m in mine)
        )
        await _check_complete(repos[0], [m for mine in ids for m in mine])
    finally:
        for db in dbs:
            await db.close()


async def test_a_double_press_applies_the_step_once(target: str) -> None:
    async with await Database.open(target) as db:
        repo = MatchRepo(db)
        match_id = await repo.create(duel())
        presses = [
            repo.append_step(
                match_id, 1, token, 11, game_json(1), to_move_seat=1, turn_deadline=None
            )
            for token in ("c3F", "c3C<", "c3F", "+a3NE")
        ]
        results = await asyncio.gather(*presses, return_exceptions=True)
        assert sum(r is None for r in results) == 1
        assert all(isinstance(r, StepConflict) for r in results if r is not None)
        assert len(await repo.steps(match_id)) == 1


async def test_sqlite_background_checkpoints_keep_the_wal_small(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage.sqlite, "CHECKPOINT_EVERY", 10)
    path = tmp_path / "t.db"
    async with await Database.open(path) as db:
        repo = MatchRepo(db)
        match_id = await repo.create(duel())
        big = game_json(3000)  # about 20 kB: several pages a step
        for ply in range(1, 301):
            await repo.append_step(
                match_id, ply, "c3F", 11, big, to_move_seat=0, turn_deadline=None
            )
        # Without checkpoints the WAL would hold every step's pages, over 6 MB.
        assert Path(f"{path}-wal").stat().st_size < 2_000_000
    assert not Path(f"{path}-wal").exists()  # folded into the file on close
