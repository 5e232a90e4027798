"""Takebacks on the live board: asked, accepted or declined on the page or in the
thread, one service behind both, each surface showing every step. A request asked on
the page is posted in the match's thread pinging only those asked; agreed, both pages
and the thread's board go back. A stranger's, a forged, a stale or a repeated answer is
refused and changes nothing; a rated game offers no takeback."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import Any

import pytest
from support.flying import first_turn_flown
from support.live import Discord, Page, live_server, opened, until
from support.tables import Table

from bot.discord_app import CrosshairsBot
from bot.live.discord_api import Instance
from bot.services.live import LiveMatch, Occupant
from rules.modes import Settings
from storage.takebacks import TakebackRepo

ASKS = "asks to take back their latest turn"


@dataclass
class Flown:
    """A duel whose first player (``asker``) has flown their whole first turn, its
    live board served, with pages for anyone."""

    bot: CrosshairsBot
    table: Table
    thread: Any
    live: LiveMatch
    asker: Any
    other: Any
    discord: Discord
    address: str
    stack: AsyncExitStack

    async def page(self, member: Any) -> tuple[Page, dict[str, Any]]:
        """``member``'s page, and the state it shows first."""
        token = self.discord.token_for(member.id, member.name)
        page, _welcome = await self.stack.enter_async_context(opened(self.address, token, "here"))
        return page, await page.state_at(self.live.ply)

    def requests(self) -> list[Any]:
        return [m for m in self.thread.history() if ASKS in m.content]

    async def stored(self) -> tuple[int, int, list[Any]]:
        """What a refused message must not change: the steps, the thread's messages and
        the takebacks asked (who agreed, what became of them)."""
        steps = await self.bot.games.repo.steps(self.live.id)
        async with self.bot.db.read() as conn:
            asked = await conn.fetchall("SELECT id, agreed, status FROM takebacks ORDER BY id")
        return len(steps), len(self.thread.history()), list(asked)


async def _flown(simcord_env: Any, bot: CrosshairsBot, stack: AsyncExitStack, rated: bool) -> Flown:
    table, thread, live, asker, other = await first_turn_flown(simcord_env, bot, rated)
    discord = Discord()
    people = frozenset({table.alice.id, table.bob.id, table.eve.id})
    discord.instances["here"] = Instance("here", table.guild.id, thread.id, people)
    address = await stack.enter_async_context(live_server(bot, discord))
    return Flown(bot, table, thread, live, asker, other, discord, address, stack)


@pytest.fixture
async def flown(simcord_env: Any, simcord_bot: CrosshairsBot) -> AsyncIterator[Flown]:
    async with AsyncExitStack() as stack:
        yield await _flown(simcord_env, simcord_bot, stack, rated=False)


async def test_asked_on_the_page_and_agreed_on_the_other_page(flown: Flown) -> None:
    (mine, state), (theirs, other) = await flown.page(flown.asker), await flown.page(flown.other)
    assert state["takeback"]["ask"]
    assert other["takeback"] is None  # nothing of theirs to take back

    await mine.send({"type": "takeback", "op": "ask"})
    await until(flown.requests, "the request in the thread")
    (request,) = flown.requests()  # pinging only the one asked
    assert flown.other.mention in request.content
    assert flown.asker.mention not in request.content
    asked = await theirs.next("state")
    assert asked["takeback"]["answer"] and ASKS in asked["takeback"]["text"]
    waiting = (await mine.next("state"))["takeback"]
    assert not waiting["answer"] and flown.other.name in waiting["text"]

    await theirs.send(
        {"type": "takeback", "op": "accept", "takeback": asked["takeback"]["takeback"]}
    )
    for page in (mine, theirs):
        back = await page.state_at(0)
        assert back["status"] == flown.live.status_line()
    assert flown.live.ply == 0 and await flown.bot.games.repo.steps(flown.live.id) == []
    settled = next(m for m in flown.thread.history() if m.id == request.id)
    assert "took back their last turn" in settled.content and settled.components == []


