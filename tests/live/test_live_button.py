"""The board's **Live board** button, shown while the bot serves the live board: it
answers with Discord's LAUNCH_ACTIVITY; where Discord refuses (as in a thread), the
presser is told why and where to open it, and nothing of the match changes."""

from __future__ import annotations

from typing import Any

from support.flying import match_in
from support.live import Discord, live_server
from support.replies import answer
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot


def labels_of(message: Any) -> list[str]:
    return [c.label for row in message.components for c in row.children]


async def test_the_live_board_button(simcord_env: Any, simcord_bot: CrosshairsBot) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    live = await match_in(simcord_bot, thread)
    assert "Live board" not in labels_of(board_message(thread))  # not served: not offered
    async with live_server(simcord_bot, Discord()):
        mover = table.member(live.user_to_move())
        await mover.slash(thread, "crosshairs move", tokens=live.game.legal_steps()[0].token)
        board = board_message(thread)
        assert "Live board" in labels_of(board)
        ply = live.ply
        # simcord, like Discord in a thread, refuses callback type 12
        pressed = await table.eve.click(board, label="Live board")
    said = answer(pressed)
    assert said.ephemeral and "cannot open the live board here" in said.content
    assert f"<#{table.channel.id}>" in said.content  # where it can be opened instead
    assert live.ply == ply and board_message(thread).id == board.id
