"""Bot processes on one token identify as Discord allows them to: at most one IDENTIFY
per five seconds (here the suite's rate scale) in each bucket ``shard_id %
max_concurrency``, however many processes start at once, the times handed out by the
PostgreSQL database they share. localcord refuses an early identify as Discord does
(INVALID_SESSION), so a bot that did not wait would show here as a refusal."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

import pytest

from localcord.botproc import BotProcess
from localcord.server import LocalDiscord
from storage.db import Database

pytestmark = [pytest.mark.multiprocess, pytest.mark.timeout(300)]


@pytest.mark.parametrize("processes", [2, 4])
async def test_processes_started_together_identify_one_at_a_time(
    tmp_path: Path, postgres: Any, processes: int
) -> None:
    url = postgres.new_database()
    async with await Database.open(url):
        pass  # the schema: the bot refuses a database without one
    server = LocalDiscord(shard_count=processes)
    await server.start()
    bots = [
        # the boards drawn in threads: no worker process starts (each would draw one as it
        # starts) where only the identifies are looked at
        BotProcess(
            server,
            tmp_path,
            {"WORKERS": "0"},
            shard_ids=[shard],
            database_url=url,
            name=f"bot{shard}",
        )
        for shard in range(processes)
    ]
    try:
        await asyncio.gather(*(bot.start(timeout=60) for bot in bots))
        gateway = server.gateway
        times = sorted(at for at, _ in gateway.identify_log)
        assert sorted(shard for _, shard in gateway.identify_log) == list(range(processes))
        assert gateway.early_identifies == 0
        gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
        assert min(gaps) >= gateway.identify_spacing, gaps
    finally:
        for bot in bots:
            await bot.stop()
        await server.stop()
