"""The bot under test: real discord.py against simcord's in-memory Discord, on a fresh
database in the test's directory and a fake clock. A pytest plugin (loaded by
``tests/conftest.py``); a suite that needs other settings overrides ``bot_config``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.app import create_bot
from bot.config import Config
from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock

# How long simcord waits for the bot to finish what an event started. Its default, 5 s,
# is a bound for a quiet machine; on a loaded CI machine a board or a search can take
# longer, and only a bot that truly hangs should fail (pytest-timeout bounds the test).
SETTLE_TIMEOUT = 60.0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("simcord") is None:
            item.add_marker(pytest.mark.simcord(settle_timeout=SETTLE_TIMEOUT))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def bot_config(tmp_path: Path) -> Config:
    # simcord does not count Discord's global limit, so pacing to it would only wait (a
    # tournament's start: a minute); the pace is tested against localcord, which counts it
    return Config(
        token=None,
        database_path=tmp_path / "bot.db",
        computer_pace=0.0,
        clock_interval=5.0,
        rest_per_second=100_000,
        # small boards, as for the end-to-end tests' bots (e2e/conftest.py): they are
        # drawn in the test's own process here, and no test reads more than their words
        board_pixels=384,
    )


@pytest.fixture
async def made_bots() -> AsyncIterator[list[CrosshairsBot]]:
    """Every bot a test builds; simcord detaches them without closing, so the test
    closes their databases itself."""
    made: list[CrosshairsBot] = []
    yield made
    for bot in made:
        if hasattr(bot, "env"):  # as the bot's own close: what is still being shown
            bot.env.events.stop()  # (a tap's board, drawn after its page) stops quietly
        if hasattr(bot, "db"):
            await bot.db.close()


@pytest.fixture
def new_bot(
    bot_config: Config, clock: FakeClock, made_bots: list[CrosshairsBot]
) -> Callable[[], CrosshairsBot]:
    """Build a bot on the test's database (a restart builds a second one)."""

    def make() -> CrosshairsBot:
        bot = create_bot(bot_config, clock)
        made_bots.append(bot)
        return bot

    return make


@pytest.fixture
def simcord_bot(new_bot: Callable[[], CrosshairsBot]) -> CrosshairsBot:
    return new_bot()
