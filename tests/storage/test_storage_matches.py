from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import replace

import asyncpg
import pytest
from storage_testkit import duel, game_json, raw

from storage.boards import BoardMarkRepo
from storage.db import Database
from storage.errors import InvalidSnapshot, MatchNotFound, MatchOver, StepConflict, StorageError
from storage.events import MatchEventRepo
from storage.matches import MatchRepo, MatchStatus, SeatSpec, lapse_draw_offers
from storage.players import PlayerRepo


async def test_a_created_match_reads_back_whole(db: Database) -> None:
    repo = MatchRepo(db)
    match_id = await repo.create(duel(thread_id=77))
    m = await repo.get(match_id)
    assert (m.mode, m.ruleset, m.fire_mode) == ("duel", "2026", "auto")
    assert m.variants == {"aces", "turbulence"}
    assert (m.guild_id, m.channel_id, m.thread_id, m.board_message_id) == (1, 500, 77, None)
    assert m.clock_json == '{"turn_seconds": 600}'
    assert (m.status, m.ply, m.result_json, m.finished_at) == (MatchStatus.ACTIVE, 0, None, None)
    assert (m.to_move_seat, m.turn_deadline) == (0, 1_900_000_000.0)
    assert [(s.seat, s.user_id, s.team, s.handicap) for s in m.seats] == [
        (0, 11, 0, 0),
        (1, 22, 1, 2),
    ]
    assert m.snapshot == game_json()


async def test_creating_a_match_remembers_its_players(db: Database) -> None:
    await MatchRepo(db).create(duel())
    assert await PlayerRepo(db).names([11, 22, 33]) == {11: "p11", 22: "22"}


async def test_a_computer_seat_has_no_user(db: Database) -> None:
    repo = MatchRepo(db)
    m = await repo.get(await repo.create(duel(users=(11, None))))
    assert m.seats[1].user_id is None


async def test_seats_must_be_distinct(db: Database) -> None:
    bad = replace(duel(), seats=[SeatSpec(0, 0, 11), SeatSpec(0, 1, 22)])
    with pytest.raises(StorageError, match="distinct"):
        await MatchRepo(db).create(bad)


async def test_a_step_updates_the_match_and_the_log(db: Database) -> None:
    repo = MatchRepo(db)
    match_id = await repo.create(duel())
    await repo.append_step(
        match_id, 1, "+a3NE", 11, game_json(1, 1), to_move_seat=1, turn_deadline=5.0, at=100.0
    )
    await repo.append_step(
        match_id, 2, "k7C<", 22, game_json(2, 0), to_move_seat=0, turn_deadline=None
    )
    m = await repo.get(match_id)
    assert (m.ply, m.to_move_seat, m.turn_deadline) == (2, 0, None)
    assert m.snapshot == game_json(2, 0)
    steps = await repo.steps(match_id)
    assert [(s.ply, s.token, s.actor_id) for s in steps] == [(1, "+a3NE", 11), (2, "k7C<", 22)]
    assert steps[0].at == 100.0


async def test_a_repeated_step_is_refused_and_writes_nothing(db: Database) -> None:
    repo = MatchRepo(db)
    match_id = await repo.create(duel())
    await repo.append_step(
        match_id, 1, "+a3NE", 11, game_json(1), to_move_seat=1, turn_deadline=None
    )
    with pytest.raises(StepConflict, match="already stored"):
        await repo.append_step(
            match_id, 1, "+b3NE", 11, game_json(9), to_move_seat=0, turn_deadline=None
        )
    with pytest.raises(StepConflict, match="next ply is 2"):
        await repo.append_step(
            match_id, 3, "c3F", 11, game_json(3), to_move_seat=0, turn_deadline=None
        )
    with pytest.raises(StepConflict, match="numbered from 1"):
        await repo.append_step(
            match_id, 0, "c3F", 11, game_json(3), to_move_seat=0, turn_deadline=None
        )
    m = await repo.get(match_id)
    assert (m.ply, m.to_move_seat, m.snapshot) == (1, 1, game_json(1))
    assert [s.token for s in await repo.steps(match_id)] == ["+a3NE"]


async def test_a_step_and_its_match_row_commit_together(db: Database) -> None:
    repo = MatchRepo(db)
    match_id = await repo.create(duel())
    # A stray log row makes the step insert fail after the match row was updated.
    raw(db.target, "INSERT INTO steps VALUES (?, 1, 'x', NULL, 0)", (match_id,))
    with pytest.raises(StepConflict, match="step log refused"):
        await repo.append_step(
            match_id, 1, "+a3NE", 11, game_json(1), to_move_seat=1, turn_deadline=None
        )
    m = await repo.get(match_id)
    assert (m.ply, m.to_move_seat, m.snapshot) == (0, 0, game_json())


