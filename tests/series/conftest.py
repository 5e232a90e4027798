"""The bot under test against simcord's in-memory Discord, and the club that plays it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.config import Config
from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock

from .support import Club


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


@pytest.fixture
def club(simcord_env: Any) -> Club:
    return Club(simcord_env)
