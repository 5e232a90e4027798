"""Two processes on one database showing one match's board: the second waits for the
first, then shows the match as stored, with the board message the first posted, so the
thread gets one board, not one from each. A lease left by a process that died blocks
nobody for longer than it lasts."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.config import Config
from bot.env import Env
from bot.services.live import LiveMatch, Occupant
from rules.modes import Settings

GUILD, CHANNEL = 7, 70


@asynccontextmanager
async def process(path: Path, shard: int) -> AsyncIterator[Env]:
    config = Config(
        token=None, database_path=path, computer_pace=0.0, shard_count=2, shard_ids=(shard,)
    )
    env = await Env.open(config)
    try:
        yield env
    finally:
        await env.close()


async def _duel(env: Env) -> LiveMatch:
    return await env.games.create(
        [Occupant(101, "alice"), Occupant(202, "bob")],
        Settings(mode="duel"),
        channel_id=CHANNEL,
        guild_id=GUILD,
        cloud_setup="none",
    )


async def test_the_second_process_shows_after_the_first_and_from_what_it_stored(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    async with process(path, 0) as owner, process(path, 1) as other:
        live = await _duel(owner)
        there = await other.games.current(live.id)  # the other process's copy
        order: list[str] = []
        first_in = asyncio.Event()

        async def first() -> None:
            async with owner.showing.of(live):
                first_in.set()
                await asyncio.sleep(0.3)  # posting its board, and a move made meanwhile
                update = await owner.games.play(live.id, 101, [live.game.legal_steps()[0].token])
                await owner.games.set_board_message(update.match, 555, live.ply)
                order.append("first")

        async def second() -> None:
            await first_in.wait()
            async with other.showing.of(there):
                order.append("second")
                assert there.record.board_message_id == 555  # the board it replaces
                assert there.ply == live.ply == 1  # the move the first stored

        await asyncio.gather(first(), second())
        assert order == ["first", "second"]
        assert await owner.games.boards.lease(live.id, "anyone", time.time(), 1.0)  # given back


async def test_a_lease_left_by_a_dead_process_runs_out(tmp_path: Path) -> None:
    async with process(tmp_path / "bot.db", 0) as env:
        live = await _duel(env)
        assert await env.games.boards.lease(live.id, "dead", time.time(), 0.5)
        started = time.monotonic()
        async with env.showing.of(live):
            waited = time.monotonic() - started
        assert waited >= 0.3  # it waited for the lease, not past it
