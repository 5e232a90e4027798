"""Every mode on the live board, not only duels: three or four people sit at a lobby's table and
play the whole game by tapping, each on their own page (a socket, as the page is), every
tap one whole action from the choices their page was sent. Every page shows every
action, the end is the same on all of them, and storage and the thread's board hold the
game the pages showed."""

from __future__ import annotations

import asyncio
import random
from contextlib import AsyncExitStack
from typing import Any

import pytest
from support.flying import match_in
from support.live import Discord, Page, a_choice, live_server, opened, shown
from support.replies import answer
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from bot.live.discord_api import Instance
from rules.modes import MODES

MOST_TAPS = 600  # a game of random taps ends long before


@pytest.mark.parametrize("mode", ["ffa3", "cod3", "2v2"])
async def test_a_game_of_three_or_four_played_to_its_end_by_tapping(
    simcord_env: Any, simcord_bot: CrosshairsBot, mode: str
) -> None:
    table = Table(simcord_env)
    people = [table.alice, table.bob, table.eve]
    if mode == "2v2":
        people.append(table.guild.add_member(simcord_env.create_user("dev")))
    lobby = answer(
        await table.alice.slash(table.channel, "crosshairs lobby", mode=mode, clouds="none")
    )
    labels = MODES[mode].seat_label
    for seat, person in enumerate(people[1:], start=1):
        await person.click(lobby, label=f"Sit {labels(seat)}")
    await table.alice.click(lobby, label="Start")
    # the match's own thread (a team game opens each team a private room beside it)
    played = [t for t in table.channel.threads if await simcord_bot.games.by_thread(t.id)]
    thread = played[-1]
    live = await match_in(simcord_bot, thread)
    discord = Discord()
    discord.instances["table"] = Instance(
        "table", table.guild.id, thread.id, frozenset(p.id for p in people)
    )
    rng = random.Random(mode)
    async with live_server(simcord_bot, discord) as address, AsyncExitStack() as stack:
        pages: dict[int, Page] = {}
        states: dict[int, dict[str, Any]] = {}
        for person in people:
            token = discord.token_for(person.id, person.name)
            page, welcome = await stack.enter_async_context(opened(address, token, "table"))
            assert [t["match"] for t in welcome["tables"]] == [live.id]
            pages[person.id] = page
            states[person.id] = await shown(page, 0)
        for _ in range(MOST_TAPS):
            if live.over:
                break
            mover = live.user_to_move()
            assert mover is not None
            state = states[mover]
            assert state["ply"] == live.ply and state["choices"] is not None, state
            others = [s["choices"] for who, s in states.items() if who != mover]
            assert others == [None] * (len(people) - 1)  # only the player to move may tap
            await pages[mover].tap(state, a_choice(state["choices"], rng))
            for who, page in pages.items():  # every page shows the action
                states[who] = await shown(page, state["ply"] + 1)
        assert live.over
        ends = {s["status"] for s in states.values()}
        assert len(ends) == 1 and all(s["over"] for s in states.values())
    stored = await simcord_bot.games.repo.steps(live.id)
    assert [s.token for s in stored] == [p.token for p in live.game.history]
    # the thread's board is drawn after the pages are told (each tap's, as a press's)
    for _ in range(1200):
        if await simcord_bot.games.boards.shown(live.id) == live.ply:
            break
        await asyncio.sleep(0.05)
    assert ends.pop() in board_message(thread).content