async def test_the_step_log_is_append_only(db: Database) -> None:
    repo = MatchRepo(db)
    match_id = await repo.create(duel())
    await repo.append_step(
        match_id, 1, "+a3NE", 11, game_json(1), to_move_seat=1, turn_deadline=None
    )
    for sql in ("UPDATE steps SET token = 'x'", "DELETE FROM steps"):
        with pytest.raises((sqlite3.IntegrityError, asyncpg.RaiseError), match="append-only"):
            raw(db.target, sql)


async def test_a_step_that_is_not_a_game_is_refused(db: Database) -> None:
    repo = MatchRepo(db)
    match_id = await repo.create(duel())
    with pytest.raises(InvalidSnapshot):
        await repo.append_step(match_id, 1, "+a3NE", 11, "{", to_move_seat=1, turn_deadline=None)
    with pytest.raises(InvalidSnapshot):
        await repo.create(replace(duel(), snapshot='{"format": "other"}'))


async def test_the_last_step_can_finish_the_match(db: Database) -> None:
    repo = MatchRepo(db)
    match_id = await repo.create(duel())
    await repo.append_step(
        match_id,
        1,
        "resign:1",
        11,
        game_json(1, None),
        to_move_seat=None,
        turn_deadline=None,
        status=MatchStatus.FINISHED,
        result_json='{"winners": [1]}',
    )
    m = await repo.get(match_id)
    assert (m.status, m.result_json, m.to_move_seat) == ("finished", '{"winners": [1]}', None)
    assert m.finished_at is not None
    with pytest.raises(StepConflict, match="is finished"):
        await repo.append_step(
            match_id, 2, "-", 22, game_json(2), to_move_seat=0, turn_deadline=None
        )


async def test_finish_ends_an_active_match_once(db: Database) -> None:
    repo = MatchRepo(db)
    match_id = await repo.create(duel())
    await repo.finish(match_id, MatchStatus.ABANDONED, None)
    assert (await repo.get(match_id)).status is MatchStatus.ABANDONED
    with pytest.raises(MatchOver, match="already abandoned"):
        await repo.finish(match_id, MatchStatus.FINISHED, "{}")
    with pytest.raises(MatchNotFound):
        await repo.finish(999, MatchStatus.FINISHED, "{}")
    with pytest.raises(ValueError, match="other than active"):
        await repo.finish(match_id, MatchStatus.ACTIVE, None)


async def test_versions_give_each_matchs_ply_and_whether_it_is_played_in_one_read(
    db: Database,
) -> None:
    repo = MatchRepo(db)
    played, ended = await repo.create(duel()), await repo.create(duel())
    await repo.append_step(
        played, 1, "+a3NE", 11, game_json(1, 1), to_move_seat=1, turn_deadline=None
    )
    await repo.finish(ended, MatchStatus.ABANDONED, None)
    assert await repo.versions([played, ended, 999]) == {
        played: (1, True, 0),
        ended: (0, False, 0),
    }
    assert await repo.versions([]) == {}


async def test_draw_offers_stand_with_the_match_and_lapse_when_the_turn_passes(
    db: Database,
) -> None:
    repo = MatchRepo(db)
    match_id = await repo.create(duel())
    await repo.offer_draw(match_id, 0, [1])
    await repo.offer_draw(match_id, 0, [1])  # once
    assert (await repo.get(match_id)).draw_offers == {1}
    assert (await repo.versions([match_id]))[match_id] == (0, True, 0b10)
    with pytest.raises(StepConflict):  # for a match that has moved on: nothing written
        await repo.offer_draw(match_id, 3, [0])
    await repo.withdraw_draw_offers(match_id, 0)
    assert (await repo.get(match_id)).draw_offers == frozenset()

    await repo.offer_draw(match_id, 0, [0])
    await repo.append_step(  # a step within the turn: the offer stands
        match_id, 1, "+a3NE", 11, game_json(1, 0), to_move_seat=0, turn_deadline=None
    )
    assert (await repo.get(match_id)).draw_offers == {0}
    await repo.append_step(  # the turn passes: it lapses
        match_id,
        2,
        "+a4NE",
        11,
        game_json(2, 1),
        to_move_seat=1,
        turn_deadline=None,
        passes_turn=True,
    )
    assert (await repo.get(match_id)).draw_offers == frozenset()
    assert (await repo.versions([match_id]))[match_id] == (2, True, 0)


