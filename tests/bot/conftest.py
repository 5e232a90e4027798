"""The bot under test: real discord.py against simcord's in-memory Discord."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Config
from bot.discord_app import CrosshairsBot, create_bot
from bot.services.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def bot_config(tmp_path: Path) -> Config:
    return Config(
        token=None, database_path=tmp_path / "bot.db", computer_pace=0.0, clock_interval=5.0
    )


@pytest.fixture
def simcord_bot(bot_config: Config, clock: FakeClock) -> CrosshairsBot:
    return create_bot(bot_config, clock)
