"""Rematch on the live board: asked, answered or withdrawn on the page or with the
thread's buttons, one service behind both, each surface showing every step. The offer is
posted in the match's thread pinging only those asked; once all accepted the new match
gets its own thread and every page of the old one is pointed to it. A stranger's, a
forged or a repeated message is refused and changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import Any

import pytest
from support.flying import fly_first_turns, match_in, resign
from support.live import Discord, Page, duel_on_the_live_board, live_server, opened, until
from support.replies import answer
from support.tables import Table, board_message

from bot.config import Config
from bot.discord_app import CrosshairsBot
from bot.env import Env
from bot.services.live import LiveMatch, Occupant

OFFER = "🔁 **Rematch?**"


@dataclass
class Ended:
    """Alice's duel against bob, over (bob resigned), its live board served."""

    bot: CrosshairsBot
    table: Table
    thread: Any
    live: LiveMatch
    discord: Discord
    address: str
    stack: AsyncExitStack

    async def page(self, member: Any) -> Page:
        """``member``'s live board, on the finished match (no longer listed as played)."""
        token = self.discord.token_for(member.id, member.name)
        page, _welcome = await self.stack.enter_async_context(opened(self.address, token, "duel"))
        await page.send({"type": "watch", "match": self.live.id})
        while (await page.next("state"))["match"] != self.live.id:
            pass
        return page

    def offers(self) -> list[Any]:
        return [m for m in self.thread.history() if m.content.startswith(OFFER)]

    def offer(self) -> Any:
        (found,) = self.offers()
        return next(m for m in self.thread.history() if m.id == found.id)  # as it is now

    async def stored(self) -> tuple[int, int, int, int]:
        """What a refused message must not change: the threads, the matches played, the
        thread's messages and the old match's steps."""
        steps = await self.bot.games.repo.steps(self.live.id)
        return (
            len(self.table.channel.threads),
            len(self.bot.games.live_matches()),
            len(self.thread.history()),
            len(steps),
        )


@pytest.fixture
async def ended(simcord_env: Any, simcord_bot: CrosshairsBot) -> AsyncIterator[Ended]:
    table, thread, live, discord = await duel_on_the_live_board(simcord_env, simcord_bot)
    await fly_first_turns(table.member, thread, live)
    await resign(table.bob, thread)
    assert live.game.is_over and not live.aborted
    async with AsyncExitStack() as stack:
        address = await stack.enter_async_context(live_server(simcord_bot, discord))
        yield Ended(simcord_bot, table, thread, live, discord, address, stack)


