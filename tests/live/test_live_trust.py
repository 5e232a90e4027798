"""The live board trusts nothing a page says: the person is whoever Discord says the
access token belongs to, the instance must be one Discord knows and have them in it,
and every tap is checked as a button press is. Each forged, stale, repeated, strange or
oversized message is refused with a reason and changes nothing: not the stored match,
not the thread's board."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
from support.flying import first_turn_flown, match_in
from support.live import Discord, Page, live_server, opened, until
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from bot.live.discord_api import Instance
from bot.services.live import LiveMatch


@dataclass
class Scene:
    bot: CrosshairsBot
    table: Table
    thread: Any
    live: LiveMatch
    discord: Discord
    address: str

    def token(self, member: Any) -> str:
        return self.discord.token_for(member.id, member.name)

    def mover(self) -> Any:
        return self.table.member(self.live.user_to_move())

    def other(self) -> Any:
        mover = self.mover()
        return self.table.bob if mover is self.table.alice else self.table.alice

    async def settled(self) -> None:
        """Wait until the thread's board shows the match as it is (it is drawn after
        the tap's answer, as after a button's)."""
        for _ in range(2400):
            if await self.bot.games.boards.shown(self.live.id) == self.live.ply:
                return
            await asyncio.sleep(0.05)
        raise AssertionError("the thread's board never caught up")

    async def stored(self) -> tuple[int, int | None, str]:
        """What must not change: the steps stored, the ply the thread's board shows,
        and its words."""
        steps = await self.bot.games.repo.steps(self.live.id)
        shown = await self.bot.games.boards.shown(self.live.id)
        return len(steps), shown, board_message(self.thread).content


@pytest.fixture
async def scene(simcord_env: Any, simcord_bot: CrosshairsBot) -> AsyncIterator[Scene]:
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    live = await match_in(simcord_bot, thread)
    discord = Discord()
    people = frozenset({table.alice.id, table.bob.id, table.eve.id})
    discord.instances["here"] = Instance("here", table.guild.id, thread.id, people)
    async with live_server(simcord_bot, discord) as address:
        yield Scene(simcord_bot, table, thread, live, discord, address)


def first_step(live: LiveMatch) -> str:
    return live.game.legal_steps()[0].token


async def test_a_forged_instance_is_refused(scene: Scene) -> None:
    before = await scene.stored()
    async with opened(scene.address, scene.token(scene.mover()), "forged") as (_page, first):
        assert first["type"] == "refused" and first["fatal"]
        assert "no such live board" in first["text"]
    assert await scene.stored() == before


async def test_a_token_for_someone_not_in_the_instance_is_refused(
    scene: Scene, simcord_env: Any
) -> None:
    stranger = scene.table.guild.add_member(simcord_env.create_user("mallory"))
    before = await scene.stored()
    async with opened(scene.address, scene.token(stranger), "here") as (_page, first):
        assert first["type"] == "refused" and first["fatal"]
        assert "not in this live board" in first["text"]
    async with opened(scene.address, "a-token-discord-never-gave", "here") as (_page, first):
        assert first["type"] == "refused" and "does not know this sign-in" in first["text"]
    assert await scene.stored() == before


async def test_a_forged_user_id_is_ignored(scene: Scene) -> None:
    """The page of the player not to move claims to be the one to move: it is who its
    token says, and its tap is refused as theirs would be."""
    mover, other = scene.mover(), scene.other()
    before = await scene.stored()
    async with opened(
        scene.address, scene.token(other), "here", user_id=str(mover.id), user=mover.name
    ) as (page, first):
        assert first["type"] == "welcome" and first["you"] == other.name
        state = await page.next("state")
        assert state["choices"] is None  # not their turn: nothing to tap
        await page.tap(state, [first_step(scene.live)])
        refused = await page.next("refused")
        assert "not your turn" in refused["text"]
    assert await scene.stored() == before


async def test_a_strangers_tap_is_refused(scene: Scene) -> None:
    eve = scene.table.eve
    before = await scene.stored()
    async with opened(scene.address, scene.token(eve), "here") as (page, _first):
        state = await page.next("state")
        assert state["seated"] is False and state["choices"] is None
        await page.tap(state, [first_step(scene.live)])
        assert "you are not playing" in (await page.next("refused"))["text"]
        for kind in ("draw", "resign"):
            await page.send({"type": kind})
            assert "not playing" in (await page.next("refused"))["text"]
    assert await scene.stored() == before


async def test_a_tap_delivered_twice_and_a_tap_for_a_stale_ply(scene: Scene) -> None:
    live = scene.live
    first_mover, second = scene.mover(), scene.other()
    async with opened(scene.address, scene.token(first_mover), "here") as (page, _first):
        state = await page.next("state")
        token = first_step(live)
        assert any(token in p["tokens"] for p in state["choices"]["places"])
        tap = {"type": "play", "ply": state["ply"], "tokens": [token]}
        await page.send(tap)
        await page.send(tap)  # delivered twice
        played = refused = False  # in either order: the play is shown by its event
        while not (played and refused):
            said = await page.next()
            played = played or (said["type"] == "state" and said["ply"] == 1)
            refused = refused or said["type"] == "refused"
        await until(lambda: live.ply == 1, "the tap played")
        assert (await scene.stored())[0] == 1  # played once
        # the other player flies; then a tap for the ply the page showed before
        async with opened(scene.address, scene.token(second), "here") as (theirs, _):
            theirs_now = await theirs.next("state")
            while live.user_to_move() == second.id:
                await theirs.tap(theirs_now, [first_step(live)])
                theirs_now = await theirs.state_at(theirs_now["ply"] + 1)
        now = await page.state_at(live.ply)
        assert now["choices"] is not None and now["ply"] > 2
        await scene.settled()
        before = await scene.stored()
        await page.send({"type": "play", "ply": 2, "tokens": [first_step(live)]})
        assert "out of date" in (await page.next("refused"))["text"]
        assert await scene.stored() == before


async def test_an_oversized_or_malformed_message_is_refused_and_the_page_goes_on(
    scene: Scene,
) -> None:
    before = await scene.stored()
    async with opened(scene.address, scene.token(scene.mover()), "here") as (page, _first):
        state = await page.next("state")
        huge = {"type": "play", "ply": state["ply"], "tokens": ["x" * 100_000]}
        await page.send(huge)
        assert "too long" in (await page.next("refused"))["text"]
        for bad in (
            "not json",
            [1, 2],
            {"type": "play", "ply": "0", "tokens": [first_step(scene.live)]},
            {"type": "play", "ply": state["ply"], "tokens": ["a3NE; DROP TABLE"]},
            {"type": "play", "ply": state["ply"], "tokens": []},
            {"type": "watch", "match": True},
            {"type": "shutdown"},
        ):
            await page.send(bad)
            assert (await page.next("refused"))["type"] == "refused"
        await page.send({"type": "ping"})
        assert (await page.next("pong"))["type"] == "pong"  # the socket is still open
    assert await scene.stored() == before


async def test_a_socket_closed_mid_turn_is_harmless(scene: Scene) -> None:
    """The page goes while its tap is on the way: the tap is played whole (or not at
    all), published once, and the thread's board follows; a page opened again shows
    the match as stored."""
    live = scene.live
    mover, other = scene.mover(), scene.other()
    async with opened(scene.address, scene.token(mover), "here") as (page, _first):
        state = await page.next("state")
        await page.tap(state, [first_step(live)])
    await until(lambda: live.ply == 1, "the tap played")
    await until(lambda: scene.bot.live_board.watching(live.id) == [], "the page gone")
    await scene.settled()
    stored = await scene.stored()
    assert stored[:2] == (1, 1)  # stored once, and the thread's board shows it
    async with opened(scene.address, scene.token(other), "here") as (page, _first):
        again = await page.next("state")
        assert again["ply"] == 1 and again["choices"] is not None
    assert await scene.stored() == stored


async def test_nothing_of_another_server_is_visible(scene: Scene, simcord_env: Any) -> None:
    elsewhere = simcord_env.create_guild()
    channel = elsewhere.create_text_channel("hangar")
    elsewhere.add_member(scene.table.alice)
    scene.discord.instances["there"] = Instance(
        "there", elsewhere.id, channel.id, frozenset({scene.table.alice.id})
    )
    before = await scene.stored()
    async with opened(scene.address, scene.token(scene.table.alice), "there") as (page, first):
        assert first["type"] == "welcome" and first["tables"] == []
        await page.send({"type": "watch", "match": scene.live.id})
        refused = await page.next("refused")
        assert f"there is no match #{scene.live.id} here" in refused["text"]
        await page.tap({"ply": 0}, [first_step(scene.live)])
        assert "open a match first" in (await page.next("refused"))["text"]
    assert await scene.stored() == before


async def _match_in_hangar(scene: Scene, challenger: Any, opponent: Any) -> LiveMatch:
    hangar = scene.table.guild.create_text_channel(f"hangar-{challenger.name}")
    result = await challenger.slash(
        hangar, "crosshairs challenge", opponent=opponent, clouds="none"
    )
    assert result.response is not None
    await opponent.click(result.response.message, label="Accept")
    return await match_in(scene.bot, hangar.threads[-1])


async def test_the_players_own_matches_elsewhere_in_the_server_are_listed_not_others(
    scene: Scene,
) -> None:
    """The App Launcher opens the live board in one channel; a player's own matches in
    the server's other channels are listed too (after that channel's) and played there;
    other people's matches elsewhere are neither listed nor opened."""
    alice, bob, eve = scene.table.alice, scene.table.bob, scene.table.eve
    hers = await _match_in_hangar(scene, eve, alice)
    theirs = await _match_in_hangar(scene, bob, eve)
    games = scene.bot.games
    while hers.user_to_move() == eve.id:  # eve flies first: alice's turn comes
        update = await games.play(hers.id, eve.id, [first_step(hers)])
        await scene.bot.env.life.after(update)
    before = await scene.stored()
    async with opened(scene.address, scene.token(alice), "here") as (page, first):
        listed = [(t["match"], t["yours"], t["here"]) for t in first["tables"]]
        assert listed == [(scene.live.id, True, True), (hers.id, True, False)]
        await page.next("state")  # the channel's own match is shown first
        await page.send({"type": "watch", "match": theirs.id})
        refused = await page.next("refused")
        assert f"there is no match #{theirs.id} here" in refused["text"]
        await page.send({"type": "watch", "match": hers.id})
        state = await page.state_at(hers.ply)
        assert state["match"] == hers.id and state["choices"] is not None
        steps = len(await games.repo.steps(hers.id))
        await page.tap(state, [first_step(hers)])
        await page.state_at(steps + 1)
    assert len(await games.repo.steps(hers.id)) == steps + 1
    assert len(await games.repo.steps(theirs.id)) == 0
    assert await scene.stored() == before  # the channel's own match untouched


