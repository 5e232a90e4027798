"""A series game whose place a moderator deletes, against the real bot: with only its
thread gone, the game is played again in a new thread of the same channel; with the
channel gone, the series stops and nothing more is posted (docs/admins.md)."""

from __future__ import annotations

import asyncio

from e2e.conftest import Local, stored_steps
from localcord import moderators
from localcord.autoplay import board_message, match_id
from localcord.state import Channel
from storage.db import Database
from storage.matches import MatchStatus
from storage.series import SeriesRepo, SeriesStatus


async def _series(local: Local) -> Channel:
    people = local.people
    alice, bob = people.join("alice"), people.join("bob")
    offer = await people.slash(alice, local.channel, "crosshairs-series start", opponent=bob)
    assert offer.original is not None
    await people.click(bob, offer.original, "Accept")
    thread = await people.wait_thread(local.channel)
    await people.wait_for(thread, lambda m: "**Crosshairs #" in m.content)
    return thread


async def _only_series(local: Local) -> int:
    async with await Database.open(local.bot.database) as db:
        (series_id,) = await SeriesRepo(db).active_ids()
    return series_id


async def test_a_series_game_whose_thread_is_deleted_is_played_again(local: Local) -> None:
    people, world = local.people, local.server.world
    thread = await _series(local)
    series_id = await _only_series(local)
    first = match_id(board_message(people, thread))
    moderators.delete_channel(world, thread)
    again = await people.wait_thread(local.channel)
    assert again.id != thread.id
    replay = await people.wait_for(again, lambda m: "**Crosshairs #" in m.content)
    assert match_id(replay) != first
    assert any("Game 1 of series" in m.content for m in world.history(again))
    await local.bot.stop()
    _, status = await stored_steps(local, first)
    assert status is MatchStatus.ABANDONED
    async with await Database.open(local.bot.database) as db:
        stored = await SeriesRepo(db).get(series_id)
    assert stored.status is SeriesStatus.ACTIVE
    assert stored.thread_id == again.id
    assert [g.match_id for g in stored.games] == [match_id(replay)]


async def test_a_series_whose_channel_is_deleted_stops_cleanly(local: Local) -> None:
    world = local.server.world
    thread = await _series(local)
    series_id = await _only_series(local)
    first = match_id(board_message(local.people, thread))
    since = len(world.requests)
    moderators.delete_channel(world, local.channel)
    async with asyncio.timeout(30):
        while True:
            async with await Database.open(local.bot.database) as db:
                if (await SeriesRepo(db).get(series_id)).status is SeriesStatus.ABANDONED:
                    break
            await asyncio.sleep(0.2)
    await local.bot.stop()
    _, status = await stored_steps(local, first)
    assert status is MatchStatus.ABANDONED
    posted = [r for r in world.requests[since:] if r.method in ("POST", "PATCH")]
    assert posted == []
