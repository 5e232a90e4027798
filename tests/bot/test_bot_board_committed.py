"""A board drawn, or a live page's state sent, while an action is under way shows the
match as storage holds it: an action changes the game in memory before storage has it,
and a board drawn from memory then once showed a resignation that a crash lost (the
thread said the game was over; the restarted bot played on)."""

from __future__ import annotations

import asyncio
from typing import Any

from support.flying import fly_first_turns, match_in
from support.live import duel_on_the_live_board, live_server, opened
from support.replies import answer
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from bot.ui.thread import match_channel, send_board


async def test_a_board_drawn_during_an_action_shows_only_what_storage_has(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    live = await match_in(simcord_bot, thread)
    stored = live.game.copy()
    async with live.lock:  # an action under way: its resignation is in memory only
        live.game.concede(live.game.to_move or 0, "resign")
        assert live.over
        drawing = asyncio.ensure_future(
            send_board(simcord_bot, live, await match_channel(simcord_bot, live), None)
        )
        await asyncio.sleep(0.2)
        # and it never reaches storage (the process dies, or storage refuses it and
        # memory goes back to what storage holds)
        live.game = stored
    await drawing
    board = board_message(thread)
    assert "resign" not in board.content.lower() and "/crosshairs replay" not in board.content
    assert await simcord_bot.games.boards.shown(live.id) == live.ply


async def test_a_live_page_sent_a_state_during_an_action_sees_only_what_storage_has(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table, _, live, discord = await duel_on_the_live_board(simcord_env, simcord_bot)
    token = discord.token_for(table.alice.id, "alice")
    async with (
        live_server(simcord_bot, discord) as address,
        opened(address, token, "duel") as (page, _),
    ):
        await page.state_at(live.ply)
        stored = live.game.copy()
        async with live.lock:  # as above: a resignation in memory only
            live.game.concede(live.game.to_move or 0, "resign")
            showing = asyncio.ensure_future(simcord_bot.live_board.show(live))
            await asyncio.sleep(0.2)
            live.game = stored
        await showing
        state = await page.next("state")
        assert not state["over"] and state["ply"] == live.ply


async def test_a_cockpit_opened_during_an_action_shows_only_what_storage_has(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """The private preview and choices, as the thread's board: drawn from memory, they
    offered a turn one step on from storage (its ply in every custom id), which a crash
    would then lose."""
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    live = await match_in(simcord_bot, thread)
    await fly_first_turns(table.member, thread, live)  # both sides flew: a turn of many
    mover = table.member(live.user_to_move())
    stored_ply, stored = live.ply, live.game.copy()
    async with live.lock:  # an action under way: its step is in memory only
        live.game.play(live.game.legal_steps()[0])
        assert live.user_to_move() == mover.id and live.ply == stored_ply + 1
        pressing = asyncio.ensure_future(mover.click(board_message(thread), label="Play"))
        await asyncio.sleep(0.2)
        live.game = stored  # and it never reaches storage
    cockpit = answer(await pressing)
    ids = [c["custom_id"] for row in cockpit.components for c in row["components"]]
    assert ids and all(f":{stored_ply}:" in i for i in ids if i.startswith("xh:c")), ids
