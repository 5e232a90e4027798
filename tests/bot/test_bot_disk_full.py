"""The disk fills up as a game ends: the resignation, the agreed draw (after every side
has flown, so that they end the game rather than abort it) or the turn that ran out cannot
be stored. The person is told plainly, the match in memory is what storage
holds (still being played), and the same action works once there is room again."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import aiosqlite
import pytest
from support.flying import fly_first_turns, match_in, resign
from support.replies import answer, refusals, told
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from storage.errors import StorageError
from storage.matches import MatchRepo, MatchStatus
from storage.sqlite import SqliteDatabase

UNSAVED = "⚠️ that could not be saved, so nothing changed; please try again in a moment"


@contextmanager
def disk_full(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every COMMIT fails as SQLite fails it when the WAL cannot grow."""
    original = aiosqlite.Connection.execute

    def execute(conn: aiosqlite.Connection, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return original(conn, sql, *args)

    with monkeypatch.context() as patched:
        patched.setattr(aiosqlite.Connection, "execute", execute)
        yield


async def status(bot: CrosshairsBot, thread: Any) -> MatchStatus:
    live = await bot.games.by_thread(thread.id)
    assert live is not None
    return (await MatchRepo(bot.db).get(live.id)).status


async def test_a_full_disk_is_a_storage_error(
    simcord_env: Any, simcord_bot: CrosshairsBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    await Table(simcord_env).start()
    db = simcord_bot.db
    assert isinstance(db, SqliteDatabase)
    with disk_full(monkeypatch), pytest.raises(StorageError, match="disk is full"):
        async with db.transaction() as conn:
            await conn.execute("UPDATE matches SET ply = ply")


async def test_a_resignation_that_cannot_be_stored_changes_nothing(
    simcord_env: Any, simcord_bot: CrosshairsBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(simcord_env)
    thread = await table.start()
    await fly_first_turns(table.member, thread, await match_in(simcord_bot, thread))
    asked = answer(await table.bob.slash(thread, "crosshairs resign"))
    with disk_full(monkeypatch):
        said = answer(await table.bob.click(asked, label="Yes, resign"))
    assert said.content == UNSAVED  # a button's refusal is answered, not logged as an error
    live = await simcord_bot.games.by_thread(thread.id)
    assert live is not None and not live.over  # memory is what storage holds
    assert await status(simcord_bot, thread) is MatchStatus.ACTIVE
    assert board_message(thread).components  # still being played
    await resign(table.bob, thread)
    assert await status(simcord_bot, thread) is MatchStatus.FINISHED


async def test_an_agreed_draw_that_cannot_be_stored_changes_nothing(
    simcord_env: Any, simcord_bot: CrosshairsBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(simcord_env)
    thread = await table.start()
    await fly_first_turns(table.member, thread, await match_in(simcord_bot, thread))
    await table.alice.slash(thread, "crosshairs draw")
    with disk_full(monkeypatch):
        said = answer(await table.bob.slash(thread, "crosshairs draw"))
    assert said.content == UNSAVED
    assert refusals(simcord_env) == [UNSAVED.removeprefix("⚠️ ")]
    simcord_env.errors.clear()
    live = await simcord_bot.games.by_thread(thread.id)
    # memory as stored: the game goes on, and alice's offer, stored before, still stands
    assert live is not None and not live.over and live.draw_offers == {0}
    assert await status(simcord_bot, thread) is MatchStatus.ACTIVE
    await table.bob.slash(thread, "crosshairs draw")  # bob accepts again, and it is stored
    assert await status(simcord_bot, thread) is MatchStatus.FINISHED


async def test_a_draw_offer_that_cannot_be_stored_is_not_made(
    simcord_env: Any, simcord_bot: CrosshairsBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(simcord_env)
    thread = await table.start()
    with disk_full(monkeypatch):
        said = answer(await table.alice.slash(thread, "crosshairs draw"))
    assert said.content == UNSAVED
    simcord_env.errors.clear()
    live = await simcord_bot.games.by_thread(thread.id)
    assert live is not None and not live.draw_offers  # memory as stored: no offer
    assert (await simcord_bot.games.repo.get(live.id)).draw_offers == frozenset()
    assert not told(thread, "offers a draw")
    await table.alice.slash(thread, "crosshairs draw")
    assert told(thread, "offers a draw")
    assert (await simcord_bot.games.repo.get(live.id)).draw_offers == {0}


async def test_a_timeout_that_cannot_be_stored_is_applied_at_the_next_check(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none", clock=300)
    clock.advance(301)
    with disk_full(monkeypatch):
        await simcord_env.advance_time(simcord_bot.config.clock_interval + 1)
    live = await simcord_bot.games.by_thread(thread.id)
    assert live is not None and not live.over
    assert await status(simcord_bot, thread) is MatchStatus.ACTIVE
    await simcord_env.advance_time(simcord_bot.config.clock_interval + 1)
    assert await status(simcord_bot, thread) is MatchStatus.FINISHED
    assert "bob (P2) wins" in board_message(thread).content
