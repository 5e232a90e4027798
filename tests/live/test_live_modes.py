"""Every mode on the live board, not only duels: three or four people sit at a lobby's table and
play the whole game by tapping, each on their own page (a socket, as the page is), every
tap one whole action from the choices their page was sent. Every page shows every
action, the end is the same on all of them, and storage and the thread's board hold the
game the pages showed."""

from __future__ import annotations

import random
from typing import Any

import pytest
from support.flying import match_in
from support.live import Discord, States, live_server, tapped_to_the_end, thread_caught_up
from support.replies import answer
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from bot.live.discord_api import Instance
from rules.modes import MODES


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

    def only_the_mover_may_tap(mover: int, states: States) -> None:
        assert states[mover]["ply"] == live.ply and states[mover]["choices"] is not None
        others = [s["choices"] for who, s in states.items() if who != mover]
        assert others == [None] * (len(people) - 1)

    async with live_server(simcord_bot, discord) as address:
        welcomes, states = await tapped_to_the_end(
            address, discord, people, "table", live, random.Random(mode), only_the_mover_may_tap
        )
    assert all([t["match"] for t in w["tables"]] == [live.id] for w in welcomes)
    ends = {s["status"] for s in states.values()}
    assert len(ends) == 1 and all(s["over"] for s in states.values())
    stored = await simcord_bot.games.repo.steps(live.id)
    assert [s.token for s in stored] == [p.token for p in live.game.history]
    await thread_caught_up(simcord_bot, live)
    assert ends.pop() in board_message(thread).content
