"""One duel, played twice: once by tapping on the live board, once by the same steps sent
with ``/crosshairs move`` in the thread, by two other people. The two threads read the
same, message for message: the boards, each turn told in words, the final board and the
ratings line. The live board is another way in, not another game."""

from __future__ import annotations

import random
import re
from typing import Any

from support.flying import match_in
from support.live import Discord, live_server, tapped_to_the_end, thread_caught_up
from support.replies import answer
from support.tables import Table

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


async def by_commands(table: Table, thread: Any, live: LiveMatch, tokens: list[str]) -> None:
    for token in tokens:
        mover = table.member(live.user_to_move())
        said = answer(await mover.slash(thread, "crosshairs move", tokens=token))
        assert said.content.startswith("✅"), said.content
    assert live.over


def read(thread: Any, live: LiveMatch) -> list[str]:
    """The thread's messages, with what differs between two tables by right put aside:
    the match's number, and who the pinged people are (by their seat)."""
    seats = {str(e.user_id): f"P{i + 1}" for i, e in enumerate(live.seats)}
    said = []
    for message in thread.history():
        text = re.sub(rf"(#|match:){live.id}\b", r"\1N", message.content)
        said.append(re.sub(r"<@(\d+)>", lambda m: f"<@{seats.get(m[1], m[1])}>", text))
    return said


async def test_a_duel_tapped_on_the_live_board_reads_as_the_same_duel_moved_by_command(
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
    await by_commands(moved_at, moved_thread, moved, [p.token for p in tapped.game.history])
    await thread_caught_up(simcord_bot, moved)

    assert moved.status_line() == tapped.status_line()
    tapped_read = read(tapped_thread, tapped)
    moved_read = read(moved_thread, moved)
    assert tapped_read == moved_read
    assert any("📊" in m for m in tapped_read)  # the ratings line is among them
