"""A bot whose drawing and computer search run in a real worker process: everything
crosses into the pool as plain data and comes back as pictures and moves."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from simcord.builders import UserHandle
from support.flying import resign
from support.tables import Table

from bot.config import Config
from bot.discord_app import CrosshairsBot


@pytest.fixture
def bot_config(bot_config: Config) -> Config:
    return replace(bot_config, workers=1)


async def first_move_against_the_bot(
    env: Any, bot: CrosshairsBot, strength: str
) -> tuple[Any, Any]:
    """alice challenges the bot and brings a plane on; the bot answers (in its worker).
    The match thread and alice."""
    table = Table(env)
    channel, alice = table.channel, table.alice
    assert bot.user is not None and bot.workers.size == 1
    me = UserHandle(env, env.backend.get_user(bot.user.id))
    await alice.slash(
        channel, "crosshairs challenge", opponent=me, strength=strength, clouds="none"
    )
    (thread,) = channel.threads
    await alice.slash(thread, "crosshairs move", tokens="+a3NE")
    await env.settle()
    return thread, alice


async def test_the_worker_process_draws_boards_and_searches_for_the_computer(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    thread, alice = await first_move_against_the_bot(simcord_env, simcord_bot, "medium")
    live = next(iter(simcord_bot.games.live_matches()))
    assert live.user_to_move() == alice.id
    first, *computer = [s.token for s in live.game.history]
    assert first == "+a3NE" and computer and all(t.startswith("+") for t in computer)
    boards = [m for m in thread.history() if m.content.startswith("**Crosshairs #")]
    assert (await boards[-1].attachments[0].read()).startswith(b"\x89PNG")
    await simcord_bot.workers.close()


async def test_the_analysis_is_judged_turn_by_turn_in_the_worker_process(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    thread, alice = await first_move_against_the_bot(simcord_env, simcord_bot, "easy")
    await resign(alice, thread)
    await simcord_env.settle()
    await alice.slash(thread, "crosshairs analyse")
    await simcord_env.settle()
    (posted,) = [m for m in thread.history() if m.content.startswith("🔎 Analysis of match")]
    assert "+a3NE" in posted.content and "accuracy" in posted.content
    assert (await posted.attachments[0].read()).startswith(b"\x89PNG")
    await simcord_bot.workers.close()
