"""A crash between booking a series game and opening the next: the restarted bot opens
the next game by itself, once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from support.flying import fly_first_turns, resign

from bot.app import install
from bot.config import Config
from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from bot.services.series import AchievementSeries
from bot.services.shards import Shards
from bot.ui.series import SeriesDesk
from storage.series import SeriesRepo

from .support import Club, current_match


class Crash(Exception):
    """The process dies here."""


async def test_a_restart_opens_the_game_a_crash_left_unopened(
    club: Club,
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice, bob = club.alice, club.bob
    await club.start_series(alice, bob, games=2, planes=3)
    (thread,) = club.channel.threads
    first = await current_match(simcord_bot, thread)
    await fly_first_turns(club.member, thread, first)

    async def crash(self: SeriesDesk, series_id: int, target: Any) -> None:
        raise Crash

    with monkeypatch.context() as patched:
        patched.setattr(SeriesDesk, "start_next", crash)
        await resign(bob, thread)
        simcord_env.errors.clear()  # the crash, as the dying process logged it
    booked = await SeriesRepo(simcord_bot.db).get(1)
    assert booked.games_played == 1 and len(booked.games) == 1  # booked, next not opened

    fresh = new_bot()  # a restart; the fixture closes its database
    await simcord_env.restart_bot(fresh)
    await simcord_env.advance_time(1)

    second = await current_match(fresh, thread)
    assert second.id != first.id and not second.over
    assert [e.user_id for e in second.seats] == [bob.id, alice.id]  # game 2's seating
    stored = await SeriesRepo(fresh.db).get(1)
    assert [g.match_id for g in stored.games] == [first.id, second.id]
    headers = [m.content for m in thread.history() if "game 2 of 2" in m.content]
    assert len(headers) == 1  # opened once


async def test_a_restart_books_a_game_a_crash_left_unbooked_and_opens_the_next(
    club: Club,
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice, bob = club.alice, club.bob
    await club.start_series(alice, bob, games=2, planes=3)
    (thread,) = club.channel.threads
    first = await current_match(simcord_bot, thread)
    await fly_first_turns(club.member, thread, first)

    async def crash(self: AchievementSeries, live: Any) -> None:
        raise Crash

    with monkeypatch.context() as patched:
        patched.setattr(AchievementSeries, "record", crash)
        await resign(bob, thread)
        simcord_env.errors.clear()
    unbooked = await SeriesRepo(simcord_bot.db).get(1)
    assert unbooked.games_played == 0 and first.game.is_over  # finished, never booked

    fresh = new_bot()  # a restart; the fixture closes its database
    await simcord_env.restart_bot(fresh)
    await simcord_env.advance_time(1)

    stored = await SeriesRepo(fresh.db).get(1)
    assert [g.winners for g in stored.games][:1] == [(0,)]  # alice's win is booked
    second = await current_match(fresh, thread)
    assert second.id != first.id and not second.over
    assert [g.match_id for g in stored.games] == [first.id, second.id]


async def test_a_crash_just_after_the_ratings_line_still_shows_the_scoreboard_once(
    club: Club,
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice, bob = club.alice, club.bob
    await club.start_series(alice, bob, games=2, planes=3)
    (thread,) = club.channel.threads
    first = await current_match(simcord_bot, thread)
    await fly_first_turns(club.member, thread, first)

    async def crash(pool: Any, series: Any) -> None:
        raise Crash

    with monkeypatch.context() as patched:
        patched.setattr("bot.ui.series.scoreboard_file", crash)
        await resign(bob, thread)
        simcord_env.errors.clear()
    said = [m.content for m in thread.history()]
    assert sum(s.startswith("📊") for s in said) == 1  # the ratings line, then the crash
    assert not any(s.startswith("📋") for s in said)

    fresh = new_bot()
    await simcord_env.restart_bot(fresh)
    await simcord_env.advance_time(1)

    said = [m.content for m in thread.history()]
    assert sum(s.startswith("📊") for s in said) == 1  # not shown again
    assert [s for s in said if s.startswith("📋")] == ["📋 Series #1 after game 1."]
    assert sum("game 2 of 2" in s for s in said) == 1
    second = await current_match(fresh, thread)
    assert second.id != first.id and not second.over


async def test_after_a_crash_between_games_only_the_owner_of_the_shard_carries_on(
    club: Club,
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    bot_config: Config,
    clock: FakeClock,
    made_bots: list[CrosshairsBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two processes of a sharded bot die together between two games of a series; both
    start again on the one database. Only the one whose shard holds the series' server
    opens game 2."""
    alice, bob = club.alice, club.bob
    await club.start_series(alice, bob, games=2, planes=3)
    (thread,) = club.channel.threads
    await fly_first_turns(club.member, thread, await current_match(simcord_bot, thread))

    async def crash(self: SeriesDesk, series_id: int, target: Any) -> None:
        raise Crash

    with monkeypatch.context() as patched:
        patched.setattr(SeriesDesk, "start_next", crash)
        await resign(bob, thread)
        simcord_env.errors.clear()

    owner = Shards(2).shard_of(club.guild.id)
    for shard in (1 - owner, owner):  # the other process first: it must leave it alone
        config = replace(bot_config, shard_count=2, shard_ids=(shard,))
        process = CrosshairsBot(config, install, clock)
        made_bots.append(process)
        await simcord_env.restart_bot(process)
        await simcord_env.advance_time(1)
        opened = [m for m in thread.history() if "game 2 of 2" in m.content]
        assert len(opened) == (1 if shard == owner else 0), shard
    stored = await SeriesRepo(simcord_env.bot.db).get(1)
    assert len(stored.games) == 2