async def test_a_draw_offer_racing_the_step_that_passes_the_turn_never_outlives_it(
    target: str,
) -> None:
    async with await Database.open(target) as one, await Database.open(target) as other:
        repo = MatchRepo(one)
        match_id = await repo.create(duel())
        async with other.transaction() as conn:
            # another process is committing the step that passes the turn, as
            # append_step does: the match moves on, its offers lapse
            await conn.execute("UPDATE matches SET ply = 1 WHERE id = ?", (match_id,))
            await lapse_draw_offers(conn, match_id)
            offering = asyncio.ensure_future(repo.offer_draw(match_id, 0, [0]))
            await asyncio.sleep(0.3)  # the offer for ply 0 is written meanwhile
        with pytest.raises(StepConflict):
            await offering
        assert (await repo.get(match_id)).draw_offers == frozenset()


async def test_a_missing_match_is_reported(db: Database) -> None:
    repo = MatchRepo(db)
    with pytest.raises(MatchNotFound):
        await repo.get(42)
    with pytest.raises(MatchNotFound):
        await repo.append_step(42, 1, "-", None, game_json(1), to_move_seat=0, turn_deadline=None)
    with pytest.raises(MatchNotFound):
        await BoardMarkRepo(db).placed(42, 1, 0)
    assert await repo.steps(42) == []


async def test_board_message_and_thread_are_recorded(db: Database) -> None:
    repo, boards = MatchRepo(db), BoardMarkRepo(db)
    match_id = await repo.create(duel())
    assert await boards.shown(match_id) is None
    await boards.placed(match_id, 9001, 3)  # the message and the ply it shows, at once
    await repo.set_thread(match_id, 77)
    m = await repo.get(match_id)
    assert (m.board_message_id, m.thread_id) == (9001, 77)
    assert await boards.shown(match_id) == 3
    await boards.mark(match_id, 4)  # edited in place: the same message, a later ply
    assert (await repo.get(match_id)).board_message_id == 9001
    assert await boards.shown(match_id) == 4


async def test_unfinished_matches_carry_what_resuming_needs(db: Database) -> None:
    repo = MatchRepo(db)
    first = await repo.create(duel(thread_id=71))
    over = await repo.create(duel())
    third = await repo.create(duel(channel_id=501))
    await BoardMarkRepo(db).placed(first, 9001, 0)
    await repo.append_step(
        third, 1, "+a3NE", 11, game_json(1, 1), to_move_seat=1, turn_deadline=77.5
    )
    await repo.finish(over, MatchStatus.FINISHED, "{}")
    found = await repo.list_unfinished()
    assert found.set_aside == []
    assert [m.id for m in found.matches] == [first, third]
    a, c = found.matches
    assert (a.channel_id, a.thread_id, a.board_message_id, a.to_move_seat) == (500, 71, 9001, 0)
    assert (c.channel_id, c.ply, c.to_move_seat, c.turn_deadline) == (501, 1, 1, 77.5)
    assert c.snapshot == game_json(1, 1)


async def test_a_thread_finds_its_active_match_first(db: Database) -> None:
    repo = MatchRepo(db)
    older = await repo.create(duel(thread_id=71))
    newer = await repo.create(duel(thread_id=71))
    await repo.finish(newer, MatchStatus.FINISHED, "{}")
    found = await repo.by_thread(71)
    assert found is not None and found.id == older
    await repo.finish(older, MatchStatus.FINISHED, "{}")
    found = await repo.by_thread(71)
    assert found is not None and found.id == newer
    assert await repo.by_thread(72) is None


async def test_the_write_that_ends_a_match_records_its_end_once_until_shown(
    db: Database,
) -> None:
    repo, events = MatchRepo(db), MatchEventRepo(db)
    shown, unshown, playing, aborted = [await repo.create(duel()) for _ in range(4)]
    for match_id in (shown, unshown, playing):
        await repo.append_step(
            match_id, 1, "+a3NE", 11, game_json(1, 1), to_move_seat=1, turn_deadline=None
        )
    for match_id in (shown, unshown):
        await repo.append_step(
            match_id, 2, "resign:0", 11, game_json(2, 0), to_move_seat=None,
            turn_deadline=None, status=MatchStatus.FINISHED, result_json='{"winners": [1]}',
        )  # fmt: skip
    await repo.finish(aborted, MatchStatus.ABANDONED, "{}")
    with pytest.raises(StorageError):  # a second end is refused, and records nothing
        await repo.finish(shown, MatchStatus.ABANDONED, "{}")
    assert [(e.match_id, e.kind) for e in await events.pending()] == [
        (shown, "finished"),
        (unshown, "finished"),
        (aborted, "aborted"),
    ]
    await events.done(shown, "ratings")  # a step of the end: the end is still pending
    assert await events.is_done(shown, "ratings")
    assert not await events.is_done(unshown, "ratings")
    await events.done(shown, "finished")
    await events.done(aborted, "aborted")
    assert [(e.match_id, e.guild_id) for e in await events.pending()] == [(unshown, 1)]
