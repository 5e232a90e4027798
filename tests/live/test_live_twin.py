"""One duel, played twice: once by tapping on the live board, once by the same plane
actions chosen with the board's buttons (Play, then the cockpit's plane and the menu
entry of its whole action) in the thread, by two other people. The two threads read the
same, message for message: the boards, each turn told in words, the final board and the
ratings line. The live board is another way in, not another game."""

from __future__ import annotations

import random
import re
from typing import Any

import discord
from support.flying import match_in
from support.live import Discord, live_server, tapped_to_the_end, thread_caught_up
from support.replies import answer
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from bot.live.discord_api import Instance
from bot.services.live import LiveMatch


async def by_taps(bot: CrosshairsBot, table: Table, thread: Any, live: LiveMatch) -> None:
    discord = Discord()
    people = (table.alice, table.bob)
    discord.instances["duel"] = Instance(
        "duel", table.guild.id, thread.id, frozenset(p.id for p in people)
    )
    async with live_server(bot, discord) as address:
        await tapped_to_the_end(address, discord, people, "duel", live, random.Random(11))


async def by_buttons(table: Table, thread: Any, live: LiveMatch, tokens: list[str]) -> None:
    """Each turn: the pilot to move presses the board's Play, then in their cockpit the
    plane's button and the menu entry that plays the longest run of ``tokens`` left (a
    whole dive is one entry); a placement is a menu entry too."""
    left = list(tokens)
    while left:
        ply = live.ply
        mover = table.member(live.user_to_move())
        cockpit = answer(await mover.click(board_message(thread), label="Play")).message
        while live.user_to_move() == mover.id and left:
            plane = f":n:{left[0].rstrip('CFSPIX<>-')}"
            if not left[0].startswith("+") and _custom_ids(cockpit, plane):
                pressed = await mover.click(cockpit, custom_id=_custom_ids(cockpit, plane)[0])
                cockpit = answer(pressed).message
            size, menu, value = max(
                (len(value.split()), menu, value)
                for menu, values in _menus(cockpit)
                for value in values
                if value.split() == left[: len(value.split())]
            )
            cockpit = answer(await mover.select(cockpit, [value], custom_id=menu)).message
            left = left[size:]
        assert live.ply > ply, "the buttons played nothing"
    assert live.over


def _custom_ids(message: Any, ending: str) -> list[str]:
    return [
        c.custom_id
        for row in message.components
        for c in row.children
        if (c.custom_id or "").endswith(ending)
    ]


def _menus(message: Any) -> list[tuple[str, list[str]]]:
    return [
        (c.custom_id, [o.value for o in c.options])
        for row in message.components
        for c in row.children
        if isinstance(c, discord.SelectMenu)
    ]


def read(thread: Any, live: LiveMatch) -> list[str]:
    """The thread's messages, with what differs between two tables by right put aside:
    the match's number, and who the pinged people are (by their seat)."""
    seats = {str(e.user_id): f"P{i + 1}" for i, e in enumerate(live.seats)}
    said = []
    for message in thread.history():
        text = re.sub(rf"(#|match:){live.id}\b", r"\1N", message.content)
        said.append(re.sub(r"<@(\d+)>", lambda m: f"<@{seats.get(m[1], m[1])}>", text))
    return said


async def test_a_duel_tapped_on_the_live_board_reads_as_the_same_duel_flown_with_buttons(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    tapped_at = Table(simcord_env)
    tapped_thread = await tapped_at.start(clouds="none")
    tapped = await match_in(simcord_bot, tapped_thread)
    await by_taps(simcord_bot, tapped_at, tapped_thread, tapped)
    await thread_caught_up(simcord_bot, tapped)

    moved_at = Table(simcord_env)  # two other people, new to ratings as the first two
    moved_thread = await moved_at.start(clouds="none")
    moved = await match_in(simcord_bot, moved_thread)
    assert [e.name for e in moved.seats] == [e.name for e in tapped.seats]
    await by_buttons(moved_at, moved_thread, moved, [p.token for p in tapped.game.history])
    await thread_caught_up(simcord_bot, moved)

    assert moved.status_line() == tapped.status_line()
    tapped_read = read(tapped_thread, tapped)
    moved_read = read(moved_thread, moved)
    assert tapped_read == moved_read
    assert any("📊" in m for m in tapped_read)  # the ratings line is among them
