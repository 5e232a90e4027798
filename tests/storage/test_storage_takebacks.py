"""Takebacks in storage: the later steps and the match row go back together, only from
the ply agreed at, and the step log stays append-only for everything else."""

from __future__ import annotations

import pytest
from storage_testkit import duel, game_json

from storage.db import Database
from storage.errors import StepConflict, StorageError
from storage.matches import MatchRepo, MatchStatus
from storage.takebacks import TakebackRepo


async def played(db: Database, steps: int) -> tuple[MatchRepo, int]:
    repo = MatchRepo(db)
    match_id = await repo.create(duel())
    for ply in range(1, steps + 1):
        await repo.append_step(
            match_id,
            ply,
            f"t{ply}",
            11,
            game_json(ply, ply % 2),
            to_move_seat=ply % 2,
            turn_deadline=None,
        )
    return repo, match_id


async def test_a_takeback_deletes_the_later_steps_and_moves_the_match_back(db: Database) -> None:
    repo, match_id = await played(db, 5)
    await TakebackRepo(db).take_back(
        match_id, 5, 2, game_json(2, 0), to_move_seat=0, turn_deadline=123.0
    )
    m = await repo.get(match_id)
    assert (m.ply, m.to_move_seat, m.turn_deadline, m.status) == (2, 0, 123.0, MatchStatus.ACTIVE)
    assert m.snapshot == game_json(2, 0)
    assert [(s.ply, s.token) for s in await repo.steps(match_id)] == [(1, "t1"), (2, "t2")]
    # the log carries on from there, and still refuses a rewrite
    await repo.append_step(
        match_id, 3, "u3", 22, game_json(3, 1), to_move_seat=1, turn_deadline=None
    )
    assert [s.token for s in await repo.steps(match_id)] == ["t1", "t2", "u3"]
    with pytest.raises(StorageError):
        async with db.transaction() as conn:
            await conn.execute("DELETE FROM steps WHERE match_id = ?", (match_id,))
    assert len(await repo.steps(match_id)) == 3


async def test_a_takeback_from_a_stale_ply_changes_nothing(db: Database) -> None:
    repo, match_id = await played(db, 4)
    before = await repo.get(match_id)
    with pytest.raises(StepConflict):
        await TakebackRepo(db).take_back(
            match_id, 3, 1, game_json(1, 1), to_move_seat=1, turn_deadline=None
        )
    with pytest.raises(StepConflict):
        await TakebackRepo(db).take_back(
            match_id, 4, 4, game_json(4, 0), to_move_seat=0, turn_deadline=None
        )
    assert await repo.get(match_id) == before
    assert len(await repo.steps(match_id)) == 4


async def test_a_finished_match_takes_nothing_back(db: Database) -> None:
    repo, match_id = await played(db, 2)
    await repo.finish(match_id, MatchStatus.FINISHED, '{"winners": [0]}')
    with pytest.raises(StepConflict):
        await TakebackRepo(db).take_back(
            match_id, 2, 0, game_json(0, 0), to_move_seat=0, turn_deadline=None
        )
    assert len(await repo.steps(match_id)) == 2
