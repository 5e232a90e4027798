"""Who may fly is checked in one place (``Games.check_turn``): a press reads it
before answering, so the refusal comes at once and privately, and the action checks it
again under the match's lock. The cockpit therefore refuses exactly what a move does."""

from __future__ import annotations

from typing import Any

from support.flying import match_in
from support.replies import answer, refusals
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot


async def test_play_on_a_paused_match_is_refused_like_a_move(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    live = await match_in(simcord_bot, thread)
    assert await simcord_bot.games.clocks.pause(live.id)  # as an archived thread does

    pressed = await table.alice.click(board_message(thread), label="Play")
    moved = await table.alice.slash(thread, "crosshairs move", tokens="+a3NE")

    assert pressed.ephemeral and "paused" in answer(pressed).content
    assert answer(moved).content == answer(pressed).content
    assert live.ply == 0
    (refused,) = refusals(simcord_env)  # the move's, through the command tree
    assert "paused" in refused
