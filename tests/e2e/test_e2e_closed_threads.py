"""A moderator archives or locks a match's thread, against the real bot: the bot reopens
it when it may; when it may not, the match pauses (moves refused, clock stopped, the
reason said in the parent channel) and goes on with the time left once a moderator
reopens the thread. localcord refuses the bot's calls in such a thread as Discord does."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import aiohttp

from e2e.conftest import Local
from localcord import moderators, permissions
from localcord.autoplay import board_message, match_id, to_move
from localcord.client import reply
from localcord.records import Channel, Json, User
from localcord.server import LocalDiscord
from localcord.state import World
from storage.db import Database
from storage.matches import MatchRepo

CLOCK = 3600


async def _until(world: World, done: Callable[[], bool]) -> None:
    async with asyncio.timeout(30):
        while not done():
            await asyncio.wait_for(world.changed(None).wait(), 30)


async def _duel(local: Local) -> tuple[Channel, list[User]]:
    people, channel = local.people, local.channel
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(
        alice, channel, "crosshairs challenge", opponent=bob, planes=3, clock=CLOCK
    )
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    return await people.wait_thread(channel), [alice, bob]


async def _deadline(local: Local, match: int) -> float | None:
    async with await Database.open(local.bot.database) as db:
        return (await MatchRepo(db).get(match)).turn_deadline


async def test_the_bot_reopens_an_archived_or_locked_thread_it_may(local: Local) -> None:
    thread, players = await _duel(local)
    world = local.server.world
    for locked in (False, True):
        moderators.archive_thread(world, thread, locked=locked)
        await _until(world, lambda: not (thread.archived or thread.locked))
    pilot, offered = await to_move(local.people, thread, players)
    answer = await local.people.slash(pilot, thread, "crosshairs move", tokens=offered[0])
    assert "paused" not in reply(answer)
    assert not any("paused" in m.content for m in world.history(local.channel))


async def test_a_thread_the_bot_may_not_reopen_pauses_the_match(local: Local) -> None:
    thread, players = await _duel(local)
    world, people = local.server.world, local.people
    match = match_id(board_message(people, thread))
    before = await _deadline(local, match)
    assert before is not None
    permissions.deny(world, local.channel, "manage_threads")
    archived_at = time.time()  # the pause comes after: the time left is at most this
    moderators.archive_thread(world, thread, locked=True)
    said = await people.wait_for(local.channel, lambda m: "paused" in m.content)
    assert "Manage Threads" in said.content and f"<#{thread.id}>" in said.content
    assert said.allowed_mentions == {"parse": []}
    assert thread.locked  # not retried: the bot left it as the moderator did
    pilot, offered = await to_move(people, thread, players)
    refused = await people.slash(pilot, thread, "crosshairs move", tokens=offered[0])
    assert "paused" in reply(refused)
    assert await _deadline(local, match) is None  # no clock runs it down meanwhile
    moderators.set_thread_state(world, thread, archived=False, locked=False)
    await people.wait_for(thread, lambda m: "open again" in m.content)
    after = await _deadline(local, match)
    # the player has the time they had left, counted from the reopening
    assert after is not None and after >= before and after <= time.time() + (before - archived_at)
    moved = await people.slash(pilot, thread, "crosshairs move", tokens=offered[0])
    assert "paused" not in reply(moved)


async def test_archived_and_locked_threads_answer_as_discord() -> None:
    server = LocalDiscord()
    world = server.world
    channel = world.add_channel("dogfights")
    thread = world.add_thread(channel, "match", world.bot)
    message = world.post(thread, world.bot, content="board")
    heard: list[tuple[bool, bool]] = []

    def hear(event: str, data: Json) -> None:
        if event == "THREAD_UPDATE":
            heard.append((data["thread_metadata"]["archived"], data["thread_metadata"]["locked"]))

    world.dispatch = hear
    await server.start()
    auth = {"Authorization": "Bot localcord-test-token"}
    messages = f"/api/v10/channels/{thread.id}/messages"
    try:
        async with aiohttp.ClientSession(server.base_url, headers=auth) as http:
            moderators.archive_thread(world, thread)
            async with http.patch(f"{messages}/{message.id}", json={"content": "x"}) as answer:
                assert (answer.status, (await answer.json())["code"]) == (400, 50083)
            async with http.post(messages, json={"content": "hi"}) as answer:
                assert answer.status == 200 and not thread.archived  # posting unarchived it
            moderators.archive_thread(world, thread, locked=True)
            permissions.deny(world, channel, "manage_threads")
            heard.clear()
            async with http.post(messages, json={"content": "hi"}) as answer:
                assert (answer.status, (await answer.json())["code"]) == (400, 160005)
            reopen = {"archived": False, "locked": False}
            async with http.patch(f"/api/v10/channels/{thread.id}", json=reopen) as answer:
                assert (answer.status, (await answer.json())["code"]) == (403, 50013)
            permissions.allow(world, channel, "manage_threads")
            heard.clear()
            async with http.patch(f"/api/v10/channels/{thread.id}", json=reopen) as answer:
                body = await answer.json()
                assert answer.status == 200 and not body["thread_metadata"]["locked"]
    finally:
        await server.stop()
    assert heard == [(False, False)]
