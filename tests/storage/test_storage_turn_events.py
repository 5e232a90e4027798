"""The turn passed in a match is recorded by the step that passes it, in the same
transaction (both ways: no turn without its step, no step without its turn), kept until
told, and replaced by the next turn passed (storage/turn_events.py)."""

from __future__ import annotations

import pytest
from storage_testkit import duel, game_json, raw, take_back

from storage.db import Database
from storage.errors import StepConflict, StorageError
from storage.matches import MatchRepo, MatchStatus
from storage.turn_events import PendingTurn, TurnEventRepo


def untold(found: list[PendingTurn]) -> list[tuple[int, int | None, int, int | None]]:
    return [(t.match_id, t.guild_id, t.ply, t.actor_id) for t in found]


async def step(
    repo: MatchRepo,
    match_id: int,
    ply: int,
    actor: int | None,
    *,
    passes_turn: bool = False,
    status: MatchStatus = MatchStatus.ACTIVE,
) -> None:
    await repo.append_step(
        match_id, ply, f"t{ply}", actor, game_json(ply, ply % 2), to_move_seat=ply % 2,
        turn_deadline=None, status=status, result_json=None, passes_turn=passes_turn,
    )  # fmt: skip


async def test_a_step_that_passes_the_turn_records_it_until_told(db: Database) -> None:
    repo, turns = MatchRepo(db), TurnEventRepo(db)
    match_id = await repo.create(duel())
    await step(repo, match_id, 1, 11)  # a step within the turn: nothing to tell
    assert await turns.pending() == []
    await step(repo, match_id, 2, 11, passes_turn=True)
    assert untold(await turns.pending()) == [(match_id, 1, 2, 11)]

    await step(repo, match_id, 3, None, passes_turn=True)  # the computer passes it back
    assert untold(await turns.pending()) == [(match_id, 1, 3, None)]
    assert not await turns.done(match_id, 2)  # the older turn was replaced: stale
    assert await turns.done(match_id, 3)
    assert not await turns.done(match_id, 3)  # told once
    assert await turns.pending() == []


async def test_no_turn_is_recorded_without_its_step(db: Database) -> None:
    repo, turns = MatchRepo(db), TurnEventRepo(db)
    match_id = await repo.create(duel())
    # A stray log row makes the step insert fail after the match row was updated.
    raw(db.target, "INSERT INTO steps VALUES (?, 1, 'x', NULL, 0)", (match_id,))
    with pytest.raises(StepConflict):
        await step(repo, match_id, 1, 11, passes_turn=True)
    assert await turns.pending() == []
    assert raw(db.target, "SELECT COUNT(*) FROM turn_events") == [(0,)]


async def test_no_step_is_stored_without_its_turn(db: Database) -> None:
    repo = MatchRepo(db)
    match_id = await repo.create(duel())
    raw(db.target, "DROP TABLE turn_events")  # the turn's write fails after the step's
    with pytest.raises(StorageError):
        await step(repo, match_id, 1, 11, passes_turn=True)
    m = await repo.get(match_id)
    assert (m.ply, m.snapshot) == (0, game_json())
    assert await repo.steps(match_id) == []


async def test_a_match_that_ended_has_no_turn_to_tell(db: Database) -> None:
    repo, turns = MatchRepo(db), TurnEventRepo(db)
    ended, finished, playing = [await repo.create(duel()) for _ in range(3)]
    for match_id in (ended, finished, playing):
        await step(repo, match_id, 1, 11, passes_turn=True)
    await repo.finish(ended, MatchStatus.ABANDONED, "{}")
    # the last step records the end, not a turn (even if asked to)
    await step(repo, finished, 2, 22, passes_turn=True, status=MatchStatus.FINISHED)
    assert untold(await turns.pending()) == [(playing, 1, 1, 11)]


async def test_a_turn_passed_by_a_step_taken_back_is_never_told(db: Database) -> None:
    repo, turns = MatchRepo(db), TurnEventRepo(db)
    kept, undone = await repo.create(duel()), await repo.create(duel())
    await step(repo, kept, 1, 11, passes_turn=True)
    await step(repo, kept, 2, 22)  # within bob's turn
    await step(repo, undone, 1, 11, passes_turn=True)
    await step(repo, undone, 2, 22, passes_turn=True)
    for match_id in (kept, undone):
        await take_back(db, match_id, 2, 1, game_json(1, 1), to_move_seat=1, turn_deadline=None)
    # the turn passed at ply 1 still stands; the one passed at ply 2 is gone
    assert untold(await turns.pending()) == [(kept, 1, 1, 11)]
