"""Tokens a hostile or unlucky player types into ``/crosshairs move``: each gets the
friendly refusal that names the token, never "Something went wrong on our side", and
the match stays as it was (issue 15, item 4)."""

from __future__ import annotations

from typing import Any

import pytest
from support.replies import answer, refusals

from bot.discord_app import CrosshairsBot


@pytest.mark.parametrize("token", ["ı3C", "İ3C", "+ıNE", "+İ1NE", "K3C", "k1C", "c٣C", "*İ"])
async def test_move_with_a_token_outside_ascii_or_the_board_is_refused_kindly(
    simcord_env: Any, simcord_bot: CrosshairsBot, token: str
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("dogfights")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    invite = await alice.slash(channel, "crosshairs challenge", opponent=bob, clouds="none")
    await bob.click(invite.response.message, label="Accept")
    (thread,) = channel.threads
    live = next(iter(simcord_bot.games.live_matches()))
    mover = alice if live.user_to_move() == alice.id else bob
    before = live.ply

    result = await mover.slash(thread, "crosshairs move", tokens=token)

    shown = answer(result).content
    assert repr(token) in shown and "went wrong" not in shown, shown
    (why,) = refusals(simcord_env)  # a Refusal, not a crash behind the error handler
    assert repr(token) in why
    assert live.ply == before