async def test_a_takeback_agreed_in_the_thread_shows_on_an_open_page_at_once(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """A takeback is one of the match's actions, published by its life: the page
    watching the match goes back with the thread's board, not at the next action."""
    table, thread, live, asker, other = await first_turn_flown(
        simcord_env, simcord_bot, rated=False
    )
    flown = live.ply
    discord = Discord()
    discord.instances["here"] = Instance(
        "here", table.guild.id, thread.id, frozenset({asker.id, other.id})
    )
    async with (
        live_server(simcord_bot, discord) as address,
        opened(address, discord.token_for(other.id, other.name), "here") as (page, _first),
    ):
        assert (await page.state_at(flown))["choices"] is not None  # other's turn now
        asked = await asker.slash(thread, "crosshairs takeback")
        assert asked.response is not None
        request = next(m for m in thread.history() if m.id == asked.response.message.id)
        await other.click(request, label="Accept")
        back = await page.state_at(0)
        assert back["choices"] is None  # the asker's turn again
        assert back["status"] == live.status_line()
    assert live.ply == 0 and len(await simcord_bot.games.repo.steps(live.id)) == 0


async def test_a_page_opened_before_the_challenge_shows_the_match_once_it_begins(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """The App Launcher is opened first, then the challenge accepted: the open page lists
    the new match and shows it; a page in another server hears nothing of it."""
    table = Table(simcord_env)
    elsewhere = simcord_env.create_guild()
    hangar = elsewhere.create_text_channel("hangar")
    elsewhere.add_member(table.alice)
    discord = Discord()
    everyone = frozenset({table.alice.id, table.bob.id})
    discord.instances["channel"] = Instance("channel", table.guild.id, table.channel.id, everyone)
    discord.instances["there"] = Instance("there", elsewhere.id, hangar.id, everyone)
    bob, alice = (discord.token_for(p.id, p.name) for p in (table.bob, table.alice))
    async with (
        live_server(simcord_bot, discord) as address,
        opened(address, bob, "channel") as (page, first),
        opened(address, alice, "there") as (away, away_first),
    ):
        assert first["tables"] == [] and away_first["tables"] == []
        thread = await table.start(clouds="none")
        live = await match_in(simcord_bot, thread)
        listed = await page.next("tables")
        assert [(t["match"], t["yours"], t["here"]) for t in listed["tables"]] == [
            (live.id, True, True)
        ]
        state = await page.next("state")
        assert state["match"] == live.id and state["seated"]
        await away.send({"type": "ping"})
        await away.next("pong")
        assert [m["type"] for m in away.received] == ["welcome", "lobby", "pong"]


async def test_a_stopping_bot_closes_the_pages_sockets(scene: Scene) -> None:
    """A page still open when the bot stops is told it is going away (it reconnects to
    the next process), and does not hold the stop for aiohttp's minute."""
    server = scene.bot.live_server
    assert server is not None
    async with aiohttp.ClientSession() as http, http.ws_connect(scene.address + "api/live") as ws:
        page = Page(ws)
        hello = {"type": "hello", "access_token": scene.token(scene.mover()), "instance_id": "here"}
        await page.send(hello)
        await page.next("state")
        await asyncio.wait_for(server.close(), 30)
        closed = await ws.receive(timeout=10)
        while closed.type is aiohttp.WSMsgType.TEXT:  # what was on its way before
            closed = await ws.receive(timeout=10)
        assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == 1001


async def test_a_match_no_longer_in_memory_is_listed_and_played(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """Matches are loaded when touched (MATCHES_IN_MEMORY): a correspondence game left
    idle long enough is in storage only, and its table is still offered and playable."""
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    live = await match_in(simcord_bot, thread)
    match_id, ply, mover = live.id, live.ply, table.member(live.user_to_move())
    step = first_step(live)
    games = simcord_bot.games
    games.live.drop(match_id)  # as when the least recently used one goes
    del live  # and nothing of the test holds it either
    assert match_id not in games.live
    discord = Discord()
    people = frozenset({table.alice.id, table.bob.id})
    discord.instances["here"] = Instance("here", table.guild.id, thread.id, people)
    async with (
        live_server(simcord_bot, discord) as address,
        opened(address, discord.token_for(mover.id, mover.name), "here") as (page, first),
    ):
        assert [t["match"] for t in first["tables"]] == [match_id]
        await page.send({"type": "watch", "match": match_id})
        state = await page.state_at(ply)
        assert state["choices"] is not None  # the mover may play it
        await page.tap(state, [step])
        await page.state_at(ply + 1)
    assert len(await games.repo.steps(match_id)) == ply + 1
