"""What a process asks of storage instead of memory, on both backends: the clocks due
before a time, its shards' matches only, boards behind, the computer to move, a place's
and a person's matches, and a deadline written anew first due at its reminder."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from storage_testkit import duel, game_json

from storage.boards import BoardMarkRepo
from storage.db import Database
from storage.live_index import LiveIndexRepo
from storage.matches import MatchRepo, MatchStatus
from storage.takebacks import Position, TakebackRepo
from storage.vacations import VacationRepo

SHARD_1 = 1 << 22  # a guild id on shard 1 of 2
SHARD_0 = 2 << 22  # and one on shard 0


@dataclass(frozen=True)
class Shards:
    count: int
    ids: tuple[int, ...]


ALL = Shards(1, (0,))


async def test_the_clocks_due_are_read_by_time_and_by_shard(db: Database) -> None:
    matches, index = MatchRepo(db), LiveIndexRepo(db)
    soon = await matches.create(replace(duel(guild_id=SHARD_1), clock_due=100.0))
    later = await matches.create(replace(duel(guild_id=SHARD_0), clock_due=200.0))
    dm = await matches.create(replace(duel(guild_id=None), clock_due=150.0))
    await matches.create(duel(guild_id=SHARD_1))  # no clock due
    assert await index.due(99.0, ALL) == []
    assert await index.due(200.0, ALL) == [soon, dm, later]  # soonest first
    assert await index.due(500.0, Shards(2, (1,))) == [soon]
    assert await index.due(500.0, Shards(2, (0,))) == [dm, later]  # a DM is shard 0's
    await index.set_due(soon, 300.0)
    assert await index.due(200.0, Shards(2, (1,))) == []
    await matches.finish(later, MatchStatus.ABANDONED, None)
    assert await index.due(500.0, ALL) == [dm, soon]  # an ended match is never due
    plan = await db_plan(db, "SELECT m.id FROM matches m WHERE m.clock_due <= 1")
    assert "matches_clock_due" in plan


async def db_plan(db: Database, sql: str) -> str:
    """How the database would run ``sql`` (the index it picks), as one text."""
    async with db.read() as conn:
        if conn.dialect == "sqlite":
            rows = await conn.fetchall(f"EXPLAIN QUERY PLAN {sql}")
        else:
            await conn.execute("SET LOCAL enable_seqscan = off")
            rows = await conn.fetchall(f"EXPLAIN {sql}")
    return " ".join(str(v) for r in rows for v in r)


async def test_a_step_and_every_new_deadline_set_when_the_clock_is_next_due(
    db: Database,
) -> None:
    matches, index = MatchRepo(db), LiveIndexRepo(db)
    new = replace(duel(), turn_deadline=1000.0, remind_seconds=150.0, clock_due=850.0)
    match_id = await matches.create(new)
    assert (await matches.get(match_id)).clock_due == 850.0
    await matches.append_step(
        match_id, 1, "+a3NE", 11, game_json(1), to_move_seat=1, turn_deadline=2000.0,
        clock_due=1850.0,
    )  # fmt: skip
    assert await index.due(1849.0, ALL) == [] and await index.due(1850.0, ALL) == [match_id]
    await VacationRepo(db).push_deadline(match_id, 5000.0)
    assert (await matches.get(match_id)).clock_due == 4850.0  # its reminder again
    await VacationRepo(db).pull_deadline(match_id, 3000.0)
    assert (await matches.get(match_id)).clock_due == 2850.0
    takebacks = TakebackRepo(db)
    asked = await takebacks.ask(match_id, 11, 1, 0, [22])
    await takebacks.answer(asked.id, 22, True, Position(game_json(), 0, 4000.0))
    assert (await matches.get(match_id)).clock_due == 3850.0
    await matches.set_deadline(match_id, None)  # a paused clock is never due
    assert await index.due(10_000.0, ALL) == []


async def test_start_up_finds_its_own_boards_behind_and_computers_to_move(
    db: Database,
) -> None:
    matches, index, boards = MatchRepo(db), LiveIndexRepo(db), BoardMarkRepo(db)
    shown = await matches.create(duel(guild_id=SHARD_1))
    behind = await matches.create(duel(guild_id=SHARD_1))
    unmarked = await matches.create(duel(guild_id=SHARD_1))
    elsewhere = await matches.create(duel(guild_id=SHARD_0))
    computer = await matches.create(duel(guild_id=SHARD_1, users=(None, 22)))
    for match_id in (shown, behind, elsewhere, computer):
        await boards.mark(match_id, 0)
    await matches.append_step(
        behind, 1, "+a3NE", 11, game_json(1), to_move_seat=1, turn_deadline=None
    )
    mine = Shards(2, (1,))
    assert await index.boards_behind(mine, time.time() + 1) == [behind, unmarked]
    assert await index.boards_behind(mine, 0.0) == []  # none unchanged since then
    assert await index.computers_to_move(mine) == [computer]
    assert await index.computers_to_move(Shards(2, (0,))) == []
    assert await index.count(mine) == 4 and await index.count(ALL) == 5


async def test_a_places_and_a_persons_matches_and_a_threads(db: Database) -> None:
    matches, index = MatchRepo(db), LiveIndexRepo(db)
    here = await matches.create(duel(channel_id=7, guild_id=SHARD_1, thread_id=70))
    there = await matches.create(duel(channel_id=8, guild_id=SHARD_1, users=(33, 44)))
    other = await matches.create(duel(channel_id=7, guild_id=SHARD_0))
    assert await index.active(ALL, guild_id=SHARD_1) == [here, there]
    assert await index.active(ALL, guild_id=SHARD_1, place=70) == [here]
    assert await index.active(ALL, place=7) == [here, other]
    assert await index.active(Shards(2, (0,)), place=7) == [other]
    assert await index.active(ALL, user_id=44) == [there]
    assert await index.active(ALL, limit=1) == [here]
    assert await index.in_thread(70) == here and await index.in_thread(71) is None
    assert await index.clocked_for([11], ALL) == [here, other]  # 11 is to move in both
    assert await index.clocked_for([22, 44], ALL) == []  # not to move