async def test_asked_in_the_thread_and_declined_on_the_page(flown: Flown) -> None:
    theirs, _state = await flown.page(flown.other)
    asked = await flown.asker.slash(flown.thread, "crosshairs takeback")
    assert asked.response is not None
    shown = (await theirs.next("state"))["takeback"]
    assert shown["answer"]
    await theirs.send({"type": "takeback", "op": "decline", "takeback": shown["takeback"]})
    assert (await theirs.next("state"))["takeback"] is None  # nothing stands: nothing to do
    request = next(m for m in flown.thread.history() if m.id == asked.response.message.id)
    assert f"Declined by {flown.other.name}" in request.content and request.components == []
    assert flown.live.ply > 0  # nothing taken back


async def test_a_strangers_a_forged_a_repeated_answer_are_refused(flown: Flown) -> None:
    (mine, _), (theirs, _) = await flown.page(flown.asker), await flown.page(flown.other)
    stranger, _state = await flown.page(flown.table.eve)
    await mine.send({"type": "takeback", "op": "ask"})
    number = (await theirs.next("state"))["takeback"]["takeback"]
    before = await flown.stored()
    refusals = [
        (
            stranger,
            {"type": "takeback", "op": "accept", "takeback": number},
            "not addressed to you",
        ),
        (mine, {"type": "takeback", "op": "accept", "takeback": number}, "not addressed to you"),
        (theirs, {"type": "takeback", "op": "accept", "takeback": 99999}, "out of date"),
        (theirs, {"type": "takeback", "op": "accept", "takeback": True}, "did not understand"),
        (theirs, {"type": "takeback", "op": "undo", "takeback": number}, "did not understand"),
        (stranger, {"type": "takeback", "op": "ask"}, "not playing in this match"),
    ]
    for page, message, why in refusals:
        await page.send(message)
        refused = await page.next("refused")
        assert why in refused["text"], (message, refused)
    assert await flown.stored() == before
    await theirs.send({"type": "takeback", "op": "accept", "takeback": number})
    await theirs.state_at(0)
    await theirs.send({"type": "takeback", "op": "accept", "takeback": number})  # twice
    assert "out of date" in (await theirs.next("refused"))["text"]
    assert await flown.bot.games.repo.steps(flown.live.id) == []


async def test_a_rated_game_offers_no_takeback_and_refuses_one_asked(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    async with AsyncExitStack() as stack:
        rated = await _flown(simcord_env, simcord_bot, stack, rated=True)
        mine, state = await rated.page(rated.asker)
        assert state["takeback"] is None
        before = await rated.stored()
        await mine.send({"type": "takeback", "op": "ask"})
        assert "only for unrated games" in (await mine.next("refused"))["text"]
        assert await rated.stored() == before and rated.requests() == []


async def test_another_matchs_request_is_refused_on_this_ones_page(flown: Flown) -> None:
    """A request number of another match (the page is a stranger's program: it may send
    any number) is not answered through this match, and that request stands unchanged."""
    theirs, _state = await flown.page(flown.other)
    elsewhere = await flown.bot.games.create(
        [Occupant(flown.asker.id, flown.asker.name), Occupant(flown.other.id, flown.other.name)],
        Settings(mode="duel"),
        channel_id=flown.table.channel.id,
        guild_id=flown.table.guild.id,
        cloud_setup="none",
    )
    other = await TakebackRepo(flown.bot.db).ask(
        elsewhere.id, flown.asker.id, 2, 1, [flown.other.id]
    )
    before = await flown.stored()
    await theirs.send({"type": "takeback", "op": "accept", "takeback": other.id})
    assert "out of date" in (await theirs.next("refused"))["text"]
    assert await flown.stored() == before
    async with flown.bot.db.read() as conn:
        (row,) = await conn.fetchall(
            "SELECT agreed, status FROM takebacks WHERE id = ?", (other.id,)
        )
    assert row[1] == "open" and str(flown.other.id) not in str(row[0])
