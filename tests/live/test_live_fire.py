"""The live board draws the lines of fire the thread's board draws: those of the side to
move's planes once they are in play, each from the plane to the last cell its guns
reach; none while planes are being placed, none once the game is over."""

from __future__ import annotations

from typing import Any

from support.flying import fly_first_turns, resign
from support.live import duel_on_the_live_board, live_server, opened, shown

from bot.discord_app import CrosshairsBot
from bot.services.live import LiveMatch


def drawn_on_the_thread_board(live: LiveMatch) -> list[dict[str, int]]:
    """The lines render/board.py draws on the thread's picture, read from the rules."""
    game = live.game
    team = game.mode.teams[game.active]
    return [
        {"seat": p.seat, "from": p.cell, "to": game.line_of_fire(p)[-1]}
        for p in game.planes()
        if game.mode.teams[p.seat] == team and game.line_of_fire(p)
    ]


async def test_the_page_gets_the_lines_of_fire_of_the_side_to_move(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table, thread, live, discord = await duel_on_the_live_board(simcord_env, simcord_bot)
    async with live_server(simcord_bot, discord) as address:
        token = discord.token_for(table.eve.id, table.eve.name)  # a spectator sees them too
        async with opened(address, token, "duel") as (page, _welcome):
            placing = await page.next("state")
            assert placing["planes"] == [] and placing["fire"] == []

            await fly_first_turns(table.member, thread, live)
            state = await shown(page, live.ply)
            assert live.game.phase == "play"
            assert state["fire"] == drawn_on_the_thread_board(live) != []
            seats = {p.cell: p.seat for p in live.game.planes()}
            assert all(seats[line["from"]] == live.game.to_move for line in state["fire"])

            await resign(table.bob, thread)
            while not (end := await page.next("state"))["over"]:
                pass
            assert end["fire"] == []
