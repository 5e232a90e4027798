"""A bot whose drawing and computer search run in a real worker process: everything
crosses into the pool as plain data and comes back as pictures and moves."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from simcord.builders import UserHandle

from bot.config import Config
from bot.discord_app import CrosshairsBot


@pytest.fixture
def bot_config(bot_config: Config) -> Config:
    return replace(bot_config, workers=1)


async def test_the_worker_process_draws_boards_and_searches_for_the_computer(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("dogfights")
    alice = guild.add_member(simcord_env.create_user("alice"))
    assert simcord_bot.user is not None and simcord_bot.workers.size == 1
    me = UserHandle(simcord_env, simcord_env.backend.get_user(simcord_bot.user.id))
    await alice.slash(
        channel, "crosshairs challenge", opponent=me, strength="medium", clouds="none"
    )
    (thread,) = channel.threads
    await alice.slash(thread, "crosshairs move", tokens="+a3NE")
    await simcord_env.settle()
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
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("dogfights")
    alice = guild.add_member(simcord_env.create_user("alice"))
    assert simcord_bot.user is not None and simcord_bot.workers.size == 1
    me = UserHandle(simcord_env, simcord_env.backend.get_user(simcord_bot.user.id))
    await alice.slash(channel, "crosshairs challenge", opponent=me, strength="easy", clouds="none")
    (thread,) = channel.threads
    await alice.slash(thread, "crosshairs move", tokens="+a3NE")
    await simcord_env.settle()
    await alice.slash(thread, "crosshairs resign")
    await simcord_env.settle()
    await alice.slash(thread, "crosshairs analyse")
    await simcord_env.settle()
    (posted,) = [m for m in thread.history() if m.content.startswith("🔎 Analysis of match")]
    assert "+a3NE" in posted.content and "average loss" in posted.content
    assert (await posted.attachments[0].read()).startswith(b"\x89PNG")
    await simcord_bot.workers.close()
