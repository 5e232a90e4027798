"""Takebacks in storage: the later steps and the match row go back together, only from
the ply agreed at, and the step log stays append-only for everything else."""

from __future__ import annotations

import pytest
from storage_testkit import duel, game_json, take_back

from storage.db import Database
from storage.errors import StepConflict, StorageError
from storage.matches import MatchRepo, MatchStatus
from storage.takebacks import Answer, Position, TakebackRepo


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
    await take_back(db, match_id, 5, 2, game_json(2, 0), to_move_seat=0, turn_deadline=123.0)
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
        await take_back(db, match_id, 3, 1, game_json(1, 1), to_move_seat=1, turn_deadline=None)
    with pytest.raises(StepConflict):
        await take_back(db, match_id, 4, 4, game_json(4, 0), to_move_seat=0, turn_deadline=None)
    assert await repo.get(match_id) == before
    assert len(await repo.steps(match_id)) == 4


async def test_a_finished_match_takes_nothing_back(db: Database) -> None:
    repo, match_id = await played(db, 2)
    await repo.finish(match_id, MatchStatus.FINISHED, '{"winners": [0]}')
    with pytest.raises(StepConflict):
        await take_back(db, match_id, 2, 0, game_json(0, 0), to_move_seat=0, turn_deadline=None)
    assert len(await repo.steps(match_id)) == 2


async def test_a_request_acts_once_for_those_asked_and_only_at_its_ply(db: Database) -> None:
    repo, match_id = await played(db, 4)
    takebacks = TakebackRepo(db)
    there = Position(game_json(2, 0), 0, None)
    first = await takebacks.ask(match_id, 11, 4, 2, [22, 33])
    other = await takebacks.ask(match_id, 11, 4, 2, [22, 33])
    assert await takebacks.answer(first.id, 22, True, there) is Answer.WAITING
    assert await takebacks.answer(first.id, 22, True, there) is Answer.WAITING  # once
    assert (await repo.get(match_id)).ply == 4
    assert await takebacks.answer(first.id, 33, True, there) is Answer.DONE
    assert (await repo.get(match_id)).ply == 2
    # the other request was about a game that is gone, whatever the ply becomes again
    for ply in (3, 4):
        await repo.append_step(
            match_id, ply, f"v{ply}", 11, game_json(ply, 0), to_move_seat=0, turn_deadline=None
        )
    for who in (22, 33):
        assert await takebacks.answer(other.id, who, True, there) is Answer.STALE
    assert await takebacks.answer(first.id, 22, True, there) is Answer.STALE
    assert [s.token for s in await repo.steps(match_id)] == ["t1", "t2", "v3", "v4"]
    found = await takebacks.get(other.id)
    assert found is not None and found.status == "stale"


async def test_a_request_the_match_moved_past_or_declined_changes_nothing(db: Database) -> None:
    repo, match_id = await played(db, 3)
    takebacks = TakebackRepo(db)
    there = Position(game_json(1, 1), 1, None)
    late = await takebacks.ask(match_id, 11, 3, 1, [22])
    declined = await takebacks.ask(match_id, 11, 3, 1, [22])
    assert await takebacks.answer(declined.id, 22, False, there) is Answer.DECLINED
    assert await takebacks.answer(declined.id, 22, True, there) is Answer.STALE
    await repo.append_step(
        match_id, 4, "t4", 22, game_json(4, 0), to_move_seat=0, turn_deadline=None
    )  # a move acknowledged before the yes
    assert await takebacks.answer(late.id, 22, True, there) is Answer.STALE
    assert len(await repo.steps(match_id)) == 4


async def test_the_request_standing_is_the_latest_open_one_at_the_ply(db: Database) -> None:
    _repo, match_id = await played(db, 3)
    takebacks = TakebackRepo(db)
    there = Position(game_json(1, 1), 1, None)
    assert await takebacks.open_at(match_id, 3) is None
    first = await takebacks.ask(match_id, 11, 3, 1, [22])
    second = await takebacks.ask(match_id, 11, 3, 1, [22])
    standing = await takebacks.open_at(match_id, 3)
    assert standing is not None and standing.id == second.id and standing.asked == {22}
    assert await takebacks.open_at(match_id, 2) is None  # asked at another ply
    await takebacks.answer(second.id, 22, False, there)
    standing = await takebacks.open_at(match_id, 3)
    assert standing is not None and standing.id == first.id
