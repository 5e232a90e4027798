from __future__ import annotations

from typing import Any

from simcord.builders import UserHandle

from bot.discord_app import CrosshairsBot


async def test_challenge_the_computer_opens_a_thread_with_a_board(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("dogfights")
    alice = guild.add_member(simcord_env.create_user("alice"))
    assert simcord_bot.user is not None
    me = UserHandle(simcord_env, simcord_env.backend.get_user(simcord_bot.user.id))
    result = await alice.slash(channel, "crosshairs challenge", opponent=me)
    print(result.response.content if result.response else None)
    threads = channel.threads
    assert threads
    last = threads[0].history()
    print([m.content[:80] for m in last])
    assert any(m.attachments for m in last)
