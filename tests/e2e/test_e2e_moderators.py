"""What moderators do to a match, against the real bot: a deleted board message is posted
again at the next move; the gateway events of localcord's moderators reach the bot and
its REST side answers as Discord does afterwards."""

from __future__ import annotations

import aiohttp

from e2e.conftest import Local
from localcord import moderators
from localcord.autoplay import board_message, to_move
from localcord.server import LocalDiscord


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
    again = board_message(people, thread)
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
