"""The bot under test for tournaments: real discord.py in simcord, a fake clock."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.config import Config
from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def made_bots() -> AsyncIterator[list[CrosshairsBot]]:
    made: list[CrosshairsBot] = []
    yield made
    for bot in made:  # simcord detaches bots without closing their databases
        if hasattr(bot, "db"):
            await bot.db.close()


@pytest.fixture
def new_bot(
    tmp_path: Path, clock: FakeClock, made_bots: list[CrosshairsBot]
) -> Callable[[], CrosshairsBot]:
    """A bot on the test's database; a restart builds a second one on the same file.
    The clock cog only runs when a test advances the fake clock past a minute."""
    config = Config(
        token=None, database_path=tmp_path / "bot.db", computer_pace=0.0, clock_interval=60.0
    )

    def make() -> CrosshairsBot:
        made_bots.append(create_bot(config, clock))
        return made_bots[-1]

    return make


@pytest.fixture
def simcord_bot(new_bot: Callable[[], CrosshairsBot]) -> CrosshairsBot:
    return new_bot()
