"""Vacations on both backends: who is away when, ending one early, and a deadline that is
only ever pushed later."""

from __future__ import annotations

import asyncio

from storage_testkit import duel

from storage.db import Database
from storage.matches import MatchRepo
from storage.vacations import Allowance, Vacation, VacationRepo


async def test_running_and_ended_vacations(db: Database) -> None:
    repo = VacationRepo(db)
    await repo.add(11, 100.0, 200.0)
    await repo.add(22, 150.0, 400.0)
    assert await repo.running([11, 22, 33], 120.0) == {11: 200.0}
    assert await repo.running([11, 22], 200.0) == {22: 400.0}
    assert await repo.end_now(22, 300.0) == 1
    assert await repo.end_now(22, 300.0) == 0
    assert await repo.running([22], 300.0) == {}
    assert await repo.since(22, 0.0) == [Vacation(22, 150.0, 300.0)]
    assert await repo.since(11, 101.0) == []


async def test_a_deadline_is_pushed_only_later(db: Database) -> None:
    matches = MatchRepo(db)
    match_id = await matches.create(duel())  # its deadline is 1_900_000_000
    repo = VacationRepo(db)
    await repo.push_deadline(match_id, 1_000.0)
    assert (await matches.get(match_id)).turn_deadline == 1_900_000_000.0
    await repo.push_deadline(match_id, 2_000_000_000.0)
    assert (await matches.get(match_id)).turn_deadline == 2_000_000_000.0


async def test_vacations_added_at_once_are_checked_one_after_the_other(db: Database) -> None:
    """Each addition reads the person's vacations in its own transaction and adds only
    if they leave room: of three at once (on PostgreSQL on three connections) one is
    added, and the others read it."""
    repo = VacationRepo(db)
    seen: list[Allowance] = []

    def allows(found: Allowance) -> bool:
        seen.append(found)
        return found.running_until is None and found.used == 0

    added = await asyncio.gather(
        *(repo.add_if(11, 100.0 + i, 200.0 + i, 0.0, allows) for i in range(3))
    )
    assert sorted(ok for _found, ok in added) == [False, False, True]
    assert len(await repo.since(11, 0.0)) == 1
    assert sum(f.running_until is None for f in seen) == 1
