"""The tournament suite's bot: the shared one (tests/support/bots.py), whose clock cog
runs only when a test advances the fake clock past a minute."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.config import Config


@pytest.fixture
def bot_config(bot_config: Config) -> Config:
    return replace(bot_config, clock_interval=60.0)
