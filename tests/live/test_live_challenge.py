"""A new challenge from the live board (the App Launcher's first look): asked of someone
in the same live board, answered on the page or with the posted challenge's buttons, one
service behind both. The challenge is posted in the channel pinging only the one
challenged; accepted, the match gets its thread and both pages go to it. A stranger's, a
forged, a malformed or a repeated message is refused and changes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from support.flying import match_in
from support.live import Discord, Page, duel_on_the_live_board, live_server, opened, until
from support.replies import answer
from support.tables import Table

from bot.discord_app import CrosshairsBot
from bot.live.discord_api import Instance
from bot.services.challenges import WAITS
from bot.ui import challenges

CHALLENGES = "challenges you!"
# what a challenge's message says once settled (its first line, the ping, is gone)
SETTLED = ("The match is on", "Challenge declined.", "Challenge withdrawn.")


@dataclass
class Lobby:
    """A server's channel with alice, bob and eve, and a live board opened in it (or in
    a DM with them, instance ``dm``; or in another server, instance ``there``)."""

    bot: CrosshairsBot
    table: Table
    discord: Discord
    address: str
    stack: AsyncExitStack

    async def page(self, member: Any, instance: str = "channel") -> Page:
        token = self.discord.token_for(member.id, member.name)
        page, welcome = await self.stack.enter_async_context(opened(self.address, token, instance))
        assert welcome["type"] == "welcome"
        return page

    def posted(self) -> list[Any]:
        """The challenges posted in the channel, as they are now."""
        return [
            m
            for m in self.table.channel.history()
            if any(said in m.content for said in (CHALLENGES, *SETTLED))
        ]

    async def stored(self) -> tuple[int, int, int]:
        """What a refused message must not change: the matches, the threads, the
        channel's messages."""
        played = await self.bot.games.active(guild_id=self.table.guild.id, everywhere=True)
        return len(played), len(self.table.channel.threads), len(self.table.channel.history())


@pytest.fixture
async def lobby(simcord_env: Any, simcord_bot: CrosshairsBot) -> AsyncIterator[Lobby]:
    table = Table(simcord_env)
    elsewhere = simcord_env.create_guild()
    hangar = elsewhere.create_text_channel("hangar")
    for member in (table.alice, table.bob, table.eve):
        elsewhere.add_member(member)
    discord = Discord()
    people = frozenset({table.alice.id, table.bob.id, table.eve.id})
    discord.instances["channel"] = Instance("channel", table.guild.id, table.channel.id, people)
    discord.instances["there"] = Instance("there", elsewhere.id, hangar.id, people)
    discord.instances["dm"] = Instance("dm", None, 4242, people)
    async with AsyncExitStack() as stack:
        address = await stack.enter_async_context(live_server(simcord_bot, discord))
        yield Lobby(simcord_bot, table, discord, address, stack)