async def rematch_shown(page: Page, matches: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The page's rematch part, once a state shows one that ``matches``."""
    while True:
        state = await page.next("state")
        if state["rematch"] is not None and matches(state["rematch"]):
            return dict(state["rematch"])


async def test_asked_on_the_page_and_accepted_in_the_thread(ended: Ended) -> None:
    table, bot = ended.table, ended.bot
    alice, bob = await ended.page(table.alice), await ended.page(table.bob)
    await alice.send({"type": "rematch", "op": "ask"})
    mine = await rematch_shown(alice, lambda r: r["withdraw"])
    assert "waiting for bob" in mine["text"] and not mine["ask"]
    theirs = await rematch_shown(bob, lambda r: r["answer"])
    assert "alice asks for a rematch" in theirs["text"]
    offer = ended.offer()  # posted in the thread, pinging only bob
    assert table.bob.mention in offer.content and table.alice.mention not in offer.content

    await table.bob.click(offer, label="Accept")
    assert len(table.channel.threads) == 2
    second = await match_in(bot, table.channel.threads[-1])
    assert [e.user_id for e in second.seats] == [table.bob.id, table.alice.id]
    assert "✅ Accepted" in ended.offer().content and ended.offer().components == []
    for page in (alice, bob):
        shown = await rematch_shown(page, lambda r: r["go"] is not None)
        assert shown["go"] == second.id and "rematch is on" in shown["text"]
    await alice.send({"type": "watch", "match": second.id})
    assert (await alice.next("state"))["match"] == second.id


async def test_asked_in_the_thread_and_accepted_on_the_page(ended: Ended) -> None:
    """The yes comes from the page, with no interaction to answer: the bot opens the
    rematch's thread itself; a spectator's page is told of it, with no way in."""
    table, bot = ended.table, ended.bot
    bob, eve = await ended.page(table.bob), await ended.page(table.eve)
    await table.alice.click(board_message(ended.thread), label="Rematch")
    theirs = await rematch_shown(bob, lambda r: r["answer"])
    watching = await rematch_shown(eve, lambda r: r["offer"] is not None)
    assert not watching["answer"] and not watching["withdraw"]

    await bob.send({"type": "rematch", "op": "accept", "offer": theirs["offer"]})
    shown = await rematch_shown(bob, lambda r: r["go"] is not None)
    await until(lambda: ended.offer().components == [], "the offer settled")
    assert len(table.channel.threads) == 2
    new_thread = table.channel.threads[-1]
    second = await match_in(bot, new_thread)
    assert shown["go"] == second.id
    assert [e.user_id for e in second.seats] == [table.bob.id, table.alice.id]
    assert board_message(new_thread).content.startswith(f"**Crosshairs #{second.id}")
    settled = ended.offer()
    assert new_thread.mention in settled.content and settled.components == []
    told = await rematch_shown(eve, lambda r: "rematch is on" in r["text"])
    assert told["go"] is None  # a match of another thread, where eve does not play
    again = await table.alice.click(board_message(ended.thread), label="Rematch")
    assert "rematch is already on" in answer(again).content
    assert len(table.channel.threads) == 2


async def test_declined_on_the_page(ended: Ended) -> None:
    table = ended.table
    alice, bob = await ended.page(table.alice), await ended.page(table.bob)
    await alice.send({"type": "rematch", "op": "ask"})
    theirs = await rematch_shown(bob, lambda r: r["answer"])
    await bob.send({"type": "rematch", "op": "decline", "offer": theirs["offer"]})
    mine = await rematch_shown(alice, lambda r: "declined" in r["text"])
    assert "declined by bob" in mine["text"] and not mine["ask"] and mine["go"] is None
    await until(lambda: ended.offer().components == [], "the offer settled")
    assert "declined by bob" in ended.offer().content
    again = await table.alice.click(board_message(ended.thread), label="Rematch")
    assert "declined by bob" in answer(again).content
    assert len(table.channel.threads) == 1


async def test_withdrawn_on_the_page_after_asking_in_the_thread(ended: Ended) -> None:
    table = ended.table
    alice, bob = await ended.page(table.alice), await ended.page(table.bob)
    await table.alice.click(board_message(ended.thread), label="Rematch")
    mine = await rematch_shown(alice, lambda r: r["withdraw"])
    await alice.send({"type": "rematch", "op": "decline", "offer": mine["offer"]})
    assert "withdrawn" in (await rematch_shown(bob, lambda r: "withdrawn" in r["text"]))["text"]
    await until(lambda: ended.offer().components == [], "the offer settled")
    assert "withdrawn" in ended.offer().content
    await bob.send({"type": "rematch", "op": "accept", "offer": mine["offer"]})  # too late
    assert "closed: it was withdrawn" in (await bob.next("refused"))["text"]
    assert len(table.channel.threads) == 1


async def test_strangers_forged_and_repeated_rematch_messages_change_nothing(
    ended: Ended,
) -> None:
    table = ended.table
    alice, bob = await ended.page(table.alice), await ended.page(table.bob)
    eve = await ended.page(table.eve)
    before = await ended.stored()
    await eve.send({"type": "rematch", "op": "ask"})
    assert "only the players of this match" in (await eve.next("refused"))["text"]
    for bad in (
        {"type": "rematch"},
        {"type": "rematch", "op": "maybe"},
        {"type": "rematch", "op": "accept"},
        {"type": "rematch", "op": "accept", "offer": "1"},
        {"type": "rematch", "op": "accept", "offer": True},
    ):
        await bob.send(bad)
        assert "did not understand" in (await bob.next("refused"))["text"]
    await bob.send({"type": "rematch", "op": "accept", "offer": 9999})
    assert "no longer open" in (await bob.next("refused"))["text"]
    assert await ended.stored() == before

    await alice.send({"type": "rematch", "op": "ask"})
    offer = (await rematch_shown(alice, lambda r: r["withdraw"]))["offer"]
    await until(lambda: len(ended.offers()) == 1, "the offer in the thread")
    asked = await ended.stored()
    await alice.send({"type": "rematch", "op": "ask"})  # delivered twice
    assert "already asked" in (await alice.next("refused"))["text"]
    await alice.send({"type": "rematch", "op": "accept", "offer": offer})  # her own offer
    assert "not addressed to you" in (await alice.next("refused"))["text"]
    for op in ("accept", "decline"):  # eve is not asked: nor may she decline for bob
        await eve.send({"type": "rematch", "op": op, "offer": offer})
        assert "not addressed to you" in (await eve.next("refused"))["text"]
    assert await ended.stored() == asked

    yes = {"type": "rematch", "op": "accept", "offer": offer}
    await bob.send(yes)
    await bob.send(yes)  # delivered twice: one rematch
    assert "closed: the rematch is on" in (await bob.next("refused"))["text"]
    await until(lambda: len(table.channel.threads) == 2, "the rematch's thread")
    assert len(ended.bot.games.live_matches()) == 1


async def test_where_the_bot_only_answers_the_page_points_to_the_boards_button(
    ended: Ended,
) -> None:
    """With no thread to post an offer in (a match played through interactions), the
    page's Rematch is refused and sends the player to the final board's button."""
    ended.bot.live_board.posts = lambda live: False
    alice = await ended.page(ended.table.alice)
    before = await ended.stored()
    await alice.send({"type": "rematch", "op": "ask"})
    assert "press Rematch on its final board" in (await alice.next("refused"))["text"]
    assert await ended.stored() == before
    assert await ended.bot.env.rematches.waiting_offer(ended.live) is None


async def test_an_answer_in_another_process_reaches_this_ones_pages(
    ended: Ended, bot_config: Config
) -> None:
    """Two processes on one database: the offer asked on a page this bot serves, Bob's
    decline handled by another process's service. This bot's pages see it at their next
    look at storage, and Bob's press here, racing, is told what became of the offer."""
    table = ended.table
    alice, bob = await ended.page(table.alice), await ended.page(table.bob)
    await alice.send({"type": "rematch", "op": "ask"})
    offer = (await rematch_shown(alice, lambda r: r["withdraw"]))["offer"]
    await until(lambda: len(ended.offers()) == 1, "the offer in the thread")
    other = await Env.open(bot_config)
    try:
        there = await other.games.current(ended.live.id)
        by = Occupant(table.bob.id, "bob")
        assert await other.rematches.answer(there, offer, by, "decline") == "declined"
    finally:
        await other.close()
    await bob.send({"type": "rematch", "op": "accept", "offer": offer})
    assert "closed: it was declined by bob" in (await bob.next("refused"))["text"]
    await ended.bot.live_board.follow_once()
    mine = await rematch_shown(alice, lambda r: "declined" in r["text"])
    assert "declined by bob" in mine["text"] and not mine["ask"]
    await alice.send({"type": "rematch", "op": "ask"})
    assert "already asked for: it was declined by bob" in (await alice.next("refused"))["text"]
    assert len(table.channel.threads) == 1
