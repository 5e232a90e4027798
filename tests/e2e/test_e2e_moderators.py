"""What moderators do to a match, against the real bot: a deleted board message is posted
again at the next move; a deleted thread or channel, or the bot removed from the server,
calls the match off unrated (no longer listed, stored abandoned) and nothing more is
posted; localcord's REST side answers as Discord does afterwards."""

from __future__ import annotations

import asyncio

import aiohttp

from e2e.conftest import Local, stored_steps
from localcord import moderators
from localcord.autoplay import board_message, match_id, to_move
from localcord.client import reply
from localcord.records import Channel
from localcord.server import LocalDiscord
from storage.matches import MatchStatus


async def test_a_deleted_board_is_posted_again_at_the_next_move(local: Local) -> None:
    people, channel, world = local.people, local.channel, local.server.world
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(alice, channel, "crosshairs challenge", opponent=bob, planes=3)
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = await people.wait_thread(channel)
    board = board_message(people, thread)
    moderators.delete_message(world, board)
    pilot, offered = await to_move(people, thread, [alice, bob])
    await people.slash(pilot, thread, "crosshairs move", tokens=offered[0])
    # the board is drawn again after the move's answer
    again = await people.wait_for(
        thread, lambda m: any(a.filename == "board.png" for a in m.attachments)
    )
    assert again.id != board.id and not again.deleted
    assert [b["label"] for b in again.buttons()][:1] == ["Play"]


async def test_deleted_channels_and_a_removed_bot_answer_as_discord() -> None:
    server = LocalDiscord()
    world = server.world
    channel = world.add_channel("gone")
    other = world.add_channel("still here")
    thread = world.add_thread(other, "match", world.bot)
    heard: list[str] = []
    world.dispatch = lambda event, data: heard.append(event)
    await server.start()
    auth = {"Authorization": "Bot localcord-test-token"}
    try:
        async with aiohttp.ClientSession(server.base_url, headers=auth) as http:
            moderators.delete_channel(world, channel)
            moderators.delete_channel(world, thread)
            for gone in (channel, thread):
                async with http.post(
                    f"/api/v10/channels/{gone.id}/messages", json={"content": "hi"}
                ) as response:
                    assert response.status == 404
                    assert (await response.json())["code"] == 10003
            moderators.remove_member(world, world.add_user("leaver"))
            moderators.remove_bot(world)
            async with http.post(
                f"/api/v10/channels/{other.id}/messages", json={"content": "hi"}
            ) as response:
                assert response.status == 403
                assert (await response.json())["code"] == 50001
    finally:
        await server.stop()
    assert heard == ["CHANNEL_DELETE", "THREAD_DELETE", "GUILD_MEMBER_REMOVE", "GUILD_DELETE"]


async def _duel(local: Local) -> Channel:
    people, channel = local.people, local.channel
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(alice, channel, "crosshairs challenge", opponent=bob, planes=3)
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    return await people.wait_thread(channel)


async def _called_off(local: Local, where: Channel, match: int, since: int) -> None:
    """Wait (bounded) until the bot no longer lists the match, then check it is stored
    called off, unrated, and that the bot posted nothing after ``since``."""
    viewer = local.people.join("viewer")
    async with asyncio.timeout(30):
        while "No match is being flown" not in reply(
            await local.people.slash(viewer, where, "crosshairs games")
        ):
            await asyncio.sleep(0.2)
    await local.bot.stop()
    _, status = await stored_steps(local, match)
    assert status is MatchStatus.ABANDONED
    posted = [
        r
        for r in local.server.world.requests[since:]
        if r.method in ("POST", "PATCH") and r.path.startswith("/api/v10/channels/")
    ]
    assert posted == []


async def test_a_deleted_thread_calls_the_match_off_unrated(local: Local) -> None:
    thread = await _duel(local)
    match = match_id(board_message(local.people, thread))
    since = len(local.server.world.requests)
    moderators.delete_channel(local.server.world, thread)
    await _called_off(local, local.channel, match, since)


async def test_a_deleted_channel_calls_its_matches_off(local: Local) -> None:
    thread = await _duel(local)
    match = match_id(board_message(local.people, thread))
    world = local.server.world
    elsewhere = world.add_channel("elsewhere")
    since = len(world.requests)
    moderators.delete_channel(world, local.channel)
    await _called_off(local, elsewhere, match, since)


async def test_the_bot_removed_from_the_server_stops_its_matches(local: Local) -> None:
    thread = await _duel(local)
    match = match_id(board_message(local.people, thread))
    since = len(local.server.world.requests)
    moderators.remove_bot(local.server.world)
    await _called_off(local, local.channel, match, since)