async def lobby_where(page: Page, matches: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The page's lobby, once one is sent that ``matches``."""
    while True:
        found = await page.next("lobby")
        if matches(found):
            return found


def someone(name: str) -> Callable[[dict[str, Any]], bool]:
    return lambda lobby: name in [p["name"] for p in lobby["people"]]


async def id_of(page: Page, name: str) -> str:
    """The id ``page`` is offered to challenge ``name`` by."""
    found = await lobby_where(page, someone(name))
    return str(next(p["id"] for p in found["people"] if p["name"] == name))


def asking(opponent: object, **terms: object) -> dict[str, object]:
    said: dict[str, object] = {"type": "challenge", "op": "ask", "opponent": opponent}
    return {**said, "ruleset": "2026", "planes": 5, "rated": True, **terms}


async def test_asked_and_accepted_on_the_live_board(lobby: Lobby) -> None:
    table, bot = lobby.table, lobby.bot
    alice, bob = await lobby.page(table.alice), await lobby.page(table.bob)
    first = await alice.next("lobby")
    assert first["closed"] is None and first["rulesets"][0]["key"] == "2026"
    await alice.send(asking(await id_of(alice, "bob"), ruleset="classic", planes=4, rated=False))

    theirs = (await lobby_where(bob, lambda lb: bool(lb["challenges"])))["challenges"]
    assert len(theirs) == 1 and theirs[0]["answer"] and not theirs[0]["withdraw"]
    assert "alice challenges you" in theirs[0]["text"]
    assert "Classic (2010)" in theirs[0]["text"] and "4 planes each" in theirs[0]["text"]
    mine = (await lobby_where(alice, lambda lb: bool(lb["challenges"])))["challenges"]
    assert mine[0]["withdraw"] and "waiting for their answer" in mine[0]["text"]
    (posted,) = lobby.posted()  # in the channel, pinging only bob
    assert table.bob.mention in posted.content and table.alice.mention not in posted.content
    assert "unrated" in posted.content

    await bob.send({"type": "challenge", "op": "accept", "challenge": theirs[0]["challenge"]})
    states = [await page.next("state") for page in (alice, bob)]
    await until(lambda: table.channel.threads, "the match's thread")
    live = await match_in(bot, table.channel.threads[-1])
    assert [s["match"] for s in states] == [live.id, live.id] and states[1]["seated"]
    assert [e.user_id for e in live.seats] == [table.alice.id, table.bob.id]
    assert live.game.settings.ruleset == "classic" and live.game.settings.planes == 4
    assert await bot.env.ratings.chosen_unrated(live.id)
    await until(lambda: lobby.posted()[0].components == [], "the challenge settled")
    settled = lobby.posted()[0]
    assert "The match is on" in settled.content and table.channel.threads[-1].mention in (
        settled.content
    )
    assert (await lobby_where(bob, lambda lb: not lb["challenges"]))["challenges"] == []


async def test_asked_with_the_command_and_declined_on_the_page(lobby: Lobby) -> None:
    table = lobby.table
    bob = await lobby.page(table.bob)
    await table.challenge()
    theirs = (await lobby_where(bob, lambda lb: bool(lb["challenges"])))["challenges"]
    await bob.send({"type": "challenge", "op": "decline", "challenge": theirs[0]["challenge"]})
    await until(lambda: lobby.posted()[0].components == [], "the challenge settled")
    assert "Challenge declined." in lobby.posted()[0].content
    assert (await lobby_where(bob, lambda lb: not lb["challenges"]))["challenges"] == []
    assert table.channel.threads == []


async def test_asked_on_the_page_and_accepted_with_the_button(lobby: Lobby) -> None:
    table, bot = lobby.table, lobby.bot
    alice, bob = await lobby.page(table.alice), await lobby.page(table.bob)
    await alice.send(asking(await id_of(alice, "bob")))
    await until(lobby.posted, "the challenge in the channel")
    await table.bob.click(lobby.posted()[0], label="Accept")
    live = await match_in(bot, table.channel.threads[-1])
    for page in (alice, bob):
        assert (await page.next("state"))["match"] == live.id
    assert not await bot.env.ratings.chosen_unrated(live.id)
    assert "The match is on" in lobby.posted()[0].content


async def test_withdrawn_on_the_page(lobby: Lobby) -> None:
    table = lobby.table
    alice, bob = await lobby.page(table.alice), await lobby.page(table.bob)
    await alice.send(asking(await id_of(alice, "bob")))
    mine = (await lobby_where(alice, lambda lb: bool(lb["challenges"])))["challenges"]
    await alice.send({"type": "challenge", "op": "decline", "challenge": mine[0]["challenge"]})
    await lobby_where(bob, lambda lb: not lb["challenges"])
    await until(lambda: lobby.posted()[0].components == [], "the challenge settled")
    assert "Challenge withdrawn." in lobby.posted()[0].content
    # the button pressed late is told what became of it
    await bob.send({"type": "challenge", "op": "accept", "challenge": mine[0]["challenge"]})
    assert "withdrawn" in (await bob.next("refused"))["text"]


async def test_strangers_forged_malformed_and_repeated_messages_change_nothing(
    lobby: Lobby,
) -> None:
    table = lobby.table
    alice, bob = await lobby.page(table.alice), await lobby.page(table.bob)
    bob_id = await id_of(alice, "bob")
    before = await lobby.stored()

    async def refused(page: Page, message: object, why: str) -> None:
        await page.send(message)
        said = await page.next("refused")
        assert why in said["text"], said
        assert await lobby.stored() == before

    eve_id = str(table.eve.id)  # in the instance, but with no page open: not vouched for
    await refused(alice, asking(eve_id), "not in this live board")
    await refused(alice, asking(str(table.alice.id)), "not in this live board")
    for bad in (
        asking(int(bob_id)),
        asking(bob_id, planes=9),
        asking(bob_id, planes=True),
        asking(bob_id, ruleset="1914"),
        asking(bob_id, rated="yes"),
        asking("0" + bob_id),
        asking("computer-godlike"),
        {"type": "challenge", "op": "accept", "challenge": "1"},
        {"type": "challenge", "op": "steal", "challenge": 1},
    ):
        await refused(alice, bad, "did not understand")
    await refused(bob, {"type": "challenge", "op": "accept", "challenge": 999}, "no longer open")

    await alice.send(asking(bob_id))
    await until(lobby.posted, "the challenge in the channel")
    before = await lobby.stored()
    number = (await lobby_where(bob, lambda lb: bool(lb["challenges"])))["challenges"][0][
        "challenge"
    ]
    eve = await lobby.page(table.eve)
    await refused(eve, {"type": "challenge", "op": "accept", "challenge": number}, "not addressed")
    await refused(eve, {"type": "challenge", "op": "decline", "challenge": number}, "not addressed")
    await refused(
        alice, {"type": "challenge", "op": "accept", "challenge": number}, "not addressed"
    )
    there = await lobby.page(table.bob, "there")  # the same person, another server's page
    await refused(there, {"type": "challenge", "op": "accept", "challenge": number}, "no longer")
    away = await lobby.page(table.alice, "there")  # eve's page is in another server's
    await refused(away, asking(eve_id), "not in this live board")

    # accepted twice at once (a double tap): one match
    accept = {"type": "challenge", "op": "accept", "challenge": number}
    await bob.send(accept)
    await bob.send(accept)
    assert "already been accepted" in (await bob.next("refused"))["text"]
    await until(lambda: table.channel.threads, "the match's thread")
    played = await lobby.bot.games.active(guild_id=table.guild.id, everywhere=True)
    assert len(played) == 1 and len(table.channel.threads) == 1


async def test_alone_on_the_page_against_the_computer(lobby: Lobby) -> None:
    """The App Launcher opened by one person: the computer is there to play at once, its
    seat named in the server's language (kept with the match, read by everyone)."""
    table, bot = lobby.table, lobby.bot
    alice = await lobby.page(table.alice)
    first = await alice.next("lobby")
    assert [p["name"] for p in first["people"]][:1] == ["🤖 Computer (easy)"]
    assert all(p["computer"] for p in first["people"])
    assert first["closed"] is None  # alone, yet a game to start
    guild = bot.get_guild(table.guild.id)
    assert guild is not None
    guild.preferred_locale = discord.Locale.german
    await alice.send(asking("computer-hard", rated=True))
    state = await alice.next("state")
    await until(lambda: table.channel.threads, "the match's thread")
    live = await match_in(bot, table.channel.threads[-1])
    assert state["match"] == live.id and state["seated"]
    assert [(e.user_id, e.strength) for e in live.seats] == [(table.alice.id, None), (None, "hard")]
    assert live.seats[1].name == "Computer (schwer)"
    assert await bot.env.ratings.chosen_unrated(live.id)  # never rated against the computer
    assert lobby.posted() == []  # nothing to answer: no challenge posted


async def test_a_dm_offers_no_challenge_from_the_page(lobby: Lobby) -> None:
    table = lobby.table
    alice, bob = await lobby.page(table.alice, "dm"), await lobby.page(table.bob, "dm")
    found = await lobby_where(alice, someone("bob"))
    assert "use /crosshairs challenge" in found["closed"]
    await bob.next("lobby")
    await alice.send(asking(found["people"][0]["id"]))
    assert "cannot be made from the live board here" in (await alice.next("refused"))["text"]
    assert lobby.posted() == []


async def test_a_challenge_outlives_a_restart_and_lapses_after_its_wait(
    simcord_env: Any, simcord_bot: CrosshairsBot, new_bot: Any, clock: Any
) -> None:
    """Stored, a challenge is answered with its button after a restart; one left a week
    unanswered lapses, and its button says so."""
    table = Table(simcord_env)
    first = await table.challenge()
    late = await table.challenge(planes=3)
    restarted = new_bot()
    await simcord_env.restart_bot(restarted)
    await table.bob.click(first, label="Accept")
    assert len(table.channel.threads) == 1
    live = await match_in(restarted, table.channel.threads[-1])
    assert [e.user_id for e in live.seats] == [table.alice.id, table.bob.id]
    clock.advance(WAITS + 1)
    lapsed = await table.bob.click(late, label="Accept")
    assert "lapsed" in answer(lapsed).content
    assert len(table.channel.threads) == 1


async def test_five_challenges_waiting_are_the_most_one_asks(lobby: Lobby) -> None:
    table = lobby.table
    alice, _bob = await lobby.page(table.alice), await lobby.page(table.bob)
    bob_id = await id_of(alice, "bob")
    for planes in (3, 4, 5, 6, 3):
        await alice.send(asking(bob_id, planes=planes))
    await until(lambda: len(lobby.posted()) == 5, "five challenges posted")
    await alice.send(asking(bob_id))
    assert "withdraw one first" in (await alice.next("refused"))["text"]
    assert len(lobby.posted()) == 5


def failing_posts(monkeypatch: pytest.MonkeyPatch, failures: list[Exception]) -> list[str]:
    """Discord answers the bot's next posts in a channel with ``failures``, one each
    (then takes them); returns what was tried, and makes the bot try again at once."""
    send = discord.PartialMessageable.send
    tried: list[str] = []

    async def failing(self: Any, *args: Any, **kwargs: Any) -> Any:
        tried.append(str(kwargs.get("nonce")))
        if failures:
            raise failures.pop(0)
        return await send(self, *args, **kwargs)

    monkeypatch.setattr(discord.PartialMessageable, "send", failing)
    monkeypatch.setattr(challenges, "POST_AGAIN", (0.05,) * 5)
    return tried


def error(status: int) -> discord.HTTPException:
    answer = SimpleNamespace(status=status, reason="Discord")
    if status >= 500:
        return discord.DiscordServerError(answer, "Service Unavailable")
    return discord.Forbidden(answer, "Missing Access")


async def test_a_challenge_discord_could_not_post_is_posted_once_it_is_back(
    lobby: Lobby, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = lobby.table
    tried = failing_posts(monkeypatch, [error(503), error(502)])
    alice, bob = await lobby.page(table.alice), await lobby.page(table.bob)
    await alice.send(asking(await id_of(alice, "bob")))
    theirs = (await lobby_where(bob, lambda lb: bool(lb["challenges"])))["challenges"]
    await until(lobby.posted, "the challenge posted once Discord is back")
    assert len(tried) == 3 and len(set(tried)) == 1  # one nonce: never posted twice
    (posted,) = lobby.posted()
    await bob.send({"type": "challenge", "op": "decline", "challenge": theirs[0]["challenge"]})
    await until(lambda: lobby.posted()[0].components == [], "the challenge settled")
    assert posted.id == lobby.posted()[0].id


async def test_a_challenge_discord_refuses_to_post_is_still_played_from_the_pages(
    lobby: Lobby, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = lobby.table
    tried = failing_posts(monkeypatch, [error(403)])
    alice, bob = await lobby.page(table.alice), await lobby.page(table.bob)
    await alice.send(asking(await id_of(alice, "bob")))
    theirs = (await lobby_where(bob, lambda lb: bool(lb["challenges"])))["challenges"]
    await bob.send({"type": "challenge", "op": "accept", "challenge": theirs[0]["challenge"]})
    assert (await bob.next("state"))["seated"]
    await asyncio.sleep(0.3)  # past the tries a post Discord could not take would get
    assert len(tried) == 1 and lobby.posted() == []
    assert len(table.channel.threads) == 1


async def test_asked_on_the_live_board_of_a_match_thread(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """Opened in a match's thread, the live board posts a challenge there, and its match
    gets a thread of its own in the channel the first hangs off."""
    table, thread, _live, discord_ = await duel_on_the_live_board(simcord_env, simcord_bot)
    async with AsyncExitStack() as stack:
        address = await stack.enter_async_context(live_server(simcord_bot, discord_))
        pages = []
        for member in (table.bob, table.eve):
            token = discord_.token_for(member.id, member.name)
            page, _welcome = await stack.enter_async_context(opened(address, token, "duel"))
            pages.append(page)
        bob, eve = pages
        await bob.send(asking(await id_of(bob, "eve"), planes=3))
        theirs = (await lobby_where(eve, lambda lb: bool(lb["challenges"])))["challenges"]
        (posted,) = [m for m in thread.history() if CHALLENGES in m.content]
        assert table.eve.mention in posted.content
        await eve.send({"type": "challenge", "op": "accept", "challenge": theirs[0]["challenge"]})
        await until(lambda: len(table.channel.threads) == 2, "the new match's thread")
        second = await match_in(simcord_bot, table.channel.threads[-1])
        assert [e.user_id for e in second.seats] == [table.bob.id, table.eve.id]
        assert second.record.channel_id == table.channel.id
